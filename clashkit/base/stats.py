"""Win rates with 95% Wilson intervals, from the games frame (:mod:`clashkit.runs.trace`).

Every rate here counts all games in its denominator: an unfinished game
(R10.1) is never a win, so the A, B and unfinished shares add up to 1.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    >>> import polars as pl
    >>> games = pl.DataFrame({"winner": ["A", "B", "A", None], "first_player": ["A", "A", "B", "B"],
    ...                       "turns": [10, 12, 9, 200], "finished": [True, True, True, False]})
    >>> win_rates(games).select("outcome", "wins", "games", "rate")
    shape: (4, 4)
    ┌───────────────┬──────┬───────┬──────┐
    │ outcome       ┆ wins ┆ games ┆ rate │
    │ ---           ┆ ---  ┆ ---   ┆ ---  │
    │ str           ┆ u32  ┆ u32   ┆ f64  │
    ╞═══════════════╪══════╪═══════╪══════╡
    │ A             ┆ 2    ┆ 4     ┆ 0.5  │
    │ B             ┆ 1    ┆ 4     ┆ 0.25 │
    │ first player  ┆ 1    ┆ 4     ┆ 0.25 │
    │ second player ┆ 2    ┆ 4     ┆ 0.5  │
    └───────────────┴──────┴───────┴──────┘
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from .points import percent_text, points_text

#: The standard normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

OUTCOMES = ("A", "B", "first player", "second player")


def _wilson_bounds(p, n, z: float, sqrt):
    """The Wilson score interval's (low, high) before clipping to [0, 1]: the one formula,
    for numbers (``sqrt=math.sqrt``) and for polars expressions alike."""
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return centre - half, centre + half


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games`` (``(0, 1)`` for no games)."""
    if games <= 0:
        return 0.0, 1.0
    low, high = _wilson_bounds(wins / games, games, z, math.sqrt)
    return (0.0 if wins <= 0 else max(0.0, low)), (1.0 if wins >= games else min(1.0, high))


