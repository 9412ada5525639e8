"""Cards and card sets (R1.3, R5.5, R6, R9; the file format: ``docs/cards.md``).

A :class:`Card` is one row of ``data/cards.csv``.  A :class:`CardSet` numbers
the cards ``0 … n-1`` and keeps their values in flat tuples indexed by that
id, which is all the engine ever looks at: the game state holds card ids, never
card objects.

Loading is strict: a bad row is refused with the file, the row, the column and
the reason, and nothing is half-loaded.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import CardFileError, InputError, UnknownCardError
from .limits import LIMITS, card_name, check_path, read_text, shown
from .shipped import shipped_file
from .suggest import did_you_mean
from .vocab import ABILITY_BITS, DIRECTION_BITS, Ability, Direction, Effect, Kind, TargetSide

COLUMNS = (
    "name",
    "deck",
    "kind",
    "cost",
    "attack",
    "health",
    "abilities",
    "aura",
    "effect",
    "target",
    "notes",
)
#: The largest number a card may carry (cost, attack, health, amount; ``clashkit.base.limits``).
MAX_VALUE = LIMITS["cost"].high
#: Characters a card name may not hold: actions (``play OGRE@2 upper``), deck lists
#: (``A,B``, ``# comment``) and CSV rows could not write it back.
_NAME_FORBIDDEN = frozenset(',#@"=;')
#: Effects that take an amount (``damage 2``) and the one that takes an ability.
_AMOUNT_EFFECTS = {Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER}
KEEP_NAMES = ("BASTION", "FORT")


@dataclass(frozen=True, slots=True)
class Aura:
    """R6.8: the ability an Aura grants and the directions it reaches."""

    ability: Ability
    directions: tuple[Direction, ...]

    def __str__(self) -> str:
        return f"{self.ability}@{'+'.join(self.directions)}"


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set: a creature or an incantation (R1.3)."""

    name: str
    kind: Kind
    cost: int
    attack: int | None = None
    health: int | None = None
    abilities: tuple[Ability, ...] = ()
    aura: Aura | None = None
    effect: Effect | None = None
    amount: int = 0
    grants: Ability | None = None
    target: TargetSide | None = None
    deck: int | None = None
    notes: str = ""

    @property
    def is_creature(self) -> bool:
        return self.kind is Kind.CREATURE

    @property
    def effect_text(self) -> str:
        """The effect as written in the card file (``damage 2``, ``grant rage``)."""
        if self.effect is None:
            return ""
        if self.effect in _AMOUNT_EFFECTS:
            return f"{self.effect} {self.amount}"
        if self.effect is Effect.GRANT:
            return f"{self.effect} {self.grants}"
        return str(self.effect)

    def describe(self) -> str:
        """A one-line text for people: ``OGRE 3 mana 2/4 splash``."""
        if self.is_creature:
            extra = [str(a) for a in self.abilities]
            if self.aura is not None:
                extra.append(f"aura {self.aura}")
            tail = f" {', '.join(extra)}" if extra else ""
            return f"{self.name} {self.cost} mana {self.attack}/{self.health}{tail}"
        return f"{self.name} {self.cost} mana: {self.effect_text} ({self.target})"


