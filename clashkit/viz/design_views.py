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

from collections.abc import Sequence
from html import escape

import altair as alt
import ipywidgets as w
import polars as pl

from ..base import CardSet, starter_set
from ..base.points import interval_text, percent_text, points_expr, points_text, points_text_expr
from ..studies import FIELDS, Sweep, Tuning, field_value, sweep
from ..studies.design import SkillSweep
from . import rendering
from .labs.view_common import _message, count_box, count_in
from .tables import card_stats_html, table_html

rendering.on_altair_loaded()  # the heat map draws offline, as the other charts do


def _by_strength(result: Sweep | SkillSweep) -> dict[str, Sweep]:
    """The sweep at each strength (one, unnamed, for a plain :class:`Sweep`); a chart or table
    names the strengths only when there are several."""
    return result.sweeps if isinstance(result, SkillSweep) else {"": result}


def chart_sweep(result: Sweep | SkillSweep, *, width: int = 360) -> alt.LayerChart | alt.FacetChart:
    """Each deck's paired change against the card as shipped (colour on a diverging scale
    centred on 0, the number in points) for each swept value: one cell per value and deck;
    a cell's tooltip has the deck's rate and the change's paired 95% interval.  A sweep at
    several strengths (:class:`~clashkit.studies.design.SkillSweep`) is drawn once a strength,
    side by side on one colour scale."""
    from .paired import FULL_SCALE, NOT_CLEAR

    sweeps = _by_strength(result)
    first = next(iter(sweeps.values()))
    field = first.fields[0]
    rows = pl.concat(s.rows.select(pl.lit(p).alias("strength"), pl.all()) for p, s in sweeps.items()).with_columns(
        pl.format("deck {}", "deck").alias("deck "),
        points_expr("change").alias("change (points)"),
        points_text_expr("change").alias("label"),
        points_text_expr("rate", signed=False).alias("rate (%)"),
        pl.struct("change_low", "change_high")
        .map_elements(lambda r: interval_text(r["change_low"], r["change_high"]), return_dtype=pl.String)
        .alias("paired 95% interval (points)"),
        pl.when(pl.col("clear")).then(pl.lit("yes")).otherwise(pl.lit(NOT_CLEAR)).alias("clear"),
    )
    several = len(sweeps) > 1
    base = alt.Chart(width=width // 2 if several else width).encode(
        x=alt.X(
            f"{field}:O",
            title=f"{first.card} {field} (shipped {first.shipped[0]})",
            axis=alt.Axis(labelAngle=0),
        ),
        y=alt.Y("deck :N", title=None),
    )
    cells = base.mark_rect(stroke="#fff", strokeWidth=2).encode(
        color=alt.Color(
            "change (points):Q",
            title="change (points)",
            scale=alt.Scale(scheme="redblue", domain=[-FULL_SCALE, FULL_SCALE], domainMid=0, clamp=True),
        ),
        tooltip=[
            *(["strength:N"] if several else []),
            "deck :N",
            f"{field}:O",
            "rate (%):N",
            "games:Q",
            alt.Tooltip("label:N", title="change (points)"),
            "paired 95% interval (points):N",
            "clear:N",
        ],
    )
    text = base.mark_text(fontSize=11).encode(
        text="label:N",
        opacity=alt.condition("datum.clear == 'yes'", alt.value(1.0), alt.value(0.55)),
    )
    title = alt.Title(
        f"Each deck's change against {first.card} as shipped, by {field}" + (" and strength" if several else ""),
        subtitle=f"points, paired on the same seeds ({first.n:,} games a pairing); faint: cannot be told from 0",
    )
    chart = alt.layer(cells, text, data=rows)
    if several:
        header = alt.Header(labelFontSize=13, labelExpr="'under ' + datum.value")
        return chart.facet(column=alt.Column("strength:N", title=None, sort=list(sweeps), header=header)).properties(
            title=title
        )
    return chart.properties(title=title)


