"""Events: one row per atomic step, emitted by the rules as they apply.

The engine never builds a Python object per event.  An :class:`EventLog`
appends each step as 15 integers to one flat ``array('i')`` (32-bit: an
attack's damage has no upper bound, R5.3, R5.5; see ``clashkit.base.limits``); the trace
module turns that buffer into a polars frame column by column.  A state whose
``log`` is ``None`` records nothing, and the rules skip the call entirely.
"""

from __future__ import annotations

import struct
from array import array
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from ..base.vocab import LANES, PLAYERS, Keep, Phase, hand_health_of, pile_health_of

PHASES: tuple[Phase, ...] = tuple(Phase)


class EventKind(StrEnum):
    """What happened in one step; the values are the ``kind`` categories of the events frame."""

    TURN_STARTED = "turn_started"  # R1.6
    MANA_GAINED = "mana_gained"  # R3.1, R8.2 (amount = mana)
    CARD_PLAYED = "card_played"  # R3.3 (position = index in hand)
    CREATURE_ENTERED = "creature_entered"  # R3.5, R8.3
    INCANTATION_RESOLVED = "incantation_resolved"  # R5.2, R8.4
    SIEGE_STARTED = "siege_started"  # R3.9
    ATTACK_SKIPPED = "attack_skipped"  # R3.10: its turn came and it could not attack
    CREATURE_MOVED = "creature_moved"  # R6.7 Sprint, R5.5 shift (position = new place)
    ATTACK = "attack"  # R4.1 (target_card -1 = the keep; amount = damage)
    DAMAGE = "damage"  # R4.3, R5.5 (target = the creature hit)
    PROTECTION_USED = "protection_used"  # R6.4
    CREATURE_DESTROYED = "creature_destroyed"  # R4.3
    CARD_RETURNED = "card_returned"  # R4.4, R5.2 (position = index in hand)
    CARD_DISCARDED = "card_discarded"  # R8.5: to the AI discard
    KEEP_MOVED = "keep_moved"  # R4.7 (amount = places moved)
    KEEP_FLIPPED = "keep_flipped"  # R4.8, R8.7
    AI_REVEAL = "ai_reveal"  # R8.3 (amount = revealed total so far)
    AI_MILL = "ai_mill"  # R8.6 (target_card = the milled card)
    AI_RESHUFFLE = "ai_reshuffle"  # R8.7 (amount = new pile size)
    AI_LAST_TURN = "ai_last_turn"  # R8.7 (amount 1 = pending, 2 = under way)
    REGENERATION = "regeneration"  # R3.12
    GAME_WON = "game_won"  # R4.9, R8.7, R8.8 (target_player = winner)
    GAME_UNFINISHED = "game_unfinished"  # R10.1
    NO_EFFECT = "no_effect"  # R5.4, R5.5, R8.4: an incantation that changes nothing (amount = a NoEffect)


EVENT_KINDS: tuple[EventKind, ...] = tuple(EventKind)
(
    TURN_STARTED,
    MANA_GAINED,
    CARD_PLAYED,
    CREATURE_ENTERED,
    INCANTATION_RESOLVED,
    SIEGE_STARTED,
    ATTACK_SKIPPED,
    CREATURE_MOVED,
    ATTACK,
    DAMAGE,
    PROTECTION_USED,
    CREATURE_DESTROYED,
    CARD_RETURNED,
    CARD_DISCARDED,
    KEEP_MOVED,
    KEEP_FLIPPED,
    AI_REVEAL,
    AI_MILL,
    AI_RESHUFFLE,
    AI_LAST_TURN,
    REGENERATION,
    GAME_WON,
    GAME_UNFINISHED,
    NO_EFFECT,
) = range(len(EVENT_KINDS))


class NoEffect(IntEnum):
    """Why an incantation changed nothing: the ``amount`` of a ``no_effect`` event (``docs/rules.md`` R5.4)."""

    INDESTRUCTIBLE = 0  # R5.4, R6.5: incantations neither affect nor damage it
    AMOUNT_ZERO = 1  # R5.5: damage 0, weaken 0, empower 0
    NOTHING_TO_HEAL = 2  # R5.5 heal: it has no damage
    HAS_IT_ALREADY = 3  # R5.5 grant: printed, given to every AI creature (R8.9) or granted before this turn ends
    NO_TARGET = 4  # R8.4: the solo AI's reveal finds no creature to aim at in its lane


#: The integer columns of one event, in buffer order.  ``-1`` means "none".
FIELDS = (
    "kind",
    "turn",
    "player",
    "phase",
    "card",
    "lane",
    "position",
    "target_player",
    "target_card",
    "amount",
    "mana_left",
    "hand_health_a",
    "hand_health_b",
    "keep_a",
    "keep_b",
)
WIDTH = len(FIELDS)
#: The fields every row carries: when, who, and the table after the step.
COMMON_FIELDS = ("kind", "turn", "player", "phase", "mana_left", "hand_health_a", "hand_health_b", "keep_a", "keep_b")


@dataclass(frozen=True, slots=True)
class KindFields:
    """What one kind of event says: the rule it applies and the fields it sets beyond
    :data:`COMMON_FIELDS` (the others are ``-1``, or ``0`` for ``amount``)."""

    rule: str
    fields: tuple[str, ...] = ()
    #: ``target_card = -1`` means the keep (R4.2), named ``BASTION`` or ``FORT`` as it was.
    keep_target: bool = False


_CARD_AT = ("card", "lane", "position", "target_player")
_HIT = (*_CARD_AT, "target_card", "amount")