class CardSet:
    """Cards numbered ``0 … n-1`` with their values in flat per-id tuples.

    ``cards.id("OGRE")`` gives an id; ``cards[id]`` the :class:`Card`.  The
    tuples (``cost``, ``attack``, ``health``, ``mask`` …) are what the rules
    read in their hot loops.
    """

    #: The card file the set was loaded from (:func:`load_cards`); ``None`` if built in code.
    source: Path | None = None

    def __init__(self, cards: Iterable[Card]) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self.names: tuple[str, ...] = tuple(c.name for c in self.cards)
        self._ids: dict[str, int] = {}
        for i, card in enumerate(self.cards):
            if card.name in self._ids:
                raise CardFileError(f"duplicate card name {card.name!r}")
            if card.name in KEEP_NAMES:
                raise CardFileError(f"{card.name!r} is the keep's name (R1.1), not a card's")
            self._ids[card.name] = i
        cs = self.cards
        self.cost = tuple(c.cost for c in cs)
        self.is_creature = tuple(c.is_creature for c in cs)
        self.attack = tuple(c.attack or 0 for c in cs)
        self.health = tuple(c.health or 0 for c in cs)
        self.mask = tuple(sum(ABILITY_BITS[a] for a in c.abilities) for c in cs)
        self.aura_mask = tuple(ABILITY_BITS[c.aura.ability] if c.aura else 0 for c in cs)
        self.aura_dirs = tuple(sum(DIRECTION_BITS[d] for d in c.aura.directions) if c.aura else 0 for c in cs)
        self.effect = tuple(c.effect for c in cs)
        self.amount = tuple(c.amount for c in cs)
        self.grant_mask = tuple(ABILITY_BITS[c.grants] if c.grants else 0 for c in cs)
        self.target = tuple(c.target for c in cs)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __getitem__(self, card_id: int) -> Card:
        return self.cards[card_id]

    def __contains__(self, name: object) -> bool:
        return name in self._ids

    def __repr__(self) -> str:
        return f"<CardSet of {len(self)} cards>"

    def id(self, name: str) -> int:
        """The id of the card called ``name`` (an :class:`UnknownCardError`, a ``KeyError``, names it if unknown)."""
        try:
            return self._ids[name]
        except KeyError:
            raise UnknownCardError(f"unknown card {name!r}{did_you_mean(str(name), self._ids)}") from None

    def ids(self, names: Iterable[str]) -> list[int]:
        """The ids of the cards called ``names``, in order (a ``KeyError`` names one unknown)."""
        ids = self._ids
        try:
            return [ids[name] for name in names]
        except KeyError as error:
            raise UnknownCardError(f"unknown card {error.args[0]!r}{did_you_mean(str(error.args[0]), ids)}") from None

    def card(self, name: str) -> Card:
        return self.cards[self.id(name)]

    def sorted_names(self, ids: Iterable[int]) -> tuple[str, ...]:
        """The names of these card ids in card-set order, a keep (a negative id) left out:
        how the games frame lists a deck."""
        names = self.names
        return tuple([names[c] for c in sorted(ids) if c >= 0])

    def deck(self, number: int) -> list[str]:
        """The names of starter deck ``number`` (R7.1), in file order."""
        return [c.name for c in self.cards if c.deck == number]

    @property
    def decks(self) -> dict[int, list[str]]:
        """Every starter deck of the set, by number."""
        numbers = sorted({c.deck for c in self.cards if c.deck is not None})
        return {n: self.deck(n) for n in numbers}

    def with_cards(self, extra: Iterable[Card]) -> CardSet:
        """This set with ``extra`` cards added; a card of the same name replaces the old one."""
        extra = list(extra)
        replaced = {c.name for c in extra}
        return CardSet([c for c in self.cards if c.name not in replaced] + extra)

    def digest(self) -> str:
        """Which cards these are, for files fitted on one card set (``data/card-values.csv``): 16 hex
        digits of the sha256 of every card's row of a card file but its notes, in set order.  Two
        sets with the same digest play the same games; an edited number, ability or deck changes it."""
        rows = [[value for column, value in card_row(card).items() if column != "notes"] for card in self.cards]
        return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]

    def to_csv(self, path: str | Path) -> Path:
        """Write the set as a card file (``docs/cards.md``) that :func:`load_cards` reads back."""
        return write_cards_csv(self, path)


# --- Reading a card from text fields -------------------------------------------------


def _int(value: object, column: str, limit: str, typed: bool = False) -> int:
    """A whole number within ``clashkit.base.limits.LIMITS[limit]``, from text (a CSV cell) or, with
    ``typed``, a TOML integer (TOML text such as ``"3"`` is not a number)."""
    if isinstance(value, bool) or (typed and not isinstance(value, int)):
        raise ValueError(f"{column} must be an integer, not {shown(value)}")
    if isinstance(value, int):
        low, high, why = LIMITS[limit].low, LIMITS[limit].high, LIMITS[limit].why
        if value < low:
            raise ValueError(f"{column} must be at least {low}, not {shown(value)}")
        if value > high:
            raise ValueError(f"{column} must be at most {high}, not {shown(value)} ({why})")
        return value
    text = str(value).strip()
    low, high, why = LIMITS[limit].low, LIMITS[limit].high, LIMITS[limit].why
    whole, mark, fraction = text.replace(",", ".").partition(".")
    if mark and _is_digits(whole.removeprefix("-").removeprefix("+")) and _is_digits(fraction):
        if fraction.strip("0"):  # a spreadsheet's 3.5: no card value has a fraction
            raise ValueError(f"{column} must be a whole number, not {shown(text)} ({why})")
        text = whole  # a spreadsheet's 3.0 (or 3,0) is 3
    digits = text.removeprefix("-").removeprefix("+")
    if not isinstance(value, int) and not _is_digits(digits):
        raise ValueError(f"{column} must be an integer, not {shown(text)}")
    number = int(text) if len(digits) <= 6 else (-1 if text.startswith("-") else 1) * 10**6
    given = shown(number) if len(digits) <= 6 else shown(text)
    if number < low:
        raise ValueError(f"{column} must be at least {low}, not {given}")
    if number > high:
        raise ValueError(f"{column} must be at most {high}, not {given} ({why})")
    return number


