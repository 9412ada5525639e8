"""Paired changes as a designer reads them: one matrix of the change of every cell (points,
paired 95% interval, a mark where the games cannot tell it from 0), coloured on a
diverging scale centred on 0, beside each deck's own change; and a chart of those
changes with their intervals, centred on 0.

=============================  ===============================================
:func:`paired_matrix_html`     the matrix of paired changes as an HTML table
:func:`chart_paired_changes`   each deck's change and each cell's, with intervals
:func:`chart_paired_by_strength` the same at each strength of play, side by side
:func:`change_colour`          the diverging colour of a change (shared by both)
=============================  ===============================================

The frames come from :meth:`clashkit.studies.design.Comparison.matrix` (cells) and
:meth:`~clashkit.studies.design.Comparison.table` (decks), or from a sweep's
``cells`` and ``rows`` for one value.  Every number shown goes through
:func:`clashkit.base.points.points_text`.
"""

from __future__ import annotations

from html import escape

import altair as alt
import polars as pl

from ..base.points import change_text, interval_text, points, points_expr, points_text
from . import frames as wanted
from . import rendering
from .frames import needs

rendering.on_altair_loaded()

#: The ends and the middle of the diverging scale (a deck that lost, no change, a deck that gained):
#: the ends of Vega's ``redblue`` scheme, the one notebook 05's heat map uses.
NEGATIVE, ZERO, POSITIVE = "#b2182b", "#f7f7f7", "#2166ac"
#: A change of this many points (or more) takes the full colour.
FULL_SCALE = 6.0
#: The words beside a change whose interval holds 0.
NOT_CLEAR = "cannot be told from 0"
#: … and beside one that no game changed (the same outcome in every game, before and after).
NO_GAME_CHANGED = "no game changed"
#: Its short mark in a cell.
NOT_CLEAR_MARK = "≈0"

_TABLE = (
    "border-collapse:collapse;font:11px system-ui,'DejaVu Sans',sans-serif;color:#2b2720;background:#fff;margin:2px 0"
)
_TH = "text-align:center;padding:3px 8px;border-bottom:2px solid #d8cfb8;font-weight:600"
_TD = "text-align:center;padding:3px 8px;border:2px solid #fff;line-height:14px;min-width:92px"


def _mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def change_colour(change: float | None, *, full_scale: float = FULL_SCALE) -> str:
    """The background of a change (in rate units): white at 0, blue for a gain, red for a
    loss, full at ``full_scale`` points."""
    value = points(change)
    if value is None:
        return "#ffffff"
    t = min(1.0, abs(value) / full_scale)
    return _mix(ZERO, POSITIVE if value > 0 else NEGATIVE, t)


def _ink(change: float | None, *, full_scale: float = FULL_SCALE) -> str:
    value = points(change) or 0.0
    return "#ffffff" if abs(value) > 0.6 * full_scale else "#2b2720"


def _cell(row: dict, *, full_scale: float) -> str:
    clear = bool(row["clear"]) if row.get("clear") is not None else False
    same = row["change_low"] == row["change_high"] == 0
    words = NO_GAME_CHANGED if same else NOT_CLEAR
    mark = "" if clear else f'<div style="font-size:10px">{NOT_CLEAR_MARK} {words}</div>'
    bg, ink = change_colour(row["change"], full_scale=full_scale), _ink(row["change"], full_scale=full_scale)
    title = escape(
        f"{change_text(row['change'], row['change_low'], row['change_high'])} points (paired 95%)"
        + (f"; {words}" if not clear else "")
    )
    return (
        f'<td class="ck-cell{"" if clear else " ck-not-clear"}" title="{title}" '
        f'style="{_TD};background:{bg};color:{ink}">'
        f"<b>{escape(points_text(row['change']))}</b>"
        f'<div style="font-size:10px">{escape(interval_text(row["change_low"], row["change_high"]))}</div>{mark}</td>'
    )


