"""Balance by skill in the notebooks (:mod:`clashkit.viz.skill`): the frames behind the matrices,
the per-deck table and the charts agree with the study's own numbers, game for game."""

from __future__ import annotations

import polars as pl
import pytest

import clashkit.viz as viz
from clashkit.base.points import interval_text, percent_text, points_text
from clashkit.studies.ladder import read_ratings
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


def test_the_curve_puts_each_strength_at_its_elo_on_the_bots_ladder(skill):
    """x: the strength's Elo (read from the ladder's ratings file), y: the rate, a line and a
    95% band per deck, the dashed 50% line first."""
    spec = viz.chart_skill(skill).to_dict()
    half, bands, lines = spec["layer"]
    assert half["mark"]["type"] == "rule" and half["encoding"] == {"y": {"field": "y", "type": "quantitative"}}
    assert half["mark"]["strokeDash"] == [4, 3]
    assert spec["datasets"][half["data"]["name"]] == [{"y": 0.5}]
    assert bands["mark"]["type"] == "area"
    assert {k: bands["encoding"][k]["field"] for k in ("x", "y", "y2", "color")} == {
        "x": "elo",
        "y": "low",
        "y2": "high",
        "color": "deck",
    }
    assert lines["mark"]["type"] == "line" and lines["mark"]["point"]["filled"] is True
    assert {k: lines["encoding"][k]["field"] for k in ("x", "y", "color")} == {
        "x": "elo",
        "y": "win_rate",
        "color": "deck",
    }
    assert lines["encoding"]["x"]["type"] == "quantitative"
    shipped = read_ratings()
    elo = {p: shipped.elo(p)["elo"] for p in STRENGTHS}
    assert lines["encoding"]["x"]["axis"]["values"] == [elo[p] for p in STRENGTHS]
    drawn = spec["datasets"][spec["data"]["name"]] if "data" in spec else spec["datasets"][lines["data"]["name"]]
    assert len(drawn) == 2 * 4
    for row in drawn:
        deck = int(row["deck"].removeprefix("deck "))
        expected = skill.balances[row["strength"]].decks.filter(deck=deck).row(0, named=True)
        assert (row["elo"], row["win_rate"], row["low"], row["high"]) == (
            elo[row["strength"]],
            expected["rate"],
            expected["low"],
            expected["high"],
        )
    assert spec["title"]["subtitle"][0] == f"random {elo['random']:.0f}, greedy {elo['greedy']:.0f} (Elo)"


def test_a_strength_the_ladder_did_not_rate_is_left_out_and_named(tmp_path):
    search = "search:budget=1,horizon=1,noise=0"
    result = balance_by_skill(["greedy", search], 1, seed=4, bootstrap=5)
    assert viz.skill_strengths(result).rows() == [
        ("greedy", *read_ratings().elo("greedy").values()),
        (search,) + (None,) * 3,
    ]
    spec = viz.chart_skill(result).to_dict()
    lines = spec["layer"][2]
    drawn = spec["datasets"][lines["data"]["name"]] if "data" in lines else spec["datasets"][spec["data"]["name"]]
    assert {row["strength"] for row in drawn} == {"greedy"}
    assert spec["title"]["subtitle"][-1] == f"not rated on the ladder, left out: {search}"
    # With no rated strength at all the strengths are spaced evenly, in the order given.
    file = tmp_path / "other.json"
    file.write_text(
        '{"command": "clashkit ladder --policies a,b", "commit": "x", "date": "d", "ratings": []}', encoding="utf-8"
    )
    unrated = balance_by_skill(["greedy", search], 1, seed=4, bootstrap=5, ratings=file)
    x = viz.chart_skill(unrated).to_dict()["layer"][2]["encoding"]["x"]
    assert (x["field"], x["type"], x["sort"]) == ("strength", "nominal", ["greedy", search])
