"""Balance by skill level: the balance matrix at several strengths of play, and how robust it is.

:func:`balance_by_skill` plays the balance (:func:`clashkit.studies.design.balance`)
once per policy — weakest first, as the caller lists them — on the **same
seeds**, all of it as one list of jobs (:meth:`clashkit.studies.design.Study.play_at`):
every policy plays the same deals and coin flips (R2.2, R2.3), so a
deck's change from one strength to another is measured game by game, with
the paired interval of :func:`clashkit.studies.design.paired_changes`.

The robustness figure is the **rank correlation** of the decks' overall rates
between the weakest and the strongest policy listed: Spearman's rho (and
Kendall's tau), with a 95% percentile bootstrap interval.  Each bootstrap
replicate resamples the games of every deck pairing — the same game numbers
for both policies, since they share the deals — and recomputes both sets of
deck rates.  A rho near 1 says the decks rank the same under weak and strong
play; with four decks rho moves in steps of 0.2, and its interval says how
much of the ranking the games pin down.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..base.cards import CardSet
from ..base.rules import Rules
from ..base.stats import kendall, spearman
from .design import (
    Balance,
    Runner,
    card_set_of,
    make_study,
    matchups,
    on_cluster,
    paired_changes,
    percent_text,
    points_text,
)
from .design.strengths import deck_rates_of, win_arrays

#: Bootstrap replicates of the rank correlation's interval.
BOOTSTRAP = 1000


@dataclass(frozen=True)
class SkillBalance:
    """Balances at several strengths (``balances``, weakest first), each deck's paired change
    from the weakest to the strongest (``changes``) and the rank correlation of the decks'
    rates between them (``correlation``)."""

    balances: dict[str, Balance]
    changes: pl.DataFrame
    correlation: dict[str, Any]

    @property
    def weak(self) -> str:
        return next(iter(self.balances))

    @property
    def strong(self) -> str:
        return list(self.balances)[-1]

    def table(self) -> pl.DataFrame:
        """One row per deck: its rate at each strength (``rate <policy>``) and the change."""
        out = None
        for policy, b in self.balances.items():
            rates = b.decks.select("deck", pl.col("rate").alias(f"rate {policy}"))
            out = rates if out is None else out.join(rates, on="deck")
        assert out is not None, "a skill balance holds a balance at each of its strengths (two or more)"
        return out.join(self.changes.select("deck", "change", "change_low", "change_high"), on="deck").sort("deck")

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit balance --policies … --json`` prints."""
        return {
            "policies": {policy: b.to_dict() for policy, b in self.balances.items()},
            "rank_correlation": self.correlation,
            "changes": [
                {
                    "deck": r["deck"],
                    "weak": self.weak,
                    "strong": self.strong,
                    "change": r["change"],
                    "change_low": r["change_low"],
                    "change_high": r["change_high"],
                    "clear": r["clear"],
                }
                for r in self.changes.iter_rows(named=True)
            ],
        }

    def correlation_text(self) -> str:
        """The rank correlation of the decks' rates between the weakest and the strongest, in one sentence."""
        r = self.correlation
        return (
            f"Rank correlation of the decks' rates, {self.weak} vs {self.strong}: Spearman "
            f"{_num(r['spearman'])} (95% {_num(r['low'])} to {_num(r['high'])}), Kendall {_num(r['kendall'])} "
            f"({_num(r['kendall_low'])} to {_num(r['kendall_high'])}); {r['bootstrap']} bootstrap replicates."
        )

    def __str__(self) -> str:
        names = list(self.balances)
        head = "| deck | " + " | ".join(names) + f" | change {self.weak} → {self.strong} (points, paired 95%) |"
        lines = [head, "| --- |" + " ---: |" * len(names) + " --- |"]
        changes = {r["deck"]: r for r in self.changes.iter_rows(named=True)}
        decks = {p: {r["deck"]: r for r in b.decks.iter_rows(named=True)} for p, b in self.balances.items()}
        for deck in sorted(changes):
            cells = [
                f"{percent_text(decks[p][deck]['rate'])} ({percent_text(decks[p][deck]['low'], 1, '')}–"
                f"{percent_text(decks[p][deck]['high'], 1, '')})"
                for p in names
            ]
            c = changes[deck]
            change = f"{points_text(c['change'])} [{points_text(c['change_low'])}, {points_text(c['change_high'])}]"
            lines.append(f"| deck {deck} | " + " | ".join(cells) + f" | {change} |")
        lines += ["", self.correlation_text()]
        for policy, b in self.balances.items():
            lines += ["", f"{policy}:", "", str(b)]
        return "\n".join(lines)


