"""Two versions of a card set compared on the same seeds, and how many games measure a change to a given width."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.points import change_text, percent_text
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
    paired change (:func:`paired_changes`), each cell's (``cells``: the row deck against
    the column deck, both seats; see :meth:`matrix`) and each ordered pairing's
    (``pairings``: seat A's deck against seat B's, as in the balance matrix; see
    :meth:`pairing_table`)."""

    before: Balance
    after: Balance
    changes: pl.DataFrame
    cells: pl.DataFrame | None = None
    pairings: pl.DataFrame | None = None

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

    def pairing_table(self) -> pl.DataFrame:
        """One row per ordered pairing (``a`` in seat A against ``b``): seat A's rate before and
        after, its paired change with the 95% interval and ``clear``, and the games."""
        if self.pairings is None:
            raise ValueError("this comparison was made without its pairings (compare() makes them)")
        rates = [
            balance.matchups.select(
                pl.col("deck_a").alias("a"),
                pl.col("deck_b").alias("b"),
                (pl.col("wins_a") / pl.col("games")).alias(name),
                *(["games"] if name == "before" else []),
            )
            for name, balance in (("before", self.before), ("after", self.after))
        ]
        return (
            rates[0]
            .join(rates[1], on=["a", "b"])
            .join(self.pairings, on=["a", "b"])
            .select("a", "b", "before", "after", "change", "change_low", "change_high", "clear", "games")
            .sort("a", "b")
        )

    @property
    def half_width(self) -> float:
        """The widest half-width of any deck's change interval."""
        widths = (self.changes["change_high"] - self.changes["change_low"]) / 2
        # polars types Series.max() as any scalar; a float column's is a float.
        return float(widths.max()) if widths.len() else 0.0  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """One strength's object of ``clashkit compare --json``: ``decks`` (``{"1": {"before",
        "after", "change", "change_low", "change_high", "clear", "games", …}}``), ``matrix``
        (one item per ordered pairing: ``a``, ``b``, seat A's ``before``, ``after``, ``change``,
        ``change_low``, ``change_high``, ``clear``, ``games``), ``cells`` (the row deck against
        the column deck, both seats), ``n``, ``seed``, ``policy``."""
        decks = {str(r.pop("deck")): r for r in self.table().drop("sd").to_dicts()}
        data: dict[str, Any] = {"decks": decks}
        if self.pairings is not None:
            data["matrix"] = self.pairing_table().to_dicts()
        if self.cells is not None:
            data["cells"] = self.matrix().to_dicts()
        return data | {"n": self.before.n, "seed": self.before.seed, "policy": self.before.policy}

    def __str__(self) -> str:
        lines = [
            f"{self.before.policy}: each deck's rate before and after, and its change on the same seeds "
            "(points, paired 95% interval)",
            "",
            f"{'deck':>6}  {'before':>7}  {'after':>7}  change",
        ]
        for r in self.table().iter_rows(named=True):
            lines.append(
                f"{r['deck']:>6}  {percent_text(r['before']):>7}  {percent_text(r['after']):>7}  {_verdict(r)}"
            )
        if self.pairings is not None:
            lines += ["", f"{'a vs b':>6}  {'before':>7}  {'after':>7}  change (seat A's rate)"]
            for r in self.pairing_table().iter_rows(named=True):
                lines.append(
                    f"{str(r['a']) + ' vs ' + str(r['b']):>6}  {percent_text(r['before']):>7}  "
                    f"{percent_text(r['after']):>7}  {_verdict(r)}"
                )
        return "\n".join(lines)


def _verdict(row: Mapping[str, Any]) -> str:
    """``+2.1 [+0.4, +3.8]``, said so when the games cannot tell it from 0 or no game changed."""
    if row["change_low"] == row["change_high"] == 0:
        return "±0 (no game changed)"
    text = change_text(row["change"], row["change_low"], row["change_high"])
    return text if row["clear"] else f"{text}  cannot be told from 0"


#: Starter decks a compared card set must keep as they are (the same card names), of the base's four.
SAME_DECKS = 3


def check_comparable(before: CardSet, after: CardSet, *, where: str = "--cards") -> None:
    """Refuse a new card set that keeps fewer than :data:`SAME_DECKS` of ``before``'s starter decks
    identical (the same card names, R7.1), naming the decks that differ: a paired change
    measures a change to a set, not two different games."""
    old, new = before.decks, after.decks
    differ = [d for d in old if sorted(old[d]) != sorted(new.get(d, []))]
    extra = [d for d in new if d not in old]
    if len(old) - len(differ) < min(SAME_DECKS, len(old)) or extra:
        parts = [f"deck {d} ({_deck_difference(old[d], new.get(d, []))})" for d in differ]
        parts += [f"deck {d} (not in the base)" for d in extra]
        raise OptionError(
            f"{where}: keeps {len(old) - len(differ)} of the base's {len(old)} starter decks identical; compare needs "
            f"at least {min(SAME_DECKS, len(old))} (R7.1); these differ: {'; '.join(parts)}"
        )


def _deck_difference(old: Sequence[str], new: Sequence[str]) -> str:
    gone = [n for n in old if n not in new]
    added = [n for n in new if n not in old]
    if not new:
        return "missing"
    return ", ".join([*(f"without {n}" for n in gone), *(f"with {n}" for n in added)]) or "reordered"


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

    def pairing_table(self) -> pl.DataFrame:
        """:meth:`Comparison.pairing_table` at each strength, stacked, ``strength`` first."""
        return pl.concat(
            c.pairing_table().select(pl.lit(p).alias("strength"), pl.all()) for p, c in self.comparisons.items()
        )

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit compare --json`` prints: ``{"policies": {P: <one strength's
        object, Comparison.to_dict>}}``."""
        return {"policies": {p: c.to_dict() for p, c in self.comparisons.items()}}

    def __str__(self) -> str:
        return "\n\n".join(str(c) for c in self.comparisons.values())


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
            seat_a_changes(old, new),
        )
        for p, (old, new) in played.items()
    }
    return comparisons[names[0]] if policies is None else SkillComparison(comparisons)


def seat_a_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """Each ordered pairing's paired change of seat A's rate (``a``, ``b``, ``change``,
    ``change_low``, ``change_high``, ``clear``) from ``before`` to ``after`` (:func:`outcomes`)."""
    changes = paired_changes(before, after, by=("deck_a", "deck_b", "side"))
    return changes.filter(pl.col("side") == "A").select(
        pl.col("deck_a").alias("a"), pl.col("deck_b").alias("b"), "change", "change_low", "change_high", "clear"
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
