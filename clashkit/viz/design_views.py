"""Notebook views of :mod:`clashkit.studies.design`: a sweep picker with its heat map, the card-stats
table sorted by any column, and the tuner's proposal beside the shipped values.

=========================  ===============================================================
:func:`chart_sweep`        heat map of each deck's rate (and change) against a card's value
:class:`SweepView`         pick a card, a field and a range; run; see the heat map and rows
:class:`CardStatsView`     the whole card-stats table, sorted by the column chosen
:func:`proposal_table`     the tuner's changes, shipped value beside proposed value
=========================  ===============================================================

Like the other views, each one has its logic in plain methods (testable without a
browser) and draws with ipywidgets.
"""

from __future__ import annotations

from html import escape

import altair as alt
import ipywidgets as w
import polars as pl

from ..base import CardSet, starter_set
from ..studies import FIELDS, Sweep, Tuning, field_value, sweep
from . import rendering
from .tables import table_html

rendering.on_altair_loaded()  # the heat map draws offline, as the other charts do

PERCENT = ".0%"


def chart_sweep(result: Sweep, *, width: int = 360) -> alt.LayerChart | alt.FacetChart:
    """Each deck's rate (colour, with the number) against the swept value: one cell per value
    and deck; a cell's tooltip has the rate's interval and the paired change's."""
    field = result.fields[0]
    rows = result.rows.with_columns(
        pl.format("deck {}", "deck").alias("deck "),
        (pl.col("rate") * 100).round(1).alias("rate %"),
        pl.concat_str(
            [
                pl.lit("change "),
                (pl.col("change") * 100).round(1).cast(pl.String),
                pl.lit(" ["),
                (pl.col("change_low") * 100).round(1).cast(pl.String),
                pl.lit(", "),
                (pl.col("change_high") * 100).round(1).cast(pl.String),
                pl.lit("] points"),
            ]
        ).alias("change (paired 95%)"),
    )
    base = alt.Chart(rows, width=width).encode(
        x=alt.X(f"{field}:O", title=f"{result.card} {field} (shipped {result.shipped[0]})"),
        y=alt.Y("deck :N", title=None),
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "rate:Q",
            title="deck rate",
            scale=alt.Scale(scheme="redblue", domain=[0.3, 0.7]),
            legend=alt.Legend(format=PERCENT),
        ),
        tooltip=[
            "deck :N",
            f"{field}:O",
            alt.Tooltip("rate:Q", format=".1%"),
            alt.Tooltip("low:Q", format=".1%"),
            alt.Tooltip("high:Q", format=".1%"),
            "games:Q",
            "change (paired 95%):N",
        ],
    )
    text = base.mark_text(fontSize=11).encode(text=alt.Text("rate:Q", format=".0%"))
    return alt.layer(cells, text).properties(
        title=f"Deck rate against {result.card}'s {field} ({result.n:,} games a pairing, same seeds)"
    )