def _is_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _choice(enum, value: object, column: str):
    text = str(value).strip().lower()
    try:
        return enum(text)
    except ValueError:
        allowed = [e.value for e in enum]
        raise ValueError(
            f"unknown {column} {text!r} (one of {', '.join(allowed)}){did_you_mean(text, allowed)}"
        ) from None


def _split(value: object, sep: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in str(value).split(sep) if part.strip()]


def parse_aura(value: object) -> Aura | None:
    """``protection@front+behind`` (or a ``{ability, directions}`` table) as an :class:`Aura`."""
    if value is None or value == "":
        return None
    if isinstance(value, Mapping):
        unknown = set(value) - {"ability", "directions"}
        if unknown:
            raise ValueError(f"aura has unknown keys {sorted(unknown)} (ability, directions)")
        ability_text, dirs = value.get("ability", ""), _split(value.get("directions"), "+")
    else:
        ability_text, _, dir_text = str(value).partition("@")
        dirs = _split(dir_text, "+")
    ability = _choice(Ability, ability_text, "aura ability")
    if not dirs:
        raise ValueError(f"aura {value!r} names no direction (front, behind, side)")
    directions = tuple(_choice(Direction, d, "aura direction") for d in dirs)
    if len(set(directions)) != len(directions):
        raise ValueError(f"aura {value!r} repeats a direction")
    return Aura(ability, directions)


def parse_effect(text: object) -> tuple[Effect, int, Ability | None]:
    """``damage 2`` → (DAMAGE, 2, None); ``grant rage`` → (GRANT, 0, RAGE) (R5.5)."""
    words = str(text).split()
    if not words:
        raise ValueError("an incantation needs an effect (R5.5)")
    effect = _choice(Effect, words[0], "effect")
    args = words[1:]
    if effect in _AMOUNT_EFFECTS:
        if len(args) != 1:
            raise ValueError(f"effect {effect} needs one amount, as in '{effect} 2'")
        return effect, _int(args[0], f"{effect} amount", "amount"), None
    if effect is Effect.GRANT:
        if len(args) != 1:
            raise ValueError("effect grant needs one ability, as in 'grant rage'")
        return effect, 0, _choice(Ability, args[0], "granted ability")
    if args:
        raise ValueError(f"effect {effect} takes no argument, got {' '.join(args)!r}")
    return effect, 0, None


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == []


