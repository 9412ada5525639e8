"""Two versions of a card set compared on the same seeds, and how many games measure a change to a given width."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.rules import Rules
from ...base.stats import Z95
from ..analysis import deck_results
from .jobs import Runner
from .matrix import Balance, make_study, on_cluster
from .strengths import strengths
from .study import matchups, paired_changes

#: The designer's rule: a change is measured to within this many rate units (±1.5 points).
HALF_WIDTH = 0.015


@dataclass(frozen=True)
class Comparison:
    """Two versions of a card set played on the same seeds: both balances, each deck's
    paired change (:func:`paired_changes`) and each cell's (``cells``: the row deck against
    the column deck, both seats; see :meth:`matrix`)."""

    before: Balance
    after: Balance
    changes: pl.DataFrame
    cells: pl.DataFrame | None = None

    def table(self) -> pl.DataFrame:
        """One row per deck: rate before and after with 95% intervals, games, the change and
        its paired interval, and whether the games tell it from 0."""
        b = self.before.decks.select(
            "deck",
            "games",
            pl.col("rate").alias("before"),
            pl.col("low").alias("before_low"),
            pl.col("high").alias("before_high"),
        )
        a = self.after.decks.select(
            "deck", pl.col("rate").alias("after"), pl.col("low").alias("after_low"), pl.col("high").alias("after_high")
        )
        return b.join(a, on="deck").join(self.changes, on="deck").sort("deck")

    def matrix(self) -> pl.DataFrame:
        """One row per cell of the balance matrix (``deck`` against ``opponent``, both seats):
        the rate before and after, the paired change with its 95% interval and ``clear``
        (the games tell it from 0), and the games."""
        if self.cells is None:
            raise ValueError("this comparison was made without its cells (compare() makes them)")
        rates = [
            deck_results(balance.matchups).select(
                "deck", "opponent", pl.col("rate").alias(name), *(["games"] if name == "before" else [])
            )
            for name, balance in (("before", self.before), ("after", self.after))
        ]
        keys = ["deck", "opponent"]
        return (
            rates[0]
            .join(rates[1], on=keys)
            .join(self.cells.drop("sd"), on=keys)
            .select(*keys, "before", "after", "change", "change_low", "change_high", "clear", "games")
            .sort(keys)
        )

    @property
    def half_width(self) -> float:
        """The widest half-width of any deck's change interval."""
        widths = (self.changes["change_high"] - self.changes["change_low"]) / 2
        # polars types Series.max() as any scalar; a float column's is a float.
        return float(widths.max()) if widths.len() else 0.0  # type: ignore[arg-type]


@dataclass(frozen=True)
class SkillComparison:
    """Two versions of a card set compared at several strengths on the same seeds
    (``comparisons``: policy → :class:`Comparison`, weakest first): what a change does under
    weak play beside what it does under strong play."""

    comparisons: dict[str, Comparison]

    @property
    def first(self) -> Comparison:
        return next(iter(self.comparisons.values()))

    @property
    def half_width(self) -> float:
        """The widest half-width of any deck's change interval at any strength."""
        return max(c.half_width for c in self.comparisons.values())

    def table(self) -> pl.DataFrame:
        """:meth:`Comparison.table` at each strength, stacked, ``strength`` first."""
        return pl.concat(c.table().select(pl.lit(p).alias("strength"), pl.all()) for p, c in self.comparisons.items())

    def matrix(self) -> pl.DataFrame:
        """:meth:`Comparison.matrix` at each strength, stacked, ``strength`` first."""
        return pl.concat(c.matrix().select(pl.lit(p).alias("strength"), pl.all()) for p, c in self.comparisons.items())


@on_cluster
def compare(
    before: CardSet,
    after: CardSet,
    n: int,
    *,
    policy: str = "greedy",
    policies: Sequence[str] | str | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> Any:
    """Play both versions of the card set on the same seeds and compare them deck by deck.

    ``after`` should hold its cards in ``before``'s order, a changed card in the place of
    the one it changes (:func:`vary`, :func:`replace_card`), so that the decks deal the
    same hands; otherwise the change is still measured, but less precisely.

    A :class:`Comparison` at ``policy``; with ``policies`` (weakest first, ``["greedy",
    "expert"]``) a :class:`SkillComparison`: the comparison at each strength on the same
    seeds, all of it played as one list of jobs (one progress bar, one estimate).
    """
    names = strengths(policy, policies)
    study = make_study(
        n,
        seed=seed,
        policy=names[0],
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=progress,
        runner=runner,
        cache=cache,
    )
    played = study.play_at(names, [before, after], desc="before and after")
    comparisons = {
        p: Comparison(
            Balance(matchups(old), n, seed, p),
            Balance(matchups(new), n, seed, p),
            paired_changes(old, new),
            paired_changes(old, new, by=("deck", "opponent")),
        )
        for p, (old, new) in played.items()
    }
    return comparisons[names[0]] if policies is None else SkillComparison(comparisons)


def games_for_half_width(sd: float, half_width: float = HALF_WIDTH, *, games_per_deck_game: int = 6) -> int:
    """Games per ordered pairing that bring a paired change's 95% interval to ±``half_width``
    when the per-game differences have standard deviation ``sd``.  A deck plays
    ``games_per_deck_game`` ordered pairings (6 among four decks), so its change is a mean
    over that many times ``n`` games."""
    if sd <= 0:
        return 1
    deck_games = (Z95 * sd / half_width) ** 2
    return max(1, math.ceil(deck_games / games_per_deck_game))
