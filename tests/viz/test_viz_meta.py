"""The deck space drawn (:mod:`clashkit.viz.meta`): each chart's data is the study's own, cell for
cell and weight for weight, checked against the study's archive, matrix and card values from a
tiny real study (R2.1 decks of eight different cards, R7.1 starter decks)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

import clashkit.viz as viz
from clashkit.base.cards import card_from_fields, starter_set
from clashkit.base.errors import OptionError
from clashkit.base.points import change_text, percent_text
from clashkit.studies.meta import meta
from clashkit.studies.meta.space import COST_STEP
from clashkit.viz import meta as vm
from clashkit.viz.rendering import to_vega

SIZES = {"evaluations": 40, "n": 10, "value_games": 2, "top": 4, "seed": 3, "jobs": 1}
#: The designer's new card of the card guide: a 3-mana 3/4 with rage and protection.
WARG = {"name": "WARG", "kind": "creature", "cost": "3", "attack": "3", "health": "4", "abilities": "rage;protection"}


@pytest.fixture(scope="module")
def study():
    return meta("greedy", **SIZES)


@pytest.fixture(scope="module")
def after():
    return meta("greedy", cards=starter_set().with_cards([card_from_fields(WARG)]), **SIZES)


def drawn(chart) -> list[dict]:
    """The rows a chart carries: its one dataset besides a reference line's."""
    datasets = [rows for rows in chart.to_dict()["datasets"].values() if rows[0].keys() != {"x"}]
    assert len(datasets) == 1
    return datasets[0]


def test_the_map_holds_one_cell_an_elite_of_the_archive(study):
    cells = vm.map_cells(study)
    elites = study.played.archive.elites
    assert cells.height == len(elites) > 1
    for row, ((column, creatures), elite) in zip(cells.iter_rows(named=True), sorted(elites.items()), strict=True):
        assert (row["cost_low"], row["cost_high"]) == (column * COST_STEP, (column + 1) * COST_STEP)
        assert row["creatures"] == creatures == study.space.creatures(elite.deck)
        assert row["cost_low"] <= row["mean_cost"] < row["cost_high"]
        assert row["fitness"] == elite.fitness and row["generation"] == elite.generation
        assert row["cards"] == ", ".join(study.space.names(elite.deck))
    # The best decks are elites, marked by their rank in the field (the text report's numbers).
    ranked = cells.filter(pl.col("rank").is_not_null()).sort("rank")
    assert ranked["rank"].to_list() == [1, 2, 3, 4]
    assert ranked["cards"].to_list() == [", ".join(cards) for cards in study.decks()["cards"]]
    # The chart draws exactly these cells; its creature axis runs 8 … 0 (R2.1).
    chart = viz.deck_map(study)
    rows = drawn(chart)
    assert [(r["cost_low"], r["creatures"], r["fitness"], r["rank"]) for r in rows] == list(
        cells.select("cost_low", "creatures", "fitness", "rank").iter_rows()
    )
    assert [r["cost_mid"] for r in rows] == [(r["cost_low"] + r["cost_high"]) / 2 for r in rows]
    spec = chart.to_dict()
    assert spec["layer"][0]["encoding"]["y"]["scale"]["domain"] == list(range(8, -1, -1))
    assert (
        f"{len(study.played.archive.tried)} decks searched, {cells.height} cells filled" in spec["title"]["subtitle"][0]
    )


def test_the_equilibrium_weights_sum_to_one_within_their_intervals(study):
    frame = vm.equilibrium_frame(study)
    decks = study.decks()
    assert frame["rank"].to_list() == [1, 2, 3, 4]
    assert math.isclose(frame["weight"].sum(), 1.0, abs_tol=1e-12)
    assert frame["weight"].to_list() == [float(study.weights[i]) for i in decks["deck"]]
    assert frame["low"].to_list() == [float(study.weights_low[i]) for i in decks["deck"]]
    assert frame["high"].to_list() == [float(study.weights_high[i]) for i in decks["deck"]]
    assert all(0 <= r["low"] <= r["high"] <= 1 for r in frame.iter_rows(named=True))
    # A label is the rank and the deck's three cards that fewest best decks hold.
    held = [card for cards in decks["cards"] for card in cards]
    for row, cards in zip(frame.iter_rows(named=True), decks["cards"], strict=True):
        rank, named = row["label"].removesuffix(" …").split(". ")
        assert int(rank) == row["rank"]
        shown = named.split(", ")
        assert len(shown) == 3 and set(shown) <= set(cards)
        assert max(held.count(c) for c in shown) <= min(held.count(c) for c in set(cards) - set(shown))
    rows = drawn(viz.equilibrium_chart(study))
    assert [(r["label"], r["weight"], r["low"], r["high"]) for r in rows] == list(
        frame.select("label", "weight", "low", "high").iter_rows()
    )