def card_from_fields(fields: Mapping[str, object], *, typed: bool = False) -> Card:
    """Build a card from one row's fields; raises ``ValueError("column: reason")``.

    Values are text (a CSV row) or, with ``typed``, TOML values (a number must then be a TOML
    integer, a name a TOML string).
    """

    def fail(column: str, reason: str):
        prefix = f"column {column}: "
        # need() already names the column; a caller re-raising its error must not repeat it.
        return ValueError(reason if reason.startswith(prefix) else prefix + reason)

    def need(column: str):
        value = fields.get(column)
        if _blank(value):
            raise fail(column, "is empty")
        return value

    raw_name = need("name")
    if typed and not isinstance(raw_name, str):
        raise fail("name", f"must be text, not {shown(raw_name)}")
    try:
        name = card_name(raw_name, "name")
    except InputError as e:
        raise fail("name", str(e).removeprefix("name: ")) from None
    odd = sorted({c for c in name if c in _NAME_FORBIDDEN or c.isspace()})
    if odd:
        raise fail(
            "name",
            f"{shown(name)} holds {shown(''.join(odd))}: a name is written in actions and deck lists, "
            'so it may not hold spaces or any of , # @ " = ;',
        )
    if name in KEEP_NAMES:
        raise fail("name", f"{name!r} is the keep (R1.1), not a card")
    try:
        kind = _choice(Kind, need("kind"), "kind")
    except ValueError as e:
        raise fail("kind", str(e)) from None
    deck = None
    if not _blank(fields.get("deck")):
        try:
            deck = _int(fields["deck"], "deck", "deck", typed)
        except ValueError as e:
            raise fail("deck", str(e)) from None
    try:
        cost = _int(need("cost"), "cost", "cost", typed)
    except ValueError as e:
        raise fail("cost", str(e)) from None
    notes = "" if _blank(fields.get("notes")) else str(fields["notes"])
    if kind is Kind.CREATURE:
        for column in ("effect", "target"):
            if not _blank(fields.get(column)):
                raise fail(column, "is for incantations; a creature leaves it empty")
        try:
            attack = _int(need("attack"), "attack", "attack", typed)
        except ValueError as e:
            raise fail("attack", str(e)) from None
        try:
            health = _int(need("health"), "health", "health", typed)
        except ValueError as e:
            raise fail("health", str(e)) from None
        try:
            abilities = tuple(_choice(Ability, a, "ability") for a in _split(fields.get("abilities"), ";"))
        except ValueError as e:
            raise fail("abilities", str(e)) from None
        if len(set(abilities)) != len(abilities):
            raise fail("abilities", "repeats an ability")
        try:
            aura = parse_aura(fields.get("aura"))
        except ValueError as e:
            raise fail("aura", str(e)) from None
        return Card(name, kind, cost, attack, health, abilities, aura, deck=deck, notes=notes)
    for column in ("attack", "health", "abilities", "aura"):
        if not _blank(fields.get(column)):
            raise fail(column, "is for creatures; an incantation leaves it empty")
    try:
        effect, amount, grants = parse_effect(need("effect"))
    except ValueError as e:
        raise fail("effect", str(e)) from None
    try:
        target = _choice(TargetSide, need("target"), "target")
    except ValueError as e:
        raise fail("target", str(e)) from None
    return Card(
        name,
        kind,
        cost,
        effect=effect,
        amount=amount,
        grants=grants,
        target=target,
        deck=deck,
        notes=notes,
    )


# --- Card files ---------------------------------------------------------------------


def read_cards_csv(text: str, *, source: str = "<cards>") -> list[Card]:
    """Parse card-file text (``docs/cards.md``); errors name ``source``, row and column."""
    text = text.removeprefix("\ufeff")  # "CSV UTF-8" from a spreadsheet starts with a byte-order mark
    sep = separator(text)
    reader = csv.DictReader(io.StringIO(text), delimiter=sep, strict=True)
    try:
        header = reader.fieldnames or []
    except csv.Error as e:
        raise CardFileError(f"{source}, row 1: {_csv_problem(e)}") from None
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:
        raise CardFileError(
            f"{source}, row 1: column {repeated[0]} appears {header.count(repeated[0])} times in the header "
            "(a column is given once)"
        )
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise CardFileError(f"{source}: header lacks column(s) {', '.join(missing)}")
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise CardFileError(f"{source}: unknown column(s) {', '.join(unknown)}")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    most = LIMITS["cards"].high
    while True:
        line = reader.line_num + 1  # the row's first line (a quoted cell may span lines)
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            raise CardFileError(f"{source}, row {line}: {_csv_problem(e)}") from None
        if None in row:
            quote = (
                f" (the file is separated by {sep!r}: a cell that holds {sep!r}, as abilities "
                "'splash;pierce', is written in quotes)"
                if sep != ","
                else ""
            )
            raise CardFileError(f"{source}, row {line}: more fields than columns{quote}")
        if all(_blank(v) for v in row.values()):
            continue
        try:
            card = card_from_fields(row)
        except ValueError as e:
            raise CardFileError(f"{source}, row {line}, {e}") from None
        if card.name in seen:
            raise CardFileError(
                f"{source}, row {line}, column name: duplicate name {card.name!r} (first on row {seen[card.name]})"
            )
        seen[card.name] = line
        cards.append(card)
        if len(cards) > most:
            raise CardFileError(f"{source}, row {line}: more than {most:,} cards ({LIMITS['cards'].why})")
    if not cards:
        raise CardFileError(f"{source}: no cards")
    return cards


