"""Differential games of ``search``: the fast engine's rollouts give the reference engine's games.

Plain and fair search (R1.7), budgets 1, 2, 4 and 8, short horizons and the
default one, noise 0, 0.1 and 0.5, against greedy, random and search, in
every duel format and in solo, under rules options of R10.3 and R10.4, on
random card files, and from reference positions converted with
:func:`clashkit.fast.from_state`.  The games and turns frames must be equal
(but for the ``engine`` column): every draw of both engines' generators and
every float score adds up the same.  The reference search is slow, so each
case plays few games with small budgets; the ``long`` marker plays more.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import (
    OPTIONS,
    assert_played_out_the_same,
    assert_same,
    duel_and_solo_in_play,
    random_cards,
    random_positions,
)

from clashkit.base.rules import Rules
from clashkit.fast import from_state, search_params
from clashkit.fast.search import evaluate as fast_evaluate
from clashkit.fast.search import life as fast_life
from clashkit.policies.search import evaluate, life

# (policy A, policy B, deck A, deck B, games, seed, rules options)
DUELS = [
    ("search:budget=1", "greedy", "1", "2", 2, 1, {}),  # the default horizon (16) and noise (0.1)
    ("search:budget=2,noise=0", "random", "3", "4", 2, 2, {}),
    ("search:budget=4,horizon=3,noise=0.1", "greedy", "2", "4", 4, 3, {}),
    ("search:budget=8,horizon=2,noise=0.5", "random", "4", "1", 3, 4, {}),
    ("search:budget=8,horizon=2,noise=0.5,fair", "greedy", "1", "3", 3, 5, {}),
    ("search:budget=4,horizon=3,fair", "search:budget=2,horizon=2", "2", "3", 2, 6, {}),
    ("greedy", "search:budget=4,horizon=2,noise=0,fair", "3", "1", 3, 7, {}),
    ("random", "search:budget=2,horizon=4", "4", "2", 4, 8, {}),
    ("search:budget=4,horizon=2,fair", "greedy", "draft", "draft", 3, 9, {}),
    ("search:budget=4,horizon=2", "random", "constructed", "constructed", 3, 10, {}),
    ("search:budget=2,horizon=3,fair", "greedy", "draft", "draft", 3, 11, {"first_player": "last_drafter"}),
    ("search:budget=4,horizon=2,noise=0.5", "greedy", "1", "2", 3, 12, OPTIONS[-1]),  # every option changed
    ("search:budget=4,horizon=2,fair", "greedy", "2", "1", 3, 13, {"incantations_in_siege": False}),
    ("search:budget=8,horizon=2", "greedy", "3", "4", 3, 14, {"siege_order": "fixed", "protection": "first_hit"}),
    ("search:budget=2,horizon=3", "search:budget=2,horizon=3", "1", "4", 2, 15, {"turn_limit": 12}),
]


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "deck_a", "deck_b", "n", "seed", "options"),
    DUELS,
    ids=[f"{a}-vs-{b}-{da}v{db}" for a, b, da, db, *_ in DUELS],
)
def test_duels(policy_a, policy_b, deck_a, deck_b, n, seed, options):
    assert_same(n, deck_a, deck_b, policy_a, policy_b, seed, rules=Rules(**options))


SOLO = [
    ("search:budget=4,horizon=3", "1", None, {}),
    ("search:budget=4,horizon=3,fair", "1", 3, {}),
    (
        "search:budget=8,horizon=2,noise=0.5,fair",
        "draft",
        None,
        {"ai_first": True, "ai_ability": "splash", "ai_pile_damage": "minus_one"},
    ),
    ("search:budget=2,horizon=4,fair", "2", None, {"ai_starts_as_fort": True, "ai_fixed_mana": 9}),
]


@pytest.mark.parametrize(("policy", "deck", "level", "solo_settings"), SOLO)
def test_solo(policy, deck, level, solo_settings):
    """Search as the solo player; fair search's hidden slots are the AI pile (R8.1)."""
    rules = Rules(ai_last_turn="current", ai_incantation_side="either")
    assert_same(
        3,
        deck,
        None,
        policy,
        None,
        21,
        mode="solo",
        level=level,
        settings=solo_settings or None,
        free_settings=True,
        rules=rules,
    )


