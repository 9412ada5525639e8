"""Whole-number options, read by :func:`clashkit.base.limits.whole_number`.

``click.IntRange`` reads with ``int()``, which also takes other scripts'
digits (``--seed ١`` is 1) and converts a number of any length; these types
take ASCII digits only, within the quantity's range in :data:`clashkit.base.limits.LIMITS`.
"""

from __future__ import annotations

import click

from ..base.errors import InputError
from ..base.limits import LIMITS, whole_number


class Whole(click.ParamType):
    """A whole number within ``LIMITS[name]`` (from ``low`` if given)."""

    name = "integer"

    def __init__(self, limit: str, low: int | None = None) -> None:
        self.limit = limit
        self.low = low

    def convert(self, value, param, ctx):
        where = f"--{param.name}" if param is not None and param.name else self.limit
        if param is not None and param.opts:
            where = max(param.opts, key=len)
        try:
            number = whole_number(value, self.limit, where)
        except InputError as e:
            self.fail(str(e).removeprefix(f"{where}: "), param, ctx)
        if self.low is not None and number < self.low:
            self.fail(f"must be at least {self.low}, not {number}", param, ctx)
        return number

    def get_metavar(self, param, ctx=None):
        low = self.low if self.low is not None else LIMITS[self.limit].low
        return f"INTEGER {low}…{LIMITS[self.limit].high}"


__all__ = ["Whole"]
