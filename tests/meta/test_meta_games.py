"""Matches between decks: the same games simulate plays, both seatings, on one pool with barriers."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from clashkit.base.cards import starter_set
from clashkit.runs.barrier import BARRIER
from clashkit.runs.simulate import game_seeds, simulate
from clashkit.runs.workers import run_tasks
from clashkit.studies.meta.games import FIELD, PHASES, SEARCH, Arena, Match, phase_seeds, scores_of
from clashkit.studies.meta.space import DeckSpace

SPACE = DeckSpace(starter_set())
ONE, TWO, THREE = (SPACE.starters()[k] for k in (1, 2, 3))


def test_phase_seeds_are_a_simulations_seeds():
    assert phase_seeds(7, FIELD, 5).tolist() == game_seeds(7 * PHASES + FIELD, 5)
    assert phase_seeds(0, SEARCH, 3).tolist() != phase_seeds(0, FIELD, 3).tolist()


def test_scores_count_a_win_one_and_an_unfinished_game_half():
    as_a = np.array([0, 1, -1], np.int8)  # deck in seat A: won, lost, unfinished
    as_b = np.array([1, 0, -1], np.int8)  # deck in seat B: won, lost, unfinished
    assert scores_of(as_a, as_b).tolist() == [1.0, 0.0, 0.5, 1.0, 0.0, 0.5]


def one_list(matches):
    """A plan of one list of matches that returns their scores."""
    scores = yield matches
    return scores


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_match_is_both_seatings_of_simulate_on_the_phase_seeds(engine):
    n, seed = 6, 11
    arena = Arena(SPACE.cards, "greedy", seed=seed, engine=engine)
    matches = [Match(ONE, TWO, FIELD, n), Match(THREE, ONE, FIELD, n)]
    scores = arena.run(one_list(matches), 4 * n)
    for match, got in zip(matches, scores, strict=True):
        expected = []
        for a, b, mine in ((match.deck, match.opponent, "A"), (match.opponent, match.deck, "B")):
            games = simulate(
                n,
                list(SPACE.names(a)),
                list(SPACE.names(b)),
                "greedy",
                seed=seed * PHASES + FIELD,
                record_events=False,
                engine=engine,
                progress=False,
            ).games
            expected += [0.5 if w is None else float(w == mine) for w in games["winner"].cast(str).to_list()]
        assert got.tolist() == expected


def test_the_tasks_after_a_barrier_see_every_result_before_it():
    for jobs in (1, 2):
        results: dict[int, int] = {}

        def tasks(results=results):
            for i in range(6):
                yield i, (i, 2)
            yield BARRIER
            assert sorted(results) == list(range(6))  # all in, whatever order they finished in
            for i in range(6):
                yield 10 + i, (results[i], 3)

        for label, value in run_tasks(operator.mul, tasks(), jobs=jobs):
            results[label] = value
        assert [results[10 + i] for i in range(6)] == [6 * i for i in range(6)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stream_may_open_and_end_with_a_barrier(jobs):
    got = list(run_tasks(operator.add, iter([BARRIER, (0, (1, 2)), BARRIER, BARRIER, (1, (3, 4)), BARRIER]), jobs=jobs))
    assert sorted(got) == [(0, 3), (1, 7)]
