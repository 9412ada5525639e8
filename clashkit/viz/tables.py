"""Small frames as readable HTML tables: every row and every word shown, no truncation.

Polars shortens long text in a notebook; the sentences of an events table or
the plan of a hand read better whole.  ``viz.table(frame)`` displays itself.
"""

from __future__ import annotations

from html import escape

import polars as pl

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


def table_html(
    frame: pl.DataFrame, *, max_rows: int = 40, caption: str = "", tail: bool = True
) -> str:
    """A small frame as a compact HTML table (its last ``max_rows`` rows with ``tail``, else
    its first)."""
    shown = frame.tail(max_rows) if tail else frame.head(max_rows)
    head = "".join(f'<th style="{_TH}">{escape(c)}</th>' for c in shown.columns)
    body = "".join(
        "<tr>"
        + "".join(f'<td style="{_TD}">{escape("" if v is None else _text(v))}</td>' for v in row)
        + "</tr>"
        for row in shown.iter_rows()
    )
    hidden = frame.height - shown.height
    more = (
        f'<div style="font-size:10px;color:#888">{hidden} {"earlier" if tail else "more"} '
        "rows not shown</div>"
        if hidden
        else ""
    )
    title = (
        f'<div style="font-weight:600;font-size:12px;margin:2px 0">{escape(caption)}</div>'
        if caption
        else ""
    )
    return f'{title}{more}<table style="{_TABLE}"><tr>{head}</tr>{body}</table>'


def _text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


class Table:
    """A frame shown whole in a notebook (``_repr_html_``)."""

    def __init__(self, frame: pl.DataFrame, *, max_rows: int = 60, caption: str = "") -> None:
        self.frame = frame
        self.max_rows = max_rows
        self.caption = caption

    def _repr_html_(self) -> str:
        return table_html(self.frame, max_rows=self.max_rows, caption=self.caption, tail=False)

    def __repr__(self) -> str:
        return repr(self.frame)


def table(frame: pl.DataFrame, *, max_rows: int = 60, caption: str = "") -> Table:
    """Show ``frame`` whole (its first ``max_rows`` rows) as an HTML table in a notebook."""
    return Table(frame, max_rows=max_rows, caption=caption)


__all__ = ["Table", "table", "table_html"]
