"""Differential games of ``deep``: the fast engine plays the reference engine's games.

Duels in every format, solo, rules options, random card files, both leaves and
both models of the opponent, positions converted with
:func:`clashkit.fast.from_state`; the games, turns and events frames must be
equal (but for the ``engine`` column).  ``deep`` in the reference engine is slow
(every look-ahead plays the opponent's turn with expert's own search), so the
games are few and most budgets small.
"""

from __future__ import annotations

import random

import pytest
from test_differential import OPTIONS, assert_played_out_the_same, assert_same, random_cards, random_positions

from clashkit.base.rules import Rules
from clashkit.fast import search_params
from clashkit.fast.search import S_MODEL, S_ROW, S_WEIGHTS, S_WIDTH
from clashkit.policies.expert import shipped_weights

# (policy A, policy B, deck A, deck B, games, seed, rules options)
DUELS = [
    ("deep:budget=3", "greedy", "1", "2", 2, 1, {}),
    ("expert", "deep", "3", "4", 1, 2, {}),
    ("deep:budget=1,leaf=plain", "search:budget=2,fair", "2", "4", 1, 3, {}),
    ("deep:budget=3,model=greedy", "random", "4", "1", 2, 4, {}),
    ("deep:budget=1,leaf=plain,model=greedy", "deep:budget=1", "1", "3", 1, 5, {}),
    ("deep:budget=1", "greedy", "draft", "draft", 2, 6, {}),
    ("greedy", "deep:budget=1", "constructed", "constructed", 1, 7, {}),
    ("deep:budget=1", "expert", "2", "3", 1, 8, OPTIONS[-1]),  # every option changed
    ("deep:budget=1", "greedy", "3", "1", 1, 9, {"incantations_in_siege": False, "siege_order": "fixed"}),
    ("deep:budget=3", "greedy", "4", "2", 1, 10, {"turn_limit": 6}),
]


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "deck_a", "deck_b", "n", "seed", "options"),
    DUELS,
    ids=[f"{a}-vs-{b}-{da}v{db}" for a, b, da, db, *_ in DUELS],
)
def test_duels(policy_a, policy_b, deck_a, deck_b, n, seed, options):
    assert_same(n, deck_a, deck_b, policy_a, policy_b, seed, rules=Rules(**options))


def test_solo():
    """``deep`` as the solo player: its hidden slots are the AI pile (R8.1); the AI makes no choice."""
    assert_same(1, "2", None, "deep:budget=1", None, 21, mode="solo", level=3)


def test_a_random_card_file():
    rng = random.Random(301)
    cards = random_cards(rng)
    names = list(cards.names)
    deck_a, deck_b = sorted(rng.sample(names, 8), key=cards.id), sorted(rng.sample(names, 8), key=cards.id)
    assert_same(1, deck_a, deck_b, "deep:budget=1", "greedy", 3, cards=cards, rules=Rules(**OPTIONS[2]))


def test_positions_from_state_play_out_the_same():
    checked = 0
    for k, state in random_positions(13, 8):
        policies = [("deep:budget=1", "greedy"), ("greedy", "deep:budget=1,model=greedy")][k % 2]
        assert_played_out_the_same(state, *policies)
        checked += 1
    assert checked >= 5


def test_deep_params():
    params = search_params(["greedy", "deep", "deep:budget=3,leaf=plain,model=greedy"])
    assert params.shape == (3, S_ROW) and S_MODEL == S_WIDTH
    assert params[1, :S_WEIGHTS].tolist() == [2.0, 2.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert params[1, S_WEIGHTS:S_MODEL].tolist() == list(shipped_weights())
    # the model: expert reading the whole state, every candidate, one turn
    assert params[1, S_MODEL : S_MODEL + S_WEIGHTS].tolist() == [64.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert params[1, S_MODEL + S_WEIGHTS :].tolist() == list(shipped_weights())
    assert params[2, :S_WEIGHTS].tolist() == [3.0, 2.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    assert not params[2, S_MODEL:].any()  # greedy as the model
    assert not params[0].any()
