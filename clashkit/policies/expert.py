"""``expert``: fair search one turn deep, a fitted evaluation of positions in place of long rollouts.

At each decision it takes the same candidates as ``search``
(:meth:`~clashkit.policies.search.SearchPolicy.candidates`: greedy's choice,
moving on, the other legal plays, incantations only on their declared side,
R5.5, and at most ``casts_per_turn`` a turn, R5.3) and plays **every**
candidate once on a copy, the rest of its own turn played by ``greedy``,
until the opponent's turn begins (R3.12).  The position reached there is
scored by :func:`value`: a linear function of :data:`FEATURES`, read from
the acting player's view (life, keeps, both sides of both lanes, the
attacks that meet an empty side, hand sizes, that is next turn's mana,
R3.1, and on each side the creatures whose abilities strike wider, keep
them in play, or lend an Aura), whose weights are fitted on the outcomes of self-play
(:mod:`clashkit.studies.expert_fit`, shipped in ``data/expert.json``).
A won game scores :data:`WIN`, a lost one ``-WIN``.  The best score is
played, a later candidate only when more than ``1e-9`` better, so ties go to
greedy's choice.

It is fair (R1.7) as ``search:fair`` is, with the same machinery
(:mod:`clashkit.policies.sight`): the hidden slots are written in card-id
order before it decides, and the copies are one determinization drawn with
a 64-bit seed from the game's generator (R10.2).  The features read only
what both players see: what is in play, hand sizes, where the keeps stand,
the solo AI's pile and discard sizes.  Cards are read by their attributes
(cost, attack, health, abilities), never by their names.

Exactly what a decision does is ``search``'s steps 1–6 (its module
docstring) with ``horizon`` 1, no noise, ``budget`` rollouts at most and
never more rollouts than candidates, and :func:`value` as the score; the
fast engine (:mod:`clashkit.fast.expert`, :mod:`clashkit.fast.search`) does
the same, draw for draw and addition for addition.
"""

from __future__ import annotations

import json
from functools import cache

from ..base.errors import OptionError
from ..base.limits import whole_number
from ..base.shipped import shipped_file
from ..base.vocab import BLOODLUST, INDESTRUCTIBLE, KEEP, PIERCE, PROTECTION, SPLASH
from ..engine.state import GameState
from .search import SearchPolicy, life

#: The features :func:`features` reads, in order; the fitted weights are in the same order.
FEATURES = (
    "bias",
    "life_mine",
    "life_theirs",
    "fort_mine",
    "fort_theirs",
    "creatures_mine",
    "attack_mine",
    "health_mine",
    "creatures_theirs",
    "attack_theirs",
    "health_theirs",
    "open_attack_mine",
    "open_attack_theirs",
    "hand_mine",
    "hand_theirs",
    "free_mine",
    "free_theirs",
    "low_life_mine",
    "low_life_theirs",
    "strike_mine",
    "strike_theirs",
    "guard_mine",
    "guard_theirs",
    "aura_mine",
    "aura_theirs",
)
#: The fitted weights, as :mod:`clashkit.studies.expert_fit` writes them.
SHIPPED = "data/expert.json"
#: A won game's score (a lost one scores minus this): above any position's value.
WIN = 1e6
#: Below this much life a side is in danger (``low_life_*``: how far below).
LOW_LIFE = 4
#: Abilities that make an attack do more than hit one target once (``strike_*``): splash
#: (R6.1), pierce (R6.2), bloodlust (R6.6).
STRIKE = SPLASH | PIERCE | BLOODLUST
#: Abilities that keep a creature in play (``guard_*``): protection (R6.4), indestructible (R6.5).
GUARD = PROTECTION | INDESTRUCTIBLE


def _side(state: GameState, player: int):
    """One side's creatures, their attack, their health left, and those with a :data:`STRIKE`
    ability, a :data:`GUARD` ability and an Aura (R6.8)."""
    cards = state.cards
    n = attack = health = strike = guard = aura = 0
    for lane in state.lanes[player]:
        for c in lane:
            n += 1
            attack += cards.attack[c.card]
            health += cards.health[c.card] - c.damage
            if cards.mask[c.card] & STRIKE:
                strike += 1
            if cards.mask[c.card] & GUARD:
                guard += 1
            if cards.aura_mask[c.card]:
                aura += 1
    return n, attack, health, strike, guard, aura


