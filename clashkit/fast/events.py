"""Events, compiled: one row per atomic step, written by the rules as they apply (mirrors
:mod:`clashkit.engine.events`).

A rule step that the reference engine records calls :func:`record` at the
same moment, with the same fields, so the two engines' rows are equal
(``tests/fast``).  Rows go to ``s.ev`` (``clashkit.engine.events.FIELDS``
wide, ``s.g[G_EVENTS]`` of them) only while ``s.g[G_RECORD]`` is set; every
call site tests that flag first, so a game without events pays one
predictable branch a step and the same compiled code serves both.  When the
rows are full the game stops with ``ERR_EVENTS`` and the caller plays it
again with more room (:mod:`clashkit.runs.fast_games`).
"""

from __future__ import annotations

import numpy as np

from ..engine.events import (
    AI_LAST_TURN,
    AI_MILL,
    AI_RESHUFFLE,
    AI_REVEAL,
    ATTACK,
    ATTACK_SKIPPED,
    CARD_DISCARDED,
    CARD_PLAYED,
    CARD_RETURNED,
    CREATURE_DESTROYED,
    CREATURE_ENTERED,
    CREATURE_MOVED,
    DAMAGE,
    GAME_UNFINISHED,
    GAME_WON,
    INCANTATION_RESOLVED,
    KEEP_FLIPPED,
    KEEP_MOVED,
    MANA_GAINED,
    NO_EFFECT,
    PROTECTION_USED,
    REGENERATION,
    SIEGE_STARTED,
    TURN_STARTED,
    NoEffect,
)
from .jit import compiled, step
from .state import (
    ERR_EVENTS,
    G_ACTIVE,
    G_ERROR,
    G_EVENTS,
    G_FORT_A,
    G_FORT_B,
    G_MANA,
    G_PHASE,
    G_PILE,
    G_SOLO,
    G_TURN,
    KEEP,
)

#: R5.4, R5.5, R8.4: the ``amount`` of a ``no_effect`` event (``clashkit.engine.events.NoEffect``).
NO_EFFECT_INDESTRUCTIBLE = int(NoEffect.INDESTRUCTIBLE)
NO_EFFECT_AMOUNT_ZERO = int(NoEffect.AMOUNT_ZERO)
NO_EFFECT_NOTHING_TO_HEAL = int(NoEffect.NOTHING_TO_HEAL)
NO_EFFECT_HAS_IT_ALREADY = int(NoEffect.HAS_IT_ALREADY)
NO_EFFECT_NO_TARGET = int(NoEffect.NO_TARGET)


@compiled
def _health(s, p):
    """R1.5 hand-health after the step; R8.6 for the solo AI, the cards above its keep."""
    if p == 1 and s.g[G_SOLO]:
        return s.g[G_PILE] - 1
    hand = s.hands[p]
    n = s.hlen[p]
    for i in range(n):
        if hand[i] == KEEP:
            return n - 1 - i
    return -1


@step
def record(s, kind, card, lane, position, target_player, target_card, amount):
    """Append one event row (``clashkit.engine.events.record``; callers test ``s.g[G_RECORD]`` first).

    Every field goes on as a 64-bit integer, so :func:`_append` is compiled once, not once for
    each mix of argument types the call sites pass (a compile of its own each)."""
    _append(
        s,
        np.int64(kind),
        np.int64(card),
        np.int64(lane),
        np.int64(position),
        np.int64(target_player),
        np.int64(target_card),
        np.int64(amount),
    )


@compiled
def _append(s, kind, card, lane, position, target_player, target_card, amount):
    k = s.g[G_EVENTS]
    if k >= s.ev.shape[0]:
        s.g[G_ERROR] = ERR_EVENTS
        return
    row = s.ev[k]
    row[0] = kind
    row[1] = s.g[G_TURN]
    row[2] = s.g[G_ACTIVE]
    row[3] = s.g[G_PHASE]
    row[4] = card
    row[5] = lane
    row[6] = position
    row[7] = target_player
    row[8] = target_card
    row[9] = amount
    row[10] = s.g[G_MANA]
    row[11] = _health(s, 0)
    row[12] = _health(s, 1)
    row[13] = s.g[G_FORT_A]
    row[14] = s.g[G_FORT_B]
    s.g[G_EVENTS] = k + 1


__all__ = [
    "AI_LAST_TURN",
    "AI_MILL",
    "AI_RESHUFFLE",
    "AI_REVEAL",
    "ATTACK",
    "ATTACK_SKIPPED",
    "CARD_DISCARDED",
    "CARD_PLAYED",
    "CARD_RETURNED",
    "CREATURE_DESTROYED",
    "CREATURE_ENTERED",
    "CREATURE_MOVED",
    "DAMAGE",
    "GAME_UNFINISHED",
    "GAME_WON",
    "INCANTATION_RESOLVED",
    "KEEP_FLIPPED",
    "KEEP_MOVED",
    "MANA_GAINED",
    "NO_EFFECT",
    "PROTECTION_USED",
    "REGENERATION",
    "SIEGE_STARTED",
    "TURN_STARTED",
    "record",
]
