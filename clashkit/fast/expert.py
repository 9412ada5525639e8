"""``expert``, compiled: :mod:`clashkit.policies.expert`'s evaluation, addition for addition.

An expert player is a fair search player (:mod:`clashkit.fast.search`, policy
code ``SEARCH``) whose options row (``S_*``) has ``S_EXPERT`` set and the
fitted weights from ``S_WEIGHTS`` on: one rollout a candidate, horizon 1, no
noise, and :func:`score` in place of ``search.evaluate``.  :func:`features`
reads the same numbers as ``expert.features``, in the same order, and
:func:`value` adds ``weight × feature`` in that order, so both engines
compare candidates on the same floats.
"""

from __future__ import annotations

from ..policies.expert import FEATURES, GUARD, LOW_LIFE, STRIKE, WIN
from .hand import hand_health, keep_index
from .jit import search_step
from .state import C_CARD, C_DAMAGE, G_DISCARD, G_FORT_A, G_SOLO, G_WINNER

#: How many features (``expert.FEATURES``).
N_FEATURES = len(FEATURES)


@search_step
def _life(s, p):
    """``search.life`` (as :func:`clashkit.fast.search.life`)."""
    health = hand_health(s, p)
    if s.g[G_SOLO] and p == 1:
        return health + (0 if s.g[G_FORT_A + 1] else s.g[G_DISCARD])
    if not s.g[G_FORT_A + p]:
        health += s.hlen[p] - 1
    return health


@search_step
def _side(s, t, p):
    """``expert._side``: creatures, their attack, their health left, those with a strike
    ability, a guard ability and an Aura."""
    n = 0
    attack = 0
    health = 0
    strike = 0
    guard = 0
    aura = 0
    for lane in range(2):
        for pos in range(s.ln[p, lane]):
            row = s.cr[p, lane, pos]
            card = t.card[row[C_CARD]]
            n += 1
            attack += card.attack
            health += card.health - row[C_DAMAGE]
            if card.mask & STRIKE:
                strike += 1
            if card.mask & GUARD:
                guard += 1
            if card.aura_mask != 0:
                aura += 1
    return n, attack, health, strike, guard, aura


@search_step
def _open_attack(s, t, p):
    """``expert._open_attack``: ``p``'s attack in lanes where the other side is empty (R4.2)."""
    total = 0
    for lane in range(2):
        if s.ln[1 - p, lane] == 0:
            for pos in range(s.ln[p, lane]):
                total += t.card[s.cr[p, lane, pos, C_CARD]].attack
    return total


@search_step
def _hand(s, p):
    """``expert._hand``: hand size with the keep (R3.1) and the cards left of the keep (R3.7)."""
    if s.g[G_SOLO] and p == 1:
        return 0, 0
    return s.hlen[p], keep_index(s, p)


@search_step
def features(s, t, p, out):
    """``expert.features`` of ``s`` from ``p``'s view into ``out``."""
    o = 1 - p
    mine = _life(s, p)
    theirs = _life(s, o)
    n_m, a_m, h_m, s_m, g_m, r_m = _side(s, t, p)
    n_t, a_t, h_t, s_t, g_t, r_t = _side(s, t, o)
    hand_m, free_m = _hand(s, p)
    hand_t, free_t = _hand(s, o)
    out[0] = 1
    out[1] = mine
    out[2] = theirs
    out[3] = 1 if s.g[G_FORT_A + p] else 0
    out[4] = 1 if s.g[G_FORT_A + o] else 0
    out[5] = n_m
    out[6] = a_m
    out[7] = h_m
    out[8] = n_t
    out[9] = a_t
    out[10] = h_t
    out[11] = _open_attack(s, t, p)
    out[12] = _open_attack(s, t, o)
    out[13] = hand_m
    out[14] = hand_t
    out[15] = free_m
    out[16] = free_t
    out[17] = LOW_LIFE - mine if mine < LOW_LIFE else 0
    out[18] = LOW_LIFE - theirs if theirs < LOW_LIFE else 0
    out[19] = s_m
    out[20] = s_t
    out[21] = g_m
    out[22] = g_t
    out[23] = r_m
    out[24] = r_t


@search_step
def value(s, t, p, weights, start, scratch):
    """``expert.value``: ``weights[start:]`` times :func:`features`, added in order (``scratch``: room
    for the features)."""
    features(s, t, p, scratch)
    total = 0.0
    for i in range(N_FEATURES):
        total += weights[start + i] * scratch[i]
    return total


@search_step
def score(s, t, p, weights, start, scratch):
    """``ExpertPolicy.score``: ``WIN`` or ``-WIN`` for a game won or lost, else :func:`value`."""
    winner = s.g[G_WINNER]
    if winner >= 0:
        return WIN if winner == p else -WIN
    return value(s, t, p, weights, start, scratch)


__all__ = ["N_FEATURES", "WIN", "features", "score", "value"]
