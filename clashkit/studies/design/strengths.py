"""A study at several strengths of play on the same seeds: the strengths asked for, each deck's
paired change from one strength to another, and the tuner's objective over all of them.

Every strength plays the same deals and coin flips (R2.2, R2.3): pairing ``k`` plays
games ``0 … n-1`` of master seed ``seed + k`` whatever the policy, so the change of a
deck's rate from ``greedy`` to ``expert`` is measured game by game, with the paired
interval of :func:`~clashkit.studies.design.paired_changes`.  The strengths are listed
weakest first; each later one is compared with the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from ...base.errors import OptionError
from ...base.limits import fraction
from ...base.stats import farthest_from_even
from ..analysis import first_player
from .study import matchups, paired_changes

if TYPE_CHECKING:
    from .matrix import Balance

#: The columns of :func:`skill_changes` besides its ``by`` keys.
CHANGE_COLUMNS = {
    "from": pl.String,
    "to": pl.String,
    "change": pl.Float64,
    "change_low": pl.Float64,
    "change_high": pl.Float64,
    "clear": pl.Boolean,
}


def strengths(policy: str | None = None, policies: Sequence[str] | str | None = None) -> list[str]:
    """The strengths a study plays: ``policies`` (weakest first, each checked, ``"greedy,expert"``
    or a list), else ``[policy]``; an unknown policy is refused with the bots' names."""
    from ...policies import parse_policies

    if policies is not None:
        return parse_policies(policies, where="policies", least=1)
    return parse_policies([str(policy or "greedy")], where="policy", least=1)


def skill_changes(
    played: Mapping[str, pl.DataFrame], *, by: Sequence[str] = ("deck",), labels: Sequence[pl.Expr] = ()
) -> pl.DataFrame:
    """Each deck's paired change of rate from the first strength of ``played`` (policy →
    :func:`~clashkit.studies.design.outcomes` of the same seeds) to each later one: ``from``,
    ``to``, the ``by`` keys, ``change``, ``change_low``, ``change_high``, ``clear``;
    ``labels`` (literal expressions) are put first.  No rows for a single strength."""
    names = list(played)
    rows = [
        paired_changes(played[names[0]], played[p], by=by)
        .drop("sd")
        .select(*labels, pl.lit(names[0]).alias("from"), pl.lit(p).alias("to"), *by, pl.all().exclude(*by))
        for p in names[1:]
    ]
    return pl.concat(rows) if rows else no_changes(dict.fromkeys(by, pl.Int8))


def no_changes(keys: Mapping[str, type[pl.DataType]]) -> pl.DataFrame:
    """An empty frame of changes between strengths (a single strength, or no games to compare)."""
    return pl.DataFrame(schema={"from": pl.String, "to": pl.String, **keys, **CHANGE_COLUMNS})


@dataclass(frozen=True)
class Objective:
    """What the tuner lowers at one strength: the largest distance from 50% of any deck's overall
    rate, or ``pairing_weight`` × the largest of any ordered pairing's (the first deck's wins as
    A), or ``first_weight`` × the first player's (R2.3), whichever is largest.  A weight is
    0 … 1; 0 leaves its term out, so ``Objective()`` is the decks alone."""

    pairing_weight: float = 0.0
    first_weight: float = 0.0

    def __post_init__(self) -> None:
        for name in ("pairing_weight", "first_weight"):
            value = fraction(getattr(self, name), name, name.replace("_", " "), OptionError)
            object.__setattr__(self, name, value)

    @property
    def both_ways(self) -> bool:
        """Whether a change may help in either direction (a pairing or the seats, not a deck's rate)."""
        return bool(self.pairing_weight or self.first_weight)

    def of(self, balance: Balance) -> float:
        """The objective of one strength's :class:`~clashkit.studies.design.Balance`."""
        return self.of_rates(balance.decks["rate"].to_list(), balance.a_rates, first_player(balance.matchups)[0])

    def of_rates(self, deck_rates: Sequence[float], a_rates: Sequence[float], first_rate: float) -> float:
        """:meth:`of` from the rates themselves: each deck's, seat A's in each ordered pairing,
        and the first player's (the bootstrap's replicates)."""
        out = farthest_from_even(deck_rates)
        if self.pairing_weight:
            out = max(out, self.pairing_weight * farthest_from_even(a_rates))
        if self.first_weight:
            out = max(out, self.first_weight * farthest_from_even([first_rate]))
        return out

    def text(self) -> str:
        """What the distances measure, in words."""
        terms = ["largest distance of a deck from 50%"]
        if self.pairing_weight:
            terms.append(f"{self.pairing_weight:g} × an ordered pairing's")
        if self.first_weight:
            terms.append(f"{self.first_weight:g} × the first player's")
        return terms[0] if len(terms) == 1 else ", or ".join(terms) + " where larger,"

    def to_dict(self) -> dict[str, Any]:
        return {"pairing_weight": self.pairing_weight, "first_weight": self.first_weight}


