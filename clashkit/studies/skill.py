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

**The strength axis.**  A balance figure is read as a curve over playing strength, and
trusted where the curve has flattened.  Each policy's strength is its Elo on the bots'
ladder of the documentation (:data:`clashkit.studies.ladder.RATINGS_FILE`, written by the
ladder figure's command; :func:`clashkit.studies.ladder.read_ratings`), so the ratings the
guide shows are the ones the curve is drawn against.  A policy that ladder did not rate
keeps its place in the order given and is shown without Elo.
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
from .analysis import SEATS
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
    seat_text,
)
from .design.strengths import deck_rates_of, win_arrays
from .ladder import LadderRatings, read_ratings

#: Bootstrap replicates of the rank correlation's interval.
BOOTSTRAP = 1000


@dataclass(frozen=True)
class SkillBalance:
    """Balances at several strengths (``balances``, weakest first), each deck's paired change
    from the weakest to the strongest (``changes``) and the rank correlation of the decks'
    rates between them (``correlation``); ``ladder`` holds the strengths' Elo (see the module
    docstring), None when no ladder was read; ``last_step`` is each deck's paired change
    between the two strongest (where the curve may have flattened), None with only two
    strengths (``changes`` is that step then)."""

    balances: dict[str, Balance]
    changes: pl.DataFrame
    correlation: dict[str, Any]
    ladder: LadderRatings | None = None
    last_step: pl.DataFrame | None = None

    @property
    def weak(self) -> str:
        return next(iter(self.balances))

    @property
    def strong(self) -> str:
        return list(self.balances)[-1]

    def strength(self) -> dict[str, dict[str, float] | None]:
        """Each policy's Elo on the ladder, ``{"elo", "low", "high"}`` (95% interval), or None
        when the ladder did not rate it; in the order of the balances."""
        return {p: self.ladder.elo(p) if self.ladder is not None else None for p in self.balances}

    def strength_text(self) -> str:
        """Where the strengths' Elo comes from, their intervals, the policies without one, and
        whether the ladder contradicts the order given, in a few sentences."""
        if self.ladder is None:
            return "Strength: no ladder read; the policies are shown in the order given, without Elo."
        strength = self.strength()
        rated = {p: e for p, e in strength.items() if e is not None}
        lines = [f"Strength: Elo on {self.ladder.source_text()}."]
        if rated:
            lines.append(
                "95% intervals: " + ", ".join(f"{p} {e['low']:.0f}–{e['high']:.0f}" for p, e in rated.items()) + "."
            )
        unrated = [p for p, e in strength.items() if e is None]
        if unrated:
            lines.append(f"Not rated there, shown without Elo in the order given: {', '.join(unrated)}.")
        out_of_order = [
            (a, b)
            for (a, ea), (b, eb) in zip(rated.items(), list(rated.items())[1:], strict=False)
            if ea["elo"] > eb["elo"]
        ]
        for a, b in out_of_order:
            overlap = " (their 95% intervals overlap)" if rated[a]["low"] <= rated[b]["high"] else ""
            lines.append(
                f"Listed weakest first, but the ladder rates {a} ({rated[a]['elo']:.0f}) above {b} "
                f"({rated[b]['elo']:.0f}){overlap}."
            )
        return " ".join(lines)

    def table(self) -> pl.DataFrame:
        """One row per deck: its rate at each strength (``rate <policy>``) and the change."""
        out = None
        for policy, b in self.balances.items():
            rates = b.decks.select("deck", pl.col("rate").alias(f"rate {policy}"))
            out = rates if out is None else out.join(rates, on="deck")
        assert out is not None, "a skill balance holds a balance at each of its strengths (two or more)"
        return out.join(self.changes.select("deck", "change", "change_low", "change_high"), on="deck").sort("deck")

    def seat_table(self) -> pl.DataFrame:
        """One row per deck: its rate moving first and moving second (R2.3) at each strength,
        with the 95% interval and the games (columns ``deck``, ``<policy> first``,
        ``<policy> second``); the numbers are each balance's :attr:`~Balance.seats`."""
        columns: dict[str, list[str]] = {}
        for policy, b in self.balances.items():
            rows = {(r["deck"], r["seat"]): r for r in b.seats.iter_rows(named=True)}
            decks = sorted({d for d, _ in rows})
            columns["deck"] = [f"deck {d}" for d in decks]
            for seat in SEATS:
                columns[f"{policy} {seat}"] = [seat_text(rows[d, seat]) for d in decks]
        return pl.DataFrame(columns, schema={name: pl.String for name in columns})

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit balance --policies … --json`` prints."""
        return {
            "policies": {policy: b.to_dict() for policy, b in self.balances.items()},
            "rank_correlation": self.correlation,
            "strength": self.strength(),
            "strength_source": self.ladder.source() if self.ladder is not None else None,
            "changes": _change_rows(self.changes, self.weak, self.strong),
            "last_step": None if self.last_step is None else _change_rows(self.last_step, *list(self.balances)[-2:]),
        }

    def last_step_text(self) -> str:
        """Which decks the last step of strength moves, and which it leaves where they were
        (within the games' paired interval), in one sentence; empty with two strengths."""
        if self.last_step is None:
            return ""
        before, after = list(self.balances)[-2:]
        rows = list(self.last_step.sort("deck").iter_rows(named=True))
        flat = [f"deck {r['deck']}" for r in rows if not r["clear"]]
        moved = [f"deck {r['deck']}" for r in rows if r["clear"]]
        said = []
        if flat:
            said.append(f"no change told from 0 for {', '.join(flat)} (the curve may have flattened there)")
        if moved:
            it = "it" if len(moved) == 1 else "them"
            said.append(f"{', '.join(moved)} still moved (more strength may move {it} further)")
        return f"Last step, {before} → {after}: " + "; ".join(said) + "."

    def correlation_text(self) -> str:
        """The rank correlation of the decks' rates between the weakest and the strongest, in one sentence.

        A coefficient whose bootstrap interval is a single point is given without it, and the
        sentence says why: every replicate ranks the decks alike, and a few decks' ranks (rho
        moves in steps of 0.2 with four) leave no value for an interval to reach."""
        r = self.correlation
        said, bare = [], []
        for name, value, low, high in (
            ("Spearman", r["spearman"], r["low"], r["high"]),
            ("Kendall", r["kendall"], r["kendall_low"], r["kendall_high"]),
        ):
            if low is not None and low == high:
                said.append(f"{name} {_num(value)}")
                bare.append(name)
            else:
                said.append(f"{name} {_num(value)} (95% {_num(low)} to {_num(high)})")
        why = f"; {r['bootstrap']} bootstrap replicates."
        if bare:
            decks = len(r["decks"])
            why = (
                f"; no interval for {' or '.join(bare)}: all {r['bootstrap']} bootstrap replicates rank the "
                f"{decks} decks alike, and {decks} ranks leave no value between."
            )
        return f"Rank correlation of the decks' rates, {self.weak} vs {self.strong}: {', '.join(said)}{why}"

    def __str__(self) -> str:
        names = list(self.balances)
        strength = self.strength()
        columns = [p + (f" (Elo {e['elo']:.0f})" if e is not None else " (no Elo)") for p, e in strength.items()]
        steps = [(self.changes, self.weak, self.strong)]
        if self.last_step is not None:
            steps.append((self.last_step, names[-2], names[-1]))
        head = "| deck | " + " | ".join(columns) + " |"
        head += "".join(f" change {a} → {b} (points, paired 95%) |" for _, a, b in steps)
        lines = [head, "| --- |" + " ---: |" * len(names) + " --- |" * len(steps)]
        changes = {r["deck"]: r for r in self.changes.iter_rows(named=True)}
        by_step = [{r["deck"]: r for r in frame.iter_rows(named=True)} for frame, _, _ in steps]
        decks = {p: {r["deck"]: r for r in b.decks.iter_rows(named=True)} for p, b in self.balances.items()}
        for deck in sorted(changes):
            cells = [
                f"{percent_text(decks[p][deck]['rate'])} ({percent_text(decks[p][deck]['low'], 1, '')}–"
                f"{percent_text(decks[p][deck]['high'], 1, '')})"
                for p in names
            ]
            for step in by_step:
                c = step[deck]
                cells.append(
                    f"{points_text(c['change'])} [{points_text(c['change_low'])}, {points_text(c['change_high'])}]"
                )
            lines.append(f"| deck {deck} | " + " | ".join(cells) + " |")
        lines += ["", self.strength_text()]
        if self.last_step is not None:
            lines += ["", self.last_step_text()]
        lines += ["", self.correlation_text()]
        for policy, b in self.balances.items():
            lines += ["", f"{policy}:", "", str(b)]
        return "\n".join(lines)


def _change_rows(changes: pl.DataFrame, weak: str, strong: str) -> list[dict[str, Any]]:
    """Paired changes as the JSON lists them: ``deck``, ``weak``, ``strong``, ``change``,
    ``change_low``, ``change_high``, ``clear``."""
    return [
        {
            "deck": r["deck"],
            "weak": weak,
            "strong": strong,
            "change": r["change"],
            "change_low": r["change_low"],
            "change_high": r["change_high"],
            "clear": r["clear"],
        }
        for r in changes.iter_rows(named=True)
    ]


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
    ratings: LadderRatings | str | os.PathLike | None = None,
) -> SkillBalance:
    """The balance at each of ``policies`` (weakest first) on the same seeds, each deck's
    paired change from the first to the last, and the rank correlation between them;
    each policy's Elo from ``ratings`` (a ladder's ratings file; default: the bots' ladder
    of the documentation)."""
    from ..policies import parse_policies

    names = parse_policies(policies)
    ladder = ratings if isinstance(ratings, LadderRatings) else read_ratings(ratings)
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
    last_step = paired_changes(played[names[-2]], strong).drop("sd") if len(names) > 2 else None
    correlation = rank_correlation(weak, strong, seed=seed, bootstrap=bootstrap)
    correlation = {"weak": names[0], "strong": names[-1], **correlation}
    return SkillBalance(balances, changes, correlation, ladder, last_step)


__all__ = ["BOOTSTRAP", "SkillBalance", "balance_by_skill", "rank_correlation"]