@pytest.mark.parametrize("which", range(4))
def test_random_card_files(which):
    rng = random.Random(100 + which)
    cards = random_cards(rng)
    names = list(cards.names)
    deck_a, deck_b = sorted(rng.sample(names, 8), key=cards.id), sorted(rng.sample(names, 8), key=cards.id)
    rules = Rules(**OPTIONS[(3 * which) % len(OPTIONS)])
    fair = ",fair" if which % 2 else ""
    assert_same(3, deck_a, deck_b, f"search:budget=4,horizon=2{fair}", "greedy", which, cards=cards, rules=rules)
    assert_same(
        2, deck_a, deck_b, "random", f"search:budget=8,horizon=2,noise=0.5{fair}", which, cards=cards, rules=rules
    )


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    budget=st.integers(1, 8),
    horizon=st.integers(1, 4),
    noise=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
    fair=st.booleans(),
    decks=st.sampled_from([("1", "2"), ("3", "4"), ("4", "2"), ("draft", "draft")]),
    seed=st.integers(0, 2**32),
)
def test_any_options(budget, horizon, noise, fair, decks, seed):
    spec = f"search:budget={budget},horizon={horizon},noise={noise}" + (",fair" if fair else "")
    assert_same(1, *decks, spec, "greedy", seed)


def test_positions_from_state_play_out_the_same():
    """A reference position converted (``fast.from_state``) and played out with search ends as the
    reference does; the fair player starts with nothing seen, as a fresh policy."""
    checked = 0
    for k, state in random_positions(8, 40):
        policies = [
            ("search:budget=4,horizon=2", "greedy"),
            ("greedy", "search:budget=3,horizon=3,fair"),
            ("search:budget=2,horizon=2,noise=0.5,fair", "search:budget=2,horizon=2"),
        ][k % 3]
        assert_played_out_the_same(state, *policies)
        checked += 1
    assert checked >= 25


def test_a_position_evaluates_the_same():
    """``life`` and ``evaluate`` (the score of a rollout at its horizon) in both engines, duel and solo."""
    state, solo = duel_and_solo_in_play()
    for position in (state, solo):
        s = from_state(position)
        for p in (0, 1):
            assert fast_life(s, p) == life(position, p)
            assert fast_evaluate(s, p) == evaluate(position, p)


def test_search_params():
    from clashkit.fast import FAST_POLICIES
    from clashkit.fast.search import S_EXPERT, S_ROW, SEARCH
    from clashkit.fast.state import GREEDY, RANDOM

    assert FAST_POLICIES == {"random": RANDOM, "greedy": GREEDY, "search": SEARCH, "expert": SEARCH, "deep": SEARCH}
    params = search_params(["greedy", "search:budget=8,horizon=3,noise=0.5,fair"])
    assert params.shape == (2, S_ROW) and not params[:, S_EXPERT:].any()
    assert params[:, :S_EXPERT].tolist() == [[0.0, 0.0, 0.0, 0.0], [8.0, 3.0, 0.5, 1.0]]
    assert search_params(["search"])[0, :S_EXPERT].tolist() == [16.0, 16.0, 0.1, 0.0]


@pytest.mark.long
def test_many_search_games():
    """``make test-long``: more games of each kind above."""
    for k, (policy_a, policy_b, deck_a, deck_b, _, seed, options) in enumerate(DUELS):
        assert_same(12, deck_a, deck_b, policy_a, policy_b, 1000 + seed, rules=Rules(**options))
        assert_same(12, deck_b, deck_a, policy_b, policy_a, 2000 + k)
    for policy, deck, level, solo_settings in SOLO:
        assert_same(
            12,
            deck,
            None,
            policy,
            None,
            3000,
            mode="solo",
            level=level,
            settings=solo_settings or None,
            free_settings=True,
        )
