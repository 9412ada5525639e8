"""One game loop: stepping through a game and playing it at once give the same game.

:func:`clashkit.runs.game.play` asks a player only when there is a choice and
runs a siege without choices straight through (R3.11); played a few steps at a
time (``max_steps``), checking every decision (``trusted=False``), or by hand
with the engine's one entry point, the game must be the same.
"""

from __future__ import annotations

import random

import pytest
from helpers import game_outcome, varied_game
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit.engine import apply
from clashkit.engine.legality import has_choice, legal_actions, legal_cards, legal_plays, proceed_action
from clashkit.engine.state import GameState
from clashkit.policies import get_policy
from clashkit.runs.game import finish, play


def by_hand(state: GameState, policy_a: str, policy_b: str) -> GameState:
    """Every step listed, asked when there is a choice, checked and applied by hand."""
    policies = (get_policy(policy_a), get_policy(policy_b))

    def order_returns(s, owner, cards):
        return cards if s.solo and owner == 1 else policies[owner].order_returns(s, owner, cards)

    while not state.over:
        legal = legal_actions(state)
        action = policies[state.active].decide(state) if len(legal) > 1 else legal[0]
        assert action in legal
        apply(state, action, order_returns)
    finish(state)
    return state


def stepped_play(state: GameState, policy_a: str, policy_b: str, rng: random.Random) -> GameState:
    """:func:`play` a few steps at a time, with the same two policy objects throughout."""
    policies = (get_policy(policy_a), get_policy(policy_b))
    while not state.over:
        play(state, *policies, max_steps=rng.randrange(1, 6))
    return state


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "games"),
    [("greedy", "greedy", 150), ("random", "greedy", 80), ("greedy", "random", 80), ("random", "random", 80)],
)
def test_stepping_and_play_give_the_same_game(policy_a, policy_b, games):
    for seed in range(games):
        played = game_outcome(play(varied_game(seed, policy_a, policy_b), policy_a, policy_b))
        stepped = stepped_play(varied_game(seed, policy_a, policy_b), policy_a, policy_b, random.Random(seed))
        assert game_outcome(stepped) == played, seed
        assert game_outcome(by_hand(varied_game(seed, policy_a, policy_b), policy_a, policy_b)) == played, seed
        checked = play(varied_game(seed, policy_a, policy_b), policy_a, policy_b, trusted=False)
        assert game_outcome(checked) == played, seed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), policy=st.sampled_from(["random", "greedy"]), steps=st.integers(0, 400))
def test_has_choice_is_more_than_one_legal_action(seed, policy, steps):
    """The legality kernel's views agree at every point of random playthroughs."""
    state = varied_game(seed, policy, "random")
    policies = (get_policy(policy), get_policy("random"))
    for _ in range(steps):
        if state.over:
            break
        legal = legal_actions(state)
        assert has_choice(state) == (len(legal) > 1)
        assert legal[:-1] == list(legal_plays(state))
        assert legal[-1] == proceed_action(state)
        # Every legal card gives at least one play, and every play comes from a legal card, in hand order.
        indices = [a.index for a in legal[:-1]]
        assert indices == sorted(indices)
        assert sorted(set(indices)) == [i for i, _ in legal_cards(state)]
        play(state, *policies, max_steps=1)
    if state.over:
        assert legal_actions(state) == [] and not has_choice(state)
