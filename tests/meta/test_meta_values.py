"""Card values: each card out of the best decks that hold it, or into each best deck, paired."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from clashkit.base.cards import starter_set
from clashkit.base.rng import Rng
from clashkit.studies.meta.games import VALUES
from clashkit.studies.meta.space import DeckSpace
from clashkit.studies.meta.values import VALUE_COLUMNS, card_values, play_values, values_csv, variants

SPACE = DeckSpace(starter_set())
STARTERS = SPACE.starters()
BEST = [STARTERS[1], STARTERS[2]]


def test_every_card_is_compared_once_per_best_deck_that_holds_it_or_else_into_each():
    found = variants(SPACE, BEST, Rng(3))
    held = set(BEST[0]) | set(BEST[1])
    for card in range(len(SPACE.cards)):
        mine = [v for v in found if v.card == card]
        if card in held:
            assert [v.base for v in mine] == [i for i, deck in enumerate(BEST) if card in deck]
            for v in mine:
                assert v.holds and v.with_card == BEST[v.base]
                assert card not in v.without and len(set(v.without) - set(v.with_card)) == 1
        else:
            assert [v.base for v in mine] == [0, 1]
            for v in mine:
                assert not v.holds and v.without == BEST[v.base] and card in v.with_card
                assert len(set(v.with_card) - set(v.without)) == 1


def test_values_are_paired_differences_against_the_field_but_the_base():
    found = variants(SPACE, BEST, Rng(3))
    field = [*BEST, STARTERS[3], STARTERS[4]]
    plan = play_values(found, field, BEST, 5)
    matches = next(plan)
    assert {(m.phase, m.n) for m in matches} == {(VALUES, 5)}
    for m in matches:
        base = next(v for v in found if m.deck in (v.with_card, v.without)).base
        assert m.opponent != BEST[base] and m.opponent in field
    # Made-up scores: a deck scores 0.6 in every game when it holds BARON, else 0.4.
    baron = SPACE.cards.id("BARON")
    try:
        plan.send([np.full(10, 0.6 if baron in m.deck else 0.4) for m in matches])
    except StopIteration as stop:
        scores = stop.value
    inclusion = [0.0] * len(SPACE.cards)
    inclusion[baron] = 1.0
    table = card_values(SPACE, found, scores, inclusion)
    assert [*table.columns, "card_set"] == list(VALUE_COLUMNS)
    row = table.row(by_predicate=pl.col("card") == "BARON", named=True)
    # BARON is in deck 1 only: swapped out of it, 3 opponents (the field but deck 1) x 2 seats x 5 games.
    assert (row["value"], row["measured"], row["decks"], row["games"], row["inclusion"]) == (
        pytest.approx(0.2),
        "out",
        1,
        30,
        1.0,
    )
    assert row["low"] == pytest.approx(0.2 - 0.1) and row["high"] == pytest.approx(0.2 + 0.1)  # rule of three: 3/30
    other = table.row(by_predicate=pl.col("card") == "OGRE", named=True)
    assert other["value"] == 0.0 and other["measured"] == "out"
    assert table["card"][0] == "BARON"
    text = values_csv(table, SPACE.cards)
    assert text.splitlines()[0] == ",".join(VALUE_COLUMNS)
    assert text.splitlines()[1] == f"BARON,0.2000,0.1000,0.3000,1.0000,out,1,30,{SPACE.cards.digest()}"
