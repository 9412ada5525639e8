"""One formatting of rates and changes: points, one decimal, never "-0" (clashkit.base.points)."""

from __future__ import annotations

import polars as pl
import pytest

from clashkit.base.points import change_text, interval_text, percent_text, points, points_expr, points_text


@pytest.mark.parametrize(
    "x, text",
    [(0.0123, "+1.2"), (-0.031, "-3.1"), (-0.0004, "0.0"), (0.0004, "0.0"), (-0.0, "0.0"), (None, "—")],
)
def test_a_change_in_points_one_decimal_never_minus_zero(x, text):
    assert points_text(x) == text


def test_a_rate_in_points_and_an_interval():
    assert percent_text(0.4791) == "47.9%" and percent_text(0.5, sign="") == "50.0"
    assert interval_text(-0.0004, 0.021) == "[0.0, +2.1]"
    assert change_text(0.021, 0.004, 0.038) == "+2.1 [+0.4, +3.8]"
    assert points(-0.0001) == 0.0 and str(points(-0.0001)) == "0.0"


def test_the_expression_gives_the_same_numbers():
    values = [0.0123, -0.0004, 0.5, None]
    got = pl.DataFrame({"x": values}).select(points_expr("x"))["x"].to_list()
    assert got == [points(v) for v in values] and str(got[1]) == "0.0"


def test_the_command_lines_texts_use_it():
    from clashkit.studies.design import points_text as design_points_text

    assert design_points_text is points_text
