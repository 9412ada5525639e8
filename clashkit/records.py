"""Raw records of many games: the engine's buffers, collected as games finish.

:class:`GameRecords` is the cheap half of a trace.  Adding a game copies its
event buffer (``array('i')``) and turn buffer (``array('h')``) onto two growing arrays and appends a
few small values; nothing is decoded.  It imports neither numpy nor polars, so
the worker processes of :func:`clashkit.simulate.simulate` stay light, and it
pickles as a handful of byte strings.  :meth:`GameRecords.build` hands
everything to :mod:`clashkit.trace`, which makes the three frames at once.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from .events import TYPECODE, WIDTH
from .outcome import Termination
from .rules import RULES_VERSION
from .turn import TURN_WIDTH

#: How ``termination`` codes read: ``Termination`` members in order.
TERMINATIONS: tuple[Termination, ...] = tuple(Termination)


def _ints() -> array:
    return array("q")


def _shorts() -> array:
    return array("h")


def _events() -> array:
    return array(TYPECODE)


def _bytes() -> array:
    return array("b")


@dataclass(slots=True)
class GameRecords:
    """The raw records of a batch of games, in the order they were added."""

    events: array = field(default_factory=_events)
    turns: array = field(default_factory=_shorts)
    event_counts: array = field(default_factory=_ints)
    turn_counts: array = field(default_factory=_ints)
    game: array = field(default_factory=_ints)
    seed: list[int] = field(default_factory=list)
    mode: list[str] = field(default_factory=list)
    format: list[str] = field(default_factory=list)
    deck_a: list[tuple[str, ...]] = field(default_factory=list)
    deck_b: list[tuple[str, ...]] = field(default_factory=list)
    policy_a: list[str] = field(default_factory=list)
    policy_b: list[str] = field(default_factory=list)
    first_player: array = field(default_factory=_bytes)
    winner: array = field(default_factory=_bytes)
    termination: array = field(default_factory=_bytes)  # index in TERMINATIONS, -1 while running
    turns_played: array = field(default_factory=_ints)
    rules_version: array = field(default_factory=_ints)
    rules: list[str] = field(default_factory=list)
    level: array = field(default_factory=_bytes)
    #: Which engine played each game (``reference`` or ``fast``).
    engine: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.game)

    def add(
        self,
        state,
        *,
        game: int | None = None,
        seed: int = 0,
        format: str = "custom",
        deck_a: Sequence[str] = (),
        deck_b: Sequence[str] = (),
        policy_a: str = "",
        policy_b: str = "",
        level: int | None = None,
        engine: str = "reference",
    ) -> None:
        """Record one game from its state (finished or not); ``game`` defaults to the next number.

        Its events are recorded if the state kept a log, its turns if it kept
        a turn log.
        """
        n_events = n_turns = 0
        if state.log is not None:
            buffer = state.log.buffer
            n_events = len(buffer) // WIDTH
            self.events.extend(buffer)
        if state.turn_log is not None:
            n_turns = len(state.turn_log) // TURN_WIDTH
            self.turns.extend(state.turn_log)
        self.event_counts.append(n_events)
        self.turn_counts.append(n_turns)
        self.game.append(len(self.game) if game is None else game)
        self.seed.append(seed)
        self.mode.append("solo" if state.solo else "duel")
        self.format.append(format)
        self.deck_a.append(tuple(deck_a))
        self.deck_b.append(tuple(deck_b))
        self.policy_a.append(policy_a)
        self.policy_b.append(policy_b)
        self.first_player.append(state.first_player)
        self.winner.append(-1 if state.winner is None else state.winner)
        self.termination.append(-1 if state.termination is None else TERMINATIONS.index(state.termination))
        self.turns_played.append(state.turn)
        self.rules_version.append(RULES_VERSION)
        self.rules.append(state.rules.changes())
        self.level.append(-1 if level is None else level)
        self.engine.append(engine)

    def extend(self, other: GameRecords) -> None:
        """Append another batch's games after this one's (their game numbers are kept)."""
        for name in self.__slots__:
            getattr(self, name).extend(getattr(other, name))


__all__ = ["TERMINATIONS", "GameRecords"]