def _num(x: float | None) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:+.2f}"


def rank_correlation(
    weak: pl.DataFrame, strong: pl.DataFrame, *, seed: int = 0, bootstrap: int = BOOTSTRAP
) -> dict[str, Any]:
    """Spearman and Kendall between the decks' rates in two :func:`~clashkit.studies.design.outcomes`
    frames of the same seeds, with percentile bootstrap intervals over the games."""
    keys, wa, wb = win_arrays(weak)
    keys_s, sa, sb = win_arrays(strong)
    if keys != keys_s or wa.shape != sa.shape:
        raise ValueError("the two balances must play the same pairings and games")
    decks = sorted({d for pair in keys for d in pair})
    n = wa.shape[1]
    x = deck_rates_of(keys, wa.mean(axis=1), wb.mean(axis=1), decks)
    y = deck_rates_of(keys, sa.mean(axis=1), sb.mean(axis=1), decks)
    rng = np.random.default_rng(seed)
    rhos, taus = [], []
    rows = np.arange(len(keys))[:, None]
    for _ in range(bootstrap):
        pick = rng.integers(0, n, size=(len(keys), n))
        bx = deck_rates_of(keys, wa[rows, pick].mean(axis=1), wb[rows, pick].mean(axis=1), decks)
        by = deck_rates_of(keys, sa[rows, pick].mean(axis=1), sb[rows, pick].mean(axis=1), decks)
        rhos.append(spearman(bx, by))
        taus.append(kendall(bx, by))

    def interval(values: list[float]) -> tuple[float | None, float | None]:
        finite = [v for v in values if not math.isnan(v)]
        if not finite:
            return None, None
        return float(np.percentile(finite, 2.5)), float(np.percentile(finite, 97.5))

    low, high = interval(rhos)
    k_low, k_high = interval(taus)
    return {
        "spearman": spearman(x, y),
        "low": low,
        "high": high,
        "kendall": kendall(x, y),
        "kendall_low": k_low,
        "kendall_high": k_high,
        "bootstrap": bootstrap,
        "decks": decks,
    }


@on_cluster
def balance_by_skill(
    policies: Sequence[str],
    n: int = 200,
    *,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    bootstrap: int = BOOTSTRAP,
) -> SkillBalance:
    """The balance at each of ``policies`` (weakest first) on the same seeds, each deck's
    paired change from the first to the last, and the rank correlation between them."""
    from ..policies import parse_policies

    names = parse_policies(policies)
    cards = card_set_of(cards)
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
    )
    played = {p: games for p, (games,) in study.play_at(names, [cards], desc="balance by skill").items()}
    balances = {p: Balance(matchups(g), n, seed, p) for p, g in played.items()}
    weak, strong = played[names[0]], played[names[-1]]
    changes = paired_changes(weak, strong).drop("sd")
    correlation = rank_correlation(weak, strong, seed=seed, bootstrap=bootstrap)
    return SkillBalance(balances, changes, {"weak": names[0], "strong": names[-1], **correlation})


__all__ = ["BOOTSTRAP", "SkillBalance", "balance_by_skill", "rank_correlation"]