def test_the_card_values_are_the_studys_in_points(study):
    frame = vm.values_frame(study)
    assert frame.height == len(starter_set()) == 32
    assert frame["card"].to_list() == study.cards["card"].to_list()
    assert frame["value"].to_list() == sorted(frame["value"].to_list(), reverse=True)
    for row in frame.iter_rows(named=True):
        assert row["value_points"] == round(100 * row["value"], 1) + 0.0
        assert (row["low_points"], row["high_points"]) == (
            round(100 * row["low"], 1) + 0.0,
            round(100 * row["high"], 1) + 0.0,
        )
        assert row["measured_as"] == vm.MEASURED[row["measured"]]
    # Inclusion: the equilibrium weight of the best decks holding the card.
    weights = dict(zip(vm.equilibrium_frame(study)["cards"], vm.equilibrium_frame(study)["weight"], strict=True))
    for row in frame.iter_rows(named=True):
        expected = sum(w for cards, w in weights.items() if row["card"] in cards.split(", "))
        assert row["inclusion"] == pytest.approx(expected, abs=1e-12)
    rows = drawn(viz.card_values_chart(study))
    assert [(r["card"], r["value_points"], r["inclusion"]) for r in rows] == list(
        frame.select("card", "value_points", "inclusion").iter_rows()
    )


def test_each_starter_deck_is_scored_against_the_equilibrium_mixture(study):
    frame = vm.starters_frame(study)
    assert frame["deck"].to_list() == ["deck 1", "deck 2", "deck 3", "deck 4"]
    field = study.played.field
    numbers = {deck: number for number, deck in study.space.starters().items()}
    for row in frame.iter_rows(named=True):
        i = field.index(next(d for d, n in numbers.items() if row["deck"] == f"deck {n}"))
        # Its mean score against each best deck, weighted by the equilibrium; 1 − the best deck's own.
        against = [1.0 - study.played.scores[(j, i)].mean() for j in range(len(study.played.best))]
        assert row["rate"] == pytest.approx(float(np.dot(study.weights, against)), abs=1e-12)
        assert row["low"] <= row["rate"] <= row["high"]
    rows = drawn(viz.starters_chart(study))
    assert [(r["deck"], r["rate"], r["field_rate"]) for r in rows] == list(
        frame.select("deck", "rate", "field_rate").iter_rows()
    )


def test_the_report_compiles_to_vega_with_the_four_charts(study):
    report = viz.meta_report(study)
    titles = [chart.to_dict()["title"]["text"] for chart in report.vconcat]
    assert titles == [
        "The deck space: the best deck of each cell",
        "The meta-game's equilibrium among the best decks",
        "What each card is worth in the best decks",
        "The starter decks against the meta",
    ]
    assert to_vega(report.to_dict())["$schema"].endswith("vega/v5.json")


def test_the_top_decks_table_reads_like_the_report(study):
    table = viz.top_decks_table(study)
    decks = study.decks()
    assert table.columns == [
        "rank",
        "vs the field (95%)",
        "vs starters (95%)",
        "weight",
        "mean cost",
        "creatures",
        "cards",
    ]
    first = decks.row(0, named=True)
    assert table.row(0, named=True) == {
        "rank": 1,
        "vs the field (95%)": f"{percent_text(first['rate'])} ({percent_text(first['low'], sign='')}–"
        f"{percent_text(first['high'])})",
        "vs starters (95%)": f"{percent_text(first['vs_starters'])} ({percent_text(first['vs_starters_low'], sign='')}–"
        f"{percent_text(first['vs_starters_high'])})",
        "weight": f"{first['weight']:.2f}",
        "mean cost": first["mean_cost"],
        "creatures": first["creatures"],
        "cards": ", ".join(first["cards"]),
    }
    assert table["rank"].to_list() == [1, 2, 3, 4]


def test_a_new_cards_place_in_the_meta_before_and_after(study, after):
    table = viz.card_change_table(study, after, "WARG")
    rows = {r["measure"]: (r["before"], r["after"]) for r in table.iter_rows(named=True)}
    warg = after.cards.filter(pl.col("card") == "WARG").row(0, named=True)
    assert rows["WARG's value (points, 95%)"] == ("—", change_text(warg["value"], warg["low"], warg["high"]))
    assert rows["WARG's inclusion"] == ("—", f"{warg['inclusion']:.2f}")
    holding = [rank for rank, cards in enumerate(after.decks()["cards"], 1) if "WARG" in cards]
    assert rows["best decks holding WARG"][1].startswith(f"{len(holding)} of 4")
    assert rows["best deck holds WARG"] == ("—", "yes" if holding[:1] == [1] else "no")
    before_best, after_best = study.decks().row(0, named=True), after.decks().row(0, named=True)
    assert rows["best deck vs starters (95%)"][0].startswith(percent_text(before_best["vs_starters"]) + " (")
    assert rows["best deck vs starters (95%)"][1].startswith(percent_text(after_best["vs_starters"]) + " (")
    assert rows["starter decks vs the equilibrium (mean)"] == (
        percent_text(study.starters()["rate"].mean()),
        percent_text(after.starters()["rate"].mean()),
    )
    with pytest.raises(OptionError, match="'WARG' is not a card of the study after the change"):
        viz.card_change_table(after, study, "WARG")
