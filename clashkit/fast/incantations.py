"""Incantations, compiled (R5): mirrors :mod:`clashkit.engine.incantations`."""

from __future__ import annotations

from numba import njit

from ..base.vocab import INDESTRUCTIBLE
from .abilities import abilities
from .destruction import destroy, hurt, to_owner
from .lanes import leave_play, shift
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_GRANTED,
    C_UID,
    W_VICTIMS,
)
from .tables import (
    E_BOUNCE,
    E_DAMAGE,
    E_DESTROY,
    E_EMPOWER,
    E_GRANT,
    E_HEAL,
    E_SHIFT,
    E_WEAKEN,
)


@njit(cache=True, _nrt=False)
def resolve(s, t, r, pol_codes, card, p, lane, pos):
    """R5.2, R5.4, R5.5: apply incantation ``card``'s effect to the creature at that place."""
    # R5.4: an Indestructible creature may be targeted; nothing happens to it.
    if abilities(s, t, r, p, lane, pos) & INDESTRUCTIBLE:
        return
    effect = t.card[card].effect
    amount = t.card[card].amount
    c = s.cr[p, lane, pos]
    if effect == E_DAMAGE or effect == E_DESTROY:
        if effect == E_DAMAGE:  # R5.6: not an attack; destroyed once its damage reaches its health
            hurt(s, t, r, p, lane, pos, amount, False, False)
            if c[C_DAMAGE] < t.card[c[C_CARD]].health:
                return
        uids = s.work[W_VICTIMS : W_VICTIMS + 1]
        uids[0] = c[C_UID]
        destroy(s, t, r, pol_codes, p, uids, 1)
    elif effect == E_BOUNCE:  # not a destruction
        out = s.moved[0]
        leave_play(s, t, r, p, lane, pos, out, False)
        to_owner(s, p, out[C_CARD])
    elif effect == E_SHIFT:
        shift(s, t, r, p, lane, pos)
    elif effect == E_WEAKEN:
        c[C_ATTACK_MOD] -= amount
    elif effect == E_EMPOWER:
        c[C_ATTACK_MOD] += amount
    elif effect == E_GRANT:
        c[C_GRANTED] |= t.card[card].grant
    elif effect == E_HEAL:
        c[C_DAMAGE] = 0