#: The separators a card file may have: the comma of the format, the semicolon of a spreadsheet
#: whose decimal mark is the comma (a European "CSV"), the tab of "tab-separated text".
SEPARATORS = (",", ";", "\t")


def separator(text: str) -> str:
    """The separator of card-file ``text``: the one of :data:`SEPARATORS` that splits its header
    into the most column names of the format (a comma when none does better).

        >>> separator("name;deck;kind;cost\\nOGRE;2;creature;3")
        ';'
    """
    header = text.split("\n", 1)[0].strip()

    def columns(sep: str) -> int:
        return len({cell.strip() for cell in next(csv.reader([header], delimiter=sep), [])} & set(COLUMNS))

    return max(SEPARATORS, key=columns)


def load_cards(path: str | os.PathLike) -> CardSet:
    """Load a card file strictly; see ``docs/cards.md``.

    A file read before is read again only if its modification time or size
    changed since, so a card file edited while a notebook's kernel runs is
    never missed.  ``cards.source`` is the file the set came from.
    """
    path = check_path(path, str(path), CardFileError)
    try:
        stat = path.stat()
    except OSError as e:
        raise CardFileError(f"{path}: cannot read ({e.strerror})") from None
    key, stamp = str(path.resolve()), (stat.st_mtime_ns, stat.st_size)
    cached = _LOADED.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    cards = CardSet(read_cards_csv(read_text(path, CardFileError), source=str(path)))
    cards.source = path
    _LOADED[key] = (stamp, cards)
    return cards


#: Card files already loaded: resolved path → ((mtime_ns, size), card set).
_LOADED: dict[str, tuple[tuple[int, int], CardSet]] = {}


def _csv_problem(error: csv.Error) -> str:
    """A CSV reader's complaint in a designer's words."""
    text = str(error)
    if "field larger than field limit" in text:
        return f"a cell longer than {csv.field_size_limit():,} characters"
    if "unexpected end of data" in text or "EOF" in text:
        return 'a quote (") opened on this row is never closed'
    return f"malformed CSV ({text})"


def shipped_cards_path() -> Path:
    """The starter set: ``data/cards.csv`` of a source checkout, else the installed copy."""
    return shipped_file("data/cards.csv")


def starter_set() -> CardSet:
    """The 32 shipped cards of R9 (values provisional), read again when the file changes."""
    return load_cards(shipped_cards_path())


def starter_decks() -> dict[int, list[str]]:
    """The four preconstructed decks of R7.1, by number."""
    return starter_set().decks


# --- Writing a card file -----------------------------------------------------------------


def card_row(card: Card) -> dict[str, str]:
    """A card as the text fields of one card-file row (``docs/cards.md``).

    :func:`card_from_fields` reads it back as an equal card.
    """
    creature = card.is_creature
    return {
        "name": card.name,
        "deck": "" if card.deck is None else str(card.deck),
        "kind": card.kind.value,
        "cost": str(card.cost),
        "attack": str(card.attack) if creature else "",
        "health": str(card.health) if creature else "",
        "abilities": ";".join(a.value for a in card.abilities),
        "aura": "" if card.aura is None else str(card.aura),
        "effect": card.effect_text,
        "target": "" if card.target is None else card.target.value,
        "notes": card.notes,
    }


def write_cards_csv(cards: Iterable[Card], path: str | Path) -> Path:
    """Write ``cards`` as a card file (``docs/cards.md``), one row a card, in set order.

    The file is written to a temporary name beside ``path`` and renamed when
    complete, so a failure leaves no half-written card file.  What it writes,
    :func:`load_cards` reads back as equal cards.
    """
    from .files import write_text_atomically

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(card_row(card) for card in cards)
    path = Path(path)
    try:
        write_text_atomically(path, out.getvalue())
    except OSError as e:
        raise CardFileError(f"{path}: cannot write ({e.strerror})") from None
    return path


__all__ = [
    "Aura",
    "Card",
    "CardSet",
    "card_from_fields",
    "card_row",
    "load_cards",
    "parse_aura",
    "parse_effect",
    "read_cards_csv",
    "separator",
    "shipped_cards_path",
    "starter_decks",
    "starter_set",
    "write_cards_csv",
]