class SweepView:
    """Pick a card, one of its fields and a range of values, run :func:`clashkit.studies.design.sweep`
    at each strength of play in ``policies`` (weakest first; ``policy=`` for one) on the same
    seeds, and see the heat map at each strength side by side and the rows (rate, change and
    their intervals).  The games are played on the fast engine where the bots exist there:
    2,000 games a pairing (about ±1 point on a deck's change) take a few seconds a value
    under ``greedy``, some ten times more under ``expert``; the progress bar says how long."""

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        games_per_pairing: int = 2000,
        seed: int = 0,
        policies: Sequence[str] = ("greedy", "expert"),
        policy: str | None = None,
        engine: str | None = None,
    ) -> None:
        self.cards = cards if cards is not None else starter_set()
        self.games_per_pairing, self.seed, self.engine = games_per_pairing, seed, engine
        self.policies = [policy] if policy is not None else list(policies)
        self.result: SkillSweep | None = None
        names = [c.name for c in self.cards if c.deck is not None]
        self.card = w.Dropdown(options=names, value="OGRE" if "OGRE" in names else names[0], description="card")
        self.field = w.Dropdown(description="field")
        self.values = w.IntRangeSlider(description="values", min=0, max=12)
        self.games = count_box(games_per_pairing, "games a pairing", width="220px")
        self.run_button = w.Button(description="run the sweep", button_style="primary")
        self.run_button.add_class("ck-sweep")
        self.run_button.on_click(lambda _b: self._clicked())
        self.progress = w.Output()
        self.chart = w.Output()
        self.table = w.HTML()
        self.message = w.HTML()
        self.shown_value = w.Dropdown(description="matrix at", layout=w.Layout(width="220px", display="none"))
        self.shown_value.observe(lambda _c: self.draw_matrix(), names="value")
        self.matrix = w.HTML()
        self.matrix_chart = w.Output()
        self.card.observe(lambda _c: self._fields(), names="value")
        self.field.observe(lambda _c: self._range(), names="value")
        self._fields()
        self.widget = w.VBox(
            [
                w.HBox([self.card, self.field]),
                w.HBox([self.values, self.games, self.run_button]),
                self.progress,
                self.message,
                self.chart,
                self.shown_value,
                self.matrix,
                self.matrix_chart,
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

    def _clicked(self) -> None:
        """The button: a game count out of range is said under it (:meth:`run` raises it too)."""
        try:
            self.run()
        except ValueError:
            if not self.message.value:
                raise

    def run(self) -> SkillSweep:
        """Run the sweep the widgets describe; a game count below 1 is refused with a message."""
        import time

        self.message.value = ""

        low, high = self.values.value
        try:
            games = count_in(self.games, "games a pairing", least=1)
        except ValueError as e:
            self.message.value = _message(str(e), error=True)
            raise
        started = time.perf_counter()
        with self.progress:
            self.progress.clear_output()
            self.result = sweep(
                self.card.value,
                {self.field.value: list(range(low, high + 1))},
                games,
                cards=self.cards,
                seed=self.seed,
                policies=self.policies,
                engine=self.engine,
                progress=True,
            )
        seconds = time.perf_counter() - started
        first = self.result.first
        self.message.value = (
            f'<span style="font-size:12px">{escape(first.card)}: {first.n:,} games a pairing of every value '
            f"under {escape(' and '.join(self.result.sweeps))}, all on the same seeds, played in {seconds:.1f} s</span>"
        )
        with self.chart:
            self.chart.clear_output(wait=True)
            from IPython.display import display

            display(chart_sweep(self.result))
        readable = sweep_rows_readable(self.result)
        self.table.value = table_html(
            readable,
            max_rows=readable.height,
            caption="Each deck's rate (95% interval) and change against the shipped value (paired 95% interval), "
            "at each strength",
            tail=False,
        )
        field = first.fields[0]
        values = sorted(set(first.rows[field].to_list()))
        shipped = first.shipped[0]
        others = [v for v in values if v != shipped] or values
        self.shown_value.description = f"{field} ="
        self.shown_value.options = values
        self.shown_value.value = others[-1]
        self.shown_value.layout.display = None
        self.draw_matrix()
        return self.result

    def draw_matrix(self) -> None:
        """The matrix of paired changes at the value chosen in :attr:`shown_value`, at each strength."""
        from .paired import chart_paired_by_strength, paired_matrix_html

        if self.result is None or self.shown_value.value is None:
            return
        first = self.result.first
        field, value = first.fields[0], self.shown_value.value
        html, all_cells, all_decks = [], [], []
        for p, s in self.result.sweeps.items():
            if s.cells is None:
                return
            cells = s.cells.filter(pl.col(field) == value)
            decks = s.rows.filter(pl.col(field) == value)
            caption = (
                f"Under {p}: {first.card} {field} {value} (shipped {first.shipped[0]}), the change of each matchup, "
                f"in points ({first.n:,} games a pairing, the same seeds as the card as shipped)"
            )
            html.append(paired_matrix_html(cells, decks, caption=caption))
            all_cells.append(cells.select(pl.lit(p).alias("strength"), pl.all()))
            all_decks.append(decks.select(pl.lit(p).alias("strength"), pl.all()))
        self.matrix.value = "".join(html)
        with self.matrix_chart:
            self.matrix_chart.clear_output(wait=True)
            from IPython.display import display

            display(
                chart_paired_by_strength(
                    pl.concat(all_cells), pl.concat(all_decks), title=f"Paired changes at {field} {value}"
                )
            )


def sweep_rows_readable(result: Sweep | SkillSweep) -> pl.DataFrame:
    """A sweep's rows as a person reads them: the values, the deck, its rate and interval in
    points, the change with its paired interval, and whether it can be told from 0 (after the
    ``strength`` for a sweep at several strengths)."""
    from .paired import NOT_CLEAR

    several = len(_by_strength(result)) > 1
    return pl.concat(
        s.rows.select(
            *([pl.lit(p).alias("strength")] if several else []),
            *s.fields,
            pl.format("deck {}", "deck").alias("deck"),
            "games",
            points_text_expr("rate", signed=False).alias("rate (%)"),
            pl.struct("low", "high")
            .map_elements(
                lambda r: f"{percent_text(r['low'], sign='')}–{percent_text(r['high'])}", return_dtype=pl.String
            )
            .alias("95% interval"),
            points_text_expr("change").alias("change (points)"),
            pl.struct("change_low", "change_high")
            .map_elements(lambda r: interval_text(r["change_low"], r["change_high"]), return_dtype=pl.String)
            .alias("paired 95% interval"),
            pl.when(pl.col("clear")).then(pl.lit("yes")).otherwise(pl.lit(NOT_CLEAR)).alias("clear change"),
        )
        for p, s in _by_strength(result).items()
    )


class CardStatsView:
    """The card-stats table whole (never cut short), sorted by the column chosen: first the
    columns a designer reads (:func:`~clashkit.viz.tables.card_stats_readable`: card, deck,
    play rate, removal impact with its interval, the deck's rate when played and when not),
    every column of the frame behind the **every column** toggle."""

    def __init__(self, table: pl.DataFrame) -> None:
        self.frame = table
        first = [c for c in ("card", "deck", "play_rate", "removed_change", "win_played", "win_not_played")]
        options = [c for c in first if c in table.columns] + [c for c in table.columns if c not in first]
        self.sort_by = w.Dropdown(options=options, value="card", description="sort by")
        self.descending = w.Checkbox(value=False, description="largest first")
        self.every_column = w.Checkbox(value=False, description="every column")
        self.every_column.add_class("ck-every-column-toggle")
        self.table = w.HTML()
        for widget in (self.sort_by, self.descending, self.every_column):
            widget.observe(lambda _c: self.draw(), names="value")
        self.widget = w.VBox([w.HBox([self.sort_by, self.descending, self.every_column]), self.table])
        self.widget.add_class("ck-card-stats")
        self.draw()

    def sorted(self) -> pl.DataFrame:
        return self.frame.sort(self.sort_by.value, descending=self.descending.value, nulls_last=True)

    def draw(self) -> None:
        shown = self.sorted()
        caption = f"card-stats: {shown.height} cards, sorted by {self.sort_by.value}; rates and changes in points"
        if self.every_column.value:
            self.table.value = table_html(
                shown.with_columns(pl.col(pl.Float64).round(3)), max_rows=None, tail=False, caption=caption
            )
        else:
            self.table.value = card_stats_html(shown, caption=caption)


def proposal_html(result: Tuning, shipped: CardSet | None = None) -> str:
    """The tuner's proposal as a person reads it: each change (shipped beside proposed), or,
    when it proposes none, the command line's sentence saying so."""
    from ..studies.design.tuning import NO_CHANGE_PROPOSED

    if not result.changes:
        return (
            f'<div class="ck-no-proposal" style="font-size:13px;margin:4px 0"><b>{escape(NO_CHANGE_PROPOSED)}</b> '
            f"The largest distance of a deck from 50% stays {percent_text(result.before.distance, sign='')} points "
            "on the check's fresh seeds.</div>"
        )
    return table_html(proposal_table(result, shipped), max_rows=None, tail=False, caption="The tuner's proposal")


class Proposal:
    """:func:`proposal_html` that shows itself in a notebook."""

    def __init__(self, result: Tuning, shipped: CardSet | None = None) -> None:
        self.result, self.shipped = result, shipped

    def _repr_html_(self) -> str:
        return proposal_html(self.result, self.shipped)


def proposal(result: Tuning, shipped: CardSet | None = None) -> Proposal:
    """The tuner's proposal in a notebook: the changes, or in words that there is none."""
    return Proposal(result, shipped)


def proposal_table(result: Tuning, shipped: CardSet | None = None) -> pl.DataFrame:
    """Each card the tuner changes: the field's shipped and proposed values (:meth:`Tuning.table`:
    whole numbers, or a card file's text for what a card does) beside its shipped and proposed
    descriptions."""
    shipped = shipped if shipped is not None else starter_set()
    table = result.table()
    names = table["card"].to_list()
    return table.with_columns(
        pl.Series("shipped card", [shipped.card(n).describe() for n in names], pl.String),
        pl.Series("proposed card", [result.cards.card(n).describe() for n in names], pl.String),
    )


def balance_side_by_side(result: Tuning) -> pl.DataFrame:
    """Each deck's overall rate on the check's fresh seeds, shipped and proposed, at the first
    strength (rate units; :func:`balance_side_by_side_readable` in points;
    :func:`balance_by_strength_readable` at every strength)."""
    return _side_by_side(result.before, result.after)


def _side_by_side(shipped, proposed) -> pl.DataFrame:
    before = shipped.decks.select(
        "deck",
        pl.col("rate").alias("shipped"),
        pl.col("low").alias("shipped_low"),
        pl.col("high").alias("shipped_high"),
    )
    after = proposed.decks.select(
        "deck",
        pl.col("rate").alias("proposed"),
        pl.col("low").alias("proposed_low"),
        pl.col("high").alias("proposed_high"),
        "games",
    )
    return before.join(after, on="deck")


def balance_side_by_side_readable(result: Tuning) -> pl.DataFrame:
    """:func:`balance_side_by_side` in points, one decimal, each rate with its interval."""
    return _readable(balance_side_by_side(result))


def balance_by_strength_readable(result: Tuning) -> pl.DataFrame:
    """Each deck's rate on the check's fresh seeds at every strength the tuner balanced,
    shipped and proposed, in points with 95% intervals: ``strength`` first, then the columns of
    :func:`balance_side_by_side_readable`."""
    at = result.at or {result.before.policy: (result.before, result.after)}
    return pl.concat(
        _readable(_side_by_side(before, after)).select(pl.lit(p).alias("strength"), pl.all())
        for p, (before, after) in at.items()
    )


def _readable(frame: pl.DataFrame) -> pl.DataFrame:
    def rate(name: str) -> pl.Expr:
        return pl.struct(name, f"{name}_low", f"{name}_high").map_elements(
            lambda r: (
                f"{percent_text(r[name])} ({percent_text(r[name + '_low'], sign='')}–"
                f"{percent_text(r[name + '_high'], sign='')})"
            ),
            return_dtype=pl.String,
        )

    return frame.select(
        pl.format("deck {}", "deck").alias("deck"),
        rate("shipped").alias("shipped (95%)"),
        rate("proposed").alias("proposed (95%)"),
        points_text_expr(pl.col("proposed") - pl.col("shipped")).alias("difference (points)"),
        "games",
    )


def pareto_readable(result: Tuning) -> pl.DataFrame:
    """The tuner's trade-off as a person reads it: one row per number of changes allowed (0:
    the set as shipped), the best set found, its largest distance of a deck from 50% at any
    strength on the search's seeds and on the check's fresh seeds (points), and the
    improvement on the fresh seeds with its paired 95% interval (a bootstrap over the games)."""
    rows = [
        {
            "at most": 0,
            "changes": "— (as shipped)",
            "search (points from 50%)": percent_text(result.search_distances[0], sign="")
            if result.search_distances
            else "—",
            "fresh (points from 50%)": percent_text(result.distances[0], sign=""),
            "improvement (points)": "",
            "paired 95% interval": "",
        }
    ]
    for r in result.pareto:
        rows.append(
            {
                "at most": r.limit,
                "changes": "; ".join(map(str, r.changes)),
                "search (points from 50%)": percent_text(r.search, sign=""),
                "fresh (points from 50%)": percent_text(r.after, sign=""),
                "improvement (points)": points_text(r.improvement),
                "paired 95% interval": "" if r.low is None else interval_text(r.low, r.high),
            }
        )
    return pl.DataFrame(rows, schema={"at most": pl.Int64, **dict.fromkeys(list(rows[0])[1:], pl.String)})


__all__ = [
    "CardStatsView",
    "Proposal",
    "SweepView",
    "balance_by_strength_readable",
    "balance_side_by_side",
    "balance_side_by_side_readable",
    "pareto_readable",
    "chart_sweep",
    "proposal",
    "proposal_html",
    "proposal_table",
]