@needs(cells=wanted.PAIRED_CELLS, decks=wanted.PAIRED_DECKS)
def paired_matrix_html(
    cells: pl.DataFrame,
    decks: pl.DataFrame | None = None,
    *,
    caption: str = "",
    label: str = "deck {}",
    full_scale: float = FULL_SCALE,
) -> str:
    """The matrix of paired changes: a row per deck, a column per opponent, each cell the row
    deck's change against the column deck (both seats) in points with its paired 95%
    interval, marked when it cannot be told from 0; then, beside it, the deck's own change
    (``decks``: ``deck``, ``change``, ``change_low``, ``change_high``, ``clear``).

    ``cells`` has ``deck``, ``opponent``, ``change``, ``change_low``, ``change_high`` and
    ``clear``; ``label`` turns a deck number into its heading."""
    names = sorted(set(cells["deck"].to_list()) | set(cells["opponent"].to_list()))
    by_cell = {(r["deck"], r["opponent"]): r for r in cells.iter_rows(named=True)}
    by_deck = {r["deck"]: r for r in decks.iter_rows(named=True)} if decks is not None else {}

    def heading(d) -> str:
        return escape(label.format(d)) if isinstance(d, int) else escape(str(d))

    head = f'<th style="{_TH}">change (points)</th>' + "".join(f'<th style="{_TH}">vs {heading(o)}</th>' for o in names)
    if by_deck:
        head += f'<th style="{_TH};border-left:2px solid #d8cfb8">the deck overall</th>'
    body = []
    for d in names:
        tds = []
        for o in names:
            row = by_cell.get((d, o))
            tds.append(_cell(row, full_scale=full_scale) if row else f'<td style="{_TD};color:#9e9e9e">—</td>')
        if by_deck:
            row = by_deck.get(d)
            tds.append(_cell(row, full_scale=full_scale) if row else f'<td style="{_TD}">—</td>')
        body.append(f'<tr><th style="{_TH};text-align:left">{heading(d)}</th>{"".join(tds)}</tr>')
    title = f'<div style="font-weight:600;font-size:12px;margin:2px 0">{escape(caption)}</div>' if caption else ""
    note = (
        '<div style="font-size:10px;color:#6b6250;margin:2px 0">Each cell: the row deck\'s change of win rate '
        "against the column deck (both seats), in points, with its paired 95% interval (the same seeds before "
        f"and after); blue: the row deck gained, red: it lost; {NOT_CLEAR_MARK}: {NOT_CLEAR}.</div>"
    )
    return f'{title}<table class="ck-paired-matrix" style="{_TABLE}"><tr>{head}</tr>{"".join(body)}</table>{note}'


@needs(cells=wanted.PAIRED_CELLS_DRAWN, decks=wanted.PAIRED_DECKS_DRAWN)
def paired_frame(cells: pl.DataFrame, decks: pl.DataFrame | None = None, *, label: str = "deck {}") -> pl.DataFrame:
    """What :func:`chart_paired_changes` draws: one row per deck and ``against`` (``all``
    first, then each opponent), the change and its interval in points, ``clear`` and the
    change as text."""
    cols = ["change", "change_low", "change_high"]

    def rows(frame: pl.DataFrame, against: pl.Expr) -> pl.DataFrame:
        return frame.select(
            pl.col("deck").map_elements(lambda d: label.format(d), return_dtype=pl.String).alias("deck"),
            against.alias("against"),
            *(points_expr(c).alias(c) for c in cols),
            pl.col("clear").fill_null(False),
            pl.struct(cols)
            .map_elements(lambda r: change_text(r["change"], r["change_low"], r["change_high"]), return_dtype=pl.String)
            .alias("text"),
        )

    parts = [
        rows(
            cells,
            pl.col("opponent").map_elements(lambda o: "vs " + label.format(o), return_dtype=pl.String),
        )
    ]
    if decks is not None:
        parts.insert(0, rows(decks, pl.lit("all opponents")))
    return pl.concat(parts)


def _reach(data: pl.DataFrame) -> float:
    """The half-width of an axis centred on 0 that holds every interval of ``data`` (points)."""
    reach = max(3.0, *(abs(x) for c in ("change_low", "change_high") for x in data[c].drop_nulls().to_list()))
    return float(int(reach) + 1)


def _diverging() -> alt.Scale:
    return alt.Scale(scheme="redblue", domain=[-FULL_SCALE, FULL_SCALE], domainMid=0, clamp=True)


