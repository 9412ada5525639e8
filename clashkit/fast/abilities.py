"""Special abilities in play, compiled (R6, R6.8 Aura, R8.9, R10.4 aura): mirrors :mod:`clashkit.engine.abilities`."""

from __future__ import annotations

from ..base.vocab import BEHIND, FRONT, SIDE
from .jit import compiled
from .state import (
    C_CARD,
    C_GRANTED,
    C_LOST,
    C_LOST_COUNT,
    C_UID,
)
from .tables import (
    R_AI_BITS,
)


@compiled
def has_lost(s, p, lane, pos, holder_uid):
    c = s.cr[p, lane, pos]
    for k in range(c[C_LOST_COUNT]):
        if c[C_LOST + k] == holder_uid:
            return True
    return False


@compiled
def abilities(s, t, r, p, lane, pos):
    """The ability mask of the creature at ``p``'s ``lane``/``pos`` now."""
    c = s.cr[p, lane, pos]
    mask = t.card[c[C_CARD]].mask | c[C_GRANTED]
    # R6.8: a neighbour whose Aura reaches back toward this creature grants its ability.
    if pos:
        nb = s.cr[p, lane, pos - 1]
        if t.card[nb[C_CARD]].aura_dirs & BEHIND and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    if pos + 1 < s.ln[p, lane]:
        nb = s.cr[p, lane, pos + 1]
        if t.card[nb[C_CARD]].aura_dirs & FRONT and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    if pos < s.ln[p, 1 - lane]:
        nb = s.cr[p, 1 - lane, pos]
        if t.card[nb[C_CARD]].aura_dirs & SIDE and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    # R8.9: the ability the custom solo game gives every AI creature.
    if p == 1 and r[R_AI_BITS]:
        mask |= r[R_AI_BITS]
    return mask
