"""Incantations, compiled (R5): mirrors :mod:`clashkit.engine.incantations`."""

from __future__ import annotations

from ..base.vocab import INDESTRUCTIBLE
from . import events as ev
from .abilities import abilities
from .destruction import destroy, hurt, to_owner
from .jit import compiled
from .lanes import leave_play, shift
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_GRANTED,
    C_UID,
    G_RECORD,
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
    R_AI_BITS,
)


@compiled
def no_effect(s, t, r, card, p, lane, pos):
    """R5.4, R5.5: why incantation ``card`` would change nothing on the creature at that place, or -1
    (:func:`clashkit.engine.incantations.no_effect`)."""
    if abilities(s, t, r, p, lane, pos) & INDESTRUCTIBLE:
        return ev.NO_EFFECT_INDESTRUCTIBLE
    effect = t.card[card].effect
    c = s.cr[p, lane, pos]
    if (effect == E_DAMAGE or effect == E_WEAKEN or effect == E_EMPOWER) and t.card[card].amount == 0:
        return ev.NO_EFFECT_AMOUNT_ZERO
    if effect == E_HEAL and not c[C_DAMAGE]:
        return ev.NO_EFFECT_NOTHING_TO_HEAL
    if effect == E_GRANT:
        lasting = t.card[c[C_CARD]].mask | c[C_GRANTED] | (r[R_AI_BITS] if p == 1 else 0)
        if not t.card[card].grant & ~lasting:
            return ev.NO_EFFECT_HAS_IT_ALREADY
    return -1


@compiled
def resolve(s, t, r, pol_codes, card, p, lane, pos):
    """R5.2, R5.4, R5.5: apply incantation ``card``'s effect to the creature at that place."""
    effect = t.card[card].effect
    amount = t.card[card].amount
    c = s.cr[p, lane, pos]
    if s.g[G_RECORD]:
        ev.record(s, ev.INCANTATION_RESOLVED, card, lane, pos, p, c[C_CARD], amount)
    # R5.4: an Indestructible creature may be targeted; nothing happens to it (nor when the
    # effect finds nothing to do): the event says why.
    why = no_effect(s, t, r, card, p, lane, pos)
    if why >= 0:
        if s.g[G_RECORD]:
            ev.record(s, ev.NO_EFFECT, card, lane, pos, p, c[C_CARD], why)
        return
    if effect == E_DAMAGE or effect == E_DESTROY:
        if effect == E_DAMAGE:  # R5.6: not an attack; destroyed once its damage reaches its health
            hurt(s, t, r, p, lane, pos, amount, card, attack=False, aimed=False)
            if c[C_DAMAGE] < t.card[c[C_CARD]].health:
                return
        uids = s.work[W_VICTIMS : W_VICTIMS + 1]
        uids[0] = c[C_UID]
        destroy(s, t, r, pol_codes, p, uids, 1)
    elif effect == E_BOUNCE:  # not a destruction
        out = s.moved[0]
        leave_play(s, t, r, p, lane, pos, out, shifting=False)
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
