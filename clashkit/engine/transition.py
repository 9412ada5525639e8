"""Applying a decision: the rules engine's one entry point for changing a game.

A decision is an :class:`~clashkit.engine.actions.Action` value — a
:class:`~clashkit.engine.actions.Play` or a :class:`~clashkit.engine.actions.Proceed` —
chosen from :func:`~clashkit.engine.legality.legal_actions`.  :func:`apply` checks it
against the rules (raising :class:`~clashkit.base.errors.IllegalActionError`
naming the rule it breaks) and carries it out in place;
:func:`apply_unchecked` carries out one known to be legal.  Where a rule asks
a player something in the middle of a decision — the order in which
creatures destroyed together return (R4.6) — the caller passes the question's
answerer, ``order_returns``; the state itself holds no callback.

What is legal lives in :mod:`clashkit.engine.legality`; its views are re-exported here.
"""

from __future__ import annotations

from . import events as ev
from .actions import Action, Proceed, parse_action
from .destruction import ReturnOrder
from .hand import check_keep, return_to_hand, take_from_hand
from .incantations import resolve
from .lanes import enter_play
from .legality import can_cast_now, check, has_choice, legal_actions, legal_cards, legal_plays, proceed_action
from .siege import begin_siege, take_turn
from .state import GameState
from .turn import end_turn


def apply(state: GameState, action: Action | str, order_returns: ReturnOrder | None = None) -> None:
    """Check ``action`` (or its text) and carry it out, in place (see :func:`apply_unchecked`)."""
    if isinstance(action, str):
        action = parse_action(action, state)
    check(state, action)
    apply_unchecked(state, action, order_returns)


def apply_unchecked(state: GameState, action: Action, order_returns: ReturnOrder | None = None) -> None:
    """Carry out an action known to be legal (taken from the legal list), without checking it.

    ``order_returns(state, owner, cards)`` answers R4.6 when an attack destroys
    several creatures together; without it they return in the default order.
    """
    if isinstance(action, Proceed):
        step = action.step
        if step == "attack":
            take_turn(state, order_returns=order_returns)
        elif step == "siege":
            begin_siege(state)
        else:
            end_turn(state)
    elif action.target is None:
        assert action.lane is not None, "a creature play names its lane (R3.5)"
        play_creature(state, action.index, action.lane)
    else:
        play_incantation(state, action.index, *action.target)


def play_creature(state: GameState, index: int, lane: int) -> None:
    """R3.3, R3.5, R3.7, R3.8: pay, take the card from the hand, enter play behind the lane."""
    player = state.active
    card = take_from_hand(state, player, index)
    state.mana -= state.cards.cost[card]
    state.counters.cards_played += 1
    if state.log is not None:
        ev.record(state, ev.CARD_PLAYED, card=card, lane=lane, position=index, target_player=player)
    enter_play(state, player, lane, card)
    check_keep(state, player)


def play_incantation(state: GameState, index: int, player: int, lane: int, position: int) -> None:
    """R3.3, R5.1–R5.2: pay, resolve on the target, return to the rightmost place; then R3.8."""
    caster = state.active
    card = take_from_hand(state, caster, index)
    state.mana -= state.cards.cost[card]
    state.counters.cards_played += 1
    if state.log is not None:
        target_card = state.lanes[player][lane][position].card
        ev.record(
            state,
            ev.CARD_PLAYED,
            card=card,
            lane=lane,
            position=index,
            target_player=player,
            target_card=target_card,
        )
    resolve(state, card, player, lane, position)
    return_to_hand(state, caster, card)
    check_keep(state, caster)


__all__ = [
    "apply",
    "apply_unchecked",
    "can_cast_now",
    "check",
    "has_choice",
    "legal_actions",
    "legal_cards",
    "legal_plays",
    "play_creature",
    "play_incantation",
    "proceed_action",
]
