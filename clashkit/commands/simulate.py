"""``clashkit simulate``: many seeded games on every core, written as Parquet frames.

The games are played by :func:`clashkit.simulate.simulate`; the frames are
``interfaces.md`` §4's.  Every option is checked before the first game, and
the files are written only once all games are done (each to a temporary name,
then renamed), so a mistake leaves nothing behind.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..errors import OptionError
from ..rules import Rules, parse_settings


@click.command("simulate")
@click.option(
    "-n", "n", type=click.IntRange(1), default=1000, show_default=True, help="Games to play."
)
@click.option(
    "--a",
    "deck_a",
    default="1",
    show_default=True,
    metavar="DECK",
    help="A's deck: 1-4, draft, constructed, 8 comma-separated names or a file (solo: the player)",
)
@click.option(
    "--b",
    "deck_b",
    default=None,
    metavar="DECK",
    help="B's deck (default 2); none in solo mode, where the AI gets the other cards (R8.1).",
)
@click.option(
    "--policy-a",
    default="greedy",
    show_default=True,
    metavar="P",
    help="A's policy (random, greedy, search, …).",
)
@click.option(
    "--policy-b", default=None, metavar="P", help="B's policy (default: A's); ignored in solo mode."
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Master seed; game i gets its own seed from it, the same whatever --jobs.",
)
@click.option(
    "--jobs",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Worker processes (0: one per core).",
)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="Directory for games.parquet, turns.parquet and events.parquet.",
)
@click.option(
    "--events/--no-events",
    default=None,
    help="Record events (events.parquet; the reference engine only) or not. "
    "Default: recorded whenever the reference engine plays.",
)
@click.option(
    "--engine",
    type=click.Choice(["fast", "reference"]),
    default=None,
    help="fast (clashkit.fast: the same games, no events) or reference. "
    "Default: fast when both policies exist there and --events is not given.",
)
@click.option("--mode", type=click.Choice(["duel", "solo"]), default="duel", show_default=True)
@click.option(
    "--level", default=None, metavar="L", help="Solo difficulty level, 0-5 or its name (R8.9)."
)
@click.option("--settings", default=None, metavar="K=V,…", help="Solo AI settings (R8.9, R10.3).")
@click.option(
    "--free-settings", is_flag=True, help="Allow --settings whose points differ from --level."
)
@click.option(
    "--cards",
    "cards_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="A card file to play with instead of the shipped set.",
)
@click.option(
    "--rules",
    "rules_text",
    default=None,
    metavar="K=V,…",
    help="Rules options of R10.3, e.g. turn_limit=100.",
)
@click.option("--mirror", is_flag=True, help="Allow both players the same starter deck.")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def command(
    n,
    deck_a,
    deck_b,
    policy_a,
    policy_b,
    seed,
    jobs,
    out,
    events,
    engine,
    mode,
    level,
    settings,
    free_settings,
    cards_file,
    rules_text,
    mirror,
    no_progress,
) -> None:
    """Play N games between two policies and write their frames as Parquet.

    Prints A's and B's win rates and the first player's with 95% Wilson
    intervals, the first-player advantage, the mean number of turns and how
    many games hit the turn limit (R10.1).  The same seed gives the same
    files, whatever --jobs.
    """
    from ..simulate import make_matchup, simulate
    from ..stats import summarize

    out_dir = Path(out)
    if out_dir.exists() and not out_dir.is_dir():
        raise OptionError(f"--out: {out} exists and is not a directory")
    rules = (
        Rules.from_mapping(parse_settings(rules_text, where="--rules"), where="--rules")
        if rules_text
        else None
    )
    solo_settings = parse_settings(settings, where="--settings") if settings is not None else None
    if mode == "duel" and deck_b is None:
        deck_b = "2"
    options = dict(
        record_events=events,
        engine=engine,
        mode=mode,
        level=level,
        settings=solo_settings,
        free_settings=free_settings,
        cards=cards_file,
        rules=rules,
        mirror=mirror,
    )
    matchup = make_matchup(deck_a, deck_b, policy_a, policy_b, **options)  # every mistake before any game
    options.update(engine=matchup.engine, record_events=matchup.record_events)
    started = time.perf_counter()
    trace = simulate(
        n,
        deck_a,
        deck_b,
        policy_a,
        policy_b,
        seed=seed,
        jobs=jobs,
        progress=not no_progress,
        **options,
    )
    elapsed = time.perf_counter() - started
    written = trace.write_parquet(out_dir, events=matchup.record_events)
    summary = summarize(trace.games)
    if mode == "solo":
        title = (
            f"{n} solo games: player deck {deck_a} ({summary.policies[0] or policy_a}) vs the AI"
        )
    else:
        title = f"{n} games: A deck {deck_a} vs B deck {deck_b}"
    click.echo(
        f"{title}, seed {seed}: {elapsed:.1f} s ({n / max(elapsed, 1e-9):,.0f} games/s, {matchup.engine} engine)"
    )
    click.echo(str(summary))
    click.echo("wrote " + ", ".join(str(p) for p in written))
