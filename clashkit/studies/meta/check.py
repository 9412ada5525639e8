"""The meta study's strength check: its best decks against the starter decks, played again by a
stronger arbiter on the same games.

A meta study's verdict — "this deck beats the starter decks by so much" — is a strong-play verdict
when its policy is strong, and it depends on which strong bot plays.  The check plays the
:data:`CHECK_DECKS` best decks found against each starter deck with the arbiter (``deep`` unless
another is named, :data:`~clashkit.studies.design.check.CHECK_POLICY`), on the first ``m`` seeds of
the study's own field games in both seatings, and compares game by game with the study's policy
on those same games: the **difference** (the arbiter's score minus the study's) with its paired 95%
interval, and whether the two **agree** by the rule every study's check uses
(:func:`~clashkit.studies.design.check.agrees`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...base.stats import Z95
from ...runs.simulate import usable_jobs
from ..design.check import agrees, sentence
from .games import FIELD, Arena, Match
from .study import Meta, mean_interval

#: The best decks the check plays again.
CHECK_DECKS = 4


@dataclass(frozen=True)
class MetaCheck:
    """The arbiter's scores of the best decks against the starter decks beside the study's."""

    policy: str
    study: str
    n: int
    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """``{"policy", "n", "decks": {INDEX: {"rate", "low", "high", "study", "difference", …, "agree"}}}``:
        by the deck's place in the study's best-first list."""
        return {"policy": self.policy, "n": self.n, "decks": {str(row["deck"]): row for row in self.rows}}

    @property
    def agree(self) -> bool:
        return all(row["agree"] for row in self.rows)

    def __str__(self) -> str:
        head = (
            f"Strength check: the {len(self.rows)} best decks against the starter decks, {self.policy} beside "
            f"{self.study} on {self.n} of the same games a pairing in each seat"
        )
        lines = [head]
        for row in self.rows:
            lines.append("  " + sentence(f"deck {row['deck'] + 1}", self.study, self.policy, "rate", row))
        return "\n".join(lines)


def check_meta(
    result: Meta,
    n: int,
    *,
    policy: str,
    decks: int = CHECK_DECKS,
    jobs: int | None = 1,
    cluster: Any = None,
    progress: bool = False,
) -> MetaCheck:
    """Play ``result``'s ``decks`` best decks (best first, :meth:`Meta.decks`) against the starter
    decks with ``policy`` on the first ``n`` of the study's field seeds (at most its own ``n``)."""
    n = min(n, result.sizes.n)
    order = result.decks()["deck"].to_list()[:decks]
    best = result.played.best
    starters = sorted(result.starter_numbers, key=result.starter_numbers.__getitem__)
    field = result.played.field
    matches = [Match(best[i], field[j], FIELD, n) for i in order for j in starters]
    arena = Arena(
        result.space.cards,
        policy,
        seed=result.seed,
        rules=result.rules,
        engine=None,
        jobs=usable_jobs(jobs),
        cluster=cluster,
        progress=progress,
        desc=f"check {policy}",
    )

    def plan():
        scores = yield matches
        return scores

    scores = arena.run(plan(), 2 * n * len(matches))
    rows = []
    full = result.sizes.n
    for k, i in enumerate(order):
        mine = np.concatenate(scores[k * len(starters) : (k + 1) * len(starters)])
        theirs = np.concatenate(
            [np.concatenate([result.against(i, j)[:n], result.against(i, j)[full : full + n]]) for j in starters]
        )
        difference = mine - theirs
        rate, rate_low, rate_high = mean_interval(mine)
        gap = float(difference.mean())
        gap_half = Z95 * float(difference.std(ddof=1)) / math.sqrt(len(difference)) if len(difference) > 1 else 1.0
        low, high = gap - gap_half, gap + gap_half
        rows.append(
            {
                "deck": order.index(i),
                "rate": rate,
                "low": rate_low,
                "high": rate_high,
                "study": float(theirs.mean()),
                "difference": gap,
                "difference_low": low,
                "difference_high": high,
                "agree": agrees(gap, low, high),
                "games": len(mine),
            }
        )
    return MetaCheck(policy, result.policy, n, rows)


__all__ = ["CHECK_DECKS", "MetaCheck", "check_meta"]
