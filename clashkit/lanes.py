"""Lanes and positions (R1.2, R3.5, R4.5, R5.5 shift, R10.0).

``state.lanes[player][lane]`` is one side of one lane, a list from the bridge
outward, so a list index *is* the rulebook's position and removing a creature
closes the gap by itself (R4.5).
"""

from __future__ import annotations

from . import events as ev
from .state import Creature, GameState


def enter_play(state: GameState, player: int, lane: int, card: int) -> Creature:
    """R3.5: a creature enters behind every creature on its side of the lane; it is new (R10.0)."""
    side = state.lanes[player][lane]
    creature = Creature(state.cards, card)
    side.append(creature)
    if state.log is not None:
        ev.record(state, ev.CREATURE_ENTERED, card=card, lane=lane, position=len(side) - 1, target_player=player)
    return creature


def leave_play(state: GameState, player: int, lane: int, position: int) -> Creature:
    """R4.5: the creature leaves; those behind it move one place toward the bridge."""
    return state.lanes[player][lane].pop(position)


def locate(state: GameState, player: int, creature: Creature) -> tuple[int, int]:
    """The (lane, position) of a creature in play (by identity)."""
    for lane, side in enumerate(state.lanes[player]):
        if creature in side:  # creatures compare by identity
            return lane, side.index(creature)
    raise LookupError("creature is not in play")


def shift(state: GameState, player: int, lane: int, position: int) -> None:
    """R5.5 shift: the creature moves to the back of its side of the other lane."""
    creature = leave_play(state, player, lane, position)
    other = state.lanes[player][1 - lane]
    other.append(creature)
    if state.log is not None:
        ev.record(
            state, ev.CREATURE_MOVED, card=creature.card, lane=1 - lane, position=len(other) - 1, target_player=player
        )


def sprint_forward(state: GameState, player: int, lane: int, position: int) -> int:
    """R6.7: move to position 0, passing the creatures in front; returns how many were passed."""
    if position:
        side = state.lanes[player][lane]
        creature = side.pop(position)
        side.insert(0, creature)
        if state.log is not None:
            ev.record(
                state, ev.CREATURE_MOVED, card=creature.card, lane=lane, position=0,
                target_player=player, amount=position,
            )
    return position
