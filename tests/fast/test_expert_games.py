"""Differential games of ``expert``: the fast engine plays the reference engine's games.

Duels in every format, solo, rules options of R10.3 and R10.4, random card
files, positions converted with :func:`clashkit.fast.from_state`; the games
and turns frames must be equal (but for the ``engine`` column).  The
evaluation itself is compared feature by feature.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from test_differential import (
    OPTIONS,
    assert_played_out_the_same,
    assert_same,
    duel_and_solo_in_play,
    random_cards,
    random_positions,
)

from clashkit.base.cards import CardSet, starter_set
from clashkit.base.rules import Rules
from clashkit.fast import from_state, search_params
from clashkit.fast.expert import N_FEATURES
from clashkit.fast.expert import features as fast_features
from clashkit.fast.expert import value as fast_value
from clashkit.fast.search import S_MODEL, S_ROW, S_WEIGHTS
from clashkit.fast.tables import card_tables
from clashkit.policies.expert import FEATURES, ExpertPolicy, features, shipped_weights, value
from clashkit.runs.simulate import simulate

CARDS = starter_set()

# (policy A, policy B, deck A, deck B, games, seed, rules options)
DUELS = [
    ("expert", "greedy", "1", "2", 3, 1, {}),
    ("random", "expert", "3", "4", 3, 2, {}),
    ("expert:budget=3", "search:budget=2,horizon=2,fair", "2", "4", 2, 3, {}),
    ("expert", "expert", "4", "1", 2, 4, {}),
    ("expert", "greedy", "draft", "draft", 3, 5, {}),
    ("greedy", "expert", "constructed", "constructed", 3, 6, {}),
    ("expert", "greedy", "draft", "draft", 2, 7, {"first_player": "last_drafter"}),
    ("expert", "random", "1", "3", 2, 8, OPTIONS[-1]),  # every option changed
    ("expert", "greedy", "2", "1", 2, 9, {"incantations_in_siege": False}),
    ("expert", "greedy", "3", "2", 2, 10, {"siege_order": "fixed", "protection": "first_hit"}),
    ("expert", "expert:budget=2", "1", "4", 2, 11, {"turn_limit": 12}),
]


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "deck_a", "deck_b", "n", "seed", "options"),
    DUELS,
    ids=[f"{a}-vs-{b}-{da}v{db}" for a, b, da, db, *_ in DUELS],
)
def test_duels(policy_a, policy_b, deck_a, deck_b, n, seed, options):
    assert_same(n, deck_a, deck_b, policy_a, policy_b, seed, rules=Rules(**options))


SOLO = [
    ("1", None, {}),
    ("2", 3, {}),
    ("draft", None, {"ai_first": True, "ai_ability": "splash", "ai_pile_damage": "minus_one"}),
    ("4", None, {"ai_starts_as_fort": True, "ai_fixed_mana": 9}),
]


@pytest.mark.parametrize(("deck", "level", "solo_settings"), SOLO)
def test_solo(deck, level, solo_settings):
    """The expert as the solo player; its hidden slots are the AI pile (R8.1)."""
    rules = Rules(ai_last_turn="current", ai_incantation_side="either")
    assert_same(
        2,
        deck,
        None,
        "expert",
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
    rng = random.Random(200 + which)
    cards = random_cards(rng)
    names = list(cards.names)
    deck_a, deck_b = sorted(rng.sample(names, 8), key=cards.id), sorted(rng.sample(names, 8), key=cards.id)
    rules = Rules(**OPTIONS[(3 * which) % len(OPTIONS)])
    assert_same(2, deck_a, deck_b, "expert", "greedy", which, cards=cards, rules=rules)
    assert_same(2, deck_a, deck_b, "random", "expert", which, cards=cards, rules=rules)


def test_positions_from_state_play_out_the_same():
    checked = 0
    for k, state in random_positions(9, 30):
        policies = [("expert", "greedy"), ("greedy", "expert"), ("expert", "expert:budget=2")][k % 3]
        assert_played_out_the_same(state, *policies)
        checked += 1
    assert checked >= 20


def test_a_position_has_the_same_features_and_value():
    state, solo = duel_and_solo_in_play()
    weights = np.array([0.0] * S_WEIGHTS + list(shipped_weights()))
    out = np.zeros(N_FEATURES, np.int64)
    assert N_FEATURES == len(FEATURES)
    for position in (state, solo):
        s, t = from_state(position), card_tables(position.cards)
        for p in (0, 1):
            fast_features(s, t, p, out)
            assert out.tolist() == features(position, p)
            assert fast_value(s, t, p, weights, S_WEIGHTS, out) == value(position, p, shipped_weights())


def test_expert_params():
    params = search_params(["greedy", "expert", "expert:budget=5"])
    assert params.shape == (3, S_ROW)
    assert params[1, :S_WEIGHTS].tolist() == [64.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert params[2, :S_WEIGHTS].tolist() == [5.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert params[1, S_WEIGHTS:S_MODEL].tolist() == list(ExpertPolicy().weights)
    assert not params[1:, S_MODEL:].any()  # no model of the opponent: only deep has one
    assert not params[0].any()


def shifted_cards(cards: CardSet = CARDS) -> CardSet:
    """``cards`` (the shipped set) with every value moved: creatures alternately tougher and
    cheaper, or harder-hitting, frailer and dearer; incantations one mana dearer
    (``benchmarks/unseen_sets.py`` plays it too)."""
    out = []
    for i, c in enumerate(cards):
        if c.is_creature and i % 2:
            c = replace(c, health=c.health + 1, cost=max(0, c.cost - 1))
        elif c.is_creature:
            c = replace(c, attack=c.attack + 1, health=max(1, c.health - 1), cost=c.cost + 1)
        else:
            c = replace(c, cost=c.cost + 1)
        out.append(c)
    return CardSet(out)


def dealt_random_cards(seed: int) -> CardSet:
    """A random card file of 32 cards in four decks of eight (R7.1; ``benchmarks/unseen_sets.py``
    plays it too)."""
    cards = random_cards(random.Random(seed), n=32)
    return CardSet([replace(c, deck=1 + i // 8) for i, c in enumerate(cards)])


@pytest.mark.parametrize("which", ["shifted", "random"])
def test_it_beats_greedy_on_card_sets_it_was_not_fitted_on(which):
    """Both seats, four deck pairings, 20 games each: the expert wins clearly more than half."""
    cards = shifted_cards() if which == "shifted" else dealt_random_cards(501)
    won = games = 0
    for a, b in (("1", "2"), ("3", "4"), ("2", "3"), ("4", "1")):
        for seat, (pa, pb) in enumerate((("expert", "greedy"), ("greedy", "expert"))):
            run = simulate(20, a, b, pa, pb, seed=7, cards=cards, engine="fast", record_events=False, progress=False)
            winners = run.games["winner"].to_list()
            won += sum(1 for w in winners if w == "AB"[seat])
            games += len(winners)
    assert games == 160
    assert won / games > 0.65
