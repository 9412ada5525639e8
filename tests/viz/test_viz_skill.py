"""Balance by skill in the notebooks (:mod:`clashkit.viz.skill`): the frames behind the matrices,
the per-deck table and the charts agree with the study's own numbers, game for game."""

from __future__ import annotations

import polars as pl
import pytest

import clashkit.viz as viz
from clashkit.base.points import interval_text, percent_text, points_text
from clashkit.studies.skill import balance_by_skill

STRENGTHS = ["random", "greedy"]


@pytest.fixture(scope="module")
def skill():
    return balance_by_skill(STRENGTHS, 30, seed=4, bootstrap=50)


def test_matrices_count_both_seats_of_every_pairing(skill):
    frame = viz.skill_matrices(skill)
    assert frame.columns == ["strength", "deck", "opponent", "games", "wins", "win_rate", "low", "high"]
    assert frame["strength"].unique(maintain_order=True).to_list() == STRENGTHS
    assert frame.height == 2 * 12  # 4 decks, 3 opponents each, mirrors left out
    for strength in STRENGTHS:
        m = skill.balances[strength].matchups
        one = m.filter((pl.col("deck_a") == 1) & (pl.col("deck_b") == 3)).row(0, named=True)
        other = m.filter((pl.col("deck_a") == 3) & (pl.col("deck_b") == 1)).row(0, named=True)
        cell = frame.filter(
            (pl.col("strength") == strength) & (pl.col("deck") == "deck 1") & (pl.col("opponent") == "deck 3")
        ).row(0, named=True)
        wins = one["wins_a"] + other["wins_b"]  # deck 1 in seat A, then in seat B
        assert (cell["games"], cell["wins"]) == (60, wins)
        assert cell["win_rate"] == pytest.approx(wins / 60)
        assert cell["low"] <= cell["win_rate"] <= cell["high"]


def test_table_shows_each_strengths_rate_and_the_paired_change(skill):
    table = viz.skill_table(skill)
    assert table.columns == [
        "deck",
        "random (95% interval)",
        "greedy (95% interval)",
        "change random → greedy (points)",
        "paired 95% interval",
        "clear change",
    ]
    assert table["deck"].to_list() == ["deck 1", "deck 2", "deck 3", "deck 4"]
    for strength in STRENGTHS:
        rates = skill.balances[strength].decks.sort("deck")
        expected = [
            f"{percent_text(r['rate'])} ({percent_text(r['low'], sign='')}–{percent_text(r['high'])})"
            for r in rates.iter_rows(named=True)
        ]
        assert table[f"{strength} (95% interval)"].to_list() == expected
    changes = skill.changes.sort("deck")
    assert table["change random → greedy (points)"].to_list() == [points_text(c) for c in changes["change"]]
    assert table["paired 95% interval"].to_list() == [
        interval_text(lo, hi) for lo, hi in zip(changes["change_low"], changes["change_high"], strict=True)
    ]
    assert table["clear change"].to_list() == [
        "yes" if clear else "cannot be told from 0" for clear in changes["clear"]
    ]


def test_charts_draw_every_strength_in_order(skill):
    matrices = viz.chart_skill_matrices(skill).to_dict()
    assert matrices["facet"]["column"]["sort"] == STRENGTHS
    assert len(matrices["spec"]["layer"]) == 2  # the coloured cells and their numbers
    rates = viz.chart_skill(skill).to_dict()
    assert len(rates["layer"]) == 3  # 50%, the intervals, the rates
    assert rates["layer"][2]["encoding"]["x"]["sort"] == STRENGTHS
    drawn = viz.skill_decks(skill)
    assert drawn.height == 2 * 4
    greedy = skill.balances["greedy"].decks.sort("deck")["rate"].to_list()
    assert drawn.filter(pl.col("strength") == "greedy").sort("deck")["win_rate"].to_list() == greedy
    # every game has one winner or none: the decks' wins add up to at most the games played
    assert drawn["deck"].unique().sort().to_list() == ["deck 1", "deck 2", "deck 3", "deck 4"]
    assert (drawn["wins"] <= drawn["games"]).all() and drawn.schema["wins"] == pl.Int64


def test_correlation_sentence_is_the_command_lines(skill):
    text = skill.correlation_text()
    assert text.startswith("Rank correlation of the decks' rates, random vs greedy: Spearman ")
    assert text in str(skill)
