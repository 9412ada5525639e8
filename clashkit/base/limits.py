"""The range of every quantity clashkit accepts, decided once.

Each quantity that enters from outside — a card file, a scenario, a deck, a
rules option, a command-line number — has one entry in :data:`LIMITS`: its
lowest and highest value and the rule or the frame column that sets them.
Loaders refuse a value outside its range up front, with one line naming the
place (:func:`check`); the trace frames' columns are wide enough for every
game the loaders let through, so no frame is ever refused after the games
are played.

How the ranges fit the frames (``clashkit/runs/trace.py``):

- a player owns at most ``cards_owned`` cards in a game (a duel hand has 8,
  the solo AI 24), so a hand holds at most 51 cards with its keep, a lane at
  most 50 creatures and the solo AI gains at most 10 + 2 × 50 mana (R8.2):
  ``position``, ``mana_left`` and the hand-healths fit ``Int8``;
- ``turn_limit`` and a scenario's ``turn`` stay below 2¹⁶ (``UInt16``);
- a turn's counts (:data:`TURN_COUNTS`): mana, hand sizes and creatures
  fit ``Int8`` (the solo AI gains at most 10 + 2 × 50 = 110 mana); the
  cards played, the keep damage and the creatures destroyed in a turn keep
  ``Int16``;
- an attack's damage can grow without bound within a turn (a cost-0
  ``empower`` played again and again, R5.3), so ``amount`` is ``Int32`` and
  the event buffer is 32-bit; ``step`` is ``UInt32``;
- ``games`` fits the ``game`` column (``UInt32``), a seed the ``seed``
  column (``UInt64``).
"""

from __future__ import annotations

import math
import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .errors import ClashkitError, InputError


@dataclass(frozen=True, slots=True)
class Limit:
    """The legal range ``low … high`` of one quantity and what sets it."""

    low: int
    high: int
    why: str


LIMITS: dict[str, Limit] = {
    # Card values (R1.3, R5.5, R9.3): two digits, as a card prints them.
    "cost": Limit(0, 99, "R1.3: a card's cost"),
    "attack": Limit(0, 99, "R1.3: a creature's attack"),
    "health": Limit(1, 99, "R1.3: a creature's health"),
    "amount": Limit(0, 99, "R5.5: an incantation's amount"),
    "deck": Limit(1, 99, "R7.1: a starter deck number"),
    "cards": Limit(1, 10_000, "R9.3: cards in one card file"),
    # One game (R2.1, R8.1): what a player owns bounds hand, lanes and mana (Int8 columns).
    "cards_owned": Limit(1, 50, "R2.1, R8.1: cards one player owns in a game"),
    "mana": Limit(0, 99, "R3.1: mana left in a turn"),
    "turn": Limit(1, 10_000, "R10.1: a turn number"),
    "turn_limit": Limit(1, 10_000, "R10.1: the turn limit"),
    "first_turn_mana": Limit(0, 12, "R2.3, R10.3: the first player's first-turn mana in a duel"),
    "index": Limit(0, 50, "R1.4: a place in a hand"),
    "siege": Limit(0, 1_000, "R3.9: a turn of the siege order"),
    # Runs (R10.2).
    "seed": Limit(0, 2**64 - 1, "R10.2: a seed (the games frame's UInt64 column)"),
    "games": Limit(0, 2**32 - 1, "R10.2: games in one run (the games frame's UInt32 column)"),
    "jobs": Limit(0, 1_000_000, "worker processes, 0 for one per core; capped at the cores"),
    "workers": Limit(1, 512, "--cluster local:N: worker processes started on this machine"),
    "level": Limit(0, 5, "R8.9: a solo level"),
    "bootstrap": Limit(0, 1_000_000, "bootstrap resamples of a rating"),
    # A sweep's values (``--set attack=1..9``): two digits; each field's own range is then
    # checked on the card it makes (a health of 0 is refused there, with R1.3).
    "sweep": Limit(-99, 99, "R1.3: a card's values have at most two digits"),
    "changes": Limit(0, 1_000, "tune: card changes proposed"),
    "step": Limit(1, 99, "tune: the size of a change (R1.3: a card's values have two digits)"),
    "beam": Limit(1, 1_000, "tune: the sets of changes a round goes on from"),
    "evaluations": Limit(1, 10_000_000, "tune, meta: candidates a search tries"),
    "top": Limit(2, 200, "meta: the best decks found that the field and the equilibrium hold"),
    # Policy options (``search:budget=N,horizon=H``): a decision's work stays bounded.
    "budget": Limit(1, 100_000, "search: rollouts per decision"),
    "candidates": Limit(1, 100_000, "expert: candidates tried per decision"),
    "determinizations": Limit(1, 1_000, "deep: guesses at the hidden cards per decision"),
    "horizon": Limit(1, 10_000, "search: turns a rollout looks ahead (at most a turn limit, R10.1)"),
    "rounds": Limit(1, 100, "expert-train: rounds of self-play and fitting"),
    "sets": Limit(0, 100_000, "expert-train: generator seeds of the card sets fitted on"),
}

