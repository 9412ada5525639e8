"""The meta-game among decks: a symmetric zero-sum matrix game, its equilibrium by linear
programming, and how sure the weights are, by resampling the games.

Player one picks a deck ``i``, player two a deck ``j`` without seeing it; player one's payoff is
``score[i, j] - 1/2`` (:mod:`clashkit.studies.meta.games`: a win 1, an unfinished game ½), player
two's the opposite.  An **equilibrium** is a mixture over decks that no deck beats on average:
:func:`equilibrium` finds one by the maximin linear program (von Neumann's): maximise ``v`` such
that the mixture scores at least ``v`` against every deck.  The game is symmetric, so ``v`` is 0
up to the measured matrix's noise.  A deck with weight 0 is one no equilibrium of the measured
game needs (when the equilibrium is unique, it is dominated by the mixture).

The weights come from a measured matrix, so each gets an interval: :func:`bootstrap` draws the
games of every pairing again with replacement (their scores 0, ½ and 1 in the counts measured),
solves each redrawn game, and reports the 2.5th and 97.5th percentiles.
"""

from __future__ import annotations

import numpy as np

#: Redrawn games for the weights' intervals.
BOOTSTRAP = 200
#: Weights below this are read as 0 (the solver's round-off).
TINY = 1e-7


def equilibrium(score: np.ndarray) -> tuple[np.ndarray, float]:
    """A maximin mixture of the symmetric zero-sum game ``score`` (``score[i, j]``: deck ``i``'s
    mean score against deck ``j``; ``score + score.T == 1``) and its value (0 for an exact
    symmetric game), by the HiGHS solver of :func:`scipy.optimize.linprog`."""
    from scipy.optimize import linprog

    k = score.shape[0]
    payoff = score - 0.5
    # Variables: the k weights, then v.  Minimise -v subject to v - sum_i x_i payoff[i, j] <= 0.
    objective = np.zeros(k + 1)
    objective[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((k, 1))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * k + [(None, None)]
    solved = linprog(objective, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if not solved.success:  # a bounded, feasible program: only a solver fault gets here
        raise RuntimeError(f"the meta-game's linear program failed: {solved.message}")
    weights = np.where(solved.x[:k] < TINY, 0.0, solved.x[:k])
    return weights / weights.sum(), float(solved.x[-1])


def score_matrix(counts: np.ndarray) -> np.ndarray:
    """The score matrix of ``counts[i, j] = (losses, unfinished, wins)`` of deck ``i`` against ``j``
    (``i < j``; the rest follows: ``j``'s wins are ``i``'s losses), ½ on the diagonal."""
    k = counts.shape[0]
    score = np.full((k, k), 0.5)
    upper = np.triu_indices(k, 1)
    played = counts[upper].sum(axis=1)
    mean = (counts[upper] @ np.array([0.0, 0.5, 1.0])) / np.maximum(played, 1)
    score[upper] = mean
    score[(upper[1], upper[0])] = 1.0 - mean
    return score


def bootstrap(counts: np.ndarray, *, seed: int, reps: int = BOOTSTRAP) -> tuple[np.ndarray, np.ndarray]:
    """The 95% percentile intervals (low, high) of each deck's equilibrium weight, over ``reps``
    games drawn again from ``counts`` (:func:`score_matrix`'s), from a generator seeded by ``seed``."""
    rng = np.random.default_rng(seed)
    k = counts.shape[0]
    upper = np.triu_indices(k, 1)
    observed = counts[upper]
    played = observed.sum(axis=1)
    shares = observed / np.maximum(played, 1)[:, None]
    drawn = np.empty((reps, k))
    for r in range(reps):
        again = np.zeros_like(counts)
        again[upper] = rng.multinomial(played, shares)
        drawn[r] = equilibrium(score_matrix(again))[0]
    return np.percentile(drawn, 2.5, axis=0), np.percentile(drawn, 97.5, axis=0)


def counts_of(scores: np.ndarray) -> np.ndarray:
    """A match's scores as ``(losses, unfinished, wins)``."""
    return np.array([(scores == 0.0).sum(), (scores == 0.5).sum(), (scores == 1.0).sum()])


__all__ = ["BOOTSTRAP", "bootstrap", "counts_of", "equilibrium", "score_matrix"]
