"""The game state: hands with the keep, lanes, mana, the siege's progress, the AI pile.

The state is a handful of lists of small integers and one small record per
creature in play, so that the rules (plain functions in the rule modules) stay
fast and could be mirrored in arrays.  It is mutable; :meth:`GameState.clone`
copies it for look-ahead and for stepping back.

Hands are lists of card ids, left to right, with :data:`~clashkit.base.vocab.KEEP`
(``-1``) for the keep (R1.4).  ``lanes[player][lane]`` lists the creatures of
one side of one lane from the bridge outward (R1.2).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable
from typing import Any, ClassVar

from ..base.cards import CardSet
from ..base.layout import FLAGS, MARKS, RESET, Mark
from ..base.rng import Rng
from ..base.rules import Rules
from ..base.vocab import ABILITY_BITS, KEEP, PLAYERS, Ability, Keep, Mode, Termination, hand_health_of, pile_health_of
from .events import PHASES, EventLog

#: Phase codes, in ``Phase`` order (``PHASES``).
SETUP, MANA, SUMMON, SIEGE, END, OVER = range(len(PHASES))
#: R8.7: the AI's last turn.
NO_LAST_TURN, LAST_TURN_PENDING, LAST_TURN_UNDER_WAY = 0, 1, 2
#: How scenarios and ``siege --json`` write those states, by code.
LAST_TURN_WORDS = ("none", "pending", "under_way")


class TurnCounters:
    """What the turns frame counts of the turn under way (reset when a turn starts)."""

    __slots__ = ("cards_played", "keep_damage", "creatures_destroyed", "hand_size_start", "hand_health_start")

    def __init__(self, hand_size_start: int = 0, hand_health_start: int = 0) -> None:
        self.cards_played = 0  # R3.3: cards the active player played
        self.keep_damage = 0  # R4.7, R8.6: places the opposing keep moved, cards milled from the AI pile
        self.creatures_destroyed = 0  # R4.3: creatures destroyed, either side's
        self.hand_size_start = hand_size_start  # R3.1: the active player's hand, the keep included
        self.hand_health_start = hand_health_start  # R1.5

    def copy(self) -> TurnCounters:
        other = TurnCounters(self.hand_size_start, self.hand_health_start)
        other.cards_played = self.cards_played
        other.keep_damage = self.keep_damage
        other.creatures_destroyed = self.creatures_destroyed
        return other

    def __repr__(self) -> str:
        return "TurnCounters(" + ", ".join(f"{k}={getattr(self, k)}" for k in self.__slots__) + ")"


def _value(mark: Mark, number: int | None) -> object:
    """A mark's value in the reference engine: a flag a bool, a list a tuple (of creature uids)."""
    if mark.kind == "flag":
        return bool(number)
    if mark.kind == "list":
        return ()
    return number


def _made(name: str, lines: list[str]) -> Callable[..., Any]:
    """A method written out from the declaration, one assignment a line, as :mod:`dataclasses`
    writes a class's ``__init__``: as fast as the same lines typed by hand."""
    namespace: dict[str, Any] = {"_new": object.__new__}
    exec(f"def {name}(self):\n" + "".join(f"    {line}\n" for line in lines), namespace)
    return namespace[name]


#: The card's values the rules read (copied as it enters play), then the marks.
_SLOTS = ("attack", "health", "mask", "aura_mask", "aura_dirs", *(mark.name for mark in MARKS))


class Creature:
    """One creature in play (R3.5, R10.0): its card, a copy of the card's values the rules read
    (attack, health, abilities, Aura) and the marks of ``clashkit.base.layout.MARKS`` (damage, new,
    this turn's modifiers …), whose slots, copy, repr and end-of-turn reset are made from there."""

    __slots__ = _SLOTS
    # The slots' types, for the type checker (tests/test_layout.py holds them to the declaration).
    attack: int
    health: int
    mask: int
    aura_mask: int
    aura_dirs: int
    card: int
    damage: int
    new: bool
    protection_used: bool
    took_turn: bool
    attack_mod: int
    granted: int
    sprint_bonus: int
    uid: int
    slot: int
    aura_lost: tuple[int, ...]

    def __init__(self, cards: CardSet, card: int, *, new: bool = True) -> None:
        self.card = card
        self.attack = cards.attack[card]
        self.health = cards.health[card]
        self.mask = cards.mask[card]
        self.aura_mask = cards.aura_mask[card]
        self.aura_dirs = cards.aura_dirs[card]
        self._start()
        self.new = new
        self.uid = next(_uids)  # which creature this is, while it stays in play (R10.0)

    #: R3.5: the marks a creature entering play starts with (its card, uid and ``new`` are ``__init__``'s).
    _start: ClassVar[Callable[[Creature], None]] = _made(
        "start", [f"self.{m.name} = {_value(m, m.start)!r}" for m in MARKS if m.name not in ("card", "uid")]
    )
    #: Every slot, into a new creature.
    copy: ClassVar[Callable[[Creature], Creature]] = _made(
        "copy", ["other = _new(type(self))", *(f"other.{name} = self.{name}" for name in _SLOTS), "return other"]
    )
    #: R3.12: every mark of ``layout.RESET`` back to its value (damage healed, Protection re-armed,
    #: until-end-of-turn effects over, nothing new).
    end_turn: ClassVar[Callable[[Creature], None]] = _made(
        "end_turn", [f"self.{m.name} = {_value(m, m.reset)!r}" for m in RESET]
    )

    def __repr__(self) -> str:
        marks = [f"damage={self.damage}"] if self.damage else []
        marks += [m for m in FLAGS if getattr(self, m)]
        return f"Creature({self.card}{', ' if marks else ''}{', '.join(marks)})"


