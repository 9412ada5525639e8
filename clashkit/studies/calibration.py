"""Solo difficulty calibration (R8.9): how often a bot beats the AI under each setting.

Do the difficulty points measure difficulty?  :func:`calibrate` plays the
same seeded solo games (the player drafts against the AI, R8.1, unless told
otherwise) under the quick game, under each setting of the R8.9 table at each
of its values one at a time, and under the default combination of each level
(:data:`clashkit.base.levels.DEFAULT_LEVELS`), and returns one row per
configuration with the player's win rate and its 95% Wilson interval::

    >>> from clashkit.studies.calibration import calibrate
    >>> frame = calibrate(n=2000, policy="greedy", jobs=2)       # doctest: +SKIP

Game ``i`` of every configuration uses seed ``seed + i``, so the
configurations are compared on the same drafts and shuffles (common random
numbers) and the whole table is reproducible; the number of worker processes
changes nothing in it.  ``python benchmarks/solo_calibration.py`` and
``clashkit solo-levels --calibrate`` print it; the documentation's "Solo difficulty"
page (docs/guide/solo.md) shows a run.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..base.levels import DEFAULT_LEVELS, LEVELS, POINTS, all_settings, points, settings_text
from ..base.points import percent_text
from ..base.rules import Rules, SoloSettings
from ..base.stats import kendall, wilson
from ..runs.workers import run_tasks

#: The columns of a calibration frame.
CALIBRATION_SCHEMA = pl.Schema(
    {  # type: ignore[arg-type]  # mypy joins the dtype classes and pl.Enum value to object
        "group": pl.Enum(["quick", "single", "level", "combination", "extra"]),
        "label": pl.String,
        "settings": pl.String,
        "points": pl.Int8,
        "level": pl.Int8,
        "games": pl.UInt32,
        "wins": pl.UInt32,
        "unfinished": pl.UInt32,
        "win_rate": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
        "mean_turns": pl.Float64,
    }
)


@dataclass(frozen=True, slots=True)
class Configuration:
    """One row of the calibration: a name, its group and the AI settings."""

    group: str
    label: str
    settings: SoloSettings
    level: int | None = None


def plan(
    *,
    singles: bool = True,
    levels: Iterable[int] = range(1, 6),
    extra: Mapping[str, SoloSettings | Mapping[str, Any]] | None = None,
) -> list[Configuration]:
    """The configurations of a calibration: quick game, each single setting, each level default."""
    out = [Configuration("quick", "quick game", SoloSettings(), 0)]
    if singles:
        for name, choices in POINTS.items():
            for value in list(choices)[1:]:
                settings = SoloSettings.from_mapping({name: value})
                out.append(Configuration("single", settings_text(settings), settings))
    for level in levels:
        settings = SoloSettings.from_mapping(DEFAULT_LEVELS[level])
        out.append(Configuration("level", f"{level} {LEVELS[level]}", settings, level))
    for label, given in (extra or {}).items():
        settings = given if isinstance(given, SoloSettings) else SoloSettings.from_mapping(given)
        out.append(Configuration("extra", label, settings))
    return out


def every_combination() -> list[Configuration]:
    """One configuration for each of the 720 combinations of the R8.9 table."""
    return [Configuration("combination", settings_text(s), s) for s in all_settings()]


def _play_chunk(job: tuple[SoloSettings, Rules, str, Any, int, int]) -> tuple[int, int, int, int]:
    """(wins, unfinished, games, turns) of games ``start … start+count-1`` under ``settings``."""
    from ..engine.solo_setup import solo_setup
    from ..policies import get_policy
    from ..runs.game import play

    settings, rules, policy, deck, start, count = job
    rules = rules.replace(solo=settings)
    wins = unfinished = turns = 0
    for seed in range(start, start + count):
        state = solo_setup(deck, get_policy(policy), rules=rules, seed=seed, record=False).state
        play(state, policy)
        wins += state.winner == 0
        unfinished += state.winner is None
        turns += state.turn
    return wins, unfinished, count, turns


def calibrate(
    n: int = 2000,
    policy: str = "greedy",
    *,
    deck: Any = "draft",
    seed: int = 0,
    jobs: int | None = None,
    rules: Rules | None = None,
    configurations: Iterable[Configuration] | None = None,
    progress: bool = False,
) -> pl.DataFrame:
    """The player's win rate against the AI for each configuration of :func:`plan`.

    ``policy`` is the player's (a policy name, so that worker processes can
    make their own); ``deck`` a solo deck spec (see :mod:`clashkit.engine.solo_setup`);
    ``rules`` the other options of R10.3.  Unfinished games (R10.1) count as
    not won.  ``jobs`` worker processes (default: every core).
    """
    configurations = list(configurations if configurations is not None else plan())
    rules = rules if rules is not None else Rules()
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    chunk = max(1, min(250, math.ceil(n / max(1, jobs * 4))))
    work = [
        (i, (c.settings, rules, policy, deck, seed + start, min(chunk, n - start)))
        for i, c in enumerate(configurations)
        for start in range(0, n, chunk)
    ]
    totals = [[0, 0, 0, 0] for _ in configurations]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n * len(configurations), unit="game", desc="solo calibration")

    def add(i: int, result: tuple[int, int, int, int]) -> None:
        for k in range(4):
            totals[i][k] += result[k]
        if bar is not None:
            bar.update(result[2])

    for i, result in run_tasks(_play_chunk, ((i, (job,)) for i, job in work), jobs=jobs, call="calibrate"):
        add(i, result)
    if bar is not None:
        bar.close()
    rows = []
    for c, (wins, unfinished, games, turns) in zip(configurations, totals, strict=True):
        low, high = wilson(wins, games)
        rows.append(
            {
                "group": c.group,
                "label": c.label,
                "settings": settings_text(c.settings),
                "points": points(c.settings),
                "level": c.level,
                "games": games,
                "wins": wins,
                "unfinished": unfinished,
                "win_rate": wins / games if games else 0.0,
                "ci_low": low,
                "ci_high": high,
                "mean_turns": turns / games if games else 0.0,
            }
        )
    return pl.DataFrame(rows, schema=CALIBRATION_SCHEMA)


def points_order(frame: pl.DataFrame) -> dict[str, Any]:
    """Do the points order the difficulty?  Compares points with win rates in a calibration frame.

    Over the quick game and the single settings, every pair with different
    points is *concordant* when more points give a lower win rate, *discordant*
    when they give a higher one with non-overlapping 95% intervals, and
    *unresolved* otherwise.  Returns the counts, Kendall's tau-b over those
    rows, the discordant pairs, whether the level rows' win rates fall
    strictly from level 1 to 5 (``levels_fall``), and whether the quick game's
    is above level 1's (``quick_easiest``).
    """
    rows = frame.filter(pl.col("group").is_in(["quick", "single"])).to_dicts()
    concordant = discordant = unresolved = 0
    inversions = []
    for i, a in enumerate(rows):
        for b in rows[i + 1 :]:
            if a["points"] == b["points"]:
                continue
            low, high = (a, b) if a["points"] < b["points"] else (b, a)
            if low["win_rate"] > high["win_rate"]:
                concordant += 1
            elif low["ci_high"] < high["ci_low"]:
                discordant += 1
                inversions.append((low["label"], low["points"], high["label"], high["points"]))
            else:
                unresolved += 1
    levels = frame.filter(pl.col("group") == "level").sort("level")["win_rate"].to_list()
    quick = frame.filter(pl.col("group") == "quick")["win_rate"].to_list()
    return {
        "pairs": concordant + discordant + unresolved,
        "concordant": concordant,
        "discordant": discordant,
        "unresolved": unresolved,
        "kendall_tau": _kendall_tau([r["points"] for r in rows], [-r["win_rate"] for r in rows]),
        "inversions": inversions,
        "levels_fall": all(a > b for a, b in zip(levels, levels[1:], strict=False)),
        "quick_easiest": bool(quick and levels and quick[0] > levels[0]),
    }


def measured_points(frame: pl.DataFrame) -> pl.Series:
    """What each row is worth in the R8.9 table's own unit, as measured: fixed-mana points.

    A row's change in the log-odds of the player's win rate from the quick
    game, divided by the mean change per point of ``ai_fixed_mana`` (the
    single-setting rows 7–10, the setting whose points track the win rate
    most evenly).  The quick game is 0 and the fixed-mana rows land near
    their own points; a row reading 4.5 makes the game as much harder as
    4.5 points of fixed mana would.  Rates get half a win either way so that
    0% stays finite.  Null without the quick game and fixed-mana rows.
    """

    def logit(row: dict) -> float:
        p = (row["wins"] + 0.5) / (row["games"] + 1)
        return math.log(p / (1 - p))

    rows = frame.to_dicts()
    quick = [r for r in rows if r["group"] == "quick"]
    mana = [r for r in rows if r["group"] == "single" and r["label"].startswith("ai_fixed_mana=")]
    if not quick or not mana:
        return pl.Series("measured_points", [None] * len(rows), dtype=pl.Float64)
    base = logit(quick[0])
    points = sum(r["points"] for r in mana)
    per_point = sum(base - logit(r) for r in mana) / points if points else 0.0
    if not per_point:  # fixed mana did not move the win rate (a few games): no unit to measure in
        return pl.Series("measured_points", [None] * len(rows), dtype=pl.Float64)
    return pl.Series("measured_points", [(base - logit(r)) / per_point for r in rows])


def points_summary(frame: pl.DataFrame) -> pl.DataFrame:
    """Win rates by difficulty points: how many combinations, the lowest, median and highest rate.

    Run on :func:`every_combination`, it shows how far apart combinations
    worth the same points can be, and how much the levels overlap.
    """
    return (
        frame.group_by("points")
        .agg(
            pl.len().alias("combinations"),
            pl.col("win_rate").min().alias("lowest"),
            pl.col("win_rate").median().alias("median"),
            pl.col("win_rate").max().alias("highest"),
            pl.col("label").sort_by("win_rate").last().alias("easiest"),
        )
        .sort("points")
    )


def suggest_levels(frame: pl.DataFrame, games: int | None = None) -> dict[int, str]:
    """One combination per level 1–5 whose win rates fall level by level, as far apart as possible.

    Among the rows of ``frame`` (a run over :func:`every_combination`), picks
    for each level a combination worth exactly that many points so that the
    quick game's win rate and the five picks fall strictly, maximising the
    smallest gap between neighbours in standard errors (``games`` games per
    row; default the frame's).  Returns level → settings text.  Pick on one
    set of seeds and check the picks on another: the best of many noisy rows
    looks better than it is.
    """
    rows = frame.to_dicts()
    n = games or max(r["games"] for r in rows)
    quick = [r for r in rows if r["points"] == 0 and r["settings"] == "-"]
    if not quick:
        raise ValueError("the frame has no quick-game row (settings '-')")

    def gap(high: float, low: float) -> float:
        spread = math.sqrt((high * (1 - high) + low * (1 - low)) / n) or 1 / n
        return (high - low) / spread

    # best[label] = (smallest gap so far, the path of labels)
    best: dict[str, tuple[float, list[str]]] = {quick[0]["settings"]: (math.inf, [])}
    rate = {r["settings"]: r["win_rate"] for r in rows}
    for level in range(1, 6):
        step = {}
        for r in (r for r in rows if r["points"] == level):
            options = [
                (min(score, gap(rate[prev], r["win_rate"])), path)
                for prev, (score, path) in best.items()
                if rate[prev] > r["win_rate"]
            ]
            if options:
                score, path = max(options, key=lambda o: o[0])
                step[r["settings"]] = (score, [*path, r["settings"]])
        if not step:
            raise ValueError(f"no combination for level {level} below the level before")
        best = step
    _, path = max(best.values(), key=lambda o: o[0])
    return dict(enumerate(path, start=1))


def _kendall_tau(x: list[float], y: list[float]) -> float:
    """Kendall's tau-b (:func:`clashkit.base.stats.kendall`), 0 where it is undefined (no pair ordered)."""
    value = kendall(x, y)
    return 0.0 if math.isnan(value) else value


def markdown_table(frame: pl.DataFrame) -> str:
    """The calibration frame as the markdown table of the documentation (docs/guide/solo.md)."""
    measured = measured_points(frame).to_list()
    lines = [
        "| group | configuration | points | win rate | 95% interval | measured points | mean turns |",
        "| --- | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for r, worth in zip(frame.iter_rows(named=True), measured, strict=True):
        name = r["label"] if r["group"] in ("quick", "level") else f"`{r['settings']}`"
        if r["group"] == "level":
            name = f"{name}: `{r['settings']}`"
        lines.append(
            f"| {r['group']} | {name} | {r['points']:+d} | "
            f"{percent_text(r['win_rate'])} | {percent_text(r['ci_low'], sign='')}–{percent_text(r['ci_high'])} | "
            f"{'' if worth is None else f'{worth:+.1f}'} | {r['mean_turns']:.1f} |"
        )
    return "\n".join(lines)


__all__ = [
    "CALIBRATION_SCHEMA",
    "Configuration",
    "calibrate",
    "every_combination",
    "markdown_table",
    "measured_points",
    "plan",
    "points_order",
    "points_summary",
    "suggest_levels",
    "wilson",
]
