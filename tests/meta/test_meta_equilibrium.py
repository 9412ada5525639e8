"""The meta-game: a symmetric zero-sum matrix game solved by linear programming, weights resampled."""

from __future__ import annotations

import numpy as np
import pytest

from clashkit.studies.meta.equilibrium import bootstrap, counts_of, equilibrium, score_matrix


def test_rock_paper_scissors_is_played_evenly():
    score = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    weights, value = equilibrium(score)
    assert weights == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert value == pytest.approx(0.0, abs=1e-9)


def test_a_deck_beaten_by_another_gets_no_weight():
    # deck 0 beats 1 and 2; the equilibrium plays it alone.
    score = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.9], [0.3, 0.1, 0.5]])
    weights, _ = equilibrium(score)
    assert weights.tolist() == [1.0, 0.0, 0.0]


def test_a_mixed_equilibrium_is_exact():
    # A cycle of unequal margins, solved by hand (x^T payoff = 0): 0 beats 1 by a, 1 beats 2 by b, 2 beats 0 by c.
    a, b, c = 0.2, 0.1, 0.3
    score = 0.5 + np.array([[0, a, -c], [-a, 0, b], [c, -b, 0]])
    weights, value = equilibrium(score)
    # For a cyclic game the weights are proportional to the margin opposite: (b, c, a).
    assert weights == pytest.approx(np.array([b, c, a]) / (a + b + c))
    assert value == pytest.approx(0.0, abs=1e-9)


def test_counts_make_a_zero_sum_matrix():
    counts = np.zeros((3, 3, 3), int)
    counts[0, 1] = [2, 0, 8]  # deck 0 won 8 of 10 against deck 1
    counts[0, 2] = [5, 2, 3]
    counts[1, 2] = [1, 1, 0]
    score = score_matrix(counts)
    assert score[0, 1] == 0.8 and score[1, 0] == pytest.approx(0.2)
    assert score[0, 2] == pytest.approx(0.4) and score[1, 2] == pytest.approx(0.25)
    assert np.allclose(score + score.T, 1.0)
    assert counts_of(np.array([1.0, 0.5, 0.0, 1.0])).tolist() == [1, 1, 2]


def test_the_bootstrap_is_seeded_and_brackets_the_weights():
    counts = np.zeros((3, 3, 3), int)
    counts[0, 1] = [30, 0, 70]
    counts[0, 2] = [60, 0, 40]
    counts[1, 2] = [35, 0, 65]
    low, high = bootstrap(counts, seed=4, reps=60)
    again = bootstrap(counts, seed=4, reps=60)
    assert np.array_equal(low, again[0]) and np.array_equal(high, again[1])
    weights, _ = equilibrium(score_matrix(counts))
    assert np.all(low <= weights + 1e-9) and np.all(weights <= high + 1e-9)
    assert np.all((0 <= low) & (high <= 1))
