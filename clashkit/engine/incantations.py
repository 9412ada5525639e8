"""Incantations (R5; R5.4 and R5.5 the effects clashkit supports and when they change nothing).

An incantation names one creature in play, either side, any lane (R5.1);
its effect applies at once and the card comes straight back to the rightmost
place of its owner's hand (R5.2).  :func:`resolve` is shared with the solo AI
(R8.4), whose incantations go to the AI discard instead.
"""

from __future__ import annotations

from ..base.vocab import (
    EFFECT_BOUNCE,
    EFFECT_DAMAGE,
    EFFECT_DESTROY,
    EFFECT_EMPOWER,
    EFFECT_GRANT,
    EFFECT_HEAL,
    EFFECT_SHIFT,
    EFFECT_WEAKEN,
    INDESTRUCTIBLE,
)
from . import events as ev
from .abilities import abilities
from .destruction import destroy, hurt, is_destroyed, to_owner
from .events import NoEffect
from .lanes import leave_play, shift
from .state import GameState


def targets(state: GameState) -> list[tuple[int, int, int]]:
    """R5.1: every creature in play as (player, lane, position), A before B, upper before lower."""
    return [
        (player, lane, position)
        for player in (0, 1)
        for lane in (0, 1)
        for position in range(len(state.lanes[player][lane]))
    ]


def no_effect(state: GameState, card: int, player: int, lane: int, position: int) -> NoEffect | None:
    """R5.4, R5.5: why incantation ``card`` would change nothing on the creature at that place, or ``None``.

    Nothing changes when the creature is Indestructible (R5.4, R6.5), when the
    amount of ``damage``, ``weaken`` or ``empower`` is 0, when ``heal`` finds no
    damage, and when ``grant`` gives an ability the creature has for the rest of
    the turn anyway: printed, given to every AI creature (R8.9), or granted
    already (one from an Aura only may be lost this turn, R10.4, so it counts).
    ``destroy``, ``bounce``, ``shift`` and any other amount always change the
    table (a weaken below an attack of 0 too: modifiers add up, R4.1).
    """
    cards = state.cards
    creature = state.lanes[player][lane][position]
    if abilities(state, player, lane, position) & INDESTRUCTIBLE:
        return NoEffect.INDESTRUCTIBLE
    effect = cards.effect[card]
    if effect in (EFFECT_DAMAGE, EFFECT_WEAKEN, EFFECT_EMPOWER) and cards.amount[card] == 0:
        return NoEffect.AMOUNT_ZERO
    if effect is EFFECT_HEAL and not creature.damage:
        return NoEffect.NOTHING_TO_HEAL
    if effect is EFFECT_GRANT:
        lasting = creature.mask | creature.granted | (state.ai_bits if player == 1 else 0)
        if not cards.grant_mask[card] & ~lasting:
            return NoEffect.HAS_IT_ALREADY
    return None


def resolve(state: GameState, card: int, player: int, lane: int, position: int) -> None:
    """R5.2, R5.4, R5.5: apply incantation ``card``'s effect to the creature at that place."""
    cards = state.cards
    creature = state.lanes[player][lane][position]
    effect = cards.effect[card]
    amount = cards.amount[card]
    if state.log is not None:
        ev.record(
            state,
            ev.INCANTATION_RESOLVED,
            card=card,
            lane=lane,
            position=position,
            target_player=player,
            target_card=creature.card,
            amount=amount,
        )
    # R5.4: an Indestructible creature may be targeted; nothing happens to it (nor when
    # the effect finds nothing to do): the event says why.
    why = no_effect(state, card, player, lane, position)
    if why is not None:
        if state.log is not None:
            ev.record(
                state,
                ev.NO_EFFECT,
                card=card,
                lane=lane,
                position=position,
                target_player=player,
                target_card=creature.card,
                amount=why,
            )
        return
    if effect is EFFECT_DAMAGE:  # R5.6: not an attack
        hurt(state, player, lane, position, amount, card, attack=False)
        if is_destroyed(creature):
            destroy(state, player, [creature])
    elif effect is EFFECT_DESTROY:
        destroy(state, player, [creature])
    elif effect is EFFECT_BOUNCE:  # not a destruction
        leave_play(state, player, lane, position)
        to_owner(state, player, creature.card)
    elif effect is EFFECT_SHIFT:
        shift(state, player, lane, position)
    elif effect is EFFECT_WEAKEN:
        creature.attack_mod -= amount
    elif effect is EFFECT_EMPOWER:
        creature.attack_mod += amount
    elif effect is EFFECT_GRANT:
        creature.granted |= cards.grant_mask[card]
    elif effect is EFFECT_HEAL:
        creature.damage = 0
    else:  # pragma: no cover - the card loader admits no other effect
        raise AssertionError(f"unknown effect {effect!r}")
