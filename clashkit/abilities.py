"""Special abilities in play (R6, R6.8 Aura, R8.9 the AI's ability).

A creature's abilities are a bit mask: its printed ones, those granted until
end of turn (R5.5 grant), those its neighbours' Auras give it *right now*
(R6.8: re-evaluated whenever anything moves), and in solo mode the ability
every AI creature has (R8.9).  They are read when they matter (R4.1), so this
is computed on demand, never stored.
"""

from __future__ import annotations

from .state import GameState
from .vocab import BEHIND, FRONT, SIDE


def abilities(state: GameState, player: int, lane: int, position: int) -> int:
    """The ability mask of the creature at ``player``'s ``lane``/``position`` now."""
    sides = state.lanes[player]
    side = sides[lane]
    creature = side[position]
    mask = creature.mask | creature.granted
    # R6.8: the neighbour nearer the bridge with an Aura reaching behind.
    if position:
        neighbour = side[position - 1]
        if neighbour.aura_dirs & BEHIND:
            mask |= neighbour.aura_mask
    # R6.8: the neighbour farther from the bridge with an Aura reaching front.
    if position + 1 < len(side):
        neighbour = side[position + 1]
        if neighbour.aura_dirs & FRONT:
            mask |= neighbour.aura_mask
    # R6.8: the creature at the same position in the other lane, Aura reaching side.
    other = sides[1 - lane]
    if position < len(other):
        neighbour = other[position]
        if neighbour.aura_dirs & SIDE:
            mask |= neighbour.aura_mask
    # R8.9: the ability the custom solo game gives every AI creature.
    if player == 1 and state.ai_bits:
        mask |= state.ai_bits
    return mask


def has(state: GameState, player: int, lane: int, position: int, bit: int) -> bool:
    """Whether that creature has the ability ``bit`` now."""
    return bool(abilities(state, player, lane, position) & bit)
