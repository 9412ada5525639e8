"""The game loop's short cuts change nothing.

:func:`clashkit.game.play` skips work: it does not ask a player who has no
choice, runs a siege without choices straight through (R3.11), hands ``greedy``
a lazily built legal list, lets a policy with :attr:`Policy.act` carry out its
own choice, and does not re-check actions taken from the legal list.  Every
one of those must leave the game exactly as the plainest loop would: list the
legal actions, ask the player when there is more than one, check and apply.
"""

from __future__ import annotations

import random
from array import array

import pytest

from clashkit.engine import apply, legal_actions
from clashkit.formats import new_game
from clashkit.game import finish, play
from clashkit.policies import get_policy
from clashkit.rules import Rules
from clashkit.solo_setup import solo_setup
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


def setup(seed: int, policy_a: str, policy_b: str) -> GameState:
    """A duel or a solo game with varied decks, formats and rule options (events recorded)."""
    rng = random.Random(seed)
    rules = Rules(
        incantations_in_siege=rng.random() < 0.7,
        protection=rng.choice(["first_attack", "first_damage"]),
        bloodlust_trigger=rng.choice(["primary", "any"]),
        turn_limit=rng.choice([200, 200, 24]),
    )
    if rng.random() < 0.2:
        deck = rng.choice(["1", "2", "3", "4", "draft"])
        state = solo_setup(deck, get_policy(policy_a), rules=rules, seed=seed).state
    else:
        fmt = rng.choice(["1", "2", "3", "4", "draft", "constructed"])
        other = fmt if fmt in ("draft", "constructed") else rng.choice([d for d in "1234" if d != fmt])
        state, _ = new_game(fmt, other, policy_a, policy_b, rules=rules, seed=seed)
    state.turn_log = array("h")
    return state


def outcome(state: GameState) -> tuple:
    return (
        bytes(state.log.buffer),
        bytes(state.turn_log),
        state.hands,
        state.pile,
        state.forts,
        state.winner,
        state.turn,
    )


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "games"),
    [("greedy", "greedy", 400), ("random", "greedy", 200), ("greedy", "random", 200), ("random", "random", 200)],
)
def test_play_gives_the_plain_loops_game(policy_a, policy_b, games):
    for seed in range(games):
        reference = outcome(plain_play(setup(seed, policy_a, policy_b), policy_a, policy_b))
        assert outcome(play(setup(seed, policy_a, policy_b), policy_a, policy_b)) == reference, seed
        checked = play(setup(seed, policy_a, policy_b), policy_a, policy_b, trusted=False)
        assert outcome(checked) == reference, seed
        stepped = stepped_play(setup(seed, policy_a, policy_b), policy_a, policy_b, random.Random(seed))
        assert outcome(stepped) == reference, seed


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
