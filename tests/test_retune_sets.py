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


# --- benchmarks/retune_screen.py: one round of the search at three strengths ---------------------

import retune_screen  # noqa: E402


def test_the_screen_keeps_the_tuners_candidates_that_move_their_deck_the_way_asked():
    from clashkit.studies.design.changes import direction

    cards = starter_set()
    pool = retune_screen.screened([], {4: -1, 2: 1}, ["cost", "attack", "health"], [], True)
    assert pool and all(cards.card(c.card).deck in (2, 4) for c in pool)
    assert all(direction(c) == (-1 if cards.card(c.card).deck == 4 else 1) for c in pool)
    assert {str(c) for c in pool} >= {"CYCLONE cost 3 → 4", "OGRE cost 3 → 2", "ZOMBIE attack 2 → 1"}
    # a change of what a card does only for the cards named, with --numbers-only
    named = retune_screen.screened([], {4: -1}, ["cost", "effect", "target"], ["CYCLONE"], True)
    texts = [c for c in named if not isinstance(c.new, int)]
    assert texts and {c.card for c in texts} == {"CYCLONE"}


def test_the_screen_starts_from_changes_made_first():
    start = [retune_screen.parse_change("CYCLONE cost 3 2")]
    assert start[0].old == 3 and start[0].new == 2
    pool = retune_screen.screened(start, {4: -1}, ["cost"], [], True)
    assert "CYCLONE cost 2 → 3" not in {str(c) for c in pool}  # a field changed once
    assert retune_screen.parse_toward("4=-1,2=+1") == {4: -1, 2: 1}


def test_the_screen_plays_every_strength_and_prints_its_table(capsys):
    assert (
        retune_screen.main(
            ["--toward", "4=-1", "--numbers-only", "-n", "2", "--deep-n", "1"] + ["--limit", "1", "--jobs", "1"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.count("\n| ") >= 3 and "| start |" in out and "- deck 4:" in out
    result = retune_screen.measure((), 2, 1, 4401)
    assert set(result) == set(retune.STRENGTHS) and len(result["deep"]["pairs"]) == 12


def test_a_miss_is_the_points_beyond_each_target():
    # decks 45–55%, ordered pairings 35–65%, the first player at most 58% (greedy) or 56% (the others)
    assert retune.misses([50.0, 56.0, 44.5, 50.0], [30.0, 66.0], 59.0, "greedy") == (1.0, 5.0, 1.0)
    assert retune.misses([45.0, 55.0], [35.0, 65.0], 56.0, "deep") == (0.0, 0.0, 0.0)
    assert retune.misses([50.0], [50.0], 57.0, "expert") == (0.0, 0.0, 1.0)
    assert retune_screen.excess({"deep": {"decks": [50.0], "pairs": [20.0], "first": 50.0}}) == 5.0
