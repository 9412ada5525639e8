"""What the card designer and notebook 06 show a person: one matrix of paired changes (points,
intervals, the "cannot be told from 0" mark, a diverging colour centred on 0), results cleared
on undo, the tuner's "nothing proposed" in words, readable card-stats, saving outside the
repository."""

from __future__ import annotations

import polars as pl
import pytest
from helpers import buttons

from clashkit.base.cards import load_cards
from clashkit.viz import widgets as views
from clashkit.viz.controllers import CardDesigner
from clashkit.viz.paired import NEGATIVE, POSITIVE, ZERO, change_colour, chart_paired_changes, paired_matrix_html


@pytest.fixture(scope="module")
def designer():
    d = CardDesigner(games_per_pairing=20, policy="random", engine="reference", seed=3)
    d.edit("OGRE", attack=9)
    d.run(progress=False)
    return d


def test_each_cell_has_its_paired_change_and_they_add_up_to_the_deck_s(designer):
    cells = designer.paired_matrix()
    assert cells.height == 12 and set(cells["deck"]) == {1, 2, 3, 4}
    assert ((cells["change_low"] <= cells["change"]) & (cells["change"] <= cells["change_high"])).all()
    assert ((cells["after"] - cells["before"] - cells["change"]).abs() < 1e-12).all()
    # A deck's change is the mean of its cells' (each cell holds the same games, both seats).
    decks = designer.result.table()
    mean = cells.group_by("deck").agg(pl.col("change").mean()).sort("deck")["change"]
    assert (mean - decks["change"]).abs().max() < 1e-12
    # Deck 2 holds OGRE: its cell against deck 1 gains what deck 1's against it loses.
    row = {(r["deck"], r["opponent"]): r["change"] for r in cells.iter_rows(named=True)}
    assert row[2, 1] == pytest.approx(-row[1, 2])


def test_the_matrix_shows_points_intervals_the_mark_and_colours(designer):
    cells, decks = designer.paired_matrix(), designer.result.table()
    html = paired_matrix_html(cells, decks, caption="x")
    assert html.count('class="ck-cell') == 12 + 4  # the cells and each deck's own change
    first = cells.row(0, named=True)
    from clashkit.base.points import interval_text, points_text

    assert points_text(first["change"]) in html and interval_text(first["change_low"], first["change_high"]) in html
    unclear = cells.filter(~pl.col("clear")).height + decks.filter(~pl.col("clear")).height
    assert html.count("ck-not-clear") == unclear
    assert "vs deck 4" in html and "the deck overall" in html and "-0.0" not in html
    assert change_colour(0.0) == ZERO and change_colour(1.0) == POSITIVE and change_colour(-1.0) == NEGATIVE
    assert change_colour(0.03) not in (ZERO, POSITIVE)  # half way at 3 of the 6 points of the scale


def test_the_chart_draws_changes_in_points_centred_on_0(designer):
    spec = chart_paired_changes(designer.paired_matrix(), designer.result.table()).to_dict()
    data = next(d for d in spec["datasets"].values() if "against" in d[0])
    assert {row["against"] for row in data} == {"all opponents", "vs deck 1", "vs deck 2", "vs deck 3", "vs deck 4"}
    changes = [row["change"] for row in data]
    assert max(abs(c) for c in changes) > 1  # points, not rate units
    layer = spec["layer"][1]["encoding"]["x"]
    low, high = layer["scale"]["domain"]
    assert low == -high and "points" in layer["title"]


def test_each_point_of_the_chart_is_named_by_its_opponent(designer):
    """A static page has no tooltip: each point's opponent is written beside its interval."""
    spec = chart_paired_changes(designer.paired_matrix(), designer.result.table()).to_dict()
    (names,) = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert names["encoding"]["text"] == {"field": "against", "type": "nominal"}
    assert names["encoding"]["x"]["field"] == "change_high" and names["mark"]["align"] == "left"
    assert names["encoding"]["yOffset"]["field"] == "against"  # on its point's row