#: The decks alone: the objective without weights.
DECKS = Objective()


def skill_distance(played: Mapping[str, pl.DataFrame], objective: Objective = DECKS) -> float:
    """The tuner's objective: the largest distance of any deck's overall rate from 50% at any
    strength (policy → :func:`~clashkit.studies.design.outcomes`), with the pairing and the
    first-player terms of ``objective`` where it weighs them (:class:`Objective`).

    >>> import polars as pl
    >>> def games(winners):  # deck 1 vs 2 and 2 vs 1, one game each
    ...     return pl.DataFrame({"deck_a": [1, 2], "deck_b": [2, 1], "game": [0, 0],
    ...                          "first_player": ["A", "A"], "winner": winners, "turns": [9, 9]})
    >>> skill_distance({"greedy": games(["A", "B"]), "expert": games(["A", "A"])})
    0.5
    >>> both_a = {"greedy": games(["A", "A"])}  # each deck wins as A: decks at 50%, pairings at 100%
    >>> skill_distance(both_a), skill_distance(both_a, Objective(pairing_weight=0.5))
    (0.0, 0.25)
    >>> skill_distance(both_a, Objective(first_weight=0.6))  # A moved first, and won, every game
    0.3
    """
    from .matrix import Balance

    return max(objective.of(Balance(matchups(g), 0, 0)) for g in played.values())


# --- Bootstrap over the games (the paired interval of a largest distance) --------------------


def win_arrays(games: pl.DataFrame) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """The pairings in order and, per pairing and game, whether seat A won and whether B won."""
    games = games.sort("deck_a", "deck_b", "game")
    keys = games.select("deck_a", "deck_b").unique(maintain_order=True).rows()
    n = games.height // len(keys)
    a = (games["winner"] == "A").fill_null(False).to_numpy().reshape(len(keys), n).astype(float)
    b = (games["winner"] == "B").fill_null(False).to_numpy().reshape(len(keys), n).astype(float)
    return keys, a, b


def first_arrays(games: pl.DataFrame) -> np.ndarray:
    """Per pairing and game (in :func:`win_arrays`' order), whether the first player won."""
    games = games.sort("deck_a", "deck_b", "game")
    pairings = games.select("deck_a", "deck_b").n_unique()
    won = (games["winner"] == games["first_player"]).fill_null(False).to_numpy().astype(float)
    return won.reshape(pairings, games.height // pairings)


def deck_rates_of(keys, a_wins: np.ndarray, b_wins: np.ndarray, decks: list[int]) -> list[float]:
    """Each deck's overall rate from per-pairing win rates (a mirror counts once each side)."""
    out = []
    for d in decks:
        wins = games = 0.0
        for k, (da, db) in enumerate(keys):
            if da == d:
                wins, games = wins + a_wins[k], games + 1
            if db == d:
                wins, games = wins + b_wins[k], games + 1
        out.append(wins / games)
    return out


def distance_improvement(
    before: Mapping[str, pl.DataFrame],
    after: Mapping[str, pl.DataFrame],
    *,
    seed: int = 0,
    bootstrap: int = 1000,
    objective: Objective = DECKS,
) -> tuple[float, float | None, float | None]:
    """How much :func:`skill_distance` falls from ``before`` to ``after`` (policy → outcomes of
    the same seeds, the same policies), with a paired 95% percentile bootstrap interval: each
    replicate draws the same games of every pairing for both card sets and every strength, so
    the luck they share cancels as in a paired interval of a mean."""
    arrays = {}
    firsts = {}
    for side, played in (("before", before), ("after", after)):
        for policy, games in played.items():
            arrays[side, policy] = win_arrays(games)
            firsts[side, policy] = first_arrays(games)
    keys = arrays["before", next(iter(before))][0]
    if any(k != keys for k, _, _ in arrays.values()):
        raise ValueError("before and after must play the same pairings at the same strengths")
    decks = sorted({d for pair in keys for d in pair})
    n = arrays["before", next(iter(before))][1].shape[1]

    def distance(side: str, pick=None) -> float:
        worst = 0.0
        for (s, policy), (_, a, b) in arrays.items():
            if s != side:
                continue
            first = firsts[s, policy]
            if pick is not None:
                a, b, first = a[rows, pick], b[rows, pick], first[rows, pick]
            rates = deck_rates_of(keys, a.mean(axis=1), b.mean(axis=1), decks)
            worst = max(worst, objective.of_rates(rates, a.mean(axis=1), float(first.mean())))
        return worst

    rows = np.arange(len(keys))[:, None]
    point = distance("before") - distance("after")
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(bootstrap):
        pick = rng.integers(0, n, size=(len(keys), n))
        draws.append(distance("before", pick) - distance("after", pick))
    if not draws:
        return point, None, None
    return point, float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))
