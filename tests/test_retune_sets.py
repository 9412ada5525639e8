"""``benchmarks/retune.py``: the sets the balance guide's retune table compares are changes to the
card file as it is, and its measurement is the balance study's own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from clashkit.base.cards import starter_set
from clashkit.studies.design import balance
from clashkit.studies.design.changes import apply_changes
from clashkit.studies.design.variants import field_value

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import retune  # noqa: E402


@pytest.mark.parametrize("label", list(retune.SETS))
def test_every_set_changes_the_shipped_card_file_from_its_values(label):
    """A change's ``old`` is the shipped value: a stale table (data/cards.csv edited, the sets
    not) fails here, not in a figure that silently measures something else."""
    cards = starter_set()
    for change in retune.SETS[label]:
        assert field_value(cards.card(change.card), change.field) == change.old, str(change)
    changed = apply_changes(cards, retune.SETS[label])
    for change in retune.SETS[label]:
        assert field_value(changed.card(change.card), change.field) == change.new


def test_the_shipped_row_is_the_balance_study():
    assert retune.SETS["shipped"] == ()
    got = retune.measure("shipped", "greedy", 20, 5)
    played = balance(20, policy="greedy", seed=5)
    assert got["decks"] == [100 * r for r in played.decks["rate"].to_list()]
    (a, b), rate = got["pairing"]
    rates = dict(zip(played.matchups.select("deck_a", "deck_b").rows(), played.a_rates, strict=True))
    assert rates[a, b] * 100 == rate
    assert abs(rate - 50) == max(abs(100 * r - 50) for r in rates.values())


def test_the_before_set_is_the_set_the_retune_started_from():
    before = apply_changes(starter_set(), retune.SETS["before (CYCLONE 2 mana, CARAPACE 2 mana)"])
    assert before.card("CYCLONE").cost == 2 and before.card("CARAPACE").cost == 2
