"""A meta study: which decks a player can build, which win, the meta-game's equilibrium, each card's
worth in it and where the starter decks stand (R2.1, R7.1).

Under one policy (both players), in three phases with their own seeds
(:mod:`clashkit.studies.meta.games`):

1. **search** — MAP-Elites (:mod:`~clashkit.studies.meta.search`) tries ``evaluations`` decks of the
   deck space (:mod:`~clashkit.studies.meta.space`), each against the four starter decks;
2. **field** — the ``top`` best decks found and the starter decks play a round robin on fresh seeds,
   ``n`` a pairing in each seating: each found deck's score against the field (the other decks) and
   against the starter decks, with 95% intervals, measured again away from the search's luck; the
   top decks' matrix is the **meta-game**, solved for its equilibrium
   (:mod:`~clashkit.studies.meta.equilibrium`) with bootstrap intervals; each starter deck's score
   against the equilibrium mixture;
3. **values** — every card's worth in the top decks (:mod:`~clashkit.studies.meta.values`).

A score counts a win 1 and an unfinished game (R10.1) ½, so it is a zero-sum game's payoff.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ...base.rng import Rng
from ...base.rules import Rules
from ...base.stats import Z95
from .budget import Sizes
from .equilibrium import bootstrap, counts_of, equilibrium
from .formats import MetaFormat, meta_format
from .games import FIELD, Match, Plan
from .search import Archive, search
from .space import Deck, DeckSpace
from .values import Variant, card_values, play_values, variants


@dataclass
class Played:
    """What a study's plan measured, before it is read."""

    archive: Archive
    best: list[Deck]
    field: list[Deck]
    scores: dict[tuple[int, int], np.ndarray]  # (i, j), i < j: deck i's scores against deck j
    variants: list[Variant]
    value_scores: dict[Deck, np.ndarray]
    #: The decks every searched deck met, by number: the starter decks (R7.1), or in the
    #: constructed format the tens the policy builds (:mod:`clashkit.studies.meta.formats`).
    gauntlet: dict[int, Deck]


def plan(space: DeckSpace, sizes: Sizes, seed: int, gauntlet: dict[int, Deck]) -> Plan:
    """The study as a :data:`~clashkit.studies.meta.games.Plan`: search, field, values."""
    rng = Rng(seed)
    starters = list(gauntlet.values())
    archive = yield from search(space, starters, sizes.evaluations, sizes.search_games, rng)
    best = [t.deck for t in archive.best(sizes.top)]
    field = best + [deck for deck in starters if deck not in best]
    pairs = [(i, j) for i in range(len(field)) for j in range(i + 1, len(field))]
    measured = yield [Match(field[i], field[j], FIELD, sizes.n) for i, j in pairs]
    found = variants(space, best, rng)
    value_scores = yield from play_values(found, field, best, sizes.value_games)
    return Played(archive, best, field, dict(zip(pairs, measured, strict=True)), found, value_scores, gauntlet)


def planned_games(space: DeckSpace, sizes: Sizes, gauntlet: int) -> int:
    """About how many games :func:`plan` plays against a gauntlet of ``gauntlet`` decks (the card
    values' decks are counted at most)."""
    decks = sizes.top + gauntlet
    search = sizes.evaluations * gauntlet * 2 * sizes.search_games
    field = decks * (decks - 1) * sizes.n
    values = (len(space.cards) + 1) * sizes.top * (decks - 1) * 2 * sizes.value_games
    return search + field + values


def score_variance(scores: np.ndarray) -> float:
    """The variance of one game's score, from ``scores``: their own spread, but never less than a
    proportion's at ``(total + 1) / (games + 2)`` (so a deck that won every game still has an
    interval; the score of a game is a proportion's, with draws at ½)."""
    smoothed = (float(scores.sum()) + 1.0) / (len(scores) + 2.0)
    spread = float(scores.var(ddof=1)) if len(scores) > 1 else 0.0
    return spread if spread > 0 else smoothed * (1.0 - smoothed)


