"""Damage and destruction of creatures (R4.3–R4.6, R5.4–R5.6, R6.4, R6.5, R8.5).

Shared by attacks (:mod:`clashkit.siege`) and incantations
(:mod:`clashkit.incantations`): damage lands on a creature, a creature whose
damage this turn reaches its health is destroyed, and a creature that leaves
play goes back to its owner — to the rightmost place of the hand, or to the AI
discard in solo mode.
"""

from __future__ import annotations

from . import events as ev
from .abilities import abilities
from .hand import return_to_hand
from .lanes import leave_play, locate
from .state import Creature, GameState
from .vocab import INDESTRUCTIBLE, PROTECTION


def hurt(
    state: GameState,
    player: int,
    lane: int,
    position: int,
    amount: int,
    source: int,
    *,
    aimed: bool = False,
) -> int:
    """Deal ``amount`` damage to one creature; returns the damage it really took.

    ``aimed`` marks the primary target of an attack: R6.4 Protection cancels
    the first attack aimed at the creature; with ``protection = "first_damage"``
    it cancels the first non-zero damage from any source instead.  R6.5: an
    Indestructible creature takes no damage.
    """
    creature = state.lanes[player][lane][position]
    mask = abilities(state, player, lane, position)
    if mask & INDESTRUCTIBLE:
        amount = 0
    elif mask & PROTECTION and not creature.protection_used:
        if state.rules.protection == "first_attack":
            cancel = aimed
        else:
            cancel = amount > 0
        if cancel:
            creature.protection_used = True
            if state.log is not None:
                ev.record(
                    state, ev.PROTECTION_USED, card=source, lane=lane, position=position,
                    target_player=player, target_card=creature.card, amount=amount,
                )
            amount = 0
    creature.damage += amount
    if state.log is not None:
        ev.record(
            state, ev.DAMAGE, card=source, lane=lane, position=position,
            target_player=player, target_card=creature.card, amount=amount,
        )
    return amount


def to_owner(state: GameState, owner: int, card: int) -> None:
    """R4.4, R5.5 bounce: back to the owner's hand, rightmost; R8.5: the AI's go to its discard."""
    if state.solo and owner == 1:
        state.discard.append(card)
        if state.log is not None:
            ev.record(state, ev.CARD_DISCARDED, target_player=owner, target_card=card, amount=len(state.discard))
    else:
        return_to_hand(state, owner, card)


def destroy(state: GameState, owner: int, creatures: list[Creature]) -> None:
    """R4.3–R4.6: destroy these creatures of ``owner`` together, then return them.

    They leave play (the gaps close, R4.5) and return in the default order of
    R4.6 — the order given — unless ``state.return_order`` chooses another.
    """
    order = []
    for creature in creatures:
        lane, position = locate(state, owner, creature)
        leave_play(state, owner, lane, position)
        state.turn_stats[2] += 1
        order.append(creature.card)
        if state.log is not None:
            ev.record(
                state, ev.CREATURE_DESTROYED, lane=lane, position=position,
                target_player=owner, target_card=creature.card,
            )
    if len(order) > 1 and state.return_order is not None:
        chosen = list(state.return_order(state, owner, order[:]))
        if sorted(chosen) != sorted(order):
            raise ValueError(f"R4.6: a return order must list {order}, got {chosen}")
        order = chosen
    for card in order:
        to_owner(state, owner, card)


def is_destroyed(creature: Creature) -> bool:
    """R4.3: its damage this turn has reached its health."""
    return creature.damage >= creature.health