#: Fractions, with the same meaning as :data:`LIMITS` (a finite number ``low … high``).
FRACTIONS: dict[str, tuple[float, float, str]] = {
    "noise": (0.0, 1.0, "search: the chance that a rollout player plays at random"),
    "pairing_weight": (0.0, 1.0, "tune: how much an ordered pairing's distance from 50% counts beside a deck's"),
    "first_weight": (0.0, 1.0, "tune: how much the first player's distance from 50% counts beside a deck's"),
    "budget_seconds": (0.001, 604_800.0, "tune, meta: seconds a search may take, at most a week"),
}

#: The longest card name (it is printed on the card, in every action and every event).
MAX_NAME = 40
#: The longest path component and path the run folder, card, deck and scenario files may have
#: (Linux's ``NAME_MAX`` and ``PATH_MAX``; longer ones cannot be opened).
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4095

#: A player's cards in a game: what bounds hands, lanes and the solo AI's mana.
_OWNED = LIMITS["cards_owned"].high

#: The range of each count of a turns-frame row in any game the loaders accept; the frame's
#: columns are the narrowest integer type that holds it (``clashkit/runs/trace.py``), and a value
#: outside it is refused, never wrapped.
TURN_COUNTS: dict[str, Limit] = {
    "mana_gained": Limit(
        0,
        10 + 2 * _OWNED,
        "R3.1, R8.2: a hand of the cards owned and the keep, or the AI's 10 fixed and 2 a player creature",
    ),
    "mana_spent": Limit(0, 10 + 2 * _OWNED, "R3.3: at most the mana gained"),
    "cards_played": Limit(0, 2**15 - 1, "R5.3: an incantation can be played again and again (16 bits)"),
    "hand_size_start": Limit(0, _OWNED + 1, "R3.1, R8.1: the cards owned and the keep"),
    "hand_health_start": Limit(0, _OWNED, "R1.5, R8.6: the cards owned right of the keep"),
    "hand_size_end": Limit(0, _OWNED + 1, "R3.1, R8.1: the cards owned and the keep"),
    "hand_health_end": Limit(0, _OWNED, "R1.5, R8.6: the cards owned right of the keep"),
    "creatures_a": Limit(0, _OWNED, "R3.5: creatures of one side, each a card its player owns"),
    "creatures_b": Limit(0, _OWNED, "R3.5: creatures of one side, each a card its player owns"),
    "keep_damage": Limit(
        0,
        _OWNED * (_OWNED + 1),
        "R4.7, R6.6, R8.6: each creature hits a keep at most once a siege, by at most the hand's length",
    ),
    "creatures_destroyed": Limit(
        0, 2**15 - 1, "R4.4, R5.5: a destroyed creature returns to hand and can come back (16 bits)"
    ),
}

#: The largest card, deck or scenario file read (a bigger one is refused unread).
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The longest number or text echoed back in an error message.
_SHOWN = 40


