"""Fitting ``expert``'s evaluation (:mod:`clashkit.policies.expert`): ``clashkit expert-train``.

Positions come from self-play in the reference engine on the fitting set
(:data:`FIT_CARDS`, the starter set's values when the weights were fitted:
retuning the shipped set, ``data/cards.csv``, does not move the bot that
measures it): every pairing of the four starter decks (R7.1) and the draft
(R7.2), the seeds ``seed, seed + 1, …``.  At the start of every turn from the second on, the
player who has just moved is the one whose view is recorded —
:func:`~clashkit.policies.expert.features`, the moment ``expert`` scores its
candidates at — labelled 1 if that player went on to win, 0 if they lost
(unfinished games, R10.1, are left out).  The weights are a logistic
regression of the labels on the features (Newton's method, a small ridge,
a fixed number of steps: the same positions give the same weights), rounded
to five decimals.

``rounds``: round 1 plays ``greedy`` against itself; each later round
plays ``expert`` with the previous round's weights, so the positions are
those a stronger player reaches.  The file written is the last round's.
"""

from __future__ import annotations

import json
import time

import numpy as np

from ..base.cards import CardSet, load_cards
from ..base.shipped import shipped_file
from ..engine.loop import run
from ..policies import Policy, get_policy
from ..policies.expert import FEATURES, ExpertPolicy, features
from ..runs.game import new_game

#: The card set the shipped weights are fitted on (its first row's notes say why it is not ``data/cards.csv``).
FIT_CARDS = "data/expert-fit-cards.csv"
#: The deck pairings and formats the positions come from.
PAIRINGS = tuple((a, b) for a in "1234" for b in "1234" if a != b) + (("draft", "draft"),)
#: The ridge of the logistic regression (per position).
RIDGE = 1e-3
#: Newton steps.
STEPS = 25


def fit_cards() -> CardSet:
    """The fitting set, :data:`FIT_CARDS`."""
    return load_cards(shipped_file(FIT_CARDS))


def positions(
    policy: Policy | str, games: int, seed: int, cards: CardSet | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Features and outcomes of the turn-start positions of ``games`` self-play games on ``cards``
    (default: the fitting set; see the module docstring)."""
    cards = fit_cards() if cards is None else cards
    xs: list[list[int]] = []
    ys: list[int] = []
    for g in range(games):
        a, b = PAIRINGS[g % len(PAIRINGS)]
        player = get_policy(policy) if isinstance(policy, str) else policy
        state, _ = new_game(a, b, player, player, cards=cards, seed=seed + g, record=False)
        seen: list[tuple[list[int], int]] = []
        while not state.over:
            turn = state.turn
            run(state, player, player, until_turn=turn + 1)
            if state.turn == turn + 1 and state.winner is None:
                mover = 1 - state.active
                seen.append((features(state, mover), mover))
        if state.winner is None:
            continue
        for x, mover in seen:
            xs.append(x)
            ys.append(1 if state.winner == mover else 0)
    return np.array(xs, np.float64), np.array(ys, np.float64)


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method with a ridge on every weight but the bias."""
    n, k = x.shape
    w = np.zeros(k)
    ridge = np.full(k, RIDGE * n)
    ridge[0] = 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + np.diag(ridge)
        w = w - np.linalg.solve(hess, grad)
    return w


def fit(games: int, rounds: int, seed: int, log=None, cards: CardSet | None = None) -> dict:
    """The weights file's contents (see the module docstring), fitted on ``cards`` (default: the fitting
    set); the shipped file's ``games``, ``rounds`` and ``seed`` are ``clashkit expert-train``'s defaults."""
    cards = fit_cards() if cards is None else cards
    weights = None
    started = time.perf_counter()
    for r in range(rounds):
        player: Policy = get_policy("greedy") if weights is None else ExpertPolicy(weights=weights)
        x, y = positions(player, games, seed + r * games, cards)
        weights = [round(float(w), 5) for w in logistic(x, y)]
        if log is not None:
            log(f"round {r + 1}: {len(y)} positions from {games} games, {time.perf_counter() - started:.0f} s")
    return {
        "about": "expert's evaluation weights, made by `clashkit expert-train` (clashkit.studies.expert_fit)",
        "games": games,
        "rounds": rounds,
        "seed": seed,
        "features": list(FEATURES),
        "weights": weights,
    }


def dumps(data: dict) -> str:
    """The weights file's text: the same contents give the same bytes."""
    return json.dumps(data, indent=1) + "\n"


__all__ = ["FIT_CARDS", "PAIRINGS", "dumps", "fit", "fit_cards", "logistic", "positions"]
