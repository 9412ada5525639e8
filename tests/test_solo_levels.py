"""``clashkit solo-levels`` and the difficulty calibration (R8.9)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from helpers import cli

from clashkit.base.levels import DEFAULT_LEVELS, LEVELS, POINTS, level_settings, points, settings_text
from clashkit.base.rules import parse_settings
from clashkit.studies.calibration import (
    CALIBRATION_SCHEMA,
    calibrate,
    every_combination,
    measured_points,
    plan,
    points_order,
    points_summary,
    suggest_levels,
    wilson,
)


def test_solo_levels_prints_the_points_table_and_each_level_default():
    done = cli("solo-levels")
    assert done.returncode == 0 and done.stderr == ""
    for name in POINTS:
        assert f"[{name}]" in done.stdout
    for level, name in LEVELS.items():
        text = settings_text(level_settings(level))
        unit = "point " if level == 1 else "points"
        assert f"{level} {name:<7} {level} {unit}  {text}" in done.stdout


def test_solo_levels_json():
    done = cli("solo-levels", "--json")
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert out["points"]["ai_fixed_mana"] == {"6": 0, "7": 1, "8": 2, "9": 3, "10": 4}
    assert out["points"]["ai_starts_as_fort"] == {"false": 0, "true": -1}
    assert out["points"]["ai_pile_damage"] == {"full": 0, "minus_one": 2, "one": 2}
    for level in LEVELS:
        assert out["levels"][str(level)]["points"] == level
        assert out["levels"][str(level)]["settings"] == DEFAULT_LEVELS[level]


def test_solo_levels_bad_policy_is_one_line_and_status_2():
    done = cli("solo-levels", "--calibrate", "-n", "2", "--policy", "nobody")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("clashkit: error: unknown policy 'nobody'")


def test_settings_text_parses_back():
    for settings in (level_settings(level) for level in LEVELS):
        text = settings_text(settings)
        if text != "-":
            assert level_settings(0).from_mapping(parse_settings(text)) == settings


def test_plan_has_the_quick_game_every_single_setting_and_every_level():
    rows = plan()
    assert [c.group for c in rows].count("quick") == 1
    singles = [c for c in rows if c.group == "single"]
    assert len(singles) == sum(len(choices) - 1 for choices in POINTS.values()) == 14
    assert all(len(c.label.split(",")) == 1 for c in singles)
    assert [c.level for c in rows if c.group == "level"] == [1, 2, 3, 4, 5]
    assert len(every_combination()) == 720


def test_calibrate_frame_schema_and_same_numbers_with_any_number_of_workers():
    configurations = plan(singles=False, levels=[1, 5])
    one = calibrate(30, "random", jobs=1, configurations=configurations)
    two = calibrate(30, "random", jobs=2, configurations=configurations)
    assert one.schema == CALIBRATION_SCHEMA
    assert one.equals(two)
    assert one["games"].to_list() == [30, 30, 30]
    assert one["points"].to_list() == [0, 1, 5]
    for row in one.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson(row["wins"], row["games"]))


def test_wilson_interval():
    low, high = wilson(0, 2000)
    assert low == 0 and 0.0018 < high < 0.0020
    low, high = wilson(1000, 2000)
    assert low == pytest.approx(1 - high)


def _frame(rows):
    base = {"group": "single", "level": None, "games": 1000, "unfinished": 0, "mean_turns": 9.0}
    out = []
    for label, worth, rate in rows:
        low, high = wilson(round(rate * 1000), 1000)
        out.append(
            {
                **base,
                "group": "quick" if worth == 0 else base["group"],
                "label": label,
                "settings": label,
                "points": worth,
                "wins": round(rate * 1000),
                "win_rate": rate,
                "ci_low": low,
                "ci_high": high,
            }
        )
    return pl.DataFrame(out, schema=CALIBRATION_SCHEMA)


def test_points_order_counts_inversions():
    frame = _frame([("-", 0, 0.20), ("a", 1, 0.10), ("b", 2, 0.15), ("c", 2, 0.02)])
    verdict = points_order(frame)
    # a(1) vs b(2): b easier, intervals apart → inverted; every other pair is in order.
    assert (verdict["pairs"], verdict["concordant"], verdict["discordant"]) == (5, 4, 1)
    assert verdict["inversions"] == [("a", 1, "b", 2)]


def test_suggest_levels_picks_a_falling_ladder_by_points():
    rows = [("-", 0, 0.30)] + [
        (f"p{p}x{k}", p, rate) for p in range(1, 6) for k, rate in enumerate((0.30 - 0.05 * p, 0.31 - 0.02 * p, 0.5))
    ]
    picked = suggest_levels(_frame(rows))
    assert picked == {1: "p1x0", 2: "p2x0", 3: "p3x0", 4: "p4x0", 5: "p5x0"}
    summary = points_summary(_frame(rows))
    assert summary["combinations"].to_list() == [1, 3, 3, 3, 3, 3]


def test_every_level_default_adds_up():
    assert [points(level_settings(level)) for level in LEVELS] == list(LEVELS)


def test_measured_points_are_in_fixed_mana_points():
    # Each point of fixed mana takes exactly 0.5 off the log-odds of winning.
    import math

    def rate(logit):
        return 1 / (1 + math.exp(-logit))

    rows = [("-", 0, rate(1.0))]
    rows += [(f"ai_fixed_mana={6 + k}", k, rate(1.0 - 0.5 * k)) for k in range(1, 5)]
    rows += [("ai_first=true", 1, rate(1.0 - 1.5)), ("ai_starts_as_fort=true", -1, rate(2.0))]
    frame = _frame(rows).with_columns(pl.lit(10**6, dtype=pl.UInt32).alias("games"))
    frame = frame.with_columns((pl.col("win_rate") * 10**6).round().cast(pl.UInt32).alias("wins"))
    measured = measured_points(frame).to_list()
    assert measured == pytest.approx([0, 1, 2, 3, 4, 3, -2], abs=0.01)
