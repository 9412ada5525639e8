"""Damage and destruction of creatures, compiled (R4.3-R4.6, R5.4-R5.6, R6.4, R6.5, R8.5, R10.4 protection):
mirrors :mod:`clashkit.engine.destruction`."""

from __future__ import annotations

from ..base.vocab import PROTECTION
from . import events as ev
from . import rng as R
from .abilities import abilities
from .hand import return_to_hand
from .jit import compiled, step
from .lanes import leave_play, locate
from .state import (
    C_CARD,
    C_DAMAGE,
    C_PROTECTION_USED,
    G_DISCARD,
    G_RECORD,
    G_SOLO,
    G_STAT_DESTROYED,
    RANDOM,
    W_ORDER,
)
from .tables import (
    PROTECTION_FIRST_ATTACK,
    PROTECTION_FIRST_DAMAGE,
    R_PROTECTION,
)


@compiled
def protection_cancels(reading, amount, attack, aimed):
    """R6.4, R10.4: whether an armed Protection cancels this damage (and is used up)."""
    if reading == PROTECTION_FIRST_ATTACK:
        return aimed
    if reading == PROTECTION_FIRST_DAMAGE:
        return amount > 0
    return attack and amount > 0


@step
def hurt(s, t, r, p, lane, pos, amount, source, attack, aimed):
    """Deal ``amount`` damage from card ``source`` to one creature; returns the damage it really took."""
    c = s.cr[p, lane, pos]
    if (
        not c[C_PROTECTION_USED]
        and protection_cancels(r[R_PROTECTION], amount, attack, aimed)
        and abilities(s, t, r, p, lane, pos) & PROTECTION
    ):
        c[C_PROTECTION_USED] = 1
        if s.g[G_RECORD]:
            ev.record(s, ev.PROTECTION_USED, source, lane, pos, p, c[C_CARD], amount)
        amount = 0
    c[C_DAMAGE] += amount
    if s.g[G_RECORD]:
        ev.record(s, ev.DAMAGE, source, lane, pos, p, c[C_CARD], amount)
    return amount


@compiled
def to_owner(s, owner, card):
    """R4.4, R5.5 bounce: back to the owner's hand, rightmost; R8.5: the AI's go to its discard."""
    if s.g[G_SOLO] and owner == 1:
        n = s.g[G_DISCARD]
        s.discard[n] = card
        s.g[G_DISCARD] = n + 1
        if s.g[G_RECORD]:
            ev.record(s, ev.CARD_DISCARDED, -1, -1, -1, owner, card, n + 1)
    else:
        return_to_hand(s, owner, card)


@step
def destroy(s, t, r, pol_codes, owner, uids, count):
    """R4.3–R4.6: destroy these creatures of ``owner`` together, then return them (R4.6 order)."""
    order = s.work[W_ORDER : W_ORDER + count]
    out = s.moved[0]
    for i in range(count):
        lane, pos = locate(s, owner, uids[i])
        leave_play(s, t, r, owner, lane, pos, out, shifting=False)
        s.g[G_STAT_DESTROYED] += 1
        order[i] = out[C_CARD]
        if s.g[G_RECORD]:
            ev.record(s, ev.CREATURE_DESTROYED, -1, lane, pos, owner, out[C_CARD], 0)
    # R4.6: the owner's policy chooses (the solo AI keeps the default order).
    if count > 1 and not (s.g[G_SOLO] and owner == 1):
        if pol_codes[owner] == RANDOM:
            R.shuffle(s.rng, order, count)
        else:
            _sort_by_value(t, order, count)
    for i in range(count):
        to_owner(s, owner, order[i])


@compiled
def _sort_by_value(t, order, count):
    """greedy's R4.6 order: best card first (a stable sort on the card value, descending)."""
    for i in range(1, count):
        card = order[i]
        v = t.card[card].value
        j = i - 1
        while j >= 0 and t.card[order[j]].value < v:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = card