def shown(value: object) -> str:
    """``repr(value)``, cut short so that an error line stays one readable line."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    text = repr(value)
    return text if len(text) <= _SHOWN else f"{text[: _SHOWN - 10]}…({len(text)} characters)"


def check(name: str, value: object, where: str, error: type[InputError] = InputError) -> int:
    """``value`` as an ``int`` within ``LIMITS[name]``, or ``error`` naming ``where`` and the rule."""
    limit = LIMITS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        if hasattr(value, "__index__") and not isinstance(value, bool):
            index: int = value.__index__()  # __index__ returns an int (hasattr() types it Any)
            value = index
        else:
            raise error(f"{where}: must be a whole number {limit.low}…{limit.high}, not {shown(value)}")
    if not limit.low <= value <= limit.high:
        raise error(f"{where}: must be a whole number {limit.low}…{limit.high} ({limit.why}), not {shown(value)}")
    return value


def whole_number(text: object, name: str, where: str, error: type[InputError] = InputError) -> int:
    """``text`` (a command-line or option word) as a whole number within ``LIMITS[name]``.

    Only ASCII digits with an optional sign are numbers (``int()`` also reads ``"١"``, other
    scripts' digits and ``"1_000"``); a word longer than the range's largest value is refused
    unconverted, so no number of any length costs more than its text.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return check(name, text, where, error)
    limit = LIMITS[name]
    word = str(text).strip()
    digits = word[1:] if word[:1] in "+-" else word
    if not (digits.isascii() and digits.isdigit()):
        raise error(f"{where}: {shown(word)} is not a whole number {limit.low}…{limit.high} (digits 0-9)")
    if len(digits.lstrip("0")) > len(str(max(abs(limit.low), abs(limit.high)))):
        raise error(f"{where}: must be a whole number {limit.low}…{limit.high} ({limit.why}), not {shown(word)}")
    return check(name, int(word), where, error)


def fraction(value: object, name: str, where: str, error: type[InputError] = InputError) -> float:
    """``value`` (a number, or a word of ASCII digits with one ``.``) as a finite number within
    ``FRACTIONS[name]``."""
    low, high, why = FRACTIONS[name]
    wanted = f"{where}: must be a number {low:g}…{high:g} ({why}), not {shown(value)}"
    if isinstance(value, bool):
        raise error(wanted)
    if isinstance(value, int | float):
        number = float(value)
    else:
        word = str(value).strip()
        whole, dot, part = word.partition(".")
        if not (word.isascii() and len(word) <= 20 and (whole or part) and (whole + part).isdigit()):
            raise error(wanted)
        number = float(word)
    if not (math.isfinite(number) and low <= number <= high):
        raise error(wanted)
    return number


#: Unicode categories a name may not hold: controls, format characters (zero-width joiners,
#: right-to-left overrides), surrogates, private-use and unassigned code points, line and
#: paragraph separators (a space is refused where names are written, ``clashkit.base.cards``).
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def card_name(text: object, where: str = "name", error: type[InputError] = InputError) -> str:
    """A card name as it enters (a card file, a scenario, a deck list on the command line):
    NFC-normalised and upper-cased (``ogre`` is OGRE wherever it is written), at most
    :data:`MAX_NAME` characters, each printable (no control, format or space character), and not
    starting with a combining mark (one alone prints as nothing, or on the text before it), so two
    different names never look alike."""
    name = unicodedata.normalize("NFC", str(text).strip().upper())
    if len(name) > MAX_NAME:
        raise error(f"{where}: {shown(name)} is longer than the {MAX_NAME} characters a card name may have")
    odd = [c for c in name if unicodedata.category(c) in _NOT_IN_NAMES]
    if odd:
        codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(odd))
        raise error(f"{where}: {shown(name)} holds {codes}: a card name holds printable characters only")
    if name and unicodedata.category(name[0]).startswith("M"):
        raise error(
            f"{where}: {shown(name)} starts with U+{ord(name[0]):04X}, a combining mark: "
            "a card name starts with a letter, digit or sign of its own"
        )
    return name


def check_path(path: str | os.PathLike, where: str, error: type[ClashkitError] = InputError) -> Path:
    """``path`` if the system can name it: no component over :data:`MAX_NAME_BYTES` bytes, the
    whole at most :data:`MAX_PATH_BYTES`, no NUL (else ``open`` fails with a traceback)."""
    text = os.fsencode(path)
    if len(where) > 100:  # the place, named in one readable line
        where = f"{where[:48]}…{where[-48:]}"
    if b"\0" in text:
        raise error(f"{where}: a path may not hold a NUL character")
    if len(text) > MAX_PATH_BYTES:
        raise error(f"{where}: a path of {len(text):,} bytes, more than the {MAX_PATH_BYTES:,} the system allows")
    for part in text.split(b"/"):
        if len(part) > MAX_NAME_BYTES:
            raise error(
                f"{where}: {shown(os.fsdecode(part))} is {len(part)} bytes, more than the "
                f"{MAX_NAME_BYTES} a file name may have"
            )
    return Path(path)


def read_text(path: str | os.PathLike, error: type[InputError], where: str | None = None) -> str:
    """A card, deck or scenario file's text: a regular file of at most :data:`MAX_FILE_BYTES`,
    UTF-8 with or without a byte-order mark (spreadsheets write one)."""
    where = where or str(path)
    path = check_path(path, where, error)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise error(f"{where}: {kind} (give a text file)")
        if info.st_size > MAX_FILE_BYTES:
            raise error(f"{where}: {info.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} a file may hold")
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise error(f"{where}: cannot read ({e.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{where}: more than the {MAX_FILE_BYTES:,} bytes a file may hold")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{where}: not UTF-8 text") from None


__all__ = [
    "FRACTIONS",
    "LIMITS",
    "MAX_FILE_BYTES",
    "MAX_NAME",
    "TURN_COUNTS",
    "Limit",
    "card_name",
    "check",
    "check_path",
    "fraction",
    "read_text",
    "shown",
    "whole_number",
]
