"""The deck space of a duel (R2.1, R7.1): decks as sorted card ids, the moves of the search, the axes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit.base.cards import starter_set
from clashkit.base.errors import DeckError
from clashkit.base.rng import Rng
from clashkit.studies.meta.space import COST_STEP, DeckSpace

SPACE = DeckSpace(starter_set())


def test_a_starter_deck_as_a_deck_and_its_axes():
    cards = SPACE.cards
    names = cards.deck(1)
    deck = SPACE.deck(list(reversed(names)))
    assert deck == tuple(sorted(cards.ids(names)))
    assert SPACE.names(deck) == cards.sorted_names(deck)
    costs = [cards.card(name).cost for name in names]
    creatures = sum(cards.card(name).is_creature for name in names)
    assert SPACE.mean_cost(deck) == sum(costs) / 8
    assert SPACE.creatures(deck) == creatures
    assert SPACE.niche(deck) == (int(sum(costs) / 8 // COST_STEP), creatures)
    assert SPACE.starters()[1] == deck


def test_a_deck_holds_eight_different_cards():
    names = SPACE.cards.deck(1)
    with pytest.raises(DeckError, match="a deck holds 8 different cards"):
        SPACE.deck(names[:7] + names[:1])


def test_a_set_too_small_for_a_deck_is_refused():
    small = type(SPACE.cards)(list(SPACE.cards)[:8])
    with pytest.raises(DeckError, match="needs more than 8"):
        DeckSpace(small)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_moves_keep_decks_in_the_space(seed):
    rng = Rng(seed)
    first, second = SPACE.random_deck(rng), SPACE.random_deck(rng)
    for deck in (first, second):
        assert len(set(deck)) == 8 and list(deck) == sorted(deck)
    child = SPACE.mutate(first, rng)
    assert len(set(child)) == 8 and list(child) == sorted(child)
    assert len(set(first) - set(child)) in (1, 2)  # one card swapped, or two
    mixed = SPACE.cross(first, second, rng)
    assert len(set(mixed)) == 8 and set(first) & set(second) <= set(mixed) <= set(first) | set(second)
    out, into = first[0], next(c for c in range(len(SPACE.cards)) if c not in first)
    swapped = SPACE.swapped(first, out, into)
    assert set(swapped) == set(first) - {out} | {into}
