"""The formats a meta study searches: duel decks as they are; constructed tens banned to eights (R7.3)."""

from __future__ import annotations

import pytest

from clashkit.base.cards import starter_set
from clashkit.base.errors import OptionError
from clashkit.base.rng import Rng
from clashkit.policies import get_policy
from clashkit.runs.simulate import game_seeds
from clashkit.studies.meta import meta
from clashkit.studies.meta.formats import BUILT, BUILT_TRIES, meta_format

CARDS = starter_set()


def test_a_duel_deck_plays_as_it_is_against_the_starter_decks():
    duel = meta_format("duel")
    space = duel.space(CARDS)
    assert space.size == 8
    assert duel.gauntlet(space, "greedy", 0) == space.starters()
    assert duel.dealer(space, "greedy", 0) is None


def test_constructed_tens_lose_two_cards_each_in_the_rulebooks_order():
    constructed = meta_format("constructed")
    space = constructed.space(CARDS)
    assert space.size == 10
    rng = Rng(5)
    a, b = space.random_deck(rng), space.random_deck(rng)
    eights = constructed.dealer(space, "greedy", 0)
    played_a, played_b = eights(a, b)
    ban = get_policy("greedy").ban
    # R7.3: B bans one of A's ten, A one of B's, A a second of B's, B a second of A's.
    first_of_a = ban(CARDS, a, b, Rng(0))
    first_of_b = ban(CARDS, b, tuple(c for c in a if c != first_of_a), Rng(0))
    rest_b = tuple(c for c in b if c != first_of_b)
    second_of_b = ban(CARDS, rest_b, tuple(c for c in a if c != first_of_a), Rng(0))
    rest_a = tuple(c for c in a if c != first_of_a)
    second_of_a = ban(CARDS, rest_a, tuple(c for c in rest_b if c != second_of_b), Rng(0))
    assert set(played_a) == set(a) - {first_of_a, second_of_a}
    assert set(played_b) == set(b) - {first_of_b, second_of_b}
    assert len(played_a) == len(played_b) == 8


def test_the_constructed_gauntlet_is_the_tens_the_policy_builds():
    constructed = meta_format("constructed")
    space = constructed.space(CARDS)
    gauntlet = constructed.gauntlet(space, "greedy", 3)
    player = get_policy("greedy")
    built = []
    for seed in game_seeds(3, BUILT_TRIES):
        ten = tuple(sorted(player.choose_ten(CARDS, Rng(seed))))
        if ten not in built:
            built.append(ten)
    assert list(gauntlet.values()) == built[:BUILT]
    assert list(gauntlet) == list(range(1, len(gauntlet) + 1))


def test_a_small_constructed_study():
    study = meta("greedy", format="constructed", evaluations=12, n=2, value_games=1, top=3, search_games=2, seed=1)
    data = study.to_dict()
    assert data["format"] == "constructed"
    assert all(len(deck["cards"]) == 10 for deck in data["decks"])
    assert study.labels()[3:] == [f"built {k}" for k in study.played.gauntlet]
    assert "Repeat exactly: --format constructed --seed 1" in str(study)


def test_an_unknown_format_is_refused():
    with pytest.raises(OptionError, match="meta: format 'sealed': one of duel, constructed"):
        meta_format("sealed")
