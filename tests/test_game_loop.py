"""The game loop's short cuts change nothing.

:func:`clashkit.game.play` skips work: it does not ask a player who has no
choice, runs a siege without choices straight through (R3.11), hands ``greedy``
a lazily built legal list, lets a policy with an ``act`` method carry out its
own choice, and does not re-check actions taken from the legal list.  Every
one of those must leave the game exactly as the plainest loop would: list the
legal actions, ask the player when there is more than one, check and apply.
"""

from __future__ import annotations

import random

import pytest
from helpers import game_outcome, varied_game

from clashkit.engine import apply, legal_actions
from clashkit.game import finish, play
from clashkit.policies import get_policy
from clashkit.state import GameState


def plain_play(state: GameState, policy_a: str, policy_b: str) -> GameState:
    """The reference loop: every decision listed, asked when there is a choice, checked."""
    policies = (get_policy(policy_a), get_policy(policy_b))
    state.return_order = lambda s, owner, cards: (
        cards if s.solo and owner == 1 else policies[owner].order_returns(s, owner, cards)
    )
    while not state.over:
        legal = legal_actions(state)
        apply(state, legal[0] if len(legal) == 1 else policies[state.active].choose(state, legal))
    finish(state)
    return state


def stepped_play(state: GameState, policy_a: str, policy_b: str, rng: random.Random) -> GameState:
    """:func:`play` a few decisions at a time, with the same two policy objects throughout."""
    policies = (get_policy(policy_a), get_policy(policy_b))
    while not state.over:
        play(state, *policies, max_steps=rng.randrange(1, 6))
    return state


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "games"),
    [("greedy", "greedy", 400), ("random", "greedy", 200), ("greedy", "random", 200), ("random", "random", 200)],
)
def test_play_gives_the_plain_loops_game(policy_a, policy_b, games):
    for seed in range(games):
        reference = game_outcome(plain_play(varied_game(seed, policy_a, policy_b), policy_a, policy_b))
        assert game_outcome(play(varied_game(seed, policy_a, policy_b), policy_a, policy_b)) == reference, seed
        checked = play(varied_game(seed, policy_a, policy_b), policy_a, policy_b, trusted=False)
        assert game_outcome(checked) == reference, seed
        stepped = stepped_play(varied_game(seed, policy_a, policy_b), policy_a, policy_b, random.Random(seed))
        assert game_outcome(stepped) == reference, seed


def test_a_subclass_that_chooses_differently_is_asked_rather_than_acting():
    """``Policy.act`` is used only together with the ``choose`` of its own class."""
    from clashkit.game import _actor
    from clashkit.policies.greedy import GreedyPolicy

    class Contrary(GreedyPolicy):
        def choose(self, state, legal):
            return legal[-1]

    assert _actor(GreedyPolicy()) is not None
    assert _actor(Contrary()) is None
    assert _actor(get_policy("search:budget=2")) is None
    assert _actor(get_policy("random")) is None
