"""The search of the deck space: MAP-Elites over a designer's two axes.

MAP-Elites (Mouret and Clune, 2015; on Hearthstone's decks, Fontaine et al., 2019) keeps an
**archive**: for each cell of a grid of behaviours (here :meth:`DeckSpace.niche`: mean cost and
creatures), the best deck found so far.  It starts from random decks; then, a generation at a time,
it draws parents from the archive, makes children (a card or two swapped, :meth:`DeckSpace.mutate`;
one child in :data:`CROSS` mixes two parents, :meth:`DeckSpace.cross`), and a child takes its cell
when it scores better than the deck there.  So the search keeps strong decks of every shape a
player might build, not only the few near the strongest, and the study's field is diverse.

A deck's **fitness** is its mean score (:mod:`clashkit.studies.meta.games`) against a fixed
gauntlet (the starter decks, R7.1) on the same seeds for every deck: paired, so two decks are
compared on the same deals.  A deck is tried once: a child equal to a deck already tried is drawn
again.  Fitness is measured on few games, so the best cells flatter their decks (the winner's
curse): the study measures its best decks again on fresh seeds (:mod:`clashkit.studies.meta.study`).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...base.rng import Rng
from .games import SEARCH, Match
from .space import Deck, DeckSpace

#: The first generation's random decks (fewer when the budget is smaller).
INITIAL = 64
#: A generation's children, at least; a larger search makes larger generations, so that at most
#: :data:`GENERATIONS` wait on their slowest match.
BATCH = 32
GENERATIONS = 150
#: One child in CROSS mixes two parents; the others are mutations of one.
CROSS = 4
#: Draws of a new child before a generation is given up as full (the space is nearly tried out).
DRAWS = 50


@dataclass(frozen=True, slots=True)
class Tried:
    """A deck the search scored: its fitness, its cell and the generation that made it."""

    deck: Deck
    fitness: float
    niche: tuple[int, int]
    generation: int


@dataclass
class Archive:
    """The best deck of each cell, and every deck tried, in order."""

    elites: dict[tuple[int, int], Tried] = field(default_factory=dict)
    tried: list[Tried] = field(default_factory=list)

    def offer(self, tried: Tried) -> bool:
        """Keep ``tried`` if its cell is empty or it beats the deck there; ``True`` if kept."""
        self.tried.append(tried)
        held = self.elites.get(tried.niche)
        if held is None or tried.fitness > held.fitness:
            self.elites[tried.niche] = tried
            return True
        return False

    def best(self, k: int) -> list[Tried]:
        """The ``k`` best elites (ties: the earlier tried first)."""
        order = {t.deck: i for i, t in enumerate(self.tried)}
        return sorted(self.elites.values(), key=lambda t: (-t.fitness, order[t.deck]))[:k]


def generation_size(evaluations: int) -> int:
    """Children a generation, for a search of ``evaluations`` decks."""
    return max(BATCH, -(-evaluations // GENERATIONS))


def search(
    space: DeckSpace, gauntlet: Sequence[Deck], evaluations: int, games: int, rng: Rng
) -> Generator[list[Match], list[np.ndarray], Archive]:
    """A :data:`~clashkit.studies.meta.games.Plan` that tries ``evaluations`` decks, each against
    every deck of ``gauntlet`` on ``games`` seeds of the search phase, and returns the archive."""
    archive = Archive()
    seen: set[Deck] = set(gauntlet)
    size = generation_size(evaluations)
    generation = 0
    while len(archive.tried) < evaluations:
        want = min(evaluations - len(archive.tried), INITIAL if generation == 0 else size)
        children = _children(space, archive, seen, want, rng)
        if not children:
            break
        scores = yield [Match(child, opponent, SEARCH, games) for child in children for opponent in gauntlet]
        per_child = len(gauntlet)
        for i, child in enumerate(children):
            fitness = float(np.mean(np.concatenate(scores[i * per_child : (i + 1) * per_child])))
            archive.offer(Tried(child, fitness, space.niche(child), generation))
        generation += 1
    return archive


def _children(space: DeckSpace, archive: Archive, seen: set[Deck], want: int, rng: Rng) -> list[Deck]:
    """Up to ``want`` new decks: random ones while the archive is empty, else children of its elites."""
    parents = [archive.elites[cell].deck for cell in sorted(archive.elites)]
    children: list[Deck] = []
    draws = 0
    while len(children) < want and draws < want * DRAWS:
        draws += 1
        if not parents:
            child = space.random_deck(rng)
        elif len(parents) > 1 and rng.randrange(CROSS) == 0:
            first, second = rng.sample(parents, 2)
            child = space.mutate(space.cross(first, second, rng), rng)
        else:
            child = space.mutate(rng.choice(parents), rng)
        if child not in seen:
            seen.add(child)
            children.append(child)
    return children


__all__ = ["BATCH", "CROSS", "GENERATIONS", "INITIAL", "Archive", "Tried", "generation_size", "search"]
