"""Special abilities in play (R6, R6.8 Aura, R8.9 the AI's ability, R10.4 ``aura``).

A creature's abilities are a bit mask: its printed ones, those granted until
end of turn (R5.5 grant), those its neighbours' Auras give it *right now*
(R6.8: re-evaluated whenever anything moves), and in solo mode the ability
every AI creature has (R8.9).  They are read when they matter (R4.1), so this
is computed on demand, never stored.
"""

from __future__ import annotations

from ..base.vocab import BEHIND, FRONT, SIDE
from .state import Creature, GameState


def neighbours(state: GameState, player: int, lane: int, position: int) -> list[tuple[Creature, int]]:
    """R6.8: the creatures adjacent to one on its own side, as (neighbour, direction from it).

    ``FRONT`` is the neighbour nearer the bridge in the same lane, ``BEHIND``
    the one farther from it, ``SIDE`` the one at the same position in the
    other lane.
    """
    sides = state.lanes[player]
    side = sides[lane]
    out = []
    if position:
        out.append((side[position - 1], FRONT))
    if position + 1 < len(side):
        out.append((side[position + 1], BEHIND))
    other = sides[1 - lane]
    if position < len(other):
        out.append((other[position], SIDE))
    return out


#: R6.8: an Aura reaching ``d`` from its holder reaches a creature that sees the holder in direction ``_FACING[d]``.
_FACING = {FRONT: BEHIND, BEHIND: FRONT, SIDE: SIDE}


def abilities(state: GameState, player: int, lane: int, position: int) -> int:
    """The ability mask of the creature at ``player``'s ``lane``/``position`` now."""
    creature = state.lanes[player][lane][position]
    mask = creature.mask | creature.granted
    # R6.8: a neighbour whose Aura reaches back toward this creature grants its ability
    # (R10.4: unless the grant was lost when the holder moved this turn).
    for neighbour, direction in neighbours(state, player, lane, position):
        if neighbour.aura_dirs & _FACING[direction] and neighbour.uid not in creature.aura_lost:
            mask |= neighbour.aura_mask
    # R8.9: the ability the custom solo game gives every AI creature.
    if player == 1 and state.ai_bits:
        mask |= state.ai_bits
    return mask


def aura_receivers(state: GameState, player: int, lane: int, position: int) -> list[Creature]:
    """R6.8: the creatures the Aura of the creature at that place reaches now."""
    holder = state.lanes[player][lane][position]
    return [
        neighbour
        for neighbour, direction in neighbours(state, player, lane, position)
        if holder.aura_dirs & direction and holder.uid not in neighbour.aura_lost
    ]


def has(state: GameState, player: int, lane: int, position: int, bit: int) -> bool:
    """Whether that creature has the ability ``bit`` now."""
    return bool(abilities(state, player, lane, position) & bit)
