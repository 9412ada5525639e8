"""Card design at scale: the balance matrix, sweeps of a card's values, per-card numbers and a
tuner that proposes changes (R7.1, R9.1, R9.3).

The four questions a designer asks, each one function:

* :func:`balance` — is the set balanced?  Every ordered pairing of the starter
  decks (R7.1), each deck's overall rate, the first player's.
* :func:`sweep` — what does this change do?  A card's field set to each of
  several values; each deck's rate and its **change** against the card as
  shipped, with a paired interval.
* :func:`card_stats` — which cards carry their decks?  Per card: how often it
  is played, when, its deck's rate with and without it played, its owner's
  hand-health after it, and the change when it is removed.
* :func:`tune` — what is the smallest change that would balance the set?

**Common random numbers.**  Ordered pairing ``k`` of the starter decks (1 vs 2,
1 vs 3, …, 4 vs 3, then the mirrors when asked for) plays games ``0 … n-1`` of
master seed ``seed + k`` (:func:`clashkit.runs.simulate.game_seeds`), whatever the
card values.  Two versions of a card set therefore play the same deals and the
same coin flips, and the change between them is measured game by game: the
interval of a change comes from the per-game differences
(:func:`clashkit.base.stats.mean_exprs`), not from two independent rates, and is
several times narrower.  A card is changed *in place* (:func:`vary`), so decks
keep their order and their deals.

**Jobs.**  All games are played as a list of :class:`Job` — one pairing, one
card set, one seed range — through :func:`run_jobs`.  A job is plain data
(picklable), :func:`play_job` plays one, and ``runner=`` takes any function
that maps a list of jobs to their results in order (a process pool by default),
so a cluster can play them: every study takes ``cluster=`` (``"local:N"``,
``"tcp://HOST:PORT"`` or a ``distributed.Client``), which plays its jobs on Dask
(:class:`clashkit.runs.cluster.Runner`) with the same results.  Jobs that would play the same games (a pairing of
two decks that the change does not touch) are played once.

An unfinished game (R10.1) is never a win: it counts in every denominator.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import itertools
import math
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import polars as pl

from ..base.cards import Card, CardSet, card_from_fields, card_row, load_cards, starter_set
from ..base.errors import OptionError
from ..base.limits import whole_number
from ..base.rules import Rules
from ..base.stats import Z95, mean_exprs, wilson, wilson_exprs
from ..base.vocab import Effect, Kind
from ..runs.simulate import simulate
from ..runs.workers import run_tasks
from .analysis import MATCHUPS_SCHEMA, balance_markdown, deck_rates, deck_results, first_player, pairing_counts

#: The fields :func:`sweep` can set: a creature's cost, attack and health, an incantation's
#: cost and the amount of an effect that has one (``damage 3``).
FIELDS = {
    Kind.CREATURE: ("cost", "attack", "health"),
    Kind.INCANTATION: ("cost", "amount"),
}
#: The fields :func:`tune` changes unless told otherwise.
TUNE_FIELDS = ("cost", "attack", "health")
#: :func:`tune` checks its proposal on master seeds ``seed + CHECK_SEED_OFFSET + k``.
CHECK_SEED_OFFSET = 1_000_000
#: The designer's rule: a change is measured to within this many rate units (±1.5 points).
HALF_WIDTH = 0.015
#: Fewer games than this are played in this process whatever the number of workers asked for.
SMALL_BATCH = 1000
_AMOUNT_EFFECTS = (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER)


# --- Card sets that differ in one card -----------------------------------------------------


def replace_card(cards: CardSet, card: Card) -> CardSet:
    """``cards`` with the card of the same name replaced *in place* (same id, same deck order),
    so that every deck deals as before and games on the same seeds stay comparable."""
    if card.name not in cards:
        raise OptionError(f"unknown card {card.name!r} (not in the card set)")
    new = CardSet(card if c.name == card.name else c for c in cards)
    new.source = cards.source
    return new


def vary(cards: CardSet, name: str, **values: int) -> CardSet:
    """``cards`` with card ``name``'s fields set (``attack=6``, ``cost=2``, ``amount=3``),
    checked as the card file would check them (R9.3)."""
    if name not in cards:
        raise OptionError(f"unknown card {name!r} (not in the card set)")
    card = cards.card(name)
    row = card_row(card)
    for key, value in values.items():
        allowed = FIELDS[card.kind]
        if key not in allowed:
            raise OptionError(
                f"{name} is {'a' if card.is_creature else 'an'} {card.kind.value}: "
                f"unknown field {key!r} (one of {', '.join(allowed)})"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{name} {key}={value!r}: a value must be a whole number")
        if key == "amount":
            if card.effect not in _AMOUNT_EFFECTS:
                raise OptionError(f"{name}: effect {card.effect_text!r} takes no amount (R5.5)")
            row["effect"] = f"{card.effect.value} {value}"
        else:
            row[key] = str(value)
    try:
        changed = card_from_fields(row)
    except ValueError as e:
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        raise OptionError(f"{name} {shown}: {e}") from None
    return replace_card(cards, changed)


def field_value(card: Card, name: str) -> int:
    """The value of one of :data:`FIELDS` on ``card``."""
    return card.amount if name == "amount" else getattr(card, name)


def vanilla(card: Card) -> Card:
    """The stand-in of a removed card: a creature of cost 1, attack 0, health 1, no ability,
    in the same deck under the same name."""
    return Card(card.name, Kind.CREATURE, 1, 0, 1, deck=card.deck, notes="vanilla stand-in")


# --- Jobs ----------------------------------------------------------------------------------


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
        return (self.deck_a, self.deck_b, self.seed, self.n, self.settings, self.events,
                self.cards.names, dealt)  # fmt: skip


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


def _engine_supported() -> bool:
    return "engine" in inspect.signature(simulate).parameters


class _EngineKw(TypedDict, total=False):
    engine: str


def _engine_kw(engine: str | None) -> _EngineKw:
    """``engine=`` for :func:`simulate` only when asked for, so the same code runs on a
    simulate without engines."""
    return {} if engine is None else {"engine": engine}


def play_job(job: Job) -> JobResult:
    """Play one :class:`Job` in this process."""
    engine = job.settings.engine
    if job.events and _engine_supported():
        engine = "reference"  # only the reference engine records events
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
        "game", "deck_a", "deck_b",
        pl.col("first_player").cast(pl.String), pl.col("winner").cast(pl.String),
    )  # fmt: skip
    dealt = pl.concat(
        [
            games.select("game", pl.lit(side).alias("player"), pl.col(f"deck_{side.lower()}")
                         .alias("card"), "first_player", "winner").explode("card")
            for side in ("A", "B")
        ]
    )  # fmt: skip
    events = trace.events.select(
        "game", "turn", pl.col("player").cast(pl.String), pl.col("kind").cast(pl.String),
        pl.col("card").cast(pl.String), "hand_health_a", "hand_health_b",
    )  # fmt: skip
    first = (
        events.filter(pl.col("kind") == "card_played")
        .group_by("game", "player", "card")
        .agg(pl.col("turn").min().alias("turn"))
    )
    end_of_turn = events.group_by("game", "turn").agg(
        pl.col("hand_health_a").last(), pl.col("hand_health_b").last()
    )
    after = first.join(
        end_of_turn.with_columns((pl.col("turn") - 1).alias("turn")), on=["game", "turn"], how="left"
    ).select(
        "game", "player", "card", "turn",
        pl.when(pl.col("player") == "A").then(pl.col("hand_health_a"))
        .otherwise(pl.col("hand_health_b")).cast(pl.Float64).alias("hand_health_after"),
    )  # fmt: skip
    rows = dealt.join(after, on=["game", "player", "card"], how="left")
    own_turn = pl.when(pl.col("player") == pl.col("first_player")).then(
        (pl.col("turn").cast(pl.Int32) + 1) // 2
    ).otherwise(pl.col("turn").cast(pl.Int32) // 2)
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
            if progress and plays_search(pending):
                desc = f"{desc}, about {duration(estimate_seconds(pending, workers=workers))}"
            results = play_local(pending, workers=workers, progress=progress, desc=desc)
        else:
            results = list(runner(pending))
        if len(results) != len(pending):
            raise RuntimeError(f"the runner returned {len(results)} results for {len(pending)} jobs")
        cache.update(zip(todo, results, strict=True))
    return [cache[job.key] for job in jobs]


def plays_search(jobs: Sequence[Job]) -> bool:
    """Whether any of ``jobs`` plays a ``search`` policy (slow enough to be worth an estimate)."""
    return any(_is_search(p) for job in jobs for p in (job.settings.policy, job.settings.opponent))


def _is_search(policy: str | None) -> bool:
    return policy is not None and str(policy).strip().lower().startswith("search")


#: Games a timing probe plays on the fast engine (after one untimed game that loads its compiled code).
FAST_PROBE_GAMES = 8


def estimate_seconds(jobs: Sequence[Job], *, workers: int | None = 1) -> float:
    """How long ``jobs`` will take on this machine, from a timing probe on the engine that will
    play them: one game of each policy against itself (on the first job's decks and seed), or on
    the fast engine :data:`FAST_PROBE_GAMES` after an untimed one; a game between two policies
    taken to cost the mean of theirs."""
    import time

    from ..runs.spec import choose_engine

    first = jobs[0]
    cost: dict[tuple[str, bool], float] = {}
    for job in jobs:
        for policy in (job.settings.policy, job.settings.opponent or job.settings.policy):
            if (policy, job.events) in cost:
                continue
            probe = Job(first.deck_a, first.deck_b, first.seed, 1, first.cards,
                        dataclasses.replace(job.settings, policy=policy, opponent=None), job.events)  # fmt: skip
            engine = "reference" if job.events else job.settings.engine  # as play_job plays it
            if choose_engine(engine, job.events, policy, policy)[0] == "fast":
                play_job(probe)  # the first fast game loads the compiled engine: not timed
                probe = dataclasses.replace(probe, n=FAST_PROBE_GAMES)
            started = time.perf_counter()
            play_job(probe)
            cost[policy, job.events] = (time.perf_counter() - started) / probe.n
    total = sum(job.n * (cost[job.settings.policy, job.events]
                         + cost[job.settings.opponent or job.settings.policy, job.events]) / 2
                for job in jobs)  # fmt: skip
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
    jobs: Sequence[Job], *, workers: int | None = 1, progress: bool = False, desc: str = "games"
) -> list[JobResult]:
    """Play ``jobs`` on this machine: in this process, or in ``workers`` processes."""
    from tqdm.auto import tqdm

    workers = workers or os.cpu_count() or 1
    total = sum(job.n for job in jobs)
    if total < SMALL_BATCH:
        workers = 1  # starting worker processes would cost more than the games
    results: list[JobResult | None] = [None] * len(jobs)
    with tqdm(total=total, unit="game", desc=desc, disable=not progress, file=sys.stderr) as bar:
        tasks = ((i, (job,)) for i, job in enumerate(jobs))
        for i, result in run_tasks(play_job, tasks, jobs=min(workers, len(jobs)), call="run_jobs"):
            results[i] = result
            bar.update(jobs[i].n)
    return results  # type: ignore[return-value]


# --- A study: several versions of a card set on the same seeds -----------------------------------


def pairings(cards: CardSet, *, mirror: bool = False) -> list[tuple[int, int]]:
    """The ordered pairings of the starter decks of ``cards`` (R7.1): 1 vs 2, 1 vs 3, …, then
    the mirrors 1 vs 1, … with ``mirror``.  Pairing ``k`` is played with master seed
    ``seed + k``."""
    decks = sorted(cards.decks)
    if len(decks) < 2:
        raise OptionError(f"the card set has {len(decks)} starter deck(s); a balance needs two (R7.1)")
    out = [(a, b) for a in decks for b in decks if a != b]
    return out + [(d, d) for d in decks] if mirror else out


@dataclass(frozen=True)
class Study:
    """How a study plays its games: ``n`` games per ordered pairing, master seed ``seed``."""

    n: int
    seed: int = 0
    settings: Settings = Settings()
    mirror: bool = False
    workers: int | None = 1
    progress: bool = False
    runner: Runner | None = None
    cache: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
            raise OptionError(f"n = {self.n!r}: games per pairing must be a whole number ≥ 1")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise OptionError(f"seed {self.seed!r} must be a whole number ≥ 0")

    def jobs(self, cards: CardSet, *, seed: int | None = None, decks: set[int] | None = None,
             events: bool = False) -> list[Job]:  # fmt: skip
        """The jobs of every pairing of ``cards`` (only those involving ``decks`` if given)."""
        base = self.seed if seed is None else seed
        return [
            Job(a, b, base + k, self.n, cards, self.settings, events)
            for k, (a, b) in enumerate(pairings(cards, mirror=self.mirror))
            if decks is None or a in decks or b in decks
        ]

    def play(self, variants: Sequence[CardSet], *, seed: int | None = None,
             desc: str = "games") -> list[pl.DataFrame]:  # fmt: skip
        """The outcomes (:func:`outcomes`) of every version of the card set, same seeds."""
        per_variant = [self.jobs(cards, seed=seed) for cards in variants]
        flat = [job for jobs in per_variant for job in jobs]
        results = run_jobs(
            flat, workers=self.workers, progress=self.progress, desc=desc, runner=self.runner,
            cache=self.cache,
        )  # fmt: skip
        out, i = [], 0
        for jobs in per_variant:
            out.append(outcomes(jobs, results[i : i + len(jobs)]))
            i += len(jobs)
        return out


def outcomes(jobs: Sequence[Job], results: Sequence[JobResult]) -> pl.DataFrame:
    """One row per game: ``deck_a``, ``deck_b``, ``game``, ``first_player``, ``winner``,
    ``turns``."""
    frames = [
        r.games.with_columns(pl.lit(j.deck_a, pl.Int8).alias("deck_a"), pl.lit(j.deck_b, pl.Int8)
                             .alias("deck_b"))
        for j, r in zip(jobs, results, strict=True)
    ]  # fmt: skip
    return pl.concat(frames).select("deck_a", "deck_b", "game", "first_player", "winner", "turns")


def matchups(games: pl.DataFrame) -> pl.DataFrame:
    """:data:`clashkit.studies.analysis.MATCHUPS_SCHEMA` of an :func:`outcomes` frame."""
    return pairing_counts(games).cast(MATCHUPS_SCHEMA).select(list(MATCHUPS_SCHEMA))


def sides(games: pl.DataFrame) -> pl.DataFrame:
    """Two rows per game of an :func:`outcomes` frame, one per seat: ``deck_a``, ``deck_b``,
    ``game``, ``side``, ``deck`` (the seat's deck) and ``win`` (1 if it won, else 0)."""
    keys = ["deck_a", "deck_b", "game"]
    return pl.concat(
        [
            games.select(*keys, pl.lit(side).alias("side"), pl.col(f"deck_{side.lower()}")
                         .alias("deck"), (pl.col("winner") == side).fill_null(False)
                         .cast(pl.Float64).alias("win"))
            for side in ("A", "B")
        ]
    )  # fmt: skip


def paired_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """Each deck's change of rate from ``before`` to ``after`` (:func:`outcomes` of the same
    seeds), with its paired 95% interval from the per-game differences: ``deck``,
    ``change``, ``change_low``, ``change_high``, ``sd`` (of the differences) and ``clear``
    (the interval excludes 0)."""
    keys = ["deck_a", "deck_b", "game", "side"]
    joined = sides(after).join(sides(before).select(*keys, pl.col("win").alias("was")), on=keys)
    mean, low, high = mean_exprs(pl.col("win") - pl.col("was"))
    return (
        joined.group_by("deck")
        .agg(mean.alias("change"), low.alias("change_low"), high.alias("change_high"),
             (pl.col("win") - pl.col("was")).std().alias("sd"))
        .with_columns(((pl.col("change_low") > 0) | (pl.col("change_high") < 0)).alias("clear"))
        .sort("deck")
    )


# --- Balance -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    """The balance of a card set: :data:`~clashkit.studies.analysis.MATCHUPS_SCHEMA` rows, one per
    ordered pairing, and what follows from them."""

    matchups: pl.DataFrame
    n: int
    seed: int
    policy: str = "greedy"

    @property
    def decks(self) -> pl.DataFrame:
        """Each deck's overall rate with its 95% interval (:func:`~clashkit.studies.analysis.deck_rates`)."""
        return deck_rates(self.matchups)

    @property
    def distance(self) -> float:
        """The largest distance of any deck's overall rate from 50% (what :func:`tune` lowers)."""
        # polars types Series.max() as any scalar; a float column's is a float.
        return float((self.decks["rate"] - 0.5).abs().max())  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit balance --json`` prints (see ``clashkit COMMAND --help`` and the README)."""
        decks = {
            str(row["deck"]): {"rate": row["rate"], "low": row["low"], "high": row["high"],
                               "games": row["games"], "wins": row["wins"]}
            for row in self.decks.iter_rows(named=True)
        }  # fmt: skip
        matrix = []
        for row in self.matchups.iter_rows(named=True):
            low, high = wilson(row["wins_a"], row["games"])
            matrix.append(
                {"a": row["deck_a"], "b": row["deck_b"], "games": row["games"],
                 "rate_a": row["wins_a"] / row["games"], "low": low, "high": high,
                 "wins_a": row["wins_a"], "wins_b": row["wins_b"], "unfinished": row["unfinished"]}
            )  # fmt: skip
        rate, low, high = first_player(self.matchups)
        cells = [
            {"deck": r["deck"], "opponent": r["opponent"], "games": r["games"], "rate": r["rate"],
             "low": r["low"], "high": r["high"]}
            for r in deck_results(self.matchups).iter_rows(named=True)
        ]  # fmt: skip
        games = int(self.matchups["games"].sum())
        return {
            "decks": decks,
            "matrix": matrix,
            "first_player": {"rate": rate, "low": low, "high": high, "games": games},
            "cells": cells,
            "distance": self.distance,
            "n": self.n,
            "seed": self.seed,
            "policy": self.policy,
            "games": games,
            "unfinished": int(self.matchups["unfinished"].sum()),
        }

    def __str__(self) -> str:
        lines = [balance_markdown(self.matchups), "", "| deck | overall | games |", "| --- | --- | ---: |"]
        for row in self.decks.iter_rows(named=True):
            lines.append(
                f"| deck {row['deck']} | {_pct(row['rate'])} ({_pct(row['low'], 1, '')}–"
                f"{_pct(row['high'], 1, '')}) | {row['games']:,} |"
            )
        lines.append(f"\nLargest distance of a deck's overall rate from 50%: {100 * self.distance:.1f} points.")
        return "\n".join(lines)


def _pct(x: float | None, digits: int = 1, sign: str = "%") -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}{sign}"


def _points(x: float | None, digits: int = 1) -> str:
    return "—" if x is None or math.isnan(x) else f"{100 * x:+.{digits}f}"


def _on_cluster(study):
    """``study`` with a ``cluster=`` keyword: its jobs played on Dask (:mod:`clashkit.runs.cluster`).

    The cluster is started (or connected) only when the first jobs are
    played, so every option is checked before, and closed when the study ends.
    """

    @functools.wraps(study)
    def wrapper(*args, cluster: Any = None, **kwargs):
        if cluster is None:
            return study(*args, **kwargs)
        if kwargs.get("runner") is not None:
            raise OptionError("give cluster= or runner=, not both")
        from ..runs.cluster import Runner

        with Runner(cluster, play_job, weight=lambda job: job.n, progress=bool(kwargs.get("progress"))) as runner:
            return study(*args, **{**kwargs, "runner": runner})

    signature = inspect.signature(study)
    cluster = inspect.Parameter("cluster", inspect.Parameter.KEYWORD_ONLY, default=None)
    # inspect.signature reads __signature__; typeshed's functools._Wrapped does not declare it.
    wrapper.__signature__ = signature.replace(parameters=[*signature.parameters.values(), cluster])  # type: ignore[attr-defined]
    return wrapper


def _study(n, *, seed, policy, rules, engine, mirror, jobs, progress, runner) -> Study:
    if rules is not None and not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules, where="rules")
    return Study(n, seed, Settings(str(policy), rules, engine), mirror, jobs, progress, runner)


def _card_set(cards: CardSet | str | os.PathLike | None) -> CardSet:
    if cards is None:
        return starter_set()
    return cards if isinstance(cards, CardSet) else load_cards(cards)


def _check_policy(policy: str) -> None:
    from ..policies import get_policy

    get_policy(policy)  # an unknown policy is refused before any game


@_on_cluster
def balance(
    n: int = 2000,
    *,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Balance:
    """``n`` games of every ordered pairing of the starter decks between two copies of
    ``policy``: the matrix, each deck's overall rate and the first player's, with 95%
    intervals.  Without mirrors it equals :func:`clashkit.studies.analysis.deck_matchups`."""
    cards = _card_set(cards)
    _check_policy(policy)
    study = _study(n, seed=seed, policy=policy, rules=rules, engine=engine, mirror=mirror, jobs=jobs,
                   progress=progress, runner=runner)  # fmt: skip
    (games,) = study.play([cards], desc="balance")
    return Balance(matchups(games), n, seed, str(policy))


# --- Comparing two versions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """Two versions of a card set played on the same seeds: both balances and each deck's
    paired change (:func:`paired_changes`)."""

    before: Balance
    after: Balance
    changes: pl.DataFrame

    def table(self) -> pl.DataFrame:
        """One row per deck: rate before and after with 95% intervals, games, the change and
        its paired interval, and whether the games tell it from 0."""
        b = self.before.decks.select("deck", "games", pl.col("rate").alias("before"),
                                     pl.col("low").alias("before_low"), pl.col("high").alias("before_high"))
        a = self.after.decks.select("deck", pl.col("rate").alias("after"), pl.col("low").alias("after_low"),
                                    pl.col("high").alias("after_high"))  # fmt: skip
        return b.join(a, on="deck").join(self.changes, on="deck").sort("deck")

    @property
    def half_width(self) -> float:
        """The widest half-width of any deck's change interval."""
        widths = (self.changes["change_high"] - self.changes["change_low"]) / 2
        # polars types Series.max() as any scalar; a float column's is a float.
        return float(widths.max()) if widths.len() else 0.0  # type: ignore[arg-type]


@_on_cluster
def compare(
    before: CardSet,
    after: CardSet,
    n: int,
    *,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> Comparison:
    """Play both versions of the card set on the same seeds and compare them deck by deck.

    ``after`` should hold its cards in ``before``'s order, a changed card in the place of
    the one it changes (:func:`vary`, :func:`replace_card`), so that the decks deal the
    same hands; otherwise the change is still measured, but less precisely.
    """
    _check_policy(policy)
    study = _study(n, seed=seed, policy=policy, rules=rules, engine=engine, mirror=mirror, jobs=jobs,
                   progress=progress, runner=runner)  # fmt: skip
    if cache is not None:
        study = dataclasses.replace(study, cache=cache)
    old, new = study.play([before, after], desc="before and after")
    return Comparison(
        Balance(matchups(old), n, seed, str(policy)),
        Balance(matchups(new), n, seed, str(policy)),
        paired_changes(old, new),
    )


def games_for_half_width(sd: float, half_width: float = HALF_WIDTH, *, games_per_deck_game: int = 6) -> int:
    """Games per ordered pairing that bring a paired change's 95% interval to ±``half_width``
    when the per-game differences have standard deviation ``sd``.  A deck plays
    ``games_per_deck_game`` ordered pairings (6 among four decks), so its change is a mean
    over that many times ``n`` games."""
    if sd <= 0:
        return 1
    deck_games = (Z95 * sd / half_width) ** 2
    return max(1, math.ceil(deck_games / games_per_deck_game))


# --- Sweep -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    """A card's fields set to each combination of values: ``rows`` (one per combination and
    deck) and ``matchups`` (:data:`~clashkit.studies.analysis.MATCHUPS_SCHEMA` with the fields'
    columns first)."""

    card: str
    fields: tuple[str, ...]
    shipped: tuple[int, ...]
    rows: pl.DataFrame
    matchups: pl.DataFrame
    n: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit sweep --json`` prints (see ``clashkit COMMAND --help`` and the README)."""
        one = len(self.fields) == 1
        rows = []
        for row in self.rows.iter_rows(named=True):
            values = {f: row[f] for f in self.fields}
            rows.append(
                {"value": values[self.fields[0]] if one else [values[f] for f in self.fields],
                 "values": values, "deck": row["deck"], "games": row["games"], "rate": row["rate"],
                 "low": row["low"], "high": row["high"], "change": row["change"],
                 "change_low": row["change_low"], "change_high": row["change_high"], "clear": row["clear"]}
            )  # fmt: skip
        return {
            "card": self.card,
            "field": ",".join(self.fields),
            "shipped": dict(zip(self.fields, self.shipped, strict=True)),
            "n": self.n,
            "seed": self.seed,
            "rows": rows,
        }

    def __str__(self) -> str:
        shipped = ", ".join(f"{f} {v}" for f, v in zip(self.fields, self.shipped, strict=True))
        head = " ".join(f"{f:>7}" for f in self.fields)
        lines = [
            f"{self.card} (shipped: {shipped}); {self.n:,} games per ordered pairing, seeds {self.seed}+k; "
            "change against the shipped card on the same seeds (paired 95% interval)",
            "",
            f"{head}  deck  {'rate':>6}  {'95% interval':<14} {'games':>6}  change (points)",
        ]
        for row in self.rows.iter_rows(named=True):
            values = " ".join(f"{row[f]:>7}" for f in self.fields)
            if not row["clear"]:
                verdict = (f"{_points(row['change'])} [{_points(row['change_low'])}, {_points(row['change_high'])}]"
                           "  cannot be told from 0")  # fmt: skip
            else:
                verdict = f"{_points(row['change'])} [{_points(row['change_low'])}, {_points(row['change_high'])}]"
            if row["change_low"] == row["change_high"] == 0:
                verdict = "±0 (no game changed)"
            lines.append(
                f"{values}  {row['deck']:>4}  {_pct(row['rate']):>6}  "
                f"{_pct(row['low'], 1, '') + '–' + _pct(row['high'], 1, '') + '%':<14} {row['games']:>6}  {verdict}"
            )
        return "\n".join(lines)


def parse_values(text: str, *, where: str = "--set") -> tuple[str, list[int]]:
    """``attack=3,4,5`` (or ``attack=3..7``) as ``("attack", [3, 4, 5])``."""
    name, sep, rest = str(text).partition("=")
    name = name.strip().lower()
    if not sep or not name:
        raise OptionError(f"{where} {text!r}: write FIELD=V1,V2,… (e.g. attack=3,4,5)")
    values: list[int] = []
    for part in (p.strip() for p in rest.split(",")):
        if not part:
            continue
        low, dots, high = part.partition("..")
        # Each bound has at most two digits (clashkit.base.limits), so a range is short.
        bounds = [whole_number(b, "sweep", f"{where} {name}", OptionError) for b in ((low, high) if dots else (part,))]
        values.extend(range(bounds[0], bounds[-1] + 1))
    if not values:
        raise OptionError(f"{where} {name}: no values given (e.g. {name}=3,4,5)")
    return name, list(dict.fromkeys(values))


@_on_cluster
def sweep(
    card: str,
    values: Mapping[str, Sequence[int]],
    n: int = 2000,
    *,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Sweep:
    """Card ``card`` with each combination of ``values`` (``{"attack": [3, 4, 5]}``; several
    fields make a grid), every pairing on the same seeds as the card as shipped: each deck's
    rate and its paired change (R9.3)."""
    base = _card_set(cards)
    name = str(card).strip().upper()
    if name not in base:
        raise OptionError(f"unknown card {card!r} (not in the card set)")
    shipped_card = base.card(name)
    if shipped_card.deck is None:
        raise OptionError(f"{name} is in no starter deck: changing it changes no game (R7.1)")
    if not values:
        raise OptionError(f"sweep of {name}: no field to set (e.g. attack=3,4,5)")
    fields = tuple(values)
    for f, vs in values.items():
        if not list(vs):
            raise OptionError(f"sweep of {name}: no values for {f}")
    combos = list(itertools.product(*(values[f] for f in fields)))
    variants = [vary(base, name, **dict(zip(fields, combo, strict=True))) for combo in combos]
    _check_policy(policy)
    study = _study(n, seed=seed, policy=policy, rules=rules, engine=engine, mirror=mirror, jobs=jobs,
                   progress=progress, runner=runner)  # fmt: skip
    played = study.play([base, *variants], desc=f"sweep {name}")
    shipped = tuple(field_value(shipped_card, f) for f in fields)
    rows, matrices = [], []
    for combo, games in zip(combos, played[1:], strict=True):
        labels = [pl.lit(v, pl.Int32).alias(f) for f, v in zip(fields, combo, strict=True)]
        m = matchups(games)
        matrices.append(m.select(*labels, pl.all()))
        rates = deck_rates(m).select("deck", "games", "rate", "low", "high")
        change = paired_changes(played[0], games).drop("sd")
        rows.append(rates.join(change, on="deck").select(*labels, pl.all()))
    return Sweep(name, fields, shipped, pl.concat(rows), pl.concat(matrices), n, seed)


# --- Card stats --------------------------------------------------------------------------


@_on_cluster
def card_stats(
    n: int = 500,
    *,
    names: Sequence[str] | None = None,
    impact: bool = True,
    plays_n: int | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> pl.DataFrame:
    """Per card of the starter decks, over ``n`` games of every ordered pairing:

    * ``play_rate``: the share of its owner's games in which it was played (R3.2–R3.4);
    * ``first_turn``: the owner's turn (1 = the owner's first) of its first play, mean;
    * ``win_played`` / ``win_not_played``: its deck's rate in games where it was played and
      where it was not — correlation, not cause;
    * ``hand_health_after``: the owner's hand-health (R1.5) at the end of the turn after its
      first play, mean;
    * ``removed_change``: the change in its deck's rate when the card is replaced by a
      vanilla creature of cost 1, 0/1 (:func:`vanilla`), paired on the same seeds — cause.

    Each figure has its 95% interval (``…_low``, ``…_high``) and its count.  ``names``
    restricts the table (and the removal games) to some cards; ``impact=False`` skips the
    removal games.  The play numbers need events, so they are always played on the reference
    engine, on ``plays_n`` games a pairing (default ``n``); the removal games on ``engine``,
    ``n`` a pairing.  ``cache`` (a dict, as for :func:`run_jobs`) reuses games already played.
    """
    base = _card_set(cards)
    chosen = [str(x).strip().upper() for x in names] if names else None
    for name in chosen or ():
        if name not in base:
            raise OptionError(f"unknown card {name!r} (not in the card set)")
        if base.card(name).deck is None:
            raise OptionError(f"{name} is in no starter deck: it is never played (R7.1)")
    measured = chosen or [c.name for c in base if c.deck is not None]
    _check_policy(policy)
    study = _study(n, seed=seed, policy=policy, rules=rules, engine=engine, mirror=mirror, jobs=jobs,
                   progress=progress, runner=runner)  # fmt: skip
    if cache is not None:
        study = dataclasses.replace(study, cache=cache)
    plays_study = study if plays_n is None else dataclasses.replace(study, n=plays_n)
    jobs_events = plays_study.jobs(base, events=True)
    results = run_jobs(jobs_events, workers=study.workers, progress=progress, desc="card plays",
                       runner=runner, cache=study.cache)  # fmt: skip
    plays = pl.concat(
        _plays_of(r).with_columns(pl.lit(j.deck_a, pl.Int8).alias("deck_a"), pl.lit(j.deck_b, pl.Int8)
                                  .alias("deck_b"))
        for j, r in zip(jobs_events, results, strict=True)
    ).filter(pl.col("card").is_in(measured))  # fmt: skip
    table = _play_numbers(plays, base)
    if impact:
        table = table.join(_removal(base, measured, study), on="card", how="left")
    return table.sort("deck", "card")


def _play_numbers(plays: pl.DataFrame, cards: CardSet) -> pl.DataFrame:
    def rate(mask: pl.Expr, name: str) -> list[pl.Expr]:
        wins, games = (pl.col("won") & mask).sum(), mask.sum()
        low, high = wilson_exprs(wins, games)
        return [games.alias(f"games_{name}"), (wins / games).alias(f"win_{name}"),
                low.alias(f"win_{name}_low"), high.alias(f"win_{name}_high")]  # fmt: skip

    played = pl.col("played")
    play_low, play_high = wilson_exprs(played.sum(), pl.len())
    turn, turn_low, turn_high = mean_exprs(pl.col("first_turn").filter(played).cast(pl.Float64))
    health, health_low, health_high = mean_exprs(pl.col("hand_health_after").drop_nulls())
    table = plays.group_by("card").agg(
        pl.len().alias("games"),
        played.sum().alias("played"),
        (played.sum() / pl.len()).alias("play_rate"),
        play_low.alias("play_low"),
        play_high.alias("play_high"),
        turn.alias("first_turn"), turn_low.alias("first_turn_low"), turn_high.alias("first_turn_high"),
        *rate(played, "played"),
        *rate(~played, "not_played"),
        health.alias("hand_health_after"), health_low.alias("hand_health_after_low"),
        health_high.alias("hand_health_after_high"),
        pl.col("hand_health_after").drop_nulls().len().alias("hand_health_games"),
    )  # fmt: skip
    decks = pl.DataFrame(
        {"card": [c.name for c in cards], "deck": [c.deck for c in cards]},
        schema={"card": pl.String, "deck": pl.Int8},
    )
    table = table.with_columns(pl.col(pl.Float64).fill_nan(None), pl.col(pl.UInt32).cast(pl.Int64))
    return decks.join(table, on="card")


def _removal(base: CardSet, names: Sequence[str], study: Study) -> pl.DataFrame:
    """For each card, its deck's paired change when it is replaced by :func:`vanilla`."""
    baseline_jobs = study.jobs(base)
    variant_jobs = {}
    for name in names:
        card = base.card(name)
        assert card.deck is not None, "only the cards of a starter deck are measured (card_plays)"
        variant_jobs[name] = study.jobs(replace_card(base, vanilla(card)), decks={card.deck})
    flat = baseline_jobs + [j for jobs in variant_jobs.values() for j in jobs]
    results = run_jobs(flat, workers=study.workers, progress=study.progress, desc="removals",
                       runner=study.runner, cache=study.cache)  # fmt: skip
    before = outcomes(baseline_jobs, results[: len(baseline_jobs)])
    rows, i = [], len(baseline_jobs)
    for name, jobs in variant_jobs.items():
        after = outcomes(jobs, results[i : i + len(jobs)])
        i += len(jobs)
        deck = base.card(name).deck
        change = paired_changes(before, after).filter(pl.col("deck") == deck).drop("sd")
        games = sides(after).filter(pl.col("deck") == deck).height
        rows.append(change.select(pl.lit(name).alias("card"), pl.col("change").alias("removed_change"),
                                  pl.col("change_low").alias("removed_low"),
                                  pl.col("change_high").alias("removed_high"),
                                  pl.lit(games, pl.Int64).alias("removed_games")))  # fmt: skip
    return pl.concat(rows)


# --- Tune --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One field of one card changed: ``card``'s ``field`` from ``old`` to ``new``."""

    card: str
    field: str
    old: int
    new: int

    def __str__(self) -> str:
        return f"{self.card} {self.field} {self.old} → {self.new}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "from": self.old, "to": self.new}


def apply_changes(cards: CardSet, changes: Iterable[Change]) -> CardSet:
    """``cards`` with every change made (in place, :func:`vary`)."""
    for change in changes:
        cards = vary(cards, change.card, **{change.field: change.new})
    return cards


@dataclass(frozen=True)
class Tuning:
    """What :func:`tune` proposes: ``changes`` (kept after the check on fresh seeds), the
    balance ``before`` and ``after`` on those fresh seeds, and the search's own record."""

    changes: tuple[Change, ...]
    before: Balance
    after: Balance
    cards: CardSet
    searched: tuple[Change, ...]
    search_distances: tuple[float, ...]
    check_distances: tuple[float, ...]
    candidates: int
    games: int
    check_seed: int

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit tune --json`` prints (see ``clashkit COMMAND --help`` and the README)."""
        return {
            "changes": [c.to_dict() for c in self.changes],
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "searched": [c.to_dict() for c in self.searched],
            "search_distances": list(self.search_distances),
            "check_distances": list(self.check_distances),
            "check_seed": self.check_seed,
            "candidates": self.candidates,
            "games": self.games,
        }

    def table(self, cards: CardSet | None = None) -> pl.DataFrame:
        """The proposal beside the shipped values: ``card``, ``field``, ``shipped``,
        ``proposed``."""
        return pl.DataFrame(
            [{"card": c.card, "field": c.field, "shipped": c.old, "proposed": c.new} for c in self.changes],
            schema={"card": pl.String, "field": pl.String, "shipped": pl.Int64, "proposed": pl.Int64},
        )

    def __str__(self) -> str:
        lines = []
        if self.changes:
            lines.append("Proposed changes:")
            lines += [f"  {c}" for c in self.changes]
        else:
            lines.append("No change proposed: none improved the balance on fresh seeds.")
        dropped = self.searched[len(self.changes):]
        if dropped:
            lines.append("Found by the search but not confirmed on fresh seeds: " + "; ".join(map(str, dropped)))
        lines += [
            "",
            f"Checked on fresh seeds ({self.check_seed}+k): largest distance from 50% "
            f"{100 * self.before.distance:.1f} → {100 * self.after.distance:.1f} points.",
            "",
            "Before:",
            str(self.before),
            "",
            "After:",
            str(self.after),
            "",
            f"({self.candidates:,} candidate changes tried, {self.games:,} games played)",
        ]
        return "\n".join(lines)


def candidates(cards: CardSet, fields: Sequence[str], step: int, *, names: Sequence[str] | None = None,
               done: Iterable[tuple[str, str]] = ()) -> list[Change]:  # fmt: skip
    """Every single-field change of ±``step`` to a card of a starter deck that the card file
    allows (cost ≥ 0, health ≥ 1, …), fields already changed (``done``) left out."""
    done = set(done)
    out = []
    for card in cards:
        if card.deck is None or (names is not None and card.name not in names):
            continue
        for f in fields:
            if f not in FIELDS[card.kind] or (card.name, f) in done:
                continue
            if f == "amount" and card.effect not in _AMOUNT_EFFECTS:
                continue
            value = field_value(card, f)
            for new in (value - step, value + step):
                try:
                    vary(cards, card.name, **{f: new})
                except OptionError:
                    continue
                out.append(Change(card.name, f, value, new))
    return out


@_on_cluster
def tune(
    n: int = 200,
    max_changes: int = 3,
    *,
    fields: Sequence[str] = TUNE_FIELDS,
    step: int = 1,
    names: Sequence[str] | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    check_seed: int | None = None,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Tuning:
    """Search for up to ``max_changes`` single-field changes of ±``step`` to the cards of the
    starter decks that bring the largest distance of any deck's overall rate from 50% down
    most, then check them on fresh seeds.

    The search is greedy: each round tries every candidate (:func:`candidates`) on the same
    ``n`` games per pairing (master seeds ``seed + k``; only the pairings of the changed
    card's deck are played again) and keeps the one with the smallest largest distance, if
    it beats the set without it; a (card, field) is changed at most once.  The check plays
    the whole matrix after each number of changes on master seeds ``check_seed + k``
    (default ``seed + CHECK_SEED_OFFSET``) and keeps the prefix of the changes with the
    smallest distance there, so a change that only fitted the search's seeds is dropped.
    """
    base = _card_set(cards)
    if isinstance(max_changes, bool) or not isinstance(max_changes, int) or max_changes < 0:
        raise OptionError(f"max changes {max_changes!r} must be a whole number ≥ 0")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise OptionError(f"step {step!r} must be a whole number ≥ 1")
    known = sorted({f for fs in FIELDS.values() for f in fs})
    fields = tuple(dict.fromkeys(str(f).strip().lower() for f in fields))
    for f in fields:
        if f not in known:
            raise OptionError(f"unknown field {f!r} (one of {', '.join(known)})")
    if not fields:
        raise OptionError("no field to tune (cost, attack, health, amount)")
    if names is not None:
        names = [str(x).strip().upper() for x in names]
        for name in names:
            if name not in base:
                raise OptionError(f"unknown card {name!r} (not in the card set)")
    _check_policy(policy)
    study = _study(n, seed=seed, policy=policy, rules=rules, engine=engine, mirror=mirror, jobs=jobs,
                   progress=progress, runner=runner)  # fmt: skip
    check_seed = seed + CHECK_SEED_OFFSET if check_seed is None else check_seed

    def distance(games: pl.DataFrame) -> float:
        return Balance(matchups(games), n, seed).distance

    current = base
    (games_now,) = study.play([current], desc="tune: the set as it is")
    found: list[Change] = []
    distances = [distance(games_now)]
    tried = 0
    for round_ in range(max_changes):
        options = candidates(current, fields, step, names=names, done={(c.card, c.field) for c in found})
        if not options:
            break
        tried += len(options)
        variants = [apply_changes(current, [c]) for c in options]
        played = study.play(variants, desc=f"tune: change {round_ + 1} of {max_changes}")
        scored = [(distance(g), i) for i, g in enumerate(played)]
        best, i = min(scored)
        if best >= distances[-1]:
            break
        found.append(options[i])
        current, games_now = variants[i], played[i]
        distances.append(best)
    prefixes = [apply_changes(base, found[:k]) for k in range(len(found) + 1)]
    checked = study.play(prefixes, seed=check_seed, desc="tune: check on fresh seeds")
    check = [Balance(matchups(g), n, check_seed, str(policy)) for g in checked]
    keep = min(range(len(check)), key=lambda k: (round(check[k].distance, 12), k))
    games_played = sum(key[3] for key in study.cache)  # Job.key's n
    return Tuning(
        tuple(found[:keep]), check[0], check[keep], prefixes[keep], tuple(found), tuple(distances),
        tuple(c.distance for c in check), tried, games_played, check_seed,
    )  # fmt: skip


# --- Files -------------------------------------------------------------------------------


def write_parquet(
    directory: str | os.PathLike, frames: Mapping[str, pl.DataFrame], run: Mapping[str, Any] | None = None
) -> list[Path]:
    """Write each frame as ``NAME.parquet`` in ``directory``, as one unit with its manifest.

    The folder is written the way ``clashkit simulate`` writes a run
    (:class:`clashkit.runs.output.RunWriter`): locked, staged, ``manifest.json``
    (naming ``run``, the study's parameters) last, files of an earlier
    study that this one does not write removed.
    """
    from ..runs.output import RunWriter

    with RunWriter(directory, dict(run or {}), files=list(frames)) as writer:
        return writer.commit(dict(frames))


__all__ = [
    "CHECK_SEED_OFFSET",
    "FIELDS",
    "HALF_WIDTH",
    "TUNE_FIELDS",
    "Balance",
    "Change",
    "Comparison",
    "Job",
    "JobResult",
    "Settings",
    "Study",
    "Sweep",
    "Tuning",
    "apply_changes",
    "balance",
    "candidates",
    "card_stats",
    "compare",
    "field_value",
    "games_for_half_width",
    "matchups",
    "outcomes",
    "paired_changes",
    "pairings",
    "parse_values",
    "play_job",
    "play_local",
    "replace_card",
    "run_jobs",
    "sides",
    "sweep",
    "tune",
    "vanilla",
    "vary",
    "write_parquet",
]
