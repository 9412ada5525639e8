"""Damage and destruction of creatures (R4.3–R4.6, R5.4–R5.6, R6.4, R6.5, R8.5, R10.4 protection).

Shared by attacks (:mod:`clashkit.engine.siege`) and incantations
(:mod:`clashkit.engine.incantations`): damage lands on a creature, a creature whose
damage this turn reaches its health is destroyed, and a creature that leaves
play goes back to its owner — to the rightmost place of the hand, or to the AI
discard in solo mode.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.vocab import PROTECTION
from . import events as ev
from .abilities import abilities
from .hand import return_to_hand
from .lanes import leave_play, locate
from .state import Creature, GameState

#: R4.6: the owner's answer — given (state, owner, destroyed card ids in the default
#: order), the same ids in the order they return.  The game loop asks the owner's policy.
ReturnOrder = Callable[[GameState, int, list[int]], list[int]]


def hurt(
    state: GameState,
    player: int,
    lane: int,
    position: int,
    amount: int,
    source: int,
    *,
    attack: bool,
    aimed: bool = False,
) -> int:
    """Deal ``amount`` damage to one creature; returns the damage it really took.

    ``attack`` says the damage comes from an attack (not an incantation, R5.6)
    and ``aimed`` that the creature is that attack's primary target.  R6.5:
    Indestructible does not matter here, attacks damage such a creature like
    any other (incantations never reach this for it, R5.4).
    """
    creature = state.lanes[player][lane][position]
    if (
        not creature.protection_used
        and protection_cancels(state.rules.protection, amount, attack=attack, aimed=aimed)
        and abilities(state, player, lane, position) & PROTECTION
    ):
        creature.protection_used = True
        if state.log is not None:
            ev.record(
                state,
                ev.PROTECTION_USED,
                card=source,
                lane=lane,
                position=position,
                target_player=player,
                target_card=creature.card,
                amount=amount,
            )
        amount = 0
    creature.damage += amount
    if state.log is not None:
        ev.record(
            state,
            ev.DAMAGE,
            card=source,
            lane=lane,
            position=position,
            target_player=player,
            target_card=creature.card,
            amount=amount,
        )
    return amount


def protection_cancels(reading: str, amount: int, *, attack: bool, aimed: bool) -> bool:
    """R6.4, R10.4: whether an armed Protection cancels this damage (and is used up).

    ``first_attack`` (R6.4): the first attack aimed at the creature, whatever
    its damage; ``first_damage``: the first non-zero damage from any source;
    ``first_hit``: the first attack that would deal it damage, as primary
    target or as a Splash or Pierce victim.
    """
    if reading == "first_attack":
        return aimed
    if reading == "first_damage":
        return amount > 0
    return attack and amount > 0


def to_owner(state: GameState, owner: int, card: int) -> None:
    """R4.4, R5.5 bounce: back to the owner's hand, rightmost; R8.5: the AI's go to its discard."""
    if state.solo and owner == 1:
        state.discard.append(card)
        if state.log is not None:
            ev.record(state, ev.CARD_DISCARDED, target_player=owner, target_card=card, amount=len(state.discard))
    else:
        return_to_hand(state, owner, card)


def destroy(state: GameState, owner: int, creatures: list[Creature], order_returns: ReturnOrder | None = None) -> None:
    """R4.3–R4.6: destroy these creatures of ``owner`` together, then return them.

    They leave play (the gaps close, R4.5) and return in the default order of
    R4.6 — the order given — unless the owner, asked through ``order_returns``,
    chooses another.
    """
    order = []
    for creature in creatures:
        lane, position = locate(state, owner, creature)
        leave_play(state, owner, lane, position)
        state.counters.creatures_destroyed += 1
        order.append(creature.card)
        if state.log is not None:
            ev.record(
                state,
                ev.CREATURE_DESTROYED,
                lane=lane,
                position=position,
                target_player=owner,
                target_card=creature.card,
            )
    if len(order) > 1 and order_returns is not None:
        chosen = list(order_returns(state, owner, order[:]))
        if sorted(chosen) != sorted(order):
            raise ValueError(f"R4.6: a return order must list {order}, got {chosen}")
        order = chosen
    for card in order:
        to_owner(state, owner, card)


def is_destroyed(creature: Creature) -> bool:
    """R4.3: its damage this turn has reached its health."""
    return creature.damage >= creature.health
