"""A study: several versions of a card set played on the same seeds, and the paired changes
between them (common random numbers)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.stats import mean_exprs
from ..analysis import MATCHUPS_SCHEMA, pairing_counts
from .jobs import Job, JobResult, Runner, Settings, run_jobs


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

    def jobs(
        self, cards: CardSet, *, seed: int | None = None, decks: set[int] | None = None, events: bool = False
    ) -> list[Job]:
        """The jobs of every pairing of ``cards`` (only those involving ``decks`` if given)."""
        base = self.seed if seed is None else seed
        return [
            Job(a, b, base + k, self.n, cards, self.settings, events)
            for k, (a, b) in enumerate(pairings(cards, mirror=self.mirror))
            if decks is None or a in decks or b in decks
        ]

    def at(self, policy: str) -> Study:
        """This study with both players playing ``policy``: the same seeds and the same cache, so
        two strengths play the same deals and coin flips (R2.2, R2.3)."""
        return dataclasses.replace(self, settings=dataclasses.replace(self.settings, policy=policy, opponent=None))

    def play(self, variants: Sequence[CardSet], *, seed: int | None = None, desc: str = "games") -> list[pl.DataFrame]:
        """The outcomes (:func:`outcomes`) of every version of the card set, same seeds."""
        (played,) = self.play_at([self.settings.policy], variants, seed=seed, desc=desc).values()
        return played

    def play_at(
        self, policies: Sequence[str], variants: Sequence[CardSet], *, seed: int | None = None, desc: str = "games"
    ) -> dict[str, list[pl.DataFrame]]:
        """The outcomes of every version of the card set at each strength in ``policies``, all on
        the same seeds, played as one list of jobs (one progress bar, one estimate for all)."""
        studies = [self if p == self.settings.policy else self.at(p) for p in policies]
        per_variant = [study.jobs(cards, seed=seed) for study in studies for cards in variants]
        flat = [job for jobs in per_variant for job in jobs]
        results = run_jobs(
            flat,
            workers=self.workers,
            progress=self.progress,
            desc=desc,
            runner=self.runner,
            cache=self.cache,
        )
        played, i = [], 0
        for jobs in per_variant:
            played.append(outcomes(jobs, results[i : i + len(jobs)]))
            i += len(jobs)
        k = len(variants)
        return {p: played[j * k : (j + 1) * k] for j, p in enumerate(policies)}


def outcomes(jobs: Sequence[Job], results: Sequence[JobResult]) -> pl.DataFrame:
    """One row per game: ``deck_a``, ``deck_b``, ``game``, ``first_player``, ``winner``,
    ``turns``."""
    frames = [
        r.games.with_columns(pl.lit(j.deck_a, pl.Int8).alias("deck_a"), pl.lit(j.deck_b, pl.Int8).alias("deck_b"))
        for j, r in zip(jobs, results, strict=True)
    ]
    return pl.concat(frames).select("deck_a", "deck_b", "game", "first_player", "winner", "turns")


def matchups(games: pl.DataFrame) -> pl.DataFrame:
    """:data:`clashkit.studies.analysis.MATCHUPS_SCHEMA` of an :func:`outcomes` frame."""
    return pairing_counts(games).cast(MATCHUPS_SCHEMA).select(list(MATCHUPS_SCHEMA))


def sides(games: pl.DataFrame) -> pl.DataFrame:
    """Two rows per game of an :func:`outcomes` frame, one per seat: ``deck_a``, ``deck_b``,
    ``game``, ``side``, ``deck`` (the seat's deck), ``opponent`` (the other seat's) and
    ``win`` (1 if it won, else 0)."""
    keys = ["deck_a", "deck_b", "game"]
    return pl.concat(
        [
            games.select(
                *keys,
                pl.lit(side).alias("side"),
                pl.col(f"deck_{side.lower()}").alias("deck"),
                pl.col(f"deck_{'b' if side == 'A' else 'a'}").alias("opponent"),
                (pl.col("winner") == side).fill_null(False).cast(pl.Float64).alias("win"),
            )
            for side in ("A", "B")
        ]
    )


def paired_changes(before: pl.DataFrame, after: pl.DataFrame, *, by: Sequence[str] = ("deck",)) -> pl.DataFrame:
    """Each deck's change of rate from ``before`` to ``after`` (:func:`outcomes` of the same
    seeds), with its paired 95% interval from the per-game differences: ``deck``,
    ``change``, ``change_low``, ``change_high``, ``sd`` (of the differences) and ``clear``
    (the interval excludes 0).  ``by=("deck", "opponent")`` gives one row per cell of the
    balance matrix instead: the row deck's change against the column deck, both seats."""
    return paired_contrast([(1.0, after), (-1.0, before)], by=by)


def paired_contrast(terms: Sequence[tuple[float, pl.DataFrame]], *, by: Sequence[str] = ("deck",)) -> pl.DataFrame:
    """Each deck's mean of ``Σ weight × won`` over ``terms`` (weights and :func:`outcomes` of the
    same seeds), game by game, with the paired 95% interval of those per-game sums; columns as
    :func:`paired_changes` (which is ``[(1, after), (-1, before)]``).  Only the games every
    term played count.  ``[(1, b_strong), (-1, a_strong), (-1, b_weak), (1, a_weak)]`` is a
    difference of two changes: whether a change does more under strong play than under weak."""
    keys = ["deck_a", "deck_b", "game", "side"]
    (w0, first), *rest = terms
    joined = sides(first).with_columns((w0 * pl.col("win")).alias("diff"))
    for j, (w, frame) in enumerate(rest):
        term = sides(frame).select(*keys, (w * pl.col("win")).alias(f"term{j}"))
        joined = joined.join(term, on=keys).with_columns((pl.col("diff") + pl.col(f"term{j}")).alias("diff"))
    # a game's sum lies between the negative weights' sum and the positive ones' (a win is 0 … 1)
    bounds = (sum(min(0.0, w) for w, _ in terms), sum(max(0.0, w) for w, _ in terms))
    mean, low, high = mean_exprs(pl.col("diff"), bounds=bounds)
    return (
        joined.group_by(*by)
        .agg(
            mean.alias("change"),
            low.alias("change_low"),
            high.alias("change_high"),
            pl.col("diff").std().alias("sd"),
        )
        .with_columns(((pl.col("change_low") > 0) | (pl.col("change_high") < 0)).alias("clear"))
        .sort(*by)
    )
