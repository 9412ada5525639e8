"""Fitting ``expert``'s evaluation (:mod:`clashkit.policies.expert`): ``clashkit expert-train``.

Positions come from self-play in the reference engine on many card sets
(:mod:`clashkit.studies.card_sets`), all drawn from the fitting set
(:data:`FIT_CARDS`, the starter set's values when the weights were first fitted:
retuning the shipped set, ``data/cards.csv``, does not move the bot that
measures it): the fitting set itself and, for each generator seed
``1 … sets``, the set with every value moved, a random set of the same
names and decks, and the set with one designer's new card (:data:`KINDS`).
The evaluation reads cards only by their attributes, so what it learns on
one set carries to a set it never saw; fitting on many sets keeps it from
learning the fitting set's own cards.  Game ``g`` of a round plays pairing
``g mod 13`` (every ordered pairing of the four starter decks, R7.1, then
the draft, R7.2) on set ``g div 13`` (mod the number of sets), so every set
plays every pairing once before any set plays twice, with seed ``seed + g``.

At the start of every turn from the second on, the player who has just moved
is the one whose view is recorded — :func:`~clashkit.policies.expert.features`,
the moment ``expert`` scores its candidates at — labelled 1 if that player
went on to win, 0 if they lost (unfinished games, R10.1, are left out).  The
weights are a logistic regression of the labels on the features (Newton's
method, a small ridge, a fixed number of steps, one thread: the same
positions give the same weights), rounded to five decimals.

``rounds``: round 1 plays ``greedy`` against itself; each later round
plays ``expert`` with the previous round's weights, so the positions are
those a stronger player reaches.  The file written is the last round's; it
records the generator seeds its sets were drawn with (``card_sets``), so that
a check of ``expert`` on unseen sets (``benchmarks/agreement.py``) can avoid them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

import numpy as np

from ..base.cards import CardSet
from ..base.errors import InputError
from ..engine.loop import run
from ..policies import Policy, get_policy
from ..policies.expert import FEATURES, ExpertPolicy, features
from ..runs.game import new_game
from .card_sets import FIT_CARDS, KINDS, draws, fit_set

#: The deck pairings and formats the positions come from.
PAIRINGS = tuple((a, b) for a in "1234" for b in "1234" if a != b) + (("draft", "draft"),)
#: The ridge of the logistic regression (per position).
RIDGE = 1e-3
#: Newton steps.
STEPS = 25


def fit_cards() -> CardSet:
    """The fitting set, :data:`FIT_CARDS`."""
    return fit_set()


def fitting_sets(sets: int) -> list[CardSet]:
    """The card sets of a fit with generator seeds ``1 … sets``: the fitting set, then every other
    kind of :data:`~clashkit.studies.card_sets.KINDS` seed by seed (see the module docstring)."""
    return [drawn.cards for drawn in draws(KINDS, seeds(sets))]


def seeds(sets: int) -> list[int]:
    """The generator seeds of a fit of ``sets`` seeds: ``1 … sets``."""
    return list(range(1, sets + 1))


def positions(
    policy: Policy | str, games: int, seed: int, cards: CardSet | Sequence[CardSet] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Features and outcomes of the turn-start positions of ``games`` self-play games on ``cards``
    (one set, or several taken in turn; default: the fitting set; see the module docstring)."""
    sets = [fit_cards()] if cards is None else [cards] if isinstance(cards, CardSet) else list(cards)
    xs: list[list[int]] = []
    ys: list[int] = []
    for g in range(games):
        a, b = PAIRINGS[g % len(PAIRINGS)]
        on = sets[(g // len(PAIRINGS)) % len(sets)]
        player = get_policy(policy) if isinstance(policy, str) else policy
        state, _ = new_game(a, b, player, player, cards=on, seed=seed + g, record=False)
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
    return np.array(xs, np.float64).reshape(-1, len(FEATURES)), np.array(ys, np.float64)


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


def fit(games: int, rounds: int, seed: int, log=None, cards: CardSet | None = None, sets: int = 0) -> dict:
    """The weights file's contents (see the module docstring), fitted on the sets of generator seeds
    ``1 … sets`` (:func:`fitting_sets`; with ``sets`` 0 the fitting set alone), or on ``cards`` alone;
    the shipped file's ``games``, ``rounds``, ``seed`` and ``sets`` are ``clashkit expert-train``'s defaults."""
    played = [cards] if cards is not None else fitting_sets(sets)
    weights = None
    started = time.perf_counter()
    for r in range(rounds):
        player: Policy = get_policy("greedy") if weights is None else ExpertPolicy(weights=weights)
        x, y = positions(player, games, seed + r * games, played)
        if not len(y):
            raise InputError(
                f"round {r + 1}: none of the {games} games had a winner (R10.1: each reached the turn limit), "
                "so there is no position to fit on; fit on cards that can win, or on more games"
            )
        if len(set(y.tolist())) < 2:
            raise InputError(
                f"round {r + 1}: the {len(y)} positions from {games} games all have the same outcome, "
                "so there is nothing to fit; fit on more games"
            )
        try:
            weights = [round(float(w), 5) for w in logistic(x, y)]
        except np.linalg.LinAlgError:
            raise InputError(
                f"round {r + 1}: the {len(y)} positions from {games} games do not determine the weights; "
                "fit on more games or other cards"
            ) from None
        if log is not None:
            log(f"round {r + 1}: {len(y)} positions from {games} games, {time.perf_counter() - started:.0f} s")
    return {
        "about": "expert's evaluation weights, made by `clashkit expert-train` (clashkit.studies.expert_fit)",
        "games": games,
        "rounds": rounds,
        "seed": seed,
        "card_sets": _card_sets(cards, sets),
        "features": list(FEATURES),
        "weights": weights,
    }


def _card_sets(cards: CardSet | None, sets: int) -> dict:
    """What the file says of the sets its positions came from: the kinds and the generator seeds
    (:mod:`~clashkit.studies.card_sets`), or the one card file given."""
    if cards is not None:
        return {"file": "" if cards.source is None else cards.source.name}
    return {"from": FIT_CARDS, "kinds": list(KINDS) if sets else ["fit"], "seeds": seeds(sets)}


def fit_seeds(data: dict) -> set[int]:
    """The generator seeds a weights file's fit drew its card sets with (none for one card file)."""
    return set(data.get("card_sets", {}).get("seeds", []))


def dumps(data: dict) -> str:
    """The weights file's text: the same contents give the same bytes."""
    return json.dumps(data, indent=1) + "\n"


__all__ = [
    "FIT_CARDS",
    "PAIRINGS",
    "dumps",
    "fit",
    "fit_cards",
    "fit_seeds",
    "fitting_sets",
    "logistic",
    "positions",
    "seeds",
]
