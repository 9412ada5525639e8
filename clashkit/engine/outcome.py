"""How a game ends (R3.8, R4.9, R8.7, R10.1): every way, in one place.

:func:`end_game` is the one function that ends a game; the rules that end
one call it with the :class:`Termination` that applies.  :func:`outcome`
reads the end back: ``None`` while the game runs, else an :class:`Outcome`
(how it ended, and the winner — ``None`` at the turn limit).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base.vocab import Termination
from . import events as ev
from .state import OVER, GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, and who won (``None``: nobody)."""

    termination: Termination
    winner: int | None


def end_game(state: GameState, termination: Termination, winner: int | None = None) -> None:
    """The game ends at once, as ``termination`` says; ``winner`` wins (none at the turn limit)."""
    state.winner = winner
    state.termination = termination
    state.phase = OVER
    if state.log is not None:
        if winner is None:
            ev.record(state, ev.GAME_UNFINISHED)
        else:
            ev.record(state, ev.GAME_WON, target_player=winner)


def outcome(state: GameState) -> Outcome | None:
    """How the game ended, or ``None`` while it runs."""
    if state.phase != OVER or state.termination is None:
        return None
    return Outcome(state.termination, state.winner)


def termination_of(solo: bool, winner: int | None) -> Termination:
    """How a finished game ended, read from its mode and winner alone.

    The rules leave one way per case: nobody wins only at the turn limit
    (R10.1); in solo the player wins only by outlasting the AI's last turn
    (R8.7) and the AI only when the player's Fort falls (R8.8); in a duel a
    win is a Fort fallen (R4.9).  For engines that keep only the winner
    (:mod:`clashkit.fast`); the reference engine records the termination as
    the game ends (:func:`end_game`), and the differential tests check both agree.
    """
    if winner is None or winner < 0:
        return Termination.TURN_LIMIT
    if solo and winner == 0:
        return Termination.AI_LAST_TURN_SURVIVED
    return Termination.FORT_FELL


__all__ = ["Outcome", "Termination", "end_game", "outcome", "termination_of"]
