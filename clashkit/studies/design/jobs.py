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


#: The fast engine's timing probes (after one untimed game that loads its compiled code): ``n``
#: games, then ``4 n``, from :data:`FAST_PROBE_GAMES` on, ``n`` four times larger until the larger
#: probe takes :data:`PROBE_SECONDS` of CPU or plays :data:`FAST_PROBE_GAMES_LARGE` games: the
#: difference of the two is the cost of a game, the rest a job's own (building its frames costs
#: some milliseconds however few its games).
FAST_PROBE_GAMES = 8
FAST_PROBE_GAMES_LARGE = 2048
PROBE_SECONDS = 0.05
#: The deck pairings a game's cost is probed on (the jobs' first and others spread over them).
PROBE_PAIRINGS = 4

#: How long each worker of the parallel probe plays, to see its share of a core beside the others.
PARALLEL_PROBE_SECONDS = 0.5
#: How long a worker of the parallel probe waits for the others to load the engine.
BARRIER_SECONDS = 600


def _timed(job: Job) -> float:
    """Seconds of CPU that playing ``job`` here takes: unlike the wall clock, not lengthened by
    whatever else the machine runs (the share of a core the probe had adds that back)."""
    import time

    started = time.process_time()
    play_job(job)
    return time.process_time() - started


def _share(cpu: float, wall: float) -> float:
    """The share of a core a process had: ``cpu`` seconds of CPU in ``wall`` seconds (at most 1)."""
    return min(1.0, cpu / wall) if cpu > 0 and wall > 0 else 1.0


def _worker_probe(barrier, probes: Sequence[Job]) -> float:
    """In a worker of :func:`_parallel_probe`: a game of each of ``probes`` (which loads the engine
    they play on); once every worker has (``barrier``), all at once, busy for
    :data:`PARALLEL_PROBE_SECONDS`: the share of a core this process had meanwhile."""
    import time

    for probe in probes:
        play_job(probe)
    barrier.wait(timeout=BARRIER_SECONDS)
    # A game's time is one thread's (the compiled loop), so the share is one busy thread's: games
    # of one job here would also time the threads that build its frames.
    cpu, wall = time.thread_time(), time.perf_counter()
    while time.perf_counter() - wall < PARALLEL_PROBE_SECONDS:
        pass
    return _share(time.thread_time() - cpu, time.perf_counter() - wall)


def _parallel_probe(probes: Sequence[Job], workers: int) -> tuple[float, float]:
    """Start ``workers`` processes as a run does (:func:`play_local`), each loading the engine with a
    game of each of ``probes`` and then, all at once, keeping a core busy beside the others
    (:func:`_worker_probe`): the seconds the start took (all of it but the busy time), and the mean
    share of a core each worker had meanwhile (workers measured one after the other would each see
    the machine emptier than it is)."""
    import time

    from ...runs.workers import pool_context

    started = time.perf_counter()
    barrier = pool_context([__name__]).Barrier(workers)
    tasks = ((i, (tuple(probes),)) for i in range(workers))
    shares = [share for _, share in run_tasks(_worker_probe, tasks, jobs=workers, shared=barrier, call="run_jobs")]
    start = max(0.0, time.perf_counter() - started - PARALLEL_PROBE_SECONDS)
    return start, sum(shares) / len(shares)


