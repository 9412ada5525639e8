"""``clashkit solo-levels``: the points of R8.9, each level's default settings, the calibration."""

from __future__ import annotations

import json

import click

from ..base.levels import (
    CHOICE_LABELS,
    DEFAULT_LEVELS,
    LEVELS,
    POINTS,
    SETTING_LABELS,
    level_settings,
    points,
    settings_text,
)
from .design_options import out_options, study_output
from .numbers import Whole


def _value_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "none" if value is None else str(value)


def points_lines() -> list[str]:
    """The R8.9 table as text: one block per setting, one line per choice."""
    lines = ["Difficulty points (R8.9); the first choice of each setting is the quick game's:", ""]
    for name, choices in POINTS.items():
        lines.append(f"  {SETTING_LABELS[name]}  [{name}]")
        for value, worth in choices.items():
            lines.append(f"    {_value_text(value):<10} {worth:+d}  {CHOICE_LABELS[name][value]}")
    return lines


def levels_lines() -> list[str]:
    """Each level with its points and its default combination of settings."""
    lines = [
        "Levels and their default settings (--level L; the other settings as in the quick game):",
        "",
    ]
    for level, name in LEVELS.items():
        settings = level_settings(level)
        worth = points(settings)
        unit = "point " if abs(worth) == 1 else "points"
        lines.append(f"  {level} {name:<7} {worth} {unit}  {settings_text(settings)}")
    lines.append("")
    lines.append("Level 5 is also called Legendary. Explicit settings must add up to the level's points")
    lines.append("unless free-form settings are asked for.")
    return lines


@click.command("solo-levels")
@click.option("--json", "as_json", is_flag=True, help="Print the table and the levels as one JSON object.")
@click.option("--calibrate", is_flag=True, help="Measure the player's win rate under each setting and level.")
@click.option(
    "-n",
    "games",
    type=Whole("games", low=1),
    default=2000,
    show_default=True,
    help="Games per configuration.",
)
@click.option("--policy", default="greedy", show_default=True, help="The player's policy in the calibration.")
@click.option("--deck", default="draft", show_default=True, help="The player's deck: 1-4, draft, or 8 names.")
@click.option("--seed", type=Whole("seed"), default=0, show_default=True, help="Seed of the first game.")
@click.option("--jobs", type=Whole("jobs", low=1), default=None, help="Worker processes (default: every core).")
@out_options("Also write the calibration frame as calibration.parquet in DIR (a run folder with its manifest).")
def command(as_json, calibrate, games, policy, deck, seed, jobs, out, force) -> None:
    """Print the difficulty points table of solo mode and the default settings of each level.

    With --calibrate, play N solo games per configuration (the quick game,
    each single setting at each value, each level's default) and print the
    player's win rate with its 95% Wilson interval, as in the documentation's "Solo difficulty".
    """
    if calibrate:
        _calibrate(games, policy, deck, seed, jobs, out, force, as_json)
        return
    if out is not None:
        raise click.UsageError("--out writes the calibration frame: add --calibrate")
    if as_json:
        table = {name: {_value_text(v): p for v, p in choices.items()} for name, choices in POINTS.items()}
        levels = {
            str(level): {
                "name": name,
                "points": points(level_settings(level)),
                "settings": {k: v for k, v in DEFAULT_LEVELS[level].items()},
            }
            for level, name in LEVELS.items()
        }
        click.echo(json.dumps({"points": table, "levels": levels}))
        return
    click.echo("\n".join([*points_lines(), "", *levels_lines()]))


def _calibrate(games, policy, deck, seed, jobs, out, force, as_json) -> None:
    from ..policies import get_policy
    from ..studies.calibration import calibrate, markdown_table, points_order

    get_policy(policy)  # an unknown policy is one clear line, before any worker starts
    # --out is opened (created, locked, checked) before any game, and written as every run is.
    asked = {"n": games, "policy": policy, "deck": deck, "seed": seed, "force": force}
    with study_output(out, "solo-levels", asked, ("calibration",)) as save:
        frame = calibrate(games, policy, deck=deck, seed=seed, jobs=jobs, progress=not as_json)
        save({"calibration": frame})
    verdict = points_order(frame)
    if as_json:
        click.echo(json.dumps({"rows": frame.to_dicts(), "order": verdict}))
        return
    click.echo(markdown_table(frame))
    click.echo("")
    click.echo(
        f"player: {policy}, deck: {deck}, {games} games per row, seeds {seed}–{seed + games - 1}. "
        f"Points vs win rate over the single settings: {verdict['concordant']} of "
        f"{verdict['pairs']} pairs "
        f"ordered as the points say, {verdict['discordant']} clearly inverted, Kendall tau-b "
        f"{verdict['kendall_tau']:.2f}; level defaults fall level by level (1 to 5): "
        f"{'yes' if verdict['levels_fall'] else 'no'}; the quick game is easier than level 1: "
        f"{'yes' if verdict['quick_easiest'] else 'no'}."
    )
    for low, low_points, high, high_points in verdict["inversions"]:
        click.echo(f"  inverted: {high} ({high_points:+d}) is easier than {low} ({low_points:+d})")