def _open_attack(state: GameState, player: int) -> int:
    """The attack of ``player``'s creatures in lanes where the other side is empty (R4.2: they hit the keep)."""
    cards = state.cards
    total = 0
    for lane in range(2):
        if not state.lanes[1 - player][lane]:
            for c in state.lanes[player][lane]:
                total += cards.attack[c.card]
    return total


def _hand(state: GameState, player: int) -> tuple[int, int]:
    """Hand size with the keep (R3.1: next turn's mana) and the cards left of the keep (R3.7:
    played without losing hand-health); the solo AI has no hand (R8.5)."""
    if state.solo and player == 1:
        return 0, 0
    hand = state.hands[player]
    return len(hand), hand.index(KEEP)


def features(state: GameState, player: int) -> list[int]:
    """:data:`FEATURES` of ``state`` from ``player``'s view, all read from what both players see."""
    other = 1 - player
    mine, theirs = life(state, player), life(state, other)
    n_m, a_m, h_m, s_m, g_m, r_m = _side(state, player)
    n_t, a_t, h_t, s_t, g_t, r_t = _side(state, other)
    hand_m, free_m = _hand(state, player)
    hand_t, free_t = _hand(state, other)
    return [
        1,
        mine,
        theirs,
        int(state.forts[player]),
        int(state.forts[other]),
        n_m,
        a_m,
        h_m,
        n_t,
        a_t,
        h_t,
        _open_attack(state, player),
        _open_attack(state, other),
        hand_m,
        hand_t,
        free_m,
        free_t,
        max(0, LOW_LIFE - mine),
        max(0, LOW_LIFE - theirs),
        s_m,
        s_t,
        g_m,
        g_t,
        r_m,
        r_t,
    ]


def value(state: GameState, player: int, weights) -> float:
    """The position's worth to ``player``: the weights times :func:`features`, added in order."""
    total = 0.0
    for w, x in zip(weights, features(state, player), strict=True):
        total += w * x
    return total


@cache
def shipped_weights() -> tuple[float, ...]:
    """The fitted weights shipped in ``data/expert.json``."""
    data = json.loads(shipped_file(SHIPPED).read_text())
    if tuple(data["features"]) != FEATURES:
        raise OptionError(f"{SHIPPED}: its features are not expert.FEATURES")
    return tuple(float(w) for w in data["weights"])


class ExpertPolicy(SearchPolicy):
    """Fair search one turn deep scored by fitted weights; see the module docstring.

    ``budget``: the candidates tried at most (every one, by default); ``weights``: the
    evaluation's weights (the shipped ones by default; for fitting); ``fair=False``: it reads
    the whole state (``deep``'s model of its opponent, which plays on a guessed state).

    Its draft picks (R7.2), constructed ten and bans (R7.3) are greedy's, by the card values a
    meta study under ``expert`` fitted (:mod:`clashkit.policies.card_values`)."""

    name = "expert"
    code_only_options = ("weights", "fair")

    def __init__(self, budget: int = 64, weights=None, fair: bool = True) -> None:
        budget = whole_number(budget, "candidates", "expert: budget", OptionError)
        super().__init__(budget=budget, horizon=1, noise=0.0, fair=fair)
        self.weights = tuple(float(w) for w in weights) if weights is not None else shipped_weights()
        if len(self.weights) != len(FEATURES):
            raise OptionError(f"expert: {len(FEATURES)} weights, one a feature, not {len(self.weights)}")
        self.name = "expert" if budget == 64 else f"expert:budget={budget}"

    def spare_rollouts(self) -> bool:
        return False

    def score(self, state: GameState, player: int) -> float:
        if state.winner is not None:
            return WIN if state.winner == player else -WIN
        return value(state, player, self.weights)


__all__ = ["FEATURES", "GUARD", "LOW_LIFE", "STRIKE", "WIN", "ExpertPolicy", "features", "shipped_weights", "value"]
