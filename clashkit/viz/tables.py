"""Frames as readable HTML tables: every row and every word shown, or the first rows and how
to see the rest.

Polars shortens long text and long frames in a notebook; the sentences of an
events table or the plan of a hand read better whole.  ``viz.table(frame)``
displays itself.  In a notebook kernel, importing :mod:`clashkit.viz` makes
every polars frame a cell shows do the same (:func:`frame_html`): up to
:data:`ROWS` rows whole, a longer frame's first rows with a line saying how to
see the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

import polars as pl

#: Rows a notebook shows of a frame before it says how to see the rest.
ROWS = 100

_TABLE = (
    "border-collapse:collapse;font:11px system-ui,'DejaVu Sans',sans-serif;color:#2b2720;"
    "background:#fff;width:auto;table-layout:auto;margin:0"
)
# Explicit alignment and spacing: JupyterLab's own table style right-aligns and spreads cells.
_TH = "text-align:left;border-bottom:2px solid #d8cfb8;padding:2px 8px;line-height:15px"
_TD = (
    "text-align:left;border:none;border-bottom:1px solid #eee;padding:2px 8px;"
    "vertical-align:top;line-height:15px;white-space:normal"
)
_NOTE = 'style="font-size:10px;color:#6b6250;margin:2px 0"'


def table_html(
    frame: pl.DataFrame,
    *,
    max_rows: int | None = 40,
    caption: str = "",
    tail: bool = True,
    formatters: Mapping[str, Callable[[object], str]] | None = None,
    rest: str = "",
) -> str:
    """A frame as a compact HTML table: its last ``max_rows`` rows with ``tail``, else its
    first (``None``: every row).  ``formatters`` turn a column's values into HTML (the
    others are escaped text); ``rest`` says how to see the rows left out."""
    formatters = formatters or {}
    shown = frame if max_rows is None else (frame.tail(max_rows) if tail else frame.head(max_rows))
    head = "".join(f'<th style="{_TH}">{escape(c)}</th>' for c in shown.columns)
    cells = [formatters.get(c, _cell) for c in shown.columns]
    body = "".join(
        "<tr>" + "".join(f'<td style="{_TD}">{show(v)}</td>' for show, v in zip(cells, row, strict=True)) + "</tr>"
        for row in shown.iter_rows()
    )
    hidden = frame.height - shown.height
    more = ""
    if hidden:
        which = "earlier" if tail else "more"
        more = f"<div {_NOTE}>{hidden} {which} rows not shown{'; ' + escape(rest) if rest else ''}</div>"
    title = f'<div style="font-weight:600;font-size:12px;margin:2px 0">{escape(caption)}</div>' if caption else ""
    table = f'<table style="{_TABLE}"><tr>{head}</tr>{body}</table>'
    return f"{title}{more}{table}" if tail else f"{title}{table}{more}"


def _cell(value: object) -> str:
    return escape("" if value is None else _text(value))


def _text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


class Table:
    """A frame shown whole in a notebook (``_repr_html_``), or its first ``max_rows`` rows."""

    def __init__(
        self,
        frame: pl.DataFrame,
        *,
        max_rows: int | None = ROWS,
        caption: str = "",
        formatters: Mapping[str, Callable[[object], str]] | None = None,
    ) -> None:
        self.frame = frame
        self.max_rows = max_rows
        self.caption = caption
        self.formatters = formatters

    def _repr_html_(self) -> str:
        return table_html(
            self.frame,
            max_rows=self.max_rows,
            caption=self.caption,
            tail=False,
            formatters=self.formatters,
            rest="viz.table(frame, max_rows=None) shows them all",
        )

    def __repr__(self) -> str:
        return repr(self.frame)


def table(
    frame: pl.DataFrame,
    *,
    max_rows: int | None = ROWS,
    caption: str = "",
    formatters: Mapping[str, Callable[[object], str]] | None = None,
) -> Table:
    """Show ``frame`` as an HTML table in a notebook: its first ``max_rows`` rows (``None``:
    all), every word of every cell; a ``rule`` column's numbers unfold to the rule's text."""
    if formatters is None and "rule" in frame.columns:
        from .rules import rule_link

        formatters = {"rule": lambda number: rule_link(str(number or ""))}
    return Table(frame, max_rows=max_rows, caption=caption, formatters=formatters)


#: The card-stats columns a designer reads first, and their headings.
CARD_STATS_HEADINGS = {
    "card": "card",
    "deck": "deck",
    "play_rate": "played (% of games)",
    "removed": "removal impact (points) [paired 95%]",
    "win_played": "deck's rate when played (%)",
    "win_not_played": "when not played (%)",
}


def card_stats_readable(stats: pl.DataFrame) -> pl.DataFrame:
    """The columns of a card-stats table (:func:`clashkit.studies.design.card_stats`) a designer
    reads, in points with one decimal: card, deck, play rate, the removal impact with its
    paired interval (when measured), the deck's rate when the card is played and when not, each
    with its game count."""
    from ..base.points import change_text, points_text

    def pct(column: str) -> pl.Expr:
        return pl.col(column).map_elements(
            lambda x: points_text(x, signed=False), return_dtype=pl.String, skip_nulls=False
        )

    columns = [pl.col("card"), pl.col("deck"), pct("play_rate").alias(CARD_STATS_HEADINGS["play_rate"])]
    if "removed_change" in stats.columns:
        columns.append(
            pl.struct("removed_change", "removed_low", "removed_high")
            .map_elements(
                lambda r: change_text(r["removed_change"], r["removed_low"], r["removed_high"]),
                return_dtype=pl.String,
            )
            .alias(CARD_STATS_HEADINGS["removed"])
        )
    columns += [
        _rate_of_games("win_played", "games_played").alias(CARD_STATS_HEADINGS["win_played"]),
        _rate_of_games("win_not_played", "games_not_played").alias(CARD_STATS_HEADINGS["win_not_played"]),
    ]
    return stats.select(columns)


def _rate_of_games(rate: str, games: str) -> pl.Expr:
    """A rate in points with the games it is of beside it, ``0.0 (of 12 games)``: a card played in
    99% of games has a rate "when not played" of a dozen games, which a bare number hides."""
    from ..base.points import points_text

    def text(row: dict) -> str:
        n = row[games]
        if not n:
            return "— (no game)"
        return f"{points_text(row[rate], signed=False)} (of {n:,} game{'s' if n != 1 else ''})"

    return pl.struct(rate, games).map_elements(text, return_dtype=pl.String)


def card_stats_html(stats: pl.DataFrame, *, caption: str = "", every_column: bool = False) -> str:
    """A card-stats table as a designer reads it (:func:`card_stats_readable`), every row;
    every column of the frame below it, folded (``<details>``) unless ``every_column``."""
    readable = table_html(card_stats_readable(stats), max_rows=None, caption=caption, tail=False)
    rounded = stats.with_columns(pl.col(pl.Float64).round(3))
    whole = table_html(rounded, max_rows=None, tail=False)
    opened = " open" if every_column else ""
    return (
        f'{readable}<details{opened} class="ck-every-column" style="font-size:11px;margin:4px 0">'
        f"<summary>every column of the frame ({stats.width})</summary>{whole}</details>"
    )


def frame_html(frame: pl.DataFrame) -> str:
    """How a notebook shows a polars frame once :mod:`clashkit.viz` is imported: polars' own
    table, whole up to :data:`ROWS` rows, else the first :data:`ROWS` and how to see the rest."""
    with pl.Config(tbl_rows=ROWS, fmt_str_lengths=200, tbl_cols=-1):
        if frame.height <= ROWS:
            return frame._repr_html_()
        shown = frame.head(ROWS)._repr_html_()
    return shown + (
        f"<div {_NOTE}>The first {ROWS} of {frame.height} rows; "
        f"<code>frame.slice({ROWS}, {ROWS})</code> shows the next ones, "
        "<code>viz.table(frame, max_rows=None)</code> all of them.</div>"
    )


__all__ = [
    "CARD_STATS_HEADINGS",
    "ROWS",
    "Table",
    "card_stats_html",
    "card_stats_readable",
    "frame_html",
    "table",
    "table_html",
]
