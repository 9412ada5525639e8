"""``clashkit simulate``: many seeded games on every core, written as Parquet frames.

The games are played by :func:`clashkit.runs.simulate.simulate_to`; the frames
are :mod:`clashkit.runs.trace`'s.  Every option, and that ``--out`` can be
written, is checked before the first game.  Finished parts are written as
they come and assembled at the end, ``manifest.json`` last
(:mod:`clashkit.runs.output`), so the folder holds one whole run or the previous
one, never a mixture; Ctrl-C or SIGTERM stops the workers and keeps the
finished parts, and ``--resume`` continues the run.
"""

from __future__ import annotations

import sys
import time

import click

from ..base.errors import OptionError
from ..base.limits import check_path
from ..base.rules import Rules, parse_settings
from .design_options import cards_option, cluster_option, out_options
from .numbers import Whole


@click.command("simulate")
@click.option(
    "-n",
    "n",
    type=Whole("games", low=1),
    default=1000,
    show_default=True,
    help="Games to play.",
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
    help="A's policy (random, greedy, search, expert, deep, …).",
)
@click.option("--policy-b", default=None, metavar="P", help="B's policy (default: A's); ignored in solo mode.")
@click.option(
    "--seed",
    type=Whole("seed"),
    default=0,
    show_default=True,
    help="Master seed; game i gets its own seed from it, the same whatever --jobs.",
)
@click.option(
    "--jobs",
    type=Whole("jobs"),
    default=0,
    show_default=True,
    help="Worker processes (0: one per core; at most one per core).",
)
@cluster_option()
@out_options(
    "Directory for games.parquet, turns.parquet, events.parquet and manifest.json "
    "(default: a folder of the run's own, runs/simulate-sSEED-nN-DIGEST, the same for the same options)."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the interrupted run in --out (the same options) without replaying its finished games.",
)
@click.option(
    "--events/--no-events",
    default=None,
    help="Record events (events.parquet; both engines record the same) or not. "
    "Default: recorded when the reference engine plays, not when the fast one does.",
)
@click.option(
    "--engine",
    type=click.Choice(["fast", "reference"]),
    default=None,
    help="fast (clashkit.fast: the same games and events, compiled) or reference. "
    "Default: fast when both policies exist there.",
)
@click.option("--mode", type=click.Choice(["duel", "solo"]), default="duel", show_default=True)
@click.option("--level", default=None, metavar="L", help="Solo difficulty level, 0-5 or its name (R8.9).")
@click.option("--settings", default=None, metavar="K=V,…", help="Solo AI settings (R8.9, R10.3).")
@click.option("--free-settings", is_flag=True, help="Allow --settings whose points differ from --level.")
@cards_option()
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
    cluster,
    out,
    force,
    resume,
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
    files, whatever --jobs or --cluster.  An interrupted run keeps its finished
    games; --resume continues it (on a cluster or not).  Without --out the run
    gets a folder of its own under runs/, named after its options, never the
    current folder.
    """
    import polars as pl

    from ..base.stats import summarize
    from ..runs.simulate import default_out, play_matchup_to
    from ..runs.spec import Matchup
    from ..runs.workers import Terminated

    if out is not None:
        out_dir = check_path(out, "--out", OptionError)
        if out_dir.exists() and not out_dir.is_dir():
            raise OptionError(f"--out: {out} exists and is not a directory")
    rules = Rules.from_mapping(parse_settings(rules_text, where="--rules"), where="--rules") if rules_text else None
    solo_settings = parse_settings(settings, where="--settings") if settings is not None else None
    if mode == "duel" and deck_b is None:
        deck_b = "2"
    started = time.perf_counter()
    matchup = Matchup.build(
        deck_a,
        deck_b,
        policy_a,
        policy_b,
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
    if out is None:
        out_dir = default_out(n, seed, matchup)
    try:
        written = play_matchup_to(
            out_dir,
            matchup,
            n,
            seed=seed,
            jobs=jobs,
            cluster=cluster,
            progress=not no_progress,
            resume=resume,
            force=force,
            warn=lambda message: click.echo(f"clashkit: note: --jobs: {message}", err=True),
        )
    except KeyboardInterrupt as stop:
        signal_name = "SIGTERM" if isinstance(stop, Terminated) else "interrupted"
        click.echo(
            f"clashkit: {signal_name}: stopped; the finished games are kept in {out_dir} "
            "(the same command with --resume continues the run)",
            err=True,
        )
        sys.exit(143 if isinstance(stop, Terminated) else 130)
    elapsed = time.perf_counter() - started
    # The summary streams through the games file: memory stays flat at any n.
    games = pl.scan_parquet(out_dir / "games.parquet")
    summary = summarize(games)
    if summary.games:
        engine = games.select(pl.col("engine").first()).collect().item()
    if mode == "solo":
        title = f"{n} solo games: player deck {deck_a} ({summary.policies[0] or policy_a}) vs the AI"
    else:
        title = f"{n} games: A deck {deck_a} vs B deck {deck_b}"
    click.echo(f"{title}, seed {seed}: {elapsed:.1f} s ({n / max(elapsed, 1e-9):,.0f} games/s, {engine} engine)")
    click.echo(str(summary))
    click.echo("wrote " + ", ".join(str(p) for p in written) + f", {out_dir / 'manifest.json'}")
    if out is None:
        click.echo(f"(no --out: {out_dir} is the run's own folder, named after its seed, n and options)")
