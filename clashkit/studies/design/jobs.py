"""Jobs: one pairing, one card set, one seed range, as plain data that any worker can play
(:func:`play_job`), run through :func:`run_jobs` on this machine or a cluster, with
estimates of the time they take."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

import polars as pl

from ...base.cards import CardSet
from ...base.rules import Rules
from ...runs.simulate import simulate
from ...runs.workers import run_tasks

#: Fewer games than this are played in this process whatever the number of workers asked for.
SMALL_BATCH = 1000


@dataclass(frozen=True, slots=True)
class Settings:
    """What every game of a study shares besides the cards: the policy of both players (or of
    seat A, with ``opponent`` the policy of seat B), the rules options (R10.3) and the engine
    (``None``: simulate's default)."""

    policy: str = "greedy"
    rules: Rules | None = None
    engine: str | None = None
    opponent: str | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """Games ``0 … n-1`` of master ``seed`` between starter decks ``deck_a`` (seat A) and
    ``deck_b`` of ``cards``; with ``events`` also which cards were played, and when."""

    deck_a: int
    deck_b: int
    seed: int
    n: int
    cards: CardSet
    settings: Settings = Settings()
    events: bool = False

    @property
    def key(self) -> tuple:
        """Equal for jobs that play the same games: same seats, seeds and settings, and the
        same cards in both decks (the rest of the set is never dealt)."""
        decks = self.cards.decks
        dealt = tuple(self.cards.card(name) for name in decks[self.deck_a] + decks[self.deck_b])
        return (self.deck_a, self.deck_b, self.seed, self.n, self.settings, self.events, self.cards.names, dealt)


@dataclass(frozen=True, slots=True)
class JobResult:
    """One row per game (``game``, ``first_player``, ``winner``, ``turns``) and, for a job
    with events, one row per card dealt to each player (:func:`_card_plays`)."""

    games: pl.DataFrame
    plays: pl.DataFrame | None = None


def _plays_of(result: JobResult) -> pl.DataFrame:
    """The card plays of a job played with events (there ``plays`` is set)."""
    assert result.plays is not None, "a job played with events counts its card plays"
    return result.plays


class _EngineKw(TypedDict, total=False):
    engine: str


def _engine_kw(engine: str | None) -> _EngineKw:
    """``engine=`` for :func:`simulate` only when asked for, so the same code runs on a
    simulate without engines."""
    return {} if engine is None else {"engine": engine}


def play_job(job: Job) -> JobResult:
    """Play one :class:`Job` in this process."""
    engine = job.settings.engine
    trace = simulate(
        job.n,
        str(job.deck_a),
        str(job.deck_b),
        job.settings.policy,
        job.settings.opponent or job.settings.policy,
        seed=job.seed,
        jobs=1,
        record_events=job.events,
        cards=job.cards,
        rules=job.settings.rules,
        mirror=job.deck_a == job.deck_b,
        progress=False,
        **_engine_kw(engine),
    )
    games = trace.games.select(
        "game",
        pl.col("first_player").cast(pl.String),
        pl.col("winner").cast(pl.String),
        pl.col("turns").cast(pl.Int32),
    )
    return JobResult(games, _card_plays(trace) if job.events else None)


def _card_plays(trace) -> pl.DataFrame:
    """One row per game, player and card dealt to that player: ``played`` (at least once),
    ``first_turn`` (the owner's own turn number of its first play, 1 = the owner's first
    turn), ``hand_health_after`` (the owner's hand-health at the end of the turn after
    that first play, R1.5; null if the game ended first) and ``won``."""
    games = trace.games.select(
        "game",
        "deck_a",
        "deck_b",
        pl.col("first_player").cast(pl.String),
        pl.col("winner").cast(pl.String),
    )
    dealt = pl.concat(
        [
            games.select(
                "game",
                pl.lit(side).alias("player"),
                pl.col(f"deck_{side.lower()}").alias("card"),
                "first_player",
                "winner",
            ).explode("card")
            for side in ("A", "B")
        ]
    )
    events = trace.events.select(
        "game",
        "turn",
        pl.col("player").cast(pl.String),
        pl.col("kind").cast(pl.String),
        pl.col("card").cast(pl.String),
        "hand_health_a",
        "hand_health_b",
    )
    first = (
        events.filter(pl.col("kind") == "card_played")
        .group_by("game", "player", "card")
        .agg(pl.col("turn").min().alias("turn"))
    )
    end_of_turn = events.group_by("game", "turn").agg(pl.col("hand_health_a").last(), pl.col("hand_health_b").last())
    after = first.join(
        end_of_turn.with_columns((pl.col("turn") - 1).alias("turn")), on=["game", "turn"], how="left"
    ).select(
        "game",
        "player",
        "card",
        "turn",
        pl.when(pl.col("player") == "A")
        .then(pl.col("hand_health_a"))
        .otherwise(pl.col("hand_health_b"))
        .cast(pl.Float64)
        .alias("hand_health_after"),
    )
    rows = dealt.join(after, on=["game", "player", "card"], how="left")
    own_turn = (
        pl.when(pl.col("player") == pl.col("first_player"))
        .then((pl.col("turn").cast(pl.Int32) + 1) // 2)
        .otherwise(pl.col("turn").cast(pl.Int32) // 2)
    )
    return rows.select(
        "game",
        "player",
        "card",
        pl.col("turn").is_not_null().alias("played"),
        own_turn.alias("first_turn"),
        "hand_health_after",
        (pl.col("winner") == pl.col("player")).fill_null(False).alias("won"),
    )


Runner = Callable[[Sequence[Job]], Iterable[JobResult]]


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int | None = 1,
    progress: bool = False,
    desc: str = "games",
    runner: Runner | None = None,
    cache: dict | None = None,
) -> list[JobResult]:
    """The results of ``jobs``, in order; jobs with equal :attr:`Job.key` are played once.

    ``runner`` plays a list of distinct jobs and returns their results in the same order
    (default: :func:`play_local` with ``workers`` processes, ``None`` or ``0`` meaning one
    per core).  ``cache`` (a dict) keeps results between calls.
    """
    cache = {} if cache is None else cache
    todo: dict[tuple, Job] = {}
    for job in jobs:
        key = job.key
        if key not in cache and key not in todo:
            todo[key] = job
    if todo:
        pending = list(todo.values())
        if runner is None:
            estimate = estimate_seconds(pending, workers=workers) if progress and plays_search(pending) else None
            results = play_local(pending, workers=workers, progress=progress, desc=desc, estimate=estimate)
        else:
            results = list(runner(pending))
        if len(results) != len(pending):
            raise RuntimeError(f"the runner returned {len(results)} results for {len(pending)} jobs")
        cache.update(zip(todo, results, strict=True))
    return [cache[job.key] for job in jobs]


def plays_search(jobs: Sequence[Job]) -> bool:
    """Whether any of ``jobs`` plays a ``search`` policy or ``expert`` (search's machinery one
    turn deep): slow enough to be worth an estimate."""
    return any(_is_search(p) for job in jobs for p in (job.settings.policy, job.settings.opponent))


def _is_search(policy: str | None) -> bool:
    return policy is not None and str(policy).strip().lower().startswith(("search", "expert"))


#: Games the two timing probes play on the fast engine (after one untimed game that loads its
#: compiled code): the difference of their times is the cost of a game, the rest a job's own
#: (building its frames costs some tens of milliseconds however few its games).
FAST_PROBE_GAMES = 8
FAST_PROBE_GAMES_LARGE = 4 * FAST_PROBE_GAMES


def _timed(job: Job) -> float:
    import time

    started = time.perf_counter()
    play_job(job)
    return time.perf_counter() - started


def estimate_seconds(jobs: Sequence[Job], *, workers: int | None = 1) -> float:
    """How long ``jobs`` will take on this machine, from timing probes on the engine that will
    play them, one policy at a time against itself (on the first job's decks and seed): on the
    reference engine one game; on the fast engine, after an untimed game, :data:`FAST_PROBE_GAMES`
    and :data:`FAST_PROBE_GAMES_LARGE`, whose difference gives the cost of a game apart from
    the job's own.  A game between two policies is taken to cost the mean of theirs."""
    from ...runs.spec import choose_engine

    first = jobs[0]
    #: (policy, events) → (seconds a job, seconds a game)
    cost: dict[tuple[str, bool], tuple[float, float]] = {}
    for job in jobs:
        for policy in (job.settings.policy, job.settings.opponent or job.settings.policy):
            if (policy, job.events) in cost:
                continue
            probe = Job(
                first.deck_a,
                first.deck_b,
                first.seed,
                1,
                first.cards,
                dataclasses.replace(job.settings, policy=policy, opponent=None),
                job.events,
            )
            if choose_engine(job.settings.engine, job.events, policy, policy)[0] == "fast":
                play_job(probe)  # the first fast game loads the compiled engine: not timed
                small = _timed(dataclasses.replace(probe, n=FAST_PROBE_GAMES))
                large = _timed(dataclasses.replace(probe, n=FAST_PROBE_GAMES_LARGE))
                per_game = max(0.0, (large - small) / (FAST_PROBE_GAMES_LARGE - FAST_PROBE_GAMES))
                cost[policy, job.events] = (max(0.0, small - per_game * FAST_PROBE_GAMES), per_game)
            else:
                cost[policy, job.events] = (0.0, _timed(probe))

    def seconds(job: Job) -> float:
        a = cost[job.settings.policy, job.events]
        b = cost[job.settings.opponent or job.settings.policy, job.events]
        return (a[0] + b[0]) / 2 + job.n * (a[1] + b[1]) / 2

    total = sum(seconds(job) for job in jobs)
    workers = workers or os.cpu_count() or 1
    if sum(job.n for job in jobs) < SMALL_BATCH:
        workers = 1
    return total / max(1, min(workers, len(jobs)))


def duration(seconds: float) -> str:
    """``42 s``, ``3.5 min``, ``1.2 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def play_local(
    jobs: Sequence[Job],
    *,
    workers: int | None = 1,
    progress: bool = False,
    desc: str = "games",
    estimate: float | None = None,
) -> list[JobResult]:
    """Play ``jobs`` on this machine: in this process, or in ``workers`` processes.

    With ``progress``, the bar says how long is left: at first ``estimate`` (a timing probe's,
    :func:`estimate_seconds`, which assumes the machine stays as busy as during the probe; also
    printed on stderr before the first game), then, once a job is done, :func:`time_left` at
    the bar's own rate so far."""
    from tqdm.auto import tqdm

    workers = workers or os.cpu_count() or 1
    total = sum(job.n for job in jobs)
    if total < SMALL_BATCH:
        workers = 1  # starting worker processes would cost more than the games
    results: list[JobResult | None] = [None] * len(jobs)
    with tqdm(total=total, unit="game", desc=desc, disable=not progress, file=sys.stderr) as bar:
        if progress and estimate is not None:
            # Said once before the games start, where it stays (a notebook's bar may be redrawn):
            # on stderr with the bar on a terminal, in a notebook as plain output (not an error's red).
            where = sys.stdout if type(bar).__module__ == "tqdm.notebook" else sys.stderr
            print(f"{desc}: {total:,} games, {time_left(total, 0, None, estimate=estimate)}", file=where)
        if estimate is not None:
            bar.set_postfix_str(time_left(total, 0, None, estimate=estimate), refresh=True)
        tasks = ((i, (job,)) for i, job in enumerate(jobs))
        for i, result in run_tasks(play_job, tasks, jobs=min(workers, len(jobs)), call="run_jobs"):
            results[i] = result
            bar.update(jobs[i].n)
            if estimate is not None:
                elapsed = bar.format_dict.get("elapsed") or 0.0
                rate = bar.n / elapsed if elapsed > 0 else None  # the bar's own games a second so far
                bar.set_postfix_str(time_left(total, bar.n, rate), refresh=False)
    return results  # type: ignore[return-value]


def time_left(total: int, done: int, rate: float | None, *, estimate: float | None = None) -> str:
    """What a progress bar says of the time left: measured at ``rate`` (games a second so far)
    once there is one, else the probe's ``estimate``, each saying what it assumes.

    >>> time_left(1000, 0, None, estimate=7.2)
    'about 7 s by a probe (assumes the machine stays as busy as during it)'
    >>> time_left(1000, 250, 10.0)
    'about 75 s left at the rate so far'
    """
    if rate:
        return f"about {duration((total - done) / rate)} left at the rate so far"
    if estimate is not None:
        return f"about {duration(estimate)} by a probe (assumes the machine stays as busy as during it)"
    return ""