def wilson_exprs(wins: str | pl.Expr, games: str | pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """:func:`wilson` as two polars expressions (low, high), for grouped frames; null where
    there are no games.  Column names may be given for the expressions."""
    wins = pl.col(wins) if isinstance(wins, str) else wins
    n = (pl.col(games) if isinstance(games, str) else games).cast(pl.Float64)
    low, high = _wilson_bounds(wins.cast(pl.Float64) / n, n, z, pl.Expr.sqrt)
    some = n > 0
    return (
        pl.when(some).then(low.clip(0.0, 1.0)).otherwise(None),
        pl.when(some).then(high.clip(0.0, 1.0)).otherwise(None),
    )


def rate_exprs(wins: str, games: str, name: str = "rate") -> list[pl.Expr]:
    """``wins / games`` as column ``name`` with its Wilson interval as ``low`` and ``high``
    (null where there are no games)."""
    low, high = wilson_exprs(wins, games)
    return [
        pl.when(pl.col(games) > 0).then(pl.col(wins) / pl.col(games)).otherwise(None).alias(name),
        low.alias("low"),
        high.alias("high"),
    ]


def win_rates(games: pl.DataFrame | pl.LazyFrame, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """One row per outcome — A wins, B wins, the first player wins, the second player wins —
    with ``wins``, ``games``, ``rate`` and the 95% Wilson interval ``low`` … ``high``;
    per group of ``by`` columns (e.g. ``["deck_a", "deck_b"]``) if given."""
    keys = [by] if isinstance(by, str) else list(by or [])
    winner = pl.col("winner").cast(pl.String)
    first = pl.col("first_player").cast(pl.String)
    counted = {
        "A": (winner == "A").sum(),
        "B": (winner == "B").sum(),
        "first player": (winner == first).sum(),
        "second player": (winner.is_not_null() & (winner != first)).sum(),
    }
    aggs = [pl.len().alias("games"), *(e.cast(pl.UInt32).alias(k) for k, e in counted.items())]
    wide = games.group_by(keys, maintain_order=True).agg(aggs) if keys else games.select(aggs)
    if isinstance(wide, pl.LazyFrame):  # a scanned file: counted as it streams by
        wide = wide.collect(engine="streaming")
    long = wide.unpivot(index=[*keys, "games"], on=list(OUTCOMES), variable_name="outcome", value_name="wins")
    low, high = wilson_exprs(pl.col("wins"), pl.col("games"))
    return long.select(
        *keys,
        "outcome",
        "wins",
        pl.col("games").cast(pl.UInt32),
        (pl.col("wins") / pl.col("games")).alias("rate"),
        low.alias("low"),
        high.alias("high"),
    ).sort([*keys, pl.col("outcome").cast(pl.Enum(list(OUTCOMES)))], maintain_order=True)


def mean_exprs(
    values: pl.Expr, z: float = Z95, bounds: tuple[float, float] | None = None
) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """The mean of ``values`` with its 95% interval (mean ± z·sd/√n), as three expressions.

    Given per-game differences of one outcome between two versions of a card
    set played on the same seeds, this is the *paired* interval of the change:
    luck that both versions share cancels game by game.  With fewer than two
    values the interval is null; with no spread it is the mean itself.  With
    ``bounds`` (the least and the most a value can be) the interval is cut to
    them: on a few games the normal interval of a change of a rate can reach
    past ±1, which no change can.
    """
    mean = values.mean()
    half = z * values.std() / values.count().cast(pl.Float64).sqrt()
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = low.clip(lower_bound=bounds[0]), high.clip(upper_bound=bounds[1])
    return mean, low, high


def farthest_from_even(rates: Sequence[float]) -> float:
    """The largest distance of any of ``rates`` from 50%: a deck's overall rate, an ordered
    pairing's, the first player's (what the tuner lowers).

    >>> farthest_from_even([0.5, 0.25, 0.625])
    0.25
    """
    return max(abs(float(r) - 0.5) for r in rates)


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (ties by mean ranks); NaN when either side has no spread.

    >>> spearman([0.4, 0.5, 0.6, 0.7], [0.45, 0.55, 0.5, 0.7])
    0.8
    """
    rx, ry = ranks(x), ranks(y)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def kendall(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b; NaN when either side has no spread.

    >>> kendall([1, 2, 3, 4], [1, 3, 2, 4])
    0.6666666666666666
    """
    concordant = discordant = ties_x = ties_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator > 0 else math.nan


def unpaired_change(wins0: int, games0: int, wins1: int, games1: int, z: float = Z95) -> tuple[float, float, float]:
    """The change ``wins1/games1 − wins0/games0`` of two independent rates, with its 95%
    (Wald) interval: what the change's interval would be without common seeds."""
    p0, p1 = wins0 / games0, wins1 / games1
    half = z * math.sqrt(p0 * (1 - p0) / games0 + p1 * (1 - p1) / games1)
    return p1 - p0, p1 - p0 - half, p1 - p0 + half


@dataclass(frozen=True, slots=True)
class Summary:
    """What ``clashkit simulate`` prints about a batch of games."""

    games: int
    unfinished: int
    mean_turns: float
    rates: pl.DataFrame  # :func:`win_rates`
    policies: tuple[str, str] = ("", "")

    def rate(self, outcome: str) -> tuple[float, float, float]:
        """(rate, low, high) of one outcome of :data:`OUTCOMES`."""
        row = self.rates.row(by_predicate=pl.col("outcome") == outcome, named=True)
        return row["rate"], row["low"], row["high"]

    @property
    def first_player_advantage(self) -> float:
        """The first player's win rate minus the second player's (in rate units, −1 … 1)."""
        return self.rate("first player")[0] - self.rate("second player")[0]

    def __str__(self) -> str:
        if not self.games:
            return "no games"
        lines = []
        for side, policy in zip(("A", "B"), self.policies, strict=True):
            name = f"{side} ({policy})" if policy else side
            lines.append(f"{name + ' wins':<24}{_rate_text(*self.rate(side))}")
        lines.append(f"{'first player wins':<24}{_rate_text(*self.rate('first player'))}")
        lines.append(
            f"{'first-player advantage':<24}{points_text(self.first_player_advantage)} points"
            " (first player's win rate minus the second's)"
        )
        lines.append(f"{'mean turns':<24}{self.mean_turns:.1f}")
        lines.append(f"{'unfinished':<24}{self.unfinished} of {self.games} (turn limit, R10.1)")
        return "\n".join(lines)


def _rate_text(rate: float, low: float, high: float) -> str:
    return f"{percent_text(rate)}  95% CI [{percent_text(low)}, {percent_text(high)}]"


def summarize(games: pl.DataFrame | pl.LazyFrame) -> Summary:
    """The :class:`Summary` of a games frame: win rates with intervals, mean turns, unfinished.

    A ``LazyFrame`` (``pl.scan_parquet`` of a run's games) is summed as it streams by, so
    memory stays flat whatever the number of games.
    """
    lazy = games.lazy()
    columns = lazy.collect_schema().names()
    named = {"policy_a", "policy_b"} <= set(columns)
    policy = (
        [
            expr
            for side in ("a", "b")
            for expr in (
                pl.col(f"policy_{side}").n_unique().alias(f"kinds_{side}"),
                pl.col(f"policy_{side}").first().alias(f"first_{side}"),
            )
        ]
        if named
        else []
    )
    row = (
        lazy.select(
            pl.len().alias("games"),
            (~pl.col("finished")).sum().alias("unfinished"),
            pl.col("turns").mean().alias("mean_turns"),
            *policy,
        )
        .collect(engine="streaming")
        .row(0, named=True)
    )
    n = row["games"]
    policies = ("", "")
    if n and named and row["kinds_a"] == 1 and row["kinds_b"] == 1:
        policies = (row["first_a"], row["first_b"])
    return Summary(
        games=n,
        unfinished=int(row["unfinished"]) if n else 0,
        mean_turns=float(row["mean_turns"]) if n else math.nan,
        rates=win_rates(games),
        policies=policies,
    )


__all__ = [
    "OUTCOMES",
    "Summary",
    "Z95",
    "mean_exprs",
    "rate_exprs",
    "summarize",
    "unpaired_change",
    "wilson",
    "wilson_exprs",
    "win_rates",
]
