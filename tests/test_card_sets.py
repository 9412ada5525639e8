"""The card sets ``expert`` is fitted and checked on (``clashkit.studies.card_sets``): drawn from
the fitting set by kind and seed, the same every time, valid card files, R7.1, R9.1 and R9.2 kept."""

from __future__ import annotations

import pytest

from clashkit.base.cards import CardSet, load_cards
from clashkit.base.errors import OptionError
from clashkit.base.limits import LIMITS
from clashkit.base.vocab import Ability, Direction
from clashkit.studies.card_sets import KINDS, NEW_CARD, draw, draws, fit_set, lacking

FIT = fit_set()
#: R9.1: the six incantations of the rulebook's names.
INCANTATIONS = {"ANNIHILATION", "BOOM!", "COMBUSTION", "METEORITE", "VORTEX", "CYCLONE"}


def test_the_fit_kind_is_the_frozen_fitting_set_not_the_shipped_one():
    assert draw("fit").cards is FIT
    assert FIT.source is not None and FIT.source.name == "expert-fit-cards.csv"


@pytest.mark.parametrize("kind", KINDS)
def test_a_seed_gives_the_same_set_and_another_seed_another(kind):
    one, two, other = draw(kind, 7).cards, draw(kind, 7).cards, draw(kind, 8).cards
    assert list(one) == list(two)
    assert (list(one) == list(other)) == (kind == "fit")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_names_decks_and_kinds_are_the_rulebooks(kind, seed):
    """R7.1: four starter decks of eight, in the fitting set's order; R9.1: six incantations."""
    cards = draw(kind, seed).cards
    assert len(cards) == 32
    assert {n: len(d) for n, d in cards.decks.items()} == {1: 8, 2: 8, 3: 8, 4: 8}
    assert {c.name for c in cards if not c.is_creature} == INCANTATIONS
    if kind != "designer":
        assert cards.names == FIT.names
        assert cards.decks == FIT.decks


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_set_is_a_card_file_that_loads_back_as_itself(kind, seed, tmp_path):
    cards = draw(kind, seed).cards
    again = load_cards(cards.to_csv(tmp_path / "cards.csv"))
    assert list(again) == list(cards)


@pytest.mark.parametrize("seed", range(1, 9))
def test_moved_moves_every_value_by_one_or_two_within_the_limits(seed):
    moved = draw("moved", seed).cards
    for old, new in zip(FIT, moved, strict=True):
        fields = ["cost", "attack", "health"] if old.is_creature else ["cost"] + (["amount"] if old.amount else [])
        for field in fields:
            before, after = getattr(old, field), getattr(new, field)
            assert abs(after - before) in (1, 2), (old.name, field)
            assert LIMITS[field].low <= after <= LIMITS[field].high
        assert (new.abilities, new.aura, new.effect, new.grants, new.target) == (
            old.abilities,
            old.aura,
            old.effect,
            old.grants,
            old.target,
        )


@pytest.mark.parametrize("kind", ["fit", "moved", "random"])
@pytest.mark.parametrize("seed", range(1, 13))
def test_every_ability_and_aura_direction_is_in_the_set(kind, seed):
    """R9.2, also where a random draw left one out (lacking() is filled in)."""
    assert lacking(draw(kind, seed).cards) == []


def test_lacking_names_what_is_missing():
    no_sprint = [c for c in FIT if not (c.is_creature and Ability.SPRINT in c.abilities)]
    assert lacking(CardSet(no_sprint)) == ["sprint"]
    no_side = [c for c in FIT if not (c.aura is not None and Direction.SIDE in c.aura.directions)]
    assert lacking(CardSet(no_side)) == ["aura side"]


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_designer_set_puts_one_new_creature_in_the_place_of_one_card(seed):
    drawn = draw("designer", seed)
    cards = drawn.cards
    place = FIT.id(drawn.replaced)
    assert cards.names[place] == NEW_CARD == drawn.new_card
    assert cards[place].is_creature and cards[place].deck == drawn.deck == FIT[place].deck
    assert [c for i, c in enumerate(cards) if i != place] == [c for i, c in enumerate(FIT) if i != place]
    assert drawn.label.startswith(f"designer {seed} ({NEW_CARD} ")


def test_draws_lists_the_fit_set_once_then_each_kind_seed_by_seed():
    drawn = draws(KINDS, [5, 6])
    assert [(d.kind, d.seed) for d in drawn] == [
        ("fit", 0),
        ("moved", 5),
        ("random", 5),
        ("designer", 5),
        ("moved", 6),
        ("random", 6),
        ("designer", 6),
    ]


def test_an_unknown_kind_is_refused():
    with pytest.raises(OptionError, match="one of fit, moved, random, designer"):
        draw("shuffled", 1)
