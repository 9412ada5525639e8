"""Matches between decks: paired, on the workers, fed by a study that decides what to play next
from what it has seen.

A **match** is deck X against deck Y on a list of seeds, played twice: X in seat A and Y in seat B,
then the seats swapped, on the same seeds (R2.3's first player is drawn from the seed, so both
decks move first equally often).  Its result is X's **score** in each game: 1 for a win, ½ for a
game no one won (the turn limit, R10.1), 0 for a loss — so X's score and Y's add up to 1 and the
meta-game of :mod:`clashkit.studies.meta.equilibrium` is zero-sum.  Every deck a study compares
plays the same seeds of a phase (:func:`phase_seeds`): differences between decks are paired.

A study is a generator (:data:`Plan`) that yields lists of matches and is sent back their scores;
:meth:`Arena.run` plays each list on one pool of workers (or a Dask cluster) kept for the whole
study, with a barrier between lists (:data:`~clashkit.runs.barrier.BARRIER`), so the search's next
generation is drawn from the results of the last on the same workers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...base.cards import CardSet
from ...base.rules import Rules
from ...runs.barrier import BARRIER
from ...runs.outcomes import A_WON, B_WON, Pairings
from ...runs.simulate import pool_seed_array, seed_pool
from ...runs.spec import Matchup
from ...runs.workers import run_tasks
from .space import Deck

#: The phases of a study, each with its own seeds: the search, the field's round robin (fresh
#: seeds: the re-measure), the card values.
SEARCH, FIELD, VALUES = range(3)
PHASES = 3
#: About this many games a task, so a task's start-up (a matchup built, the engine's tables) is small
#: beside its games, and each generation still splits among the workers.
TASK_GAMES = 2048


def phase_seeds(seed: int, phase: int, n: int) -> np.ndarray:
    """The ``n`` game seeds of a study's ``phase`` with master ``seed``: those of a simulation with
    master seed ``seed * PHASES + phase`` (R10.2), so no two phases or study seeds share games."""
    return pool_seed_array(seed_pool(seed * PHASES + phase), 0, n)


@dataclass(frozen=True, slots=True)
class Match:
    """Deck ``deck`` against ``opponent`` on the seeds of ``phase`` (``n`` of them), both seatings."""

    deck: Deck
    opponent: Deck
    phase: int
    n: int


#: A study: yields lists of matches, is sent each list's scores (one array of ``2 n`` scores a match,
#: seat A's games first), returns its result.
Plan = Generator[list[Match], list[np.ndarray], Any]


def play_pairings(shared: tuple, pairings: tuple[tuple[Deck, Deck], ...], seeds: np.ndarray) -> np.ndarray:
    """In a worker: the winners (:func:`clashkit.runs.outcomes.outcomes`) of each ordered pairing
    (seat A's deck, seat B's deck) on ``seeds``, one row a pairing."""
    cards, policy, rules, engine = shared
    first_a, first_b = pairings[0]
    games = Pairings(
        Matchup.build(
            list(cards.sorted_names(first_a)),
            list(cards.sorted_names(first_b)),
            policy,
            policy,
            record_events=False,
            engine=engine,
            cards=cards,
            rules=rules,
            mirror=first_a == first_b,
        )
    )
    rows = np.empty((len(pairings), len(seeds)), np.int8)
    for i, (a, b) in enumerate(pairings):
        rows[i] = games.winners(a, b, seeds)
    return rows


def scores_of(winners_as_a: np.ndarray, winners_as_b: np.ndarray) -> np.ndarray:
    """A match's scores for its deck: its games in seat A, then in seat B."""
    return np.concatenate(
        [
            np.where(winners_as_a == A_WON, 1.0, np.where(winners_as_a == B_WON, 0.0, 0.5)),
            np.where(winners_as_b == B_WON, 1.0, np.where(winners_as_b == A_WON, 0.0, 0.5)),
        ]
    )