#: The field table: every kind of event, its rule and its fields (the events frame of :mod:`clashkit.runs.trace`).
EVENT_FIELDS: dict[EventKind, KindFields] = {
    EventKind.TURN_STARTED: KindFields("R1.6"),
    EventKind.MANA_GAINED: KindFields("R3.1", ("amount",)),
    EventKind.CARD_PLAYED: KindFields("R3.3", (*_CARD_AT, "target_card")),
    EventKind.CREATURE_ENTERED: KindFields("R3.5", _CARD_AT),
    EventKind.INCANTATION_RESOLVED: KindFields("R5.2", _HIT),
    EventKind.SIEGE_STARTED: KindFields("R3.9"),
    EventKind.ATTACK_SKIPPED: KindFields("R3.10", _CARD_AT),
    EventKind.CREATURE_MOVED: KindFields("R6.7", (*_CARD_AT, "amount")),
    EventKind.ATTACK: KindFields("R4.1", _HIT, keep_target=True),
    EventKind.DAMAGE: KindFields("R4.3", _HIT),
    EventKind.PROTECTION_USED: KindFields("R6.4", _HIT),
    EventKind.CREATURE_DESTROYED: KindFields("R4.3", ("lane", "position", "target_player", "target_card")),
    EventKind.CARD_RETURNED: KindFields("R4.4", ("position", "target_player", "target_card")),
    EventKind.CARD_DISCARDED: KindFields("R8.5", ("target_player", "target_card", "amount")),
    EventKind.KEEP_MOVED: KindFields("R4.7", ("position", "target_player", "amount")),
    EventKind.KEEP_FLIPPED: KindFields("R4.8", ("target_player",)),
    EventKind.AI_REVEAL: KindFields("R8.3", ("card", "lane", "target_player", "amount")),
    EventKind.AI_MILL: KindFields("R8.6", ("target_player", "target_card", "amount")),
    EventKind.AI_RESHUFFLE: KindFields("R8.7", ("target_player", "amount")),
    EventKind.AI_LAST_TURN: KindFields("R8.7", ("target_player", "amount")),
    EventKind.REGENERATION: KindFields("R3.12"),
    EventKind.GAME_WON: KindFields("R4.9", ("target_player",)),
    EventKind.GAME_UNFINISHED: KindFields("R10.1"),
    EventKind.NO_EFFECT: KindFields("R5.4", _HIT),
}


def decode(row: tuple[int, ...], names: tuple[str, ...] | list[str]) -> dict:
    """One event row (:data:`FIELDS` codes) in words: the one decoder of a row, read by the
    JSON output, the log sentences and the notebooks' event tables.  ``names``: the card names."""
    values = dict(zip(FIELDS, row, strict=True))
    kind = EVENT_KINDS[values["kind"]]
    target_card = values["target_card"]
    if target_card < 0 and EVENT_FIELDS[kind].keep_target:
        fort = values["keep_b" if values["target_player"] == 1 else "keep_a"]
        target: str | None = Keep.FORT.name if fort else Keep.BASTION.name
    else:
        target = names[target_card] if target_card >= 0 else None
    return {
        "turn": values["turn"],
        "player": PLAYERS[values["player"]].value,
        "phase": PHASES[values["phase"]].value,
        "kind": kind.value,
        "card": names[values["card"]] if values["card"] >= 0 else None,
        "lane": LANES[values["lane"]].value if values["lane"] >= 0 else None,
        "position": values["position"] if values["position"] >= 0 else None,
        "target_player": PLAYERS[values["target_player"]].value if values["target_player"] >= 0 else None,
        "target_card": target,
        "amount": values["amount"],
        "mana_left": values["mana_left"],
        "hand_health_a": values["hand_health_a"],
        "hand_health_b": values["hand_health_b"],
        "keep_a": (Keep.FORT if values["keep_a"] else Keep.BASTION).value,
        "keep_b": (Keep.FORT if values["keep_b"] else Keep.BASTION).value,
    }


#: The buffer's item type: native 32-bit integers (``numpy.int32``).
TYPECODE = "i"
#: One event row as native int32 bytes: appending them with ``array.frombytes``
#: costs a third of ``array.extend`` on a tuple.
_pack_row = struct.Struct(f"{WIDTH}{TYPECODE}").pack


class EventLog:
    """The events of one game, as a flat ``array('i')`` of :data:`FIELDS`-wide rows."""

    __slots__ = ("buffer",)

    def __init__(self) -> None:
        self.buffer = array(TYPECODE)

    def __len__(self) -> int:
        return len(self.buffer) // WIDTH

    def copy(self) -> EventLog:
        other = EventLog()
        other.buffer = array(TYPECODE, self.buffer)
        return other

    def rows(self, start: int = 0) -> list[tuple[int, ...]]:
        """The events from ``start`` on as tuples of :data:`FIELDS` (for small logs and tests)."""
        b = self.buffer
        return [tuple(b[i : i + WIDTH]) for i in range(start * WIDTH, len(b), WIDTH)]


def record(
    state,
    kind: int,
    card: int = -1,
    lane: int = -1,
    position: int = -1,
    target_player: int = -1,
    target_card: int = -1,
    amount: int = 0,
) -> None:
    """Append one event to ``state.log`` (callers check ``state.log is not None`` first)."""
    health_b = pile_health_of(state.pile) if state.solo else hand_health_of(state.hands[1])
    forts = state.forts
    state.log.buffer.frombytes(
        _pack_row(
            kind,
            state.turn,
            state.active,
            state.phase,
            card,
            lane,
            position,
            target_player,
            target_card,
            amount,
            state.mana,
            hand_health_of(state.hands[0]),
            health_b,
            forts[0],
            forts[1],
        )
    )
