"""Lanes and positions, compiled (R1.2, R3.5, R4.5, R5.5 shift, R6.7 Sprint, R10.0, R10.4 aura): mirrors
:mod:`clashkit.engine.lanes`."""

from __future__ import annotations

from ..base.layout import MAX_LOST
from ..base.vocab import BEHIND, FRONT, SIDE
from . import events as ev
from .abilities import has_lost
from .jit import compiled, step
from .state import (
    C_CARD,
    C_LOST,
    C_LOST_COUNT,
    C_TOOK_TURN,
    C_UID,
    C_WIDTH,
    ERR_FULL,
    ERR_LOST,
    G_ACTIVE,
    G_ERROR,
    G_PHASE,
    G_RECORD,
    G_SIEGE_LANE,
    G_UID,
    SIEGE,
    START_ROW,
)
from .tables import (
    R_AURA,
    R_SIEGE_ORDER,
)


@compiled
def copy_row(dst, src):
    """``dst[:] = src`` for two creature rows (written out: these functions run without numba's allocator)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@compiled
def fill(a, value):
    """``a[:] = value`` for a 1-D array."""
    for i in range(a.shape[0]):
        a[i] = value


@compiled
def enter_play(s, p, lane, card):
    """R3.5: a creature enters behind every creature on its side of the lane; it is new (R10.0)."""
    n = s.ln[p, lane]
    if n >= s.cr.shape[2]:
        s.g[G_ERROR] = ERR_FULL
        return
    c = s.cr[p, lane, n]
    for i in range(C_WIDTH):  # the marks' starts (clashkit.base.layout: new, no slot)
        c[i] = START_ROW[i]
    c[C_CARD] = card
    c[C_UID] = s.g[G_UID]
    s.g[G_UID] += 1
    s.ln[p, lane] = n + 1
    if s.g[G_RECORD]:
        ev.record(s, ev.CREATURE_ENTERED, card, lane, n, p, -1, 0)


@step
def _remove(s, p, lane, pos, out):
    """Take the creature at that place out of its side (the gap closes, R4.5) into ``out``."""
    side = s.cr[p, lane]
    copy_row(out, side[pos])
    n = s.ln[p, lane]
    for i in range(pos, n - 1):
        copy_row(side[i], side[i + 1])
    s.ln[p, lane] = n - 1


@compiled
def locate(s, p, uid):
    """(lane, position) of the creature ``uid`` of ``p`` in play, or (-1, -1)."""
    for lane in range(2):
        for pos in range(s.ln[p, lane]):
            if s.cr[p, lane, pos, C_UID] == uid:
                return lane, pos
    return -1, -1


@compiled
def _grants_before_move(s, t, r, p, lane, first, last, grants):
    """R10.4 ``aura = "until_holder_moves"``: for the holders at ``first..last`` of that side,
    (holder uid, receiver uid) pairs into ``grants``; returns how many."""
    k = 0
    if not r[R_AURA]:
        return 0
    for pos in range(first, last + 1):
        h = s.cr[p, lane, pos]
        if not t.card[h[C_CARD]].aura_mask:
            continue
        dirs = t.card[h[C_CARD]].aura_dirs
        uid = h[C_UID]
        # aura_receivers: front, behind, side, each if the Aura reaches it and was not lost.
        if pos and dirs & FRONT and not has_lost(s, p, lane, pos - 1, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, lane, pos - 1, C_UID]
            k += 1
        if pos + 1 < s.ln[p, lane] and dirs & BEHIND and not has_lost(s, p, lane, pos + 1, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, lane, pos + 1, C_UID]
            k += 1
        if pos < s.ln[p, 1 - lane] and dirs & SIDE and not has_lost(s, p, 1 - lane, pos, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, 1 - lane, pos, C_UID]
            k += 1
    return k


@compiled
def _lose_grants(s, p, grants, k, out, shifting):
    """R10.4: those creatures lose the moved holder's grant until the end of the turn.

    ``shifting``: ``out`` is the row of a creature out of play only for the moment (a
    shift between its two lanes), which keeps its losses like those in play."""
    for i in range(k):
        lane, pos = locate(s, p, grants[i, 1])
        if lane >= 0:
            c = s.cr[p, lane, pos]
        elif shifting and out[C_UID] == grants[i, 1]:
            c = out  # shifted: it loses the grant as the reference's Creature does (lanes.leave_play)
        else:
            continue  # it left play: it comes back a fresh creature (R10.0)
        holder = grants[i, 0]
        seen = False
        for j in range(c[C_LOST_COUNT]):
            if c[C_LOST + j] == holder:
                seen = True
        if seen:
            continue
        if c[C_LOST_COUNT] >= MAX_LOST:
            s.g[G_ERROR] = ERR_LOST
            continue
        c[C_LOST + c[C_LOST_COUNT]] = holder
        c[C_LOST_COUNT] += 1


@step
def leave_play(s, t, r, p, lane, pos, out, shifting):
    """R4.5: the creature leaves; those behind it move one place toward the bridge.

    ``shifting``: it leaves only to enter the other lane (R5.5 shift), so a grant it
    loses as the gap closes stays lost (R10.4)."""
    grants = s.grants[1]
    k = _grants_before_move(s, t, r, p, lane, pos + 1, s.ln[p, lane] - 1, grants)
    _remove(s, p, lane, pos, out)
    _lose_grants(s, p, grants, k, out, shifting)


@compiled
def shift(s, t, r, p, lane, pos):
    """R5.5 shift: the creature moves to the back of its side of the other lane.

    R3.9: once the lower lane's siege has begun, a creature of the active player
    moved into the upper lane has lost its turn (the live order).
    """
    grants = s.grants[0]
    k = _grants_before_move(s, t, r, p, lane, pos, pos, grants)
    moved = s.moved[1]
    leave_play(s, t, r, p, lane, pos, moved, shifting=True)
    n = s.ln[p, 1 - lane]
    if n >= s.cr.shape[2]:
        s.g[G_ERROR] = ERR_FULL
        return
    copy_row(s.cr[p, 1 - lane, n], moved)
    s.ln[p, 1 - lane] = n + 1
    _lose_grants(s, p, grants, k, moved, shifting=False)
    if lane == 1 and s.g[G_SIEGE_LANE] >= 1 and s.g[G_PHASE] == SIEGE and p == s.g[G_ACTIVE]:
        if not r[R_SIEGE_ORDER]:
            s.cr[p, 0, n, C_TOOK_TURN] = 1
    if s.g[G_RECORD]:
        ev.record(s, ev.CREATURE_MOVED, moved[C_CARD], 1 - lane, n, p, -1, 0)


@step
def sprint_forward(s, t, r, p, lane, pos):
    """R6.7: move to position 0, passing the creatures in front; returns how many were passed."""
    if pos:
        grants = s.grants[0]
        k = _grants_before_move(s, t, r, p, lane, 0, pos, grants)
        side = s.cr[p, lane]
        moving = s.moved[1]
        copy_row(moving, side[pos])
        for i in range(pos, 0, -1):
            copy_row(side[i], side[i - 1])
        copy_row(side[0], moving)
        _lose_grants(s, p, grants, k, moving, shifting=False)
        if s.g[G_RECORD]:
            ev.record(s, ev.CREATURE_MOVED, moving[C_CARD], lane, 0, p, -1, pos)
    return pos