def mean_interval(scores: np.ndarray) -> tuple[float, float, float]:
    """The mean score and its 95% normal interval (:func:`score_variance`)."""
    mean = float(scores.mean())
    half = Z95 * math.sqrt(score_variance(scores) / len(scores))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


@dataclass
class Meta:
    """A meta study's answers under one policy (:func:`read`)."""

    policy: str
    space: DeckSpace
    sizes: Sizes
    seed: int
    played: Played
    weights: np.ndarray
    weights_low: np.ndarray
    weights_high: np.ndarray
    value: float
    cards: pl.DataFrame
    seconds: float = 0.0
    #: Games played (both seatings of every match).
    games: int = 0
    #: The rules options the games were played with (R10.3; ``None``: the rulebook's).
    rules: Rules | None = None
    #: The format searched (:mod:`clashkit.studies.meta.formats`).
    format: MetaFormat = dataclasses.field(default_factory=lambda: meta_format("duel"))

    # --- Frames ---------------------------------------------------------------------------

    def against(self, i: int, j: int) -> np.ndarray:
        """Field deck ``i``'s scores against field deck ``j``."""
        scores = self.played.scores
        return scores[(i, j)] if i < j else 1.0 - scores[(j, i)]

    @property
    def starter_numbers(self) -> dict[int, int]:
        """Field index → the number of a gauntlet deck (a starter deck's, R7.1)."""
        numbers = {deck: number for number, deck in self.played.gauntlet.items()}
        return {i: numbers[deck] for i, deck in enumerate(self.played.field) if deck in numbers}

    def decks(self) -> pl.DataFrame:
        """The best decks found, best first (by the field's re-measure): ``deck`` (its index in the
        search's ranking), ``cards``, ``rate`` against the field with ``low``/``high``,
        ``vs_starters`` with ``vs_starters_low``/``_high``, ``weight`` in the equilibrium,
        ``fitness`` (the search's own measure), ``mean_cost``, ``creatures``."""
        field = self.played.field
        starters = list(self.starter_numbers)
        tried = {t.deck: t for t in self.played.archive.tried}
        rows = []
        for i, deck in enumerate(self.played.best):
            others = [j for j in range(len(field)) if j != i]
            rate = mean_interval(np.concatenate([self.against(i, j) for j in others]))
            versus = mean_interval(np.concatenate([self.against(i, j) for j in starters]))
            rows.append(
                {
                    "deck": i,
                    "cards": list(self.space.names(deck)),
                    "rate": rate[0],
                    "low": rate[1],
                    "high": rate[2],
                    "vs_starters": versus[0],
                    "vs_starters_low": versus[1],
                    "vs_starters_high": versus[2],
                    "weight": float(self.weights[i]),
                    "weight_low": float(self.weights_low[i]),
                    "weight_high": float(self.weights_high[i]),
                    "fitness": tried[deck].fitness,
                    "mean_cost": self.space.mean_cost(deck),
                    "creatures": self.space.creatures(deck),
                }
            )
        return pl.DataFrame(rows).sort(["rate", "deck"], descending=[True, False])

    def starters(self) -> pl.DataFrame:
        """Each starter deck's score against the equilibrium mixture (``rate``, ``low``, ``high``)
        and against the whole field (``field_rate``)."""
        rows = []
        best = range(len(self.played.best))
        field = range(len(self.played.field))
        for i, number in sorted(self.starter_numbers.items(), key=lambda item: item[1]):
            parts = [self.against(i, j) for j in best]
            rate = sum(w * float(p.mean()) for w, p in zip(self.weights, parts, strict=True))
            variance = sum(w * w * score_variance(p) / len(p) for w, p in zip(self.weights, parts, strict=True))
            half = Z95 * math.sqrt(variance)
            overall = float(np.concatenate([self.against(i, j) for j in field if j != i]).mean())
            rows.append(
                {
                    "starter": number,
                    "cards": list(self.space.names(self.played.field[i])),
                    "rate": rate,
                    "low": max(0.0, rate - half),
                    "high": min(1.0, rate + half),
                    "field_rate": overall,
                }
            )
        return pl.DataFrame(rows)

    def matrix(self) -> pl.DataFrame:
        """The field's round robin: one row an ordered pair of field decks (``a``, ``b``, ``score``
        of ``a``, ``games``); found decks by index, starter decks as ``starter 1`` …"""
        labels = self.labels()
        field = range(len(self.played.field))
        return pl.DataFrame(
            [
                {
                    "a": labels[i],
                    "b": labels[j],
                    "score": float(self.against(i, j).mean()),
                    "games": len(self.against(i, j)),
                }
                for i in field
                for j in field
                if i != j
            ]
        )

    def labels(self) -> list[str]:
        """Field decks' labels: ``deck 0`` … for the decks found, ``starter 1`` … for R7.1's."""
        numbers = self.starter_numbers
        word = self.format.gauntlet_word
        return [f"{word} {numbers[i]}" if i in numbers else f"deck {i}" for i in range(len(self.played.field))]

    def candidates(self) -> pl.DataFrame:
        """Every deck the search tried: ``cards``, ``fitness``, ``mean_cost``, ``creatures``,
        ``generation`` and ``elite`` (whether it holds its cell at the end): the map's data."""
        elites = {t.deck for t in self.played.archive.elites.values()}
        return pl.DataFrame(
            [
                {
                    "cards": list(self.space.names(t.deck)),
                    "fitness": t.fitness,
                    "mean_cost": self.space.mean_cost(t.deck),
                    "creatures": self.space.creatures(t.deck),
                    "generation": t.generation,
                    "elite": t.deck in elites,
                }
                for t in self.played.archive.tried
            ]
        )

    def frames(self) -> dict[str, pl.DataFrame]:
        """The study's frames by name, as ``--out`` writes them."""
        return {
            "decks": self.decks(),
            "cards": self.cards,
            "starters": self.starters(),
            "matrix": self.matrix(),
            "candidates": self.candidates(),
        }

    # --- Reports --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer: ``decks`` (best first), ``equilibrium``, ``cards``, ``starters``."""
        decks = self.decks()
        order = decks["deck"].to_list()
        return {
            "policy": self.policy,
            "decks": [
                {
                    k: row[k]
                    for k in (
                        "cards",
                        "rate",
                        "low",
                        "high",
                        "vs_starters",
                        "vs_starters_low",
                        "vs_starters_high",
                        "mean_cost",
                        "creatures",
                    )
                }
                | {"search_index": row["deck"]}
                for row in decks.iter_rows(named=True)
            ],
            "equilibrium": [
                {
                    "deck": order.index(i),
                    "weight": float(self.weights[i]),
                    "low": float(self.weights_low[i]),
                    "high": float(self.weights_high[i]),
                }
                for i in sorted(range(len(self.weights)), key=lambda i: order.index(i))
            ],
            "value": self.value,
            "cards": self.cards.to_dicts(),
            "starters": {
                str(row["starter"]): {k: row[k] for k in ("rate", "low", "high", "field_rate", "cards")}
                for row in self.starters().iter_rows(named=True)
            },
            "sizes": {
                "evaluations": self.sizes.evaluations,
                "searched": len(self.played.archive.tried),
                "n": self.sizes.n,
                "value_games": self.sizes.value_games,
                "search_games": self.sizes.search_games,
                "top": self.sizes.top,
                "cells": len(self.played.archive.elites),
            },
            "format": self.format.name,
            "seed": self.seed,
            "games": self.games,
            "seconds": self.seconds,
        }

    def __str__(self) -> str:
        decks = self.decks()
        lines = [
            f"{self.policy}: {self.games:,} games; {len(self.played.archive.tried):,} decks searched "
            f"({len(self.played.archive.elites)} cells of mean cost × creatures), the best "
            f"{len(self.played.best)} and {self.format.gauntlet_text} measured again on fresh seeds, "
            f"{self.sizes.n:,} games a pairing in each seat",
            "",
            f"Best decks (score against the field and against {self.format.gauntlet_text}; ½ for an unfinished game):",
        ]
        for rank, row in enumerate(decks.head(8).iter_rows(named=True), 1):
            versus = _pct(row["vs_starters"], row["vs_starters_low"], row["vs_starters_high"])
            lines.append(
                f"  {rank}. {_pct(row['rate'], row['low'], row['high'])} field, {versus} "
                f"{self.format.gauntlet_word} decks, weight {row['weight']:.2f}: {', '.join(row['cards'])}"
            )
        played = [row for row in decks.iter_rows(named=True) if row["weight"] > 0]
        lines += ["", f"Equilibrium of the {len(self.played.best)} best (weight, 95% bootstrap interval):"]
        for row in sorted(played, key=lambda r: -r["weight"]):
            lines.append(
                f"  {row['weight']:.2f} [{row['weight_low']:.2f}, {row['weight_high']:.2f}]  {', '.join(row['cards'])}"
            )
        unplayed = len(decks) - len(played)
        if unplayed:
            lines.append(f"  ({unplayed} of the best decks have weight 0: no equilibrium of this game needs them)")
        lines += [
            "",
            f"{self.format.gauntlet_text[0].upper()}{self.format.gauntlet_text[1:]} against the equilibrium mixture:",
        ]
        for row in self.starters().iter_rows(named=True):
            shown = _pct(row["rate"], row["low"], row["high"])
            lines.append(f"  {self.format.gauntlet_word} {row['starter']}: {shown}")
        lines += ["", "Cards by value in the best decks (points of score with the card minus without; inclusion):"]
        rows = list(self.cards.iter_rows(named=True))
        for k, row in enumerate(rows):
            if 5 <= k < len(rows) - 5:  # the five most and the five least valuable
                if k == 5:
                    lines.append("  …")
                continue
            lines.append(
                f"  {row['card']:<14} {100 * row['value']:+5.1f} [{100 * row['low']:+5.1f}, {100 * row['high']:+5.1f}]"
                f"  inclusion {row['inclusion']:.2f} ({'out of' if row['measured'] == 'out' else 'into'} "
                f"{row['decks']} deck{'s' if row['decks'] != 1 else ''})"
            )
        again = "" if self.format.name == "duel" else f" --format {self.format.name}"
        lines += ["", f"Repeat exactly:{again} --seed {self.seed} {self.sizes.options()}"]
        return "\n".join(lines)


def _pct(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def read(policy: str, space: DeckSpace, sizes: Sizes, seed: int, played: Played) -> Meta:
    """The answers of a played study: the equilibrium with its intervals, the card values."""
    k = len(played.best)
    counts = np.zeros((k, k, 3), np.int64)
    for (i, j), scores in played.scores.items():
        if j < k:
            counts[i, j] = counts_of(scores)
    score = np.full((k, k), 0.5)
    for i in range(k):
        for j in range(i + 1, k):
            score[i, j] = float(played.scores[(i, j)].mean())
            score[j, i] = 1.0 - score[i, j]
    weights, value = equilibrium(score)
    low, high = bootstrap(counts, seed=seed)
    inclusion = np.zeros(len(space.cards))
    for weight, deck in zip(weights, played.best, strict=True):
        inclusion[list(deck)] += weight
    cards = card_values(space, played.variants, played.value_scores, inclusion.tolist())
    return Meta(policy, space, sizes, seed, played, weights, low, high, value, cards)


__all__ = ["Meta", "Played", "plan", "planned_games", "read"]
