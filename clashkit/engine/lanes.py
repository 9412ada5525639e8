"""Lanes and positions (R1.2, R3.5, R4.5, R5.5 shift, R6.7 Sprint, R10.0, R10.4 aura).

``state.lanes[player][lane]`` is one side of one lane, a list from the bridge
outward, so a list index *is* the rulebook's position and removing a creature
closes the gap by itself (R4.5).
"""

from __future__ import annotations

from . import events as ev
from .abilities import aura_receivers
from .state import SIEGE, Creature, GameState


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
    side = state.lanes[player][lane]
    grants = _grants_before_move(state, player, ((lane, p) for p in range(position + 1, len(side))))
    creature = side.pop(position)
    _lose_grants(grants)
    return creature


def locate(state: GameState, player: int, creature: Creature) -> tuple[int, int]:
    """The (lane, position) of a creature in play (by identity)."""
    for lane, side in enumerate(state.lanes[player]):
        if creature in side:  # creatures compare by identity
            return lane, side.index(creature)
    raise LookupError("creature is not in play")


def shift(state: GameState, player: int, lane: int, position: int) -> None:
    """R5.5 shift: the creature moves to the back of its side of the other lane.

    R3.9: once the lower lane's siege has begun, a creature of the active
    player moved into the upper lane has lost its turn in this siege, and a
    later move back to the lower lane does not give it back (the live order).
    """
    grants = _grants_before_move(state, player, ((lane, position),))
    creature = leave_play(state, player, lane, position)
    other = state.lanes[player][1 - lane]
    other.append(creature)
    _lose_grants(grants)
    if lane == 1 and state.siege_lane >= 1 and state.phase == SIEGE and player == state.active:
        if state.rules.siege_order == "live":
            creature.took_turn = True
    if state.log is not None:
        ev.record(
            state, ev.CREATURE_MOVED, card=creature.card, lane=1 - lane, position=len(other) - 1, target_player=player
        )


def sprint_forward(state: GameState, player: int, lane: int, position: int) -> int:
    """R6.7: move to position 0, passing the creatures in front; returns how many were passed."""
    if position:
        side = state.lanes[player][lane]
        grants = _grants_before_move(state, player, ((lane, p) for p in range(position + 1)))
        creature = side.pop(position)
        side.insert(0, creature)
        _lose_grants(grants)
        if state.log is not None:
            ev.record(
                state,
                ev.CREATURE_MOVED,
                card=creature.card,
                lane=lane,
                position=0,
                target_player=player,
                amount=position,
            )
    return position


def _grants_before_move(state: GameState, player: int, movers) -> list[tuple[int, list[Creature]]]:
    """R10.4 ``aura = "until_holder_moves"``: whom each moving Aura holder grants just before the move."""
    if state.rules.aura == "adjacent":
        return []
    side = state.lanes[player]
    return [
        (side[lane][position].uid, aura_receivers(state, player, lane, position))
        for lane, position in movers
        if side[lane][position].aura_mask
    ]


def _lose_grants(grants: list[tuple[int, list[Creature]]]) -> None:
    """R10.4: those creatures lose the moved holder's grant until the end of the turn."""
    for holder, receivers in grants:
        for creature in receivers:
            creature.aura_lost += (holder,)