class Arena:
    """Plays a study's matches under one policy (both players), with ``cards`` and ``rules``, in
    ``jobs`` worker processes or on ``cluster`` (a ``distributed.Client``)."""

    def __init__(
        self,
        cards: CardSet,
        policy: str,
        *,
        seed: int,
        rules: Rules | None = None,
        engine: str | None = None,
        jobs: int = 1,
        cluster: Any = None,
        progress: bool = False,
        desc: str = "meta",
        dealer: Callable[[Deck, Deck], tuple[Deck, Deck]] | None = None,
    ) -> None:
        self.shared = (cards, policy, rules, engine)
        self.dealer = dealer
        self._dealt: dict[tuple[Deck, Deck], tuple[Deck, Deck]] = {}
        self.seed = seed
        self.jobs = jobs
        self.cluster = cluster
        self.progress = progress
        self.desc = desc
        self._seeds: dict[tuple[int, int], np.ndarray] = {}
        #: Games played so far.
        self.games = 0

    def seeds(self, phase: int, n: int) -> np.ndarray:
        key = (phase, n)
        if key not in self._seeds:
            self._seeds[key] = phase_seeds(self.seed, phase, n)
        return self._seeds[key]

    def run(self, plan: Plan, total_games: int) -> Any:
        """Drive ``plan`` to its end and return its result; the bar counts ``total_games``."""
        from tqdm.auto import tqdm

        results: dict[int, np.ndarray] = {}
        returned: list[Any] = []

        def tasks() -> Iterator[Any]:
            try:
                matches = next(plan)
                while True:
                    blocks = list(self._blocks(matches))
                    for label, (_phase, pairings, seeds) in enumerate(blocks):
                        yield label, (tuple(self.dealt(*pairing) for pairing in pairings), seeds)
                    yield BARRIER
                    scores = self._scores(matches, blocks, results)
                    results.clear()
                    matches = plan.send(scores)
            except StopIteration as stop:
                returned.append(stop.value)

        with tqdm(total=total_games, unit="game", desc=self.desc, disable=not self.progress, file=sys.stderr) as bar:
            for label, rows in run_tasks(
                play_pairings, tasks(), jobs=self.jobs, shared=self.shared, cluster=self.cluster, call="meta"
            ):
                results[label] = rows
                self.games += rows.size
                bar.update(rows.size)
        return returned[0]

    def dealt(self, a: Deck, b: Deck) -> tuple[Deck, Deck]:
        """The decks that play when ``a`` (seat A) meets ``b``: themselves, or what the format's
        dealer makes of them (the constructed format's bans, :mod:`clashkit.studies.meta.formats`)."""
        if self.dealer is None:
            return a, b
        if (a, b) not in self._dealt:
            self._dealt[(a, b)] = self.dealer(a, b)
        return self._dealt[(a, b)]

    def _blocks(self, matches: Sequence[Match]) -> Iterator[tuple[int, tuple[tuple[Deck, Deck], ...], np.ndarray]]:
        """The ordered pairings of ``matches`` in tasks of about :data:`TASK_GAMES` games, grouped
        by their seeds: ``(phase, pairings, seeds)``; a pairing asked for twice is played once."""
        by_seeds: dict[tuple[int, int], list[tuple[Deck, Deck]]] = {}
        for match in matches:
            pairings = by_seeds.setdefault((match.phase, match.n), [])
            pairings.extend([(match.deck, match.opponent), (match.opponent, match.deck)])
        for (phase, n), pairings in by_seeds.items():
            distinct = list(dict.fromkeys(pairings))
            size = max(1, TASK_GAMES // max(1, n))
            for start in range(0, len(distinct), size):
                yield phase, tuple(distinct[start : start + size]), self.seeds(phase, n)

    @staticmethod
    def _scores(matches: Sequence[Match], blocks, results: dict[int, np.ndarray]) -> list[np.ndarray]:
        winners: dict[tuple[Deck, Deck, int, int], np.ndarray] = {}
        for label, (phase, pairings, seeds) in enumerate(blocks):
            for pairing, row in zip(pairings, results[label], strict=True):
                winners[(*pairing, phase, len(seeds))] = row
        return [
            scores_of(winners[(m.deck, m.opponent, m.phase, m.n)], winners[(m.opponent, m.deck, m.phase, m.n)])
            for m in matches
        ]


__all__ = [
    "FIELD",
    "PHASES",
    "SEARCH",
    "TASK_GAMES",
    "VALUES",
    "Arena",
    "Match",
    "Plan",
    "phase_seeds",
    "play_pairings",
]
