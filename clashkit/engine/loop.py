"""The game loop: ask the player who has a choice, apply the decision, and otherwise move on.

:func:`run` plays a game with two policies (objects with ``decide`` and
``order_returns``, see :class:`~clashkit.policies.Policy`): the one loop of
clashkit — :func:`clashkit.runs.game.play`, the search policy's rollouts and the
notebooks' bots all go through it.
"""

from __future__ import annotations

from typing import Protocol

from .actions import Action
from .destruction import ReturnOrder
from .legality import legal_cards, proceed_action
from .siege import next_in_order, take_turn
from .state import OVER, SIEGE, GameState
from .transition import apply, apply_unchecked
from .turn import TURN_WIDTH, end_turn, record_turn


class Player(Protocol):
    """What the loop asks a player (:class:`~clashkit.policies.Policy` is one)."""

    def decide(self, state: GameState, cards: list[tuple[int, int]]) -> Action: ...

    def order_returns(self, state: GameState, owner: int, cards: list[int]) -> list[int]: ...


def run(
    state: GameState,
    player_a: Player,
    player_b: Player,
    *,
    max_steps: int | None = None,
    until_turn: int | None = None,
    trusted: bool = True,
) -> GameState:
    """Play ``state`` on to its end (or a stop below) with one player per side; returns it.

    Two paths.  A player with a choice — some legal card
    (:func:`~clashkit.engine.legality.legal_cards`) — is asked for a decision
    (``decide(state, cards)``), a plain action value, which the engine
    applies (:func:`~clashkit.engine.apply_unchecked`; checked first unless
    ``trusted``).  A player with no choice moves the turn on: begins
    the siege, ends the turn, or — with nothing to cast in this siege window,
    hence none later in it (R3.11: the active hand and mana stay as they
    are) — runs the rest of the siege order through.

    R4.6 (the owner orders creatures destroyed together) is a question the
    loop asks the owner's player; the solo AI makes no choices, so its returns
    keep the default order.  In solo mode ``player_b`` is never asked.

    ``max_steps``: stop after that many steps (a decision, or one move of the
    turn when there is no choice: one attack at a time); ``until_turn``: stop
    when that turn begins.
    """
    players = (player_a, player_b)
    order_returns = returns_asker(players)
    carry_out = apply_unchecked if trusted else apply
    steps = 0
    while state.phase != OVER and (until_turn is None or state.turn < until_turn):
        cards = legal_cards(state)  # a choice: some card may be played (clashkit.engine.legality)
        if cards:
            carry_out(state, players[state.active].decide(state, cards), order_returns)
        elif state.phase == SIEGE and max_steps is None:
            run_siege_through(state, order_returns)
        else:
            apply_unchecked(state, proceed_action(state), order_returns)
        steps += 1
        if max_steps is not None and steps >= max_steps:
            break
    if state.phase == OVER:  # also when the last allowed step ended the game
        finish(state)
    return state


def returns_asker(players: tuple[Player, Player]) -> ReturnOrder:
    """R4.6 as a question to the owner's player; the solo AI makes no choices (R8.3), so its
    returns keep the default order."""

    def order_returns(state: GameState, owner: int, cards: list[int]) -> list[int]:
        if state.solo and owner == 1:
            return cards
        return players[owner].order_returns(state, owner, cards)

    return order_returns


def run_siege_through(state: GameState, order_returns: ReturnOrder | None = None) -> None:
    """R3.9, R3.12: every creature still to attack takes its turn in order, then the turn ends
    (unless the game ended on the way)."""
    found = next_in_order(state)
    while found is not None:
        take_turn(state, found, order_returns)
        if state.phase == OVER:
            return
        found = next_in_order(state)
    end_turn(state)


def finish(state: GameState) -> None:
    """Close the last turn's row when the game ended inside a turn (R4.9)."""
    if state.turn_log is not None and len(state.turn_log) // TURN_WIDTH < state.turn:
        record_turn(state)


__all__ = ["Player", "finish", "returns_asker", "run", "run_siege_through"]