class SweepView:
    """Pick a card, one of its fields and a range of values, run :func:`clashkit.studies.design.sweep`
    and see the heat map and the rows (rate, change and their intervals).  The games are played
    on the fast engine when both bots exist there: 2,000 games a pairing (about ±1 point on a
    deck's change) take a few seconds for a handful of values."""

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        games_per_pairing: int = 2000,
        seed: int = 0,
        policy: str = "greedy",
        engine: str | None = None,
    ) -> None:
        self.cards = cards if cards is not None else starter_set()
        self.games_per_pairing, self.seed, self.policy, self.engine = games_per_pairing, seed, policy, engine
        self.result: Sweep | None = None
        names = [c.name for c in self.cards if c.deck is not None]
        self.card = w.Dropdown(options=names, value="OGRE" if "OGRE" in names else names[0], description="card")
        self.field = w.Dropdown(description="field")
        self.values = w.IntRangeSlider(description="values", min=0, max=12)
        self.games = w.BoundedIntText(
            value=games_per_pairing,
            min=1,
            max=1_000_000,
            step=500,
            description="games a pairing",
            style={"description_width": "initial"},
            layout=w.Layout(width="220px"),
        )
        self.run_button = w.Button(description="run the sweep", button_style="primary")
        self.run_button.add_class("ck-sweep")
        self.run_button.on_click(lambda _b: self.run())
        self.chart = w.Output()
        self.table = w.HTML()
        self.message = w.HTML()
        self.card.observe(lambda _c: self._fields(), names="value")
        self.field.observe(lambda _c: self._range(), names="value")
        self._fields()
        self.widget = w.VBox(
            [
                w.HBox([self.card, self.field]),
                w.HBox([self.values, self.games, self.run_button]),
                self.message,
                self.chart,
                self.table,
            ]
        )
        self.widget.add_class("ck-sweep-view")

    def _fields(self) -> None:
        card = self.cards.card(self.card.value)
        options = [f for f in FIELDS[card.kind] if f != "amount" or card.amount]
        self.field.options = options
        self.field.value = "attack" if "attack" in options else options[0]
        self._range()

    def _range(self) -> None:
        if self.field.value is None:
            return
        value = field_value(self.cards.card(self.card.value), self.field.value)
        low = 1 if self.field.value == "health" else 0
        self.values.min, self.values.max = low, max(12, value + 4)
        self.values.value = (max(low, value - 2), value + 2)

    def choose(self, card: str, field: str, low: int, high: int) -> None:
        """Set the widgets as a person would."""
        self.card.value = card
        self.field.value = field
        self.values.value = (low, high)

    def run(self) -> Sweep:
        import time

        low, high = self.values.value
        started = time.perf_counter()
        self.result = sweep(
            self.card.value,
            {self.field.value: list(range(low, high + 1))},
            self.games.value,
            cards=self.cards,
            seed=self.seed,
            policy=self.policy,
            engine=self.engine,
        )
        seconds = time.perf_counter() - started
        self.message.value = (
            f'<span style="font-size:12px">{escape(self.result.to_dict()["card"])}: {self.result.n:,} games a '
            f"pairing of every value on the same seeds, played in {seconds:.1f} s</span>"
        )
        with self.chart:
            self.chart.clear_output(wait=True)
            from IPython.display import display

            display(chart_sweep(self.result))
        self.table.value = table_html(
            self.result.rows.with_columns(pl.col(pl.Float64).round(3)),
            max_rows=self.result.rows.height,
            caption="Each deck's rate (95% interval) and change against the shipped value (paired 95% interval)",
            tail=False,
        )
        return self.result


class CardStatsView:
    """The card-stats table whole (never cut short), sorted by the column chosen."""

    def __init__(self, table: pl.DataFrame) -> None:
        self.frame = table
        self.sort_by = w.Dropdown(options=table.columns, value="card", description="sort by")
        self.descending = w.Checkbox(value=False, description="largest first")
        self.table = w.HTML()
        for widget in (self.sort_by, self.descending):
            widget.observe(lambda _c: self.draw(), names="value")
        self.widget = w.VBox([w.HBox([self.sort_by, self.descending]), self.table])
        self.widget.add_class("ck-card-stats")
        self.draw()

    def sorted(self) -> pl.DataFrame:
        return self.frame.sort(self.sort_by.value, descending=self.descending.value, nulls_last=True)

    def draw(self) -> None:
        shown = self.sorted().with_columns(pl.col(pl.Float64).round(3))
        self.table.value = table_html(
            shown,
            max_rows=shown.height,
            tail=False,
            caption=f"card-stats: {shown.height} cards, sorted by {self.sort_by.value}",
        )


def proposal_table(result: Tuning, shipped: CardSet | None = None) -> pl.DataFrame:
    """Each card the tuner changes: its shipped description beside the proposed one, and the
    field's shipped and proposed values."""
    shipped = shipped if shipped is not None else starter_set()
    rows = []
    for change in result.changes:
        rows.append(
            {
                "card": change.card,
                "field": change.field,
                "shipped": change.old,
                "proposed": change.new,
                "shipped card": shipped.card(change.card).describe(),
                "proposed card": result.cards.card(change.card).describe(),
            }
        )
    schema = {
        "card": pl.String,
        "field": pl.String,
        "shipped": pl.Int64,
        "proposed": pl.Int64,
        "shipped card": pl.String,
        "proposed card": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def balance_side_by_side(result: Tuning) -> pl.DataFrame:
    """Each deck's overall rate on the check's fresh seeds, shipped and proposed."""
    before = result.before.decks.select(
        "deck",
        pl.col("rate").alias("shipped"),
        pl.col("low").alias("shipped_low"),
        pl.col("high").alias("shipped_high"),
    )
    after = result.after.decks.select(
        "deck",
        pl.col("rate").alias("proposed"),
        pl.col("low").alias("proposed_low"),
        pl.col("high").alias("proposed_high"),
        "games",
    )
    return before.join(after, on="deck")


__all__ = ["CardStatsView", "SweepView", "balance_side_by_side", "chart_sweep", "proposal_table"]
