"""Actions: typed values with a text form that parses back (R3.3, R3.9, R3.11, R5.1).

=====================  ==========================================================
``play OGRE@2 upper``  play the creature at hand index 2 into the upper lane (R3.5)
``play ZAP@0 B.upper.0`` play the incantation at index 0 on B's upper lane, position 0 (R5.1)
``siege``              end the summon phase and begin the siege (R1.6)
``attack``             the next creature in the siege order takes its turn (R3.9)
``end``                end the turn once every creature has had its turn (R3.12)
=====================  ==========================================================

The ``@index`` (0-based, the keep included) may be left out when parsing
against a state: the leftmost playable copy is meant.  Action values are
cached, so producing the legal actions allocates almost nothing.

>>> str(Play("OGRE", 2, lane=0))
'play OGRE@2 upper'
>>> parse_action("play ZAP@0 B.upper.0")
Play(card='ZAP', index=0, lane=None, target=(1, 0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base.errors import IllegalActionError, InputError
from ..base.vocab import LANES, PLAYERS, Lane, Player


@dataclass(frozen=True, slots=True)
class Play:
    """Play the card at ``index`` of the hand: a creature into ``lane``, an incantation on ``target``.

    ``target`` is ``(player, lane, position)`` of a creature in play.
    """

    card: str
    index: int
    lane: int | None = None
    target: tuple[int, int, int] | None = None

    def __str__(self) -> str:
        if self.target is not None:
            return f"play {self.card}@{self.index} {format_place(*self.target)}"
        where = f" {LANES[self.lane]}" if self.lane is not None else ""
        return f"play {self.card}@{self.index}{where}"


@dataclass(frozen=True, slots=True)
class Proceed:
    """Move the turn on: ``siege`` (begin it), ``attack`` (next in order), ``end`` (the turn)."""

    step: str

    def __str__(self) -> str:
        return self.step


BEGIN_SIEGE = Proceed("siege")
ATTACK = Proceed("attack")
END_TURN = Proceed("end")
PROCEED = {p.step: p for p in (BEGIN_SIEGE, ATTACK, END_TURN)}

Action = Play | Proceed

_cache: dict[tuple, Play] = {}


def play(card: str, index: int, lane: int | None = None, target: tuple[int, int, int] | None = None) -> Play:
    """A cached :class:`Play` (equal to a fresh one)."""
    key = (card, index, lane, target)
    action = _cache.get(key)
    if action is None:
        if len(_cache) > 100_000:
            _cache.clear()
        action = _cache[key] = Play(card, index, lane, target)
    return action


def format_place(player: int, lane: int, position: int) -> str:
    """``B.upper.0``: a creature's place, as scenarios and actions write it."""
    return f"{PLAYERS[player]}.{LANES[lane]}.{position}"


def parse_place(text: str) -> tuple[int, int, int]:
    """``B.upper.0`` → ``(1, 0, 0)``; raises :class:`InputError` if malformed."""
    parts = text.split(".")
    try:
        if len(parts) != 3:
            raise ValueError
        if not (parts[2].isascii() and parts[2].isdigit() and len(parts[2]) <= 6):  # not int("١")
            raise ValueError
        player, lane, position = Player(parts[0].upper()), Lane(parts[1].lower()), int(parts[2])
    except ValueError:
        raise InputError(f"{text!r} is not a place like 'B.upper.0' (PLAYER.LANE.POSITION)") from None
    return player.index, lane.index, position


def parse_action(text: str, state=None) -> Action:
    """Read an action's text form; with ``state``, ``@index`` may be left out."""
    words = text.split()
    if not words:
        raise InputError("empty action")
    if len(words) == 1 and words[0].lower() in PROCEED:
        return PROCEED[words[0].lower()]
    if words[0].lower() != "play" or len(words) not in (2, 3):
        raise InputError(f"{text!r} is not an action (play CARD[@INDEX] [LANE|PLAYER.LANE.POS], siege, attack, end)")
    name, at, index_text = words[1].rpartition("@") if "@" in words[1] else (words[1], "", "")
    name = name.upper()
    if at:
        if not (index_text.isascii() and index_text.isdigit() and len(index_text) <= 6):  # not int("١")
            raise InputError(f"{words[1]!r}: the index after @ must be a number (digits 0-9)")
        index = int(index_text)
    elif state is None:
        raise InputError(f"{text!r}: name the hand index (play {name}@INDEX …) or give a state")
    else:
        index = leftmost_playable(state, name)
    lane = target = None
    if len(words) == 3:
        where = words[2]
        if "." in where:
            target = parse_place(where)
        else:
            try:
                lane = Lane(where.lower()).index
            except ValueError:
                raise InputError(f"{where!r} is not a lane (upper, lower) nor a place (B.upper.0)") from None
    return play(name, index, lane, target)


def leftmost_playable(state, name: str) -> int:
    """``docs/scenarios.md`` (actions): the hand index of the leftmost playable copy of ``name``."""
    from .hand import playable_indices

    if name not in state.cards:
        raise InputError(f"unknown card {name!r}")
    card = state.cards.id(name)
    hand = state.hands[state.active]
    for index in playable_indices(hand):
        if hand[index] == card:
            return index
    if card in hand:
        raise IllegalActionError("R3.2", f"{name} is not among the 4 leftmost cards besides the keep")
    raise IllegalActionError("R3.2", f"{name} is not in {PLAYERS[state.active]}'s hand")
