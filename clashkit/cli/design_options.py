"""The options ``balance``, ``sweep``, ``card-stats`` and ``tune`` share, and how they print.

Every one of them plays ``-n`` games of each ordered pairing of the starter
decks (R7.1; mirrors only with ``--mirror``) between two copies of
``--policy``, or of each of ``--policies`` (weakest first) on the same seeds,
prints its progress on stderr, then either a readable report or, with
``--json``, one JSON object on one line; ``--out DIR`` also writes its frames
as Parquet.  With ``--check-strength`` (:func:`check_options`) the strongest
bot's figures are played again by the arbiter on fewer of the same games
(:mod:`clashkit.studies.design.check`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import time
from dataclasses import dataclass

import click

from ..base.errors import OptionError
from ..base.rules import Rules, parse_settings
from .numbers import Whole


def study_options(default_n: int):
    """The shared options, as keyword arguments ``n``, ``cards_file``, ``rules_text``,
    ``policy``, ``seed``, ``engine``, ``mirror``, ``jobs``, ``cluster``, ``as_json``, ``out``,
    ``force``, ``no_progress``."""

    def decorate(command):
        options = [
            click.option(
                "-n",
                "n",
                type=Whole("games", low=1),
                default=default_n,
                show_default=True,
                help="Games per ordered pairing of the starter decks.",
            ),
            cards_option(),
            click.option(
                "--rules",
                "rules_text",
                default=None,
                metavar="K=V,…",
                help="Rules options of R10.3, e.g. turn_limit=100.",
            ),
            click.option(
                "--policy", default="greedy", show_default=True, metavar="P", help="The policy of both players."
            ),
            click.option(
                "--policies",
                default=None,
                metavar="P1,P2,…",
                help="Several policies, weakest first: the study at each strength, side by side on the same "
                "seeds, with each deck's paired change between strengths (greedy,expert; search:budget=4,fair; "
                "replaces --policy).",
            ),
            click.option(
                "--seed",
                type=Whole("seed"),
                default=0,
                show_default=True,
                help="Master seed: pairing k plays seeds from seed + k, whatever the card values.",
            ),
            click.option(
                "--engine",
                type=click.Choice(["fast", "reference"]),
                default=None,
                help="The simulation engine (default: simulate's).",
            ),
            click.option("--mirror", is_flag=True, help="Also play each deck against itself."),
            click.option(
                "--jobs", type=Whole("jobs"), default=0, show_default=True, help="Worker processes (0: one per core)."
            ),
            cluster_option(),
            click.option("--json", "as_json", is_flag=True, help="Print one JSON object on one line."),
            out_options("Also write the results as Parquet files in DIR."),
            click.option("--no-progress", is_flag=True, help="No progress bar on stderr."),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def out_options(help: str):
    """``--out DIR`` and ``--force`` (keyword arguments ``out``, ``force``): the folder a command
    writes its run into (:class:`clashkit.runs.output.RunWriter`, one unit with its manifest)
    and whether it may write over files of a run's names that no clashkit run wrote there
    (refused otherwise).  The one definition of both, for every command that writes a run."""

    def decorate(command):
        command = click.option(
            "--force",
            is_flag=True,
            help="Write into --out even where it holds files of a run's names (games.parquet, manifest.json, …) "
            "that no clashkit run wrote; they are replaced or removed.",
        )(command)
        return click.option("--out", type=click.Path(file_okay=False), default=None, metavar="DIR", help=help)(command)

    return decorate


def check_options(command):
    """``--check-strength``, ``--check-policy P`` and ``--check-n N`` (as ``check_strength``,
    ``check_policy``, ``check_n``): the strength check of a study's strong-play figures
    (:func:`asked_check`)."""
    from ..studies.design.check import CHECK_GAMES_MAX, CHECK_POLICY

    options = [
        click.option(
            "--check-strength",
            is_flag=True,
            help=f"Play the strongest policy's figures again with {CHECK_POLICY} (or --check-policy) on fewer of "
            "the same games and say, deck by deck, whether the two agree (within 2 points or the noise of "
            "their paired difference).",
        ),
        click.option(
            "--check-policy",
            default=None,
            metavar="P",
            help=f"The arbiter of --check-strength (default {CHECK_POLICY}).",
        ),
        click.option(
            "--check-n",
            type=Whole("games", low=1),
            default=None,
            metavar="N",
            help=f"Games per ordered pairing of --check-strength, at most -n (default: a quarter of -n, rounded "
            f"up, at most {CHECK_GAMES_MAX}); games 0…N-1 of the study's own seeds.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclass(frozen=True)
class CheckAsk:
    """A strength check asked for: the arbiter and its games per pairing (checked)."""

    policy: str
    n: int


def asked_check(check_strength: bool, check_policy: str | None, check_n: int | None, n: int) -> CheckAsk | None:
    """The strength check the options ask for, checked before any game (``None`` without
    ``--check-strength``; ``--check-policy`` or ``--check-n`` alone are refused)."""
    from ..policies import parse_policies
    from ..studies.design.check import CHECK_POLICY, check_games

    if not check_strength:
        for name, value in (("--check-policy", check_policy), ("--check-n", check_n)):
            if value is not None:
                raise OptionError(f"{name} is an option of the strength check: add --check-strength")
        return None
    (policy,) = parse_policies([check_policy or CHECK_POLICY], where="--check-policy", least=1)
    return CheckAsk(policy, check_games(n, check_n))


def run_check(ask: CheckAsk, variants, options: dict, *, against: str, labels=None, seed: int | None = None):
    """:func:`clashkit.studies.design.check_strength` of ``variants`` with the study's options
    (its seeds unless ``seed`` is given), ``against`` its strongest policy."""
    from ..studies.design import check_strength

    kwargs = study_kwargs(**options)
    for key in ("n", "cards", "policy"):
        kwargs.pop(key)
    if seed is not None:
        kwargs["seed"] = seed
    return check_strength(variants, ask.n, against=against, policy=ask.policy, labels=labels, **kwargs)


def with_check(data: dict, text: str, check) -> tuple[dict, str]:
    """A study's JSON object and text with its strength check (``check`` ``None``: as they are)."""
    if check is None:
        return data, text
    return {**data, "check": check.to_dict()}, f"{text}\n\n{check}"