_uids = itertools.count()


class GameState:
    """Everything on the table at one moment of a game."""

    __slots__ = (
        "cards",
        "rules",
        "solo",
        "hands",
        "forts",
        "lanes",
        "active",
        "turn",
        "phase",
        "mana",
        "mana_gained",
        "siege_lane",
        "winner",
        "pile",
        "discard",
        "ai_last_turn",
        "ai_bits",
        "rng",
        "log",
        "first_player",
        "dealt",
        "termination",
        "counters",
        "turn_log",
    )

    def __init__(
        self,
        cards: CardSet,
        rules: Rules | None = None,
        *,
        mode: Mode = Mode.DUEL,
        seed: int = 0,
        record: bool = True,
    ) -> None:
        self.cards = cards
        self.rules = rules if rules is not None else Rules()
        self.solo = Mode(mode) is Mode.SOLO
        self.hands: list[list[int]] = [[KEEP], [KEEP]]
        self.forts = [False, False]  # R1.1: which keeps show their Fort side
        self.lanes: list[list[list[Creature]]] = [[[], []], [[], []]]
        self.active = 0
        self.turn = 1
        self.phase = SETUP
        self.mana = 0
        self.mana_gained = 0
        self.siege_lane = 0  # R3.9: the lane the siege is in (2 = both done)
        self.winner: int | None = None
        self.pile: list[int] = []  # R8.1: the AI pile, top first, keep last
        self.discard: list[int] = []  # R8.5
        self.ai_last_turn = NO_LAST_TURN
        ability = self.rules.solo.ai_ability
        self.ai_bits = ABILITY_BITS[Ability(ability)] if (self.solo and ability) else 0
        self.rng = Rng(seed)
        self.log: EventLog | None = EventLog() if record else None
        self.first_player = 0
        #: The deal (R2.2, R8.1), set as the first turn begins: A's hand and B's hand (the solo
        #: AI's pile, top first) as card ids, each keep left out; ``None`` for a position that
        #: was not dealt (a scenario).
        self.dealt: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        #: How the game ended (a :class:`~clashkit.base.vocab.Termination`), once it has.
        self.termination: Termination | None = None
        #: What the turns frame counts of the turn under way.
        self.counters = TurnCounters()
        #: One row per finished turn (see ``clashkit.engine.turn.TURN_FIELDS``), or None.
        self.turn_log: array | None = array("h") if record else None

    # --- Reading the state ---------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def hand_health(self, player: int) -> int:
        """R1.5: cards right of the keep; for the solo AI, cards above its keep (R8.6)."""
        if self.solo and player == 1:
            return pile_health_of(self.pile)
        return hand_health_of(self.hands[player])

    def keep(self, player: int) -> Keep:
        return Keep.FORT if self.forts[player] else Keep.BASTION

    def creatures(self, player: int) -> int:
        """How many creatures ``player`` has in play."""
        lanes = self.lanes[player]
        return len(lanes[0]) + len(lanes[1])

    def in_play(self):
        """Every creature in play as ``(player, lane, position, creature)``."""
        for p in (0, 1):
            for lane in (0, 1):
                for pos, creature in enumerate(self.lanes[p][lane]):
                    yield p, lane, pos, creature

    def clone(self, *, record: bool | None = None) -> GameState:
        """A deep copy; ``record`` (default: as this state) keeps or drops the event log."""
        other = GameState.__new__(GameState)
        other.cards = self.cards
        other.rules = self.rules
        other.solo = self.solo
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.forts = self.forts[:]
        other.lanes = [[[c.copy() for c in side] for side in lanes] for lanes in self.lanes]
        other.active = self.active
        other.turn = self.turn
        other.phase = self.phase
        other.mana = self.mana
        other.mana_gained = self.mana_gained
        other.siege_lane = self.siege_lane
        other.winner = self.winner
        other.pile = self.pile[:]
        other.discard = self.discard[:]
        other.ai_last_turn = self.ai_last_turn
        other.ai_bits = self.ai_bits
        other.rng = self.rng.copy()
        if record is None:
            record = self.log is not None
        other.log = (self.log.copy() if self.log is not None else EventLog()) if record else None
        other.first_player = self.first_player
        other.dealt = self.dealt
        other.termination = self.termination
        other.counters = self.counters.copy()
        other.turn_log = None if self.turn_log is None or not record else array("h", self.turn_log)
        return other

    def __repr__(self) -> str:
        return (
            f"<GameState turn {self.turn} {PLAYERS[self.active]} {PHASES[self.phase]}"
            f" mana {self.mana} hand-health {self.hand_health(0)}/{self.hand_health(1)}>"
        )