def _probe_fast(probe: Job, pairings: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """Seconds of CPU a job of ``probe``'s settings costs on the fast engine, and a game (see
    :data:`FAST_PROBE_GAMES`); games last longer in some pairings than in others, so the larger
    probe is played on each of ``pairings`` too, and a game's cost is the mean over them."""
    n = FAST_PROBE_GAMES
    small = _timed(dataclasses.replace(probe, n=n))
    while True:
        large = _timed(dataclasses.replace(probe, n=4 * n))
        if large >= PROBE_SECONDS or 4 * n >= FAST_PROBE_GAMES_LARGE:
            break
        n, small = 4 * n, large
    per_game = max(0.0, (large - small) / (3 * n))
    own = max(0.0, small - per_game * n)
    games = [per_game]
    for deck_a, deck_b in pairings[1:]:
        other = dataclasses.replace(probe, deck_a=deck_a, deck_b=deck_b, n=4 * n)
        games.append(max(0.0, _timed(other) - own) / (4 * n))
    return own, sum(games) / len(games)


def estimate_seconds(jobs: Sequence[Job], *, workers: int | None = 1) -> float:
    """How long ``jobs`` will take on this machine, from timing probes on the engine that will
    play them, one policy at a time against itself (on the first job's decks and seed): on the
    reference engine one game; on the fast engine, after an untimed game, probes of two sizes
    whose difference gives the cost of a game apart from the job's own, the larger also on up to
    :data:`PROBE_PAIRINGS` - 1 other deck pairings of the jobs (:func:`_probe_fast`).  A game
    between two policies is taken to cost the mean of theirs.

    The probes count seconds of CPU, turned into time by the share of a core this process had
    while it probed (what else the machine runs takes the rest).  With several workers a second
    probe starts them as the run will (:func:`_parallel_probe`): how long that takes, each loading
    the engine, and the share of a core each then has beside the others and the rest of the
    machine; the jobs are spread evenly over them."""
    import time

    from ...runs.spec import choose_engine

    first = jobs[0]
    #: (policy, events) → (CPU seconds a job, CPU seconds a game)
    cost: dict[tuple[str, bool], tuple[float, float]] = {}
    #: One game of each policy as the jobs play it (for the workers' probe)
    probes: list[Job] = []
    seen = list(dict.fromkeys((job.deck_a, job.deck_b) for job in jobs))
    pairings = seen[:: max(1, -(-len(seen) // PROBE_PAIRINGS))][:PROBE_PAIRINGS]
    cpu, wall = time.process_time(), time.perf_counter()
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
            engine = choose_engine(job.settings.engine, job.events, policy, policy)[0]
            probes.append(probe)
            took = _timed(probe)  # on the fast engine it loads the compiled code: not a game's cost
            if engine == "fast":
                cost[policy, job.events] = _probe_fast(probe, pairings)
            else:
                cost[policy, job.events] = (0.0, took)
    share = _share(time.process_time() - cpu, time.perf_counter() - wall)

    def seconds(job: Job) -> float:
        a = cost[job.settings.policy, job.events]
        b = cost[job.settings.opponent or job.settings.policy, job.events]
        return (a[0] + b[0]) / 2 + job.n * (a[1] + b[1]) / 2

    total = sum(seconds(job) for job in jobs)
    workers = processes_for(jobs, workers)
    if workers == 1:
        return total / share
    start, each = _parallel_probe(probes, workers)
    return start + total / workers / each


def processes_for(jobs: Sequence[Job], workers: int | None) -> int:
    """How many processes :func:`play_local` plays ``jobs`` in, ``workers`` asked for (``None`` or
    ``0``: one per core): never more than the jobs, and one for fewer than :data:`SMALL_BATCH`
    games (starting worker processes would cost more than the games)."""
    if sum(job.n for job in jobs) < SMALL_BATCH:
        return 1
    return max(1, min(workers or os.cpu_count() or 1, len(jobs)))


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

    workers = processes_for(jobs, workers)
    total = sum(job.n for job in jobs)
    results: list[JobResult | None] = [None] * len(jobs)
    with tqdm(total=total, unit="game", desc=desc, disable=not progress, file=sys.stderr) as bar:
        if progress and estimate is not None:
            # Said once before the games start, where it stays (a notebook's bar may be redrawn).
            notice(f"{desc}: {total:,} games, {time_left(total, 0, None, estimate=estimate)}")
        if estimate is not None:
            bar.set_postfix_str(time_left(total, 0, None, estimate=estimate), refresh=True)
        tasks = ((i, (job,)) for i, job in enumerate(jobs))
        for i, result in run_tasks(play_job, tasks, jobs=workers, call="run_jobs"):
            results[i] = result
            bar.update(jobs[i].n)
            if estimate is not None:
                elapsed = bar.format_dict.get("elapsed") or 0.0
                rate = bar.n / elapsed if elapsed > 0 else None  # the bar's own games a second so far
                bar.set_postfix_str(time_left(total, bar.n, rate), refresh=False)
    return results  # type: ignore[return-value]


def notice(text: str) -> None:
    """Say ``text`` to the person waiting: on stderr with the progress bars on a terminal (stdout
    stays the command's data), as ordinary output in a notebook (where stderr shows as a warning)."""
    from tqdm.auto import tqdm

    print(text, file=sys.stdout if _notebook_bar(tqdm) else sys.stderr, flush=True)


def _notebook_bar(bar: type) -> bool:
    """Whether ``bar`` (``tqdm.auto``'s choice) draws in a notebook."""
    return any(kind.__module__ == "tqdm.notebook" for kind in bar.__mro__)


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