def test_the_view_shows_one_matrix_and_undo_clears_the_results(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASHKIT_HOME", str(tmp_path / "home"))
    view = views.card_designer(CardDesigner(games_per_pairing=2, policy="random", engine="reference"))
    b = buttons(view.widget)
    view.which.value = "OGRE"
    view.attack.value = 6  # shipped: 5
    b["ck-apply"].click()  # the reference engine: apply says to run
    b["ck-simulate"].click()
    assert "ck-paired-matrix" in view.matrix.value and "cannot be told from 0" in view.matrix.value
    assert "before (%)" in view.table.value and "change (points)" in view.table.value
    assert "0." not in view.table.value.split("paired 95% interval", 1)[1].split("<td")[2]  # no fractions
    assert view.last_chart is not None and "card-stats of OGRE" in view.stats.value
    b["ck-undo"].click()
    assert view.matrix.value == view.table.value == view.stats.value == ""
    assert view.last_chart is None and view.designer.result is None
    assert "results of the change are cleared" in view.message.value
    view.save_path.value = "mine.csv"
    b["ck-save"].click()
    saved = tmp_path / "home" / "mine.csv"
    assert saved.is_file() and str(saved) in view.saved.value and "outside the repository" in view.saved.value
    assert load_cards(saved).card("OGRE").attack == 5  # undone: the shipped card


def test_saving_a_bare_name_goes_outside_the_repository(monkeypatch, tmp_path):
    from helpers import ROOT

    from clashkit.viz.labs.card_designer import save_folder

    monkeypatch.delenv("CLASHKIT_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert save_folder() == tmp_path / "clashkit"
    assert ROOT not in save_folder().parents


def _tuning(designer, changes=()):
    from clashkit.studies.design import Tuning

    r = designer.result
    return Tuning(tuple(changes), r.before, r.before, designer.base, (), (), (), 0, 20, 0)


def test_the_tuner_says_in_words_when_it_proposes_nothing(designer):
    from clashkit.studies.design import Change
    from clashkit.studies.design.tuning import NO_CHANGE_PROPOSED
    from clashkit.viz.design_views import balance_side_by_side_readable, proposal_html

    html = proposal_html(_tuning(designer))
    assert NO_CHANGE_PROPOSED in html and "ck-no-proposal" in html and "<table" not in html
    assert NO_CHANGE_PROPOSED in str(_tuning(designer))  # the command line says the same
    proposed = proposal_html(_tuning(designer, [Change("OGRE", "attack", 5, 6)]), designer.base)
    assert "The tuner&#x27;s proposal" in proposed and "OGRE" in proposed
    side = balance_side_by_side_readable(_tuning(designer))
    assert side.columns == ["deck", "shipped (95%)", "proposed (95%)", "difference (points)", "games"]
    assert side["difference (points)"].to_list() == ["0.0"] * 4
    assert side["shipped (95%)"][0].endswith(")") and "%" in side["shipped (95%)"][0]


def test_card_stats_shows_the_designer_s_columns_first_and_the_rest_behind_a_toggle(designer):
    from clashkit.viz.design_views import CardStatsView
    from clashkit.viz.tables import CARD_STATS_HEADINGS, card_stats_readable

    stats = designer.card_stats("OGRE")
    readable = card_stats_readable(stats)
    assert readable.columns == list(CARD_STATS_HEADINGS.values())
    row = readable.row(0, named=True)
    assert row["card"] == "OGRE" and row["deck"] == 2
    assert row["removal impact (points) [paired 95%]"].count("[") == 1  # the change with its interval
    assert "." in row["played (% of games)"] and float(row["played (% of games)"]) <= 100
    view = CardStatsView(stats)
    assert "every column of the frame" in view.table.value and "<details" in view.table.value
    assert "removal impact" in view.table.value.split("<details", 1)[0]
    assert "hand_health_after_low" not in view.table.value.split("<details", 1)[0]
    view.every_column.value = True
    assert "hand_health_after_low" in view.table.value and "<details" not in view.table.value


def test_the_sweep_shows_the_same_matrix_of_paired_changes_and_changes_in_points():
    from clashkit.viz.design_views import SweepView, chart_sweep, sweep_rows_readable

    view = SweepView(games_per_pairing=4, seed=1, policy="random", engine="reference")
    view.choose("OGRE", "attack", 4, 6)
    result = view.run()
    assert view.shown_value.options == (4, 5, 6) and view.shown_value.value == 6  # the last value not shipped
    assert "ck-paired-matrix" in view.matrix.value and "OGRE attack 6 (shipped 5)" in view.matrix.value
    assert result.first.cells.height == 3 * 12
    view.shown_value.value = 5  # the shipped value: no game changed
    assert view.matrix.value.count("≈0 no game changed</div>") == 12 + 4
    spec = chart_sweep(result).to_dict()
    assert spec["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == 0
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domainMid"] == 0
    rows = sweep_rows_readable(result)
    assert rows.filter(pl.col("attack") == 5)["change (points)"].to_list() == ["0.0"] * 4
    assert all("." in r and len(r.split(".")[1]) == 1 for r in rows["rate (%)"].to_list())


def test_the_proposal_table_shows_what_a_card_does_as_the_card_file_writes_it(designer):
    from clashkit.studies.design import Change
    from clashkit.viz.design_views import proposal_table

    ogre = designer.base.card("OGRE").describe()
    numbers = proposal_table(_tuning(designer, [Change("OGRE", "attack", 5, 6)]), designer.base)
    assert numbers.schema["shipped"] == numbers.schema["proposed"] == pl.Int64
    assert numbers.rows() == [("OGRE", "attack", 5, 6, ogre, ogre)]
    changes = [Change("OGRE", "attack", 5, 6), Change("OGRE", "aura", "", "rage@front")]
    text = proposal_table(_tuning(designer, changes), designer.base)
    assert text.columns == ["card", "field", "shipped", "proposed", "shipped card", "proposed card"]
    assert text.select("shipped", "proposed").rows() == [("5", "6"), ("", "rage@front")]
