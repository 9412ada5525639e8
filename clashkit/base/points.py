"""Rates and changes of rate as a person reads them: in points (percentage points), one
decimal, never "−0".

The one formatting of a rate or a change that every table, chart, caption and
command line of clashkit shows: :func:`points` gives the number (for a chart's
axis or a table's column), :func:`points_text` the text.

    >>> points(0.4791), points(-0.0004), points(None)
    (47.9, 0.0, None)
    >>> points_text(0.0123), points_text(-0.0004), points_text(-0.031), points_text(0.5, signed=False)
    ('+1.2', '0.0', '-3.1', '50.0')
    >>> percent_text(0.479), interval_text(-0.0004, 0.021)
    ('47.9%', '[0.0, +2.1]')
"""

from __future__ import annotations

import math

import polars as pl

#: Decimals of a point everywhere a rate or a change is shown.
DIGITS = 1


def points(x: float | None, digits: int = DIGITS) -> float | None:
    """``x`` (a rate, or a change of rate, in rate units) in points, rounded; ``-0.0`` is
    ``0.0``; ``None`` or NaN stays ``None``."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    value = round(100 * float(x), digits)
    return value + 0.0 if value != 0 else 0.0


def points_text(x: float | None, digits: int = DIGITS, *, signed: bool = True) -> str:
    """``x`` in points as text: ``+1.2``, ``-3.1``, ``0.0`` (no sign on a zero, never
    ``-0.0``); ``—`` for a missing value.  ``signed=False`` for a rate (``47.9``)."""
    value = points(x, digits)
    if value is None:
        return "—"
    if value == 0:
        return f"{0:.{digits}f}"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def percent_text(x: float | None, digits: int = DIGITS, sign: str = "%") -> str:
    """A rate as ``47.9%`` (``sign=""`` leaves the ``%`` off); ``—`` for a missing value."""
    text = points_text(x, digits, signed=False)
    return text if text == "—" else text + sign


def interval_text(low: float | None, high: float | None, digits: int = DIGITS) -> str:
    """A change's interval as ``[-1.2, +3.4]`` points."""
    return f"[{points_text(low, digits)}, {points_text(high, digits)}]"


def change_text(change: float | None, low: float | None, high: float | None, digits: int = DIGITS) -> str:
    """A change with its interval: ``+2.1 [+0.4, +3.8]``."""
    return f"{points_text(change, digits)} {interval_text(low, high, digits)}"


def points_expr(column: str | pl.Expr, digits: int = DIGITS) -> pl.Expr:
    """:func:`points` as a polars expression (the same numbers, ``-0.0`` made ``0.0``)."""
    expr = pl.col(column) if isinstance(column, str) else column
    value = (expr * 100).round(digits)
    return pl.when(value != 0).then(value).when(value == 0).then(pl.lit(0.0))  # keeps the name and the nulls


def points_text_expr(column: str | pl.Expr, digits: int = DIGITS, *, signed: bool = True) -> pl.Expr:
    """:func:`points_text` of every value of a column, as a text column."""
    expr = pl.col(column) if isinstance(column, str) else column
    return expr.map_elements(lambda x: points_text(x, digits, signed=signed), return_dtype=pl.String, skip_nulls=False)


__all__ = [
    "DIGITS",
    "change_text",
    "interval_text",
    "percent_text",
    "points",
    "points_expr",
    "points_text",
    "points_text_expr",
]
