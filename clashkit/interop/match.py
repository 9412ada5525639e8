"""One game as the adapters step it: decisions by integer, what each player has seen.

A :class:`Match` holds a clashkit :class:`~clashkit.engine.state.GameState` and
moves it on as the game loop does (:func:`clashkit.engine.loop.run`): a player
is asked only when it has a choice (some card it may play); otherwise the turn
moves on by itself — the siege begun, the siege order run through, the turn
ended, the solo AI's turn played (R3.9–R3.12, R8.3).  R4.6 keeps its default
order.  Both adapters (OpenSpiel and PettingZoo) are views on it.
"""

from __future__ import annotations

from ..base.errors import InputError
from ..base.limits import shown
from ..base.vocab import PLAYERS
from ..engine.actions import Action
from ..engine.legality import legal_actions, legal_cards, proceed_action
from ..engine.loop import run_siege_through
from ..engine.state import OVER, SIEGE, GameState
from ..engine.transition import apply_unchecked
from . import encoding
from .encoding import Table


class Match:
    """A game in play: the state, each player's sightings of the other's cards, the moves
    so far (every move is public, R3.3) and the legal actions of the decision now."""

    __slots__ = ("table", "state", "seen", "moves", "legal", "ids", "texts")

    def __init__(self, table: Table, state: GameState, seen: tuple[set[int], set[int]] | None = None) -> None:
        self.table = table
        self.state = state
        self.seen: tuple[set[int], set[int]] = (set(seen[0]), set(seen[1])) if seen is not None else (set(), set())
        self.moves: list[str] = []
        self.legal: list[Action] = []
        self.ids: list[int] = []
        #: Strings already written for this position, by (player, perfect recall); emptied by every change.
        self.texts: dict[tuple[int, bool], str] = {}
        encoding.note_sightings(state, self.seen)
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    @property
    def to_act(self) -> int | None:
        """The player to decide now (``None`` once the game is over)."""
        return None if self.over else self.state.active

    def returns(self) -> tuple[float, float]:
        """``(+1, −1)`` when A has won, ``(−1, +1)`` when B has, ``(0, 0)`` otherwise (R10.1)."""
        winner = self.state.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def action(self, number: int) -> Action:
        """The clashkit action a legal integer stands for (an :class:`InputError`, a ``ValueError``
        naming the legal ones, for anything else)."""
        value = whole(number, "action")
        if value not in self.ids:
            raise InputError(f"action {shown(number)} is not legal now ({legal_text(self.ids)})")
        return self.legal[self.ids.index(value)]

    def apply(self, number: int) -> None:
        """Carry out the legal action ``number``, then move on to the next decision."""
        move = self.action(number)
        state = self.state
        self.moves.append(f"{PLAYERS[state.active].value}: {move}")
        encoding.note_play(state, move, self.seen)
        apply_unchecked(state, move)
        encoding.note_sightings(state, self.seen)
        self.advance()

    def advance(self) -> None:
        """Move the turn on while the active player has no choice, then read the legal actions."""
        state = self.state
        self.texts = {}
        while state.phase != OVER and not legal_cards(state):
            if state.phase == SIEGE:
                run_siege_through(state)
            else:
                apply_unchecked(state, proceed_action(state))
            encoding.note_sightings(state, self.seen)
        self.legal = legal_actions(state) if state.phase != OVER else []
        self.ids = encoding.legal_ids(self.table, self.legal)

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.table = self.table
        other.state = self.state.clone(record=False)
        other.seen = (set(self.seen[0]), set(self.seen[1]))
        other.moves = list(self.moves)
        other.legal, other.ids = self.legal, self.ids  # replaced, never changed
        other.texts = dict(self.texts)
        return other


def whole(number: object, what: str) -> int:
    """``number`` as an ``int`` if it is one (``numpy`` integers too); 1.5, ``True`` or text are an
    :class:`InputError` (``int()`` would read 1.5 as 1)."""
    if isinstance(number, bool) or not hasattr(number, "__index__"):
        raise InputError(f"{what} {shown(number)} is not a whole number")
    return int(number.__index__())


def legal_text(numbers: list[int]) -> str:
    """``legal: 0, 3, 17`` — the legal numbers, the first ten of a longer list."""
    if not numbers:
        return "none is legal"
    shown_ = ", ".join(map(str, numbers[:10]))
    return f"legal: {shown_}" + (f", … ({len(numbers)} in all)" if len(numbers) > 10 else "")


__all__ = ["Match", "legal_text", "whole"]
