"""Raw records of many games: the engine's buffers, collected as games finish.

:class:`GameRecords` is the cheap half of a trace.  Adding a game copies its
event buffer (``array('i')``) and turn buffer (``array('h')``) onto two
growing arrays and appends a few numbers; nothing is decoded.  What a run's
games share — mode, format, decks, policies, rules, engine — is one
:class:`Setup`, kept once for each stretch of consecutive games that share it
(a batch of the fast engine adds one stretch for all its games), so no game
costs a Python object of its own.  It imports neither numpy nor polars, so
the worker processes of :func:`clashkit.runs.simulate.simulate` stay light, and it
pickles as a handful of byte strings.  :func:`clashkit.runs.trace.build_trace`
makes the three frames of it at once.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..base.rules import RULES_VERSION
from .events import TYPECODE, WIDTH
from .outcome import Termination
from .turn import TURN_WIDTH

#: How ``termination`` codes read: ``Termination`` members in order.
TERMINATIONS: tuple[Termination, ...] = tuple(Termination)


@dataclass(frozen=True, slots=True)
class Setup:
    """What consecutive games of a run share: the games frame's text columns."""

    mode: str
    format: str
    deck_a: tuple[str, ...]
    deck_b: tuple[str, ...]
    policy_a: str
    policy_b: str
    rules: str
    #: Which engine played (``reference`` or ``fast``).
    engine: str


def _ints() -> array:
    return array("q")


def _shorts() -> array:
    return array("h")


def _events() -> array:
    return array(TYPECODE)


def _bytes() -> array:
    return array("b")


def _seeds() -> array:
    return array("Q")


@dataclass(slots=True)
class GameRecords:
    """The raw records of a batch of games, in the order they were added.

    Per game: the arrays from ``event_counts`` to ``dealt_sizes``.  ``setups[i]``
    holds for the next ``setup_runs[i]`` games.
    """

    events: array = field(default_factory=_events)
    turns: array = field(default_factory=_shorts)
    event_counts: array = field(default_factory=_ints)
    turn_counts: array = field(default_factory=_ints)
    game: array = field(default_factory=_ints)
    seed: array = field(default_factory=_seeds)
    first_player: array = field(default_factory=_bytes)
    winner: array = field(default_factory=_bytes)
    termination: array = field(default_factory=_bytes)  # index in TERMINATIONS, -1 while running
    turns_played: array = field(default_factory=_ints)
    rules_version: array = field(default_factory=_ints)
    level: array = field(default_factory=_bytes)
    #: Each game's deal, card ids one after another (``state.dealt``: hand A, then hand B or the
    #: solo AI's pile); ``dealt_sizes`` holds two numbers a game, how many of them are A's and B's.
    dealt: array = field(default_factory=_shorts)
    dealt_sizes: array = field(default_factory=_shorts)
    setups: list[Setup] = field(default_factory=list)
    setup_runs: array = field(default_factory=_ints)

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
        self.first_player.append(state.first_player)
        self.winner.append(-1 if state.winner is None else state.winner)
        self.termination.append(-1 if state.termination is None else TERMINATIONS.index(state.termination))
        self.turns_played.append(state.turn)
        self.rules_version.append(RULES_VERSION)
        self.level.append(-1 if level is None else level)
        self.add_deal(state.dealt)
        mode = "solo" if state.solo else "duel"
        setup = Setup(mode, format, tuple(deck_a), tuple(deck_b), policy_a, policy_b, state.rules.changes(), engine)
        self.add_setup(setup, 1)

    def add_deal(self, dealt: tuple[Sequence[int], Sequence[int]] | None) -> None:
        """One game's deal (R2.2, R8.1): its two card-id sequences, or ``None`` for a game that
        was not dealt (a scenario's position): two sizes of -1, read as nulls."""
        if dealt is None:
            self.dealt_sizes.extend((-1, -1))
            return
        for cards in dealt:
            self.dealt.extend(cards)
            self.dealt_sizes.append(len(cards))

    def add_setup(self, setup: Setup, games: int) -> None:
        """The next ``games`` games (their per-game values added apart) share ``setup``."""
        if self.setups and self.setups[-1] == setup:
            self.setup_runs[-1] += games
        elif games:
            self.setups.append(setup)
            self.setup_runs.append(games)

    def extend(self, other: GameRecords) -> None:
        """Append another batch's games after this one's (their game numbers are kept)."""
        for name in self.__slots__:
            if name not in ("setups", "setup_runs"):
                getattr(self, name).extend(getattr(other, name))
        for setup, games in zip(other.setups, other.setup_runs, strict=True):
            self.add_setup(setup, games)


__all__ = ["TERMINATIONS", "GameRecords", "Setup"]
