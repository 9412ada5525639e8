"""MAP-Elites over the deck space, driven here by hand: the plan's matches, the archive, the budget."""

from __future__ import annotations

import numpy as np

from clashkit.base.cards import starter_set
from clashkit.base.rng import Rng
from clashkit.studies.meta.games import SEARCH
from clashkit.studies.meta.search import INITIAL, Archive, Tried, generation_size, search
from clashkit.studies.meta.space import DeckSpace

SPACE = DeckSpace(starter_set())
GAUNTLET = list(SPACE.starters().values())
BARON = SPACE.cards.id("BARON")


def fake_scores(deck) -> float:
    """A made-up fitness: BARON and cheap decks score well."""
    return 0.5 + 0.3 * (BARON in deck) - 0.05 * SPACE.mean_cost(deck)


def drive(evaluations: int, seed: int) -> tuple[Archive, list[list]]:
    plan = search(SPACE, GAUNTLET, evaluations, 3, Rng(seed))
    asked = []
    try:
        matches = next(plan)
        while True:
            asked.append(matches)
            matches = plan.send([np.full(6, fake_scores(m.deck)) for m in matches])
    except StopIteration as stop:
        return stop.value, asked


def test_every_child_meets_the_whole_gauntlet_on_the_search_seeds():
    archive, asked = drive(100, seed=1)
    assert len(archive.tried) == 100
    assert len(asked[0]) == INITIAL * len(GAUNTLET)
    for matches in asked:
        decks = list(dict.fromkeys(m.deck for m in matches))
        assert [(m.deck, m.opponent) for m in matches] == [(d, g) for d in decks for g in GAUNTLET]
        assert {(m.phase, m.n) for m in matches} == {(SEARCH, 3)}
    tried = [t.deck for t in archive.tried]
    assert len(set(tried)) == len(tried) and not set(tried) & set(GAUNTLET)


def test_each_cell_keeps_its_best_deck():
    archive, _ = drive(300, seed=2)
    for cell, elite in archive.elites.items():
        in_cell = [t for t in archive.tried if t.niche == cell]
        assert elite.fitness == max(t.fitness for t in in_cell)
        assert elite == next(t for t in in_cell if t.fitness == elite.fitness)
    best = archive.best(5)
    assert [t.fitness for t in best] == sorted((t.fitness for t in archive.elites.values()), reverse=True)[:5]
    assert BARON in best[0].deck  # the made-up fitness favours it, and the search found it


def test_the_same_seed_searches_the_same_decks():
    assert [t.deck for t in drive(150, 5)[0].tried] == [t.deck for t in drive(150, 5)[0].tried]
    assert [t.deck for t in drive(150, 5)[0].tried] != [t.deck for t in drive(150, 6)[0].tried]


def test_an_archive_offer():
    archive = Archive()
    deck = GAUNTLET[0]
    assert archive.offer(Tried(deck, 0.4, (3, 6), 0))
    assert not archive.offer(Tried(GAUNTLET[1], 0.4, (3, 6), 1))  # a tie keeps the first
    assert archive.offer(Tried(GAUNTLET[2], 0.5, (3, 6), 1))
    assert archive.elites[(3, 6)].deck == GAUNTLET[2] and len(archive.tried) == 3


def test_generations_grow_with_the_budget():
    assert generation_size(100) == 32
    assert generation_size(150 * 100) == 100