@needs(cells=wanted.PAIRED_CELLS_DRAWN, decks=wanted.PAIRED_DECKS_DRAWN)
def chart_paired_changes(
    cells: pl.DataFrame,
    decks: pl.DataFrame | None = None,
    *,
    label: str = "deck {}",
    title: str = "Paired change of each deck's win rate",
    width: int = 380,
    reach: float | None = None,
) -> alt.LayerChart | alt.FacetChart:
    """Each deck's paired change (a large point) and its change against each opponent
    (small points, each named: ``vs deck 2``), with 95% intervals, in points on an axis centred on 0: a change whose
    interval crosses the dashed line at 0 cannot be told from 0 (drawn hollow).  ``reach``
    (points) fixes the axis at ±reach; by default it holds every interval."""
    data = paired_frame(cells, decks, label=label)
    reach = _reach(data) if reach is None else reach
    against = list(dict.fromkeys(data["against"].to_list()))
    scale = alt.Scale(domain=[-reach, reach])
    base = alt.Chart(data, width=width).encode(
        y=alt.Y("deck:N", title=None),
        yOffset=alt.YOffset("against:N", sort=against),
        color=alt.Color(
            "change:Q",
            title="change (points)",
            scale=_diverging(),
        ),
    )
    zero = alt.Chart(pl.DataFrame({"x": [0.0]})).mark_rule(color="#555", strokeDash=[4, 3]).encode(x="x:Q")
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("change_low:Q", title="change of win rate (points, paired 95% interval)", scale=scale),
        x2="change_high:Q",
    )
    tooltip = ["deck:N", "against:N", alt.Tooltip("text:N", title="change [95%] (points)"), "clear:N"]
    marks = base.mark_point(size=70, strokeWidth=2).encode(
        x=alt.X("change:Q", scale=scale),
        fill=alt.condition(
            "datum.clear",
            alt.Fill(
                "change:Q",
                scale=alt.Scale(scheme="redblue", domain=[-FULL_SCALE, FULL_SCALE], domainMid=0, clamp=True),
                legend=None,
            ),
            alt.value("#ffffff"),
        ),
        size=alt.condition("datum.against == 'all opponents'", alt.value(120), alt.value(40)),
        tooltip=tooltip,
    )
    # Each point named beside its interval's right end, so that a page without tooltips (a static
    # site, a printed chart) still says which opponent a small point is.
    names = base.mark_text(align="left", baseline="middle", dx=4, fontSize=9, color="#555").encode(
        x=alt.X("change_high:Q", scale=scale), text="against:N", color=alt.value("#555"), tooltip=tooltip
    )
    return alt.layer(zero, bars, marks, names).properties(
        title=alt.Title(
            title,
            subtitle="large points: against all opponents; small: against each, named at the right of its "
            "interval; hollow: cannot be told from 0",
        )
    )


@needs(cells=(*wanted.PAIRED_CELLS_DRAWN, "strength"), decks=(*wanted.PAIRED_DECKS_DRAWN, "strength"))
def chart_paired_by_strength(
    cells: pl.DataFrame,
    decks: pl.DataFrame | None = None,
    *,
    label: str = "deck {}",
    title: str = "Paired change of each deck's win rate",
    width: int = 300,
) -> alt.HConcatChart:
    """:func:`chart_paired_changes` at each strength of play side by side, on one axis:
    ``cells`` (and ``decks``) have a ``strength`` column, its values in the order drawn."""
    names = list(dict.fromkeys(cells["strength"].to_list()))
    parts = {
        p: (
            cells.filter(pl.col("strength") == p).drop("strength"),
            None if decks is None else decks.filter(pl.col("strength") == p).drop("strength"),
        )
        for p in names
    }
    reach = max(_reach(paired_frame(c, d, label=label)) for c, d in parts.values())
    return alt.hconcat(
        *(
            chart_paired_changes(c, d, label=label, title=f"{title} under {p}", width=width, reach=reach)
            for p, (c, d) in parts.items()
        )
    )


__all__ = [
    "NOT_CLEAR",
    "change_colour",
    "chart_paired_by_strength",
    "chart_paired_changes",
    "paired_frame",
    "paired_matrix_html",
]