def cards_option(help: str = "A card file to play with instead of the shipped set."):
    """``--cards FILE`` (as ``cards_file``): a card file read by the command (docs/cards.md)."""
    return click.option(
        "--cards", "cards_file", type=click.Path(dir_okay=False), default=None, metavar="FILE", help=help
    )


def cluster_option():
    """``--cluster local:N | tcp://HOST:PORT``, checked as it is read (:func:`clashkit.runs.cluster.parse_cluster`)."""

    def check(ctx, param, value):
        if value is None:
            return None
        from ..runs.cluster import parse_cluster

        return str(parse_cluster(value))

    return click.option(
        "--cluster",
        default=None,
        metavar="local:N|tcp://HOST:PORT|tls://HOST:PORT",
        callback=check,
        help="Play on Dask instead of --jobs: N worker processes on 127.0.0.1, or a running dask scheduler "
        "(the same results).",
    )


def study_kwargs(
    *,
    n,
    cards_file,
    rules_text,
    policy,
    seed,
    engine,
    mirror,
    jobs,
    no_progress,
    cluster=None,
    policies=None,
    force=False,
) -> dict:
    """The keyword arguments of the :mod:`clashkit.studies.design` functions from the shared options
    (``force`` is the output's: :func:`study_output` takes it)."""
    rules = Rules.from_mapping(parse_settings(rules_text, where="--rules"), where="--rules") if rules_text else None
    return dict(
        n=n,
        cards=cards_file,
        rules=rules,
        policy=policy,
        seed=seed,
        engine=engine,
        mirror=mirror,
        jobs=jobs or None,
        progress=not no_progress,
        cluster=cluster,
    )


def strengths(options: dict) -> list[str]:
    """The strengths a study plays: ``--policies`` (weakest first), else ``--policy`` as a list of
    one; each checked, an unknown one refused naming the option and the bots
    (:func:`clashkit.policies.parse_policies`).  The one parser of both options."""
    from ..policies import parse_policies

    if options.get("policies") is not None:
        return parse_policies(options["policies"], where="--policies", least=1)
    return parse_policies([options["policy"]], where="--policy", least=1)


def policy_list(options: dict) -> list[str] | None:
    """``--policies`` checked (:func:`strengths`), or ``None`` when not given."""
    return None if options.get("policies") is None else strengths(options)


def labelled(frames: dict, column: str = "policy"):
    """One frame from ``{policy: frame}``, the policy as its first column."""
    import polars as pl

    return pl.concat([f.select(pl.lit(p).alias(column), pl.all()) for p, f in frames.items()])


def timed(function):
    """Call ``function`` and return (its result, seconds taken)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        result = function(*args, **kwargs)
        return result, time.perf_counter() - started

    return wrapper


def emit(data: dict, text: str, *, as_json: bool) -> None:
    """The report: ``data`` as one JSON line (NaN as null), or ``text``."""
    if as_json:
        click.echo(json.dumps(_finite(data), ensure_ascii=False))
    else:
        click.echo(text)


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


@contextlib.contextmanager
def study_output(out, command: str, options: dict, files: tuple[str, ...]):
    """``--out DIR`` opened (created, locked) before any game is played; yields ``save(frames)``.

    The folder is written as one unit with its manifest, as ``clashkit
    simulate`` writes a run (:class:`clashkit.runs.output.RunWriter`), over
    files no clashkit run wrote only with ``options["force"]`` (``--force``);
    without ``--out`` ``save`` does nothing.
    """
    if out is None:
        yield lambda frames: None
        return
    from ..runs.output import RunWriter

    # How the games were spread (--jobs, --cluster) does not change the results.
    run = {"command": command, **{k: v for k, v in options.items() if k not in ("no_progress", "cluster", "force")}}
    created = not os.path.lexists(out)
    try:
        with RunWriter(out, run, files=files, force=bool(options.get("force"))) as writer:
            yield writer.commit
    except BaseException:
        # A study that failed before its first frame (a cluster that cannot be used, an
        # interrupt) leaves no folder it made: only an empty one is removed.
        if created:
            with contextlib.suppress(OSError):
                os.rmdir(out)
        raise
