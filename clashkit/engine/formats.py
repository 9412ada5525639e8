"""Formats: how each player gets 8 cards (R7.1 preconstructed, R7.2 draft, R7.3 constructed).

A deck argument — what ``clashkit play --a`` and ``--b`` take — is read by
:func:`parse_deck` into a :class:`DeckSpec`:

=================  ===========================================================
``1`` … ``4``      a starter deck (R7.1; any deck number of the card set)
``draft``          the draft between the two policies (R7.2); both sides say so
``constructed``    ten chosen, two banned (R7.3); both sides say so
``A,B,…``          a list of 8 different card names, comma-separated
a file path        8 names, one a line or comma-separated; ``#`` starts a comment
=================  ===========================================================

:func:`draft` and :func:`constructed` take the players' choices as functions
(:data:`Pick`, :data:`ChooseTen`, :data:`Ban`; a policy's methods of those
names are such).  :func:`clashkit.runs.game.new_game` turns two specs and two
policies into a duel ready for its first turn.

Solo setup (R8.1) lives with solo mode, not here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..base.cards import CardSet, starter_set
from ..base.errors import DeckError, OptionError
from ..base.limits import LIMITS, card_name, read_text, shown
from ..base.rng import Rng
from ..base.rules import Rules
from ..base.suggest import did_you_mean
from .solo import PLAYER_FIRST_MANA

#: The names of the formats, as the games frame writes them (``trace.FORMAT``).
PRECONSTRUCTED, DRAFT, CONSTRUCTED, CUSTOM = "preconstructed", "draft", "constructed", "custom"
#: R2.1: cards in a duel hand besides the keep.
HAND_SIZE = 8
#: R7.2: cards revealed per draft round, and rounds.
DRAFT_REVEAL, DRAFT_ROUNDS = 4, 4
#: R7.3: cards each player chooses before the bans.
CONSTRUCTED_CHOICE = 10


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """One player's deck argument, read: a format and, for fixed decks, the card names."""

    format: str
    names: tuple[str, ...] = ()
    number: int | None = None
    source: str = ""

    def __str__(self) -> str:
        return self.source or self.format


# --- Reading deck arguments -----------------------------------------------------------


def parse_deck(text: str | Sequence[str], cards: CardSet | None = None, *, side: str = "A") -> DeckSpec:
    """Read one deck argument (see the module docstring); errors are :class:`DeckError`.

    ``side`` names the argument in messages (``deck A``).  A sequence of names
    is taken as a list.
    """
    cards = cards if cards is not None else starter_set()
    where = f"deck {side}"
    if text is None or isinstance(text, bytes | int | float):
        raise DeckError(
            f"{where}: {shown(text)} is not a deck (a deck 1–4, draft, constructed, 8 card names or a file)"
        )
    if not isinstance(text, str):
        return _listed(cards, [str(n) for n in text], where, source=",".join(map(str, text)))
    arg = text.strip()
    if not arg:
        raise DeckError(f"{where}: empty deck argument (a deck 1–4, draft, constructed, 8 card names or a file)")
    word = arg.lower()
    if word in (DRAFT, CONSTRUCTED):
        return DeckSpec(word, source=word)
    if arg.isascii() and arg.isdigit():
        decks = cards.decks
        number = int(arg) if len(arg) <= 6 else -1
        if number not in decks:
            known = ", ".join(map(str, decks)) or "none"
            raise DeckError(f"{where}: there is no starter deck {shown(arg)[1:-1]} (R7.1; the card set has {known})")
        names = decks[number]
        if len(names) != HAND_SIZE:  # the card file's fault, whichever seat asked: named by the file
            held = f"{len(names)} card{'s' if len(names) != 1 else ''} ({', '.join(names)})"
            raise DeckError(
                f"starter deck {number} of {cards.source or 'the card set'} holds {held}; "
                f"a starter deck holds {HAND_SIZE} different cards (R7.1)"
            )
        return DeckSpec(PRECONSTRUCTED, tuple(names), number, source=arg)
    path = Path(arg)
    try:
        is_file, is_dir = path.is_file(), path.is_dir()
    except (OSError, ValueError):  # a name too long to be a file's (or holding NUL) is not one
        is_file = is_dir = False
    if is_file:
        return _listed(cards, _read_deck_file(path, where), f"{where} ({path})", source=arg)
    if is_dir:
        raise DeckError(f"{where}: {shown(arg)} is a directory, not a deck file")
    if "," in arg:
        return _listed(cards, arg.split(","), where, source=arg)
    if arg.upper() in cards:
        raise DeckError(f"{where}: {shown(arg)} is one card; a deck lists {HAND_SIZE} names separated by commas")
    near = did_you_mean(arg, [DRAFT, CONSTRUCTED]) or did_you_mean(arg.upper(), cards.names)
    raise DeckError(
        f"{where}: {shown(arg)} is not a starter deck number, 'draft', 'constructed', "
        f"a comma-separated list of {HAND_SIZE} card names, nor an existing file{near}"
    )


def _read_deck_file(path: Path, where: str) -> list[str]:
    text = read_text(path, DeckError, f"{where}: {path}")
    names: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        names.extend(line.split(","))
    return names


def _listed(cards: CardSet, raw: list[str], where: str, *, source: str) -> DeckSpec:
    names = [card_name(n, where, DeckError) for n in raw if n.strip()]  # as in a card file
    unknown = [n for n in names if n not in cards]
    if unknown:
        raise DeckError(f"{where}: unknown card {shown(unknown[0])}{did_you_mean(unknown[0], cards.names)}")
    if len(names) != HAND_SIZE:
        raise DeckError(f"{where}: a duel hand has {HAND_SIZE} cards (R2.1), the list has {len(names)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise DeckError(f"{where}: {repeated[0]} is listed twice; a hand holds different cards (R7)")
    return DeckSpec(CUSTOM, tuple(names), source=source)


def format_of(spec_a: DeckSpec, spec_b: DeckSpec, *, mirror: bool = False) -> str:
    """The format two deck specs make together; refuses mixtures the rules do not know (R7)."""
    for fmt in (DRAFT, CONSTRUCTED):
        if (spec_a.format == fmt) != (spec_b.format == fmt):
            other = "B" if spec_a.format == fmt else "A"
            rule = "R7.2" if fmt == DRAFT else "R7.3"
            raise DeckError(f"deck {other}: {fmt} is played by both players ({rule}); give {fmt} for both decks")
        if spec_a.format == fmt:
            return fmt
    if spec_a.format == spec_b.format == PRECONSTRUCTED:
        if spec_a.number == spec_b.number and not mirror:
            raise DeckError(
                f"deck B: both players picked starter deck {spec_a.number}; "
                "R7.1 needs two different decks (a mirror match is an option)"
            )
        return PRECONSTRUCTED
    return CUSTOM


def check_first_player(rules: Rules | None, fmt: str, *, solo: bool = False) -> None:
    """R2.3: ``first_player = "last_drafter"`` means something only in a duel's draft, and
    ``first_turn_mana`` only in a duel (solo's first turn is R8.1's); refuse them elsewhere."""
    if rules is None:
        return
    if solo and rules.first_turn_mana != Rules().first_turn_mana:
        raise OptionError(
            f"first_turn_mana = {rules.first_turn_mana} is a duel option (R2.3, R10.3); in solo the player's "
            f"first turn gains {PLAYER_FIRST_MANA} mana (R8.1), or R3.1's when the AI starts "
            "(solo_player_first_mana, R10.4)"
        )
    if rules.first_player != "last_drafter":
        return
    if solo:
        raise OptionError(
            "first_player = 'last_drafter' is a duel option (R2.3); in solo the player starts "
            "unless the setting ai_first says the AI does (R8.1, R8.9)"
        )
    if fmt != DRAFT:
        raise OptionError(
            f"first_player = 'last_drafter' needs a draft (R2.3, R7.2); this game's format is {fmt}: "
            "leave first_player at 'coin'"
        )


# --- R7.2 the draft and R7.3 constructed -----------------------------------------------


def kit(cards: CardSet) -> list[int]:
    """The card ids of one kit: every card of a starter deck (all 32 of the shipped set).

    A card set without deck numbers is a kit as a whole.
    """
    ids = [i for i, c in enumerate(cards) if c.deck is not None] or list(range(len(cards)))
    # R8.1: the solo AI owns the kit but the player's 8; clashkit.base.limits bounds what one owns.
    most = LIMITS["cards_owned"].high + HAND_SIZE
    if len(ids) > most:
        raise DeckError(
            f"the kit holds {len(ids)} cards, more than {most} ({LIMITS['cards_owned'].why}); "
            "number the starter decks in the card file's deck column"
        )
    return ids


@dataclass(frozen=True, slots=True)
class Draft:
    """The result of a draft (R7.2): both hands in pick order, and who took the last card."""

    a: list[int]
    b: list[int]
    last_drafter: int


#: R7.2, R8.1: ``pick(cards, offered, mine, rng)`` → one card id of ``offered`` for a hand holding ``mine``.
Pick = Callable[[CardSet, Sequence[int], Sequence[int], Rng], int]
#: R7.3: ``choose_ten(cards, rng)`` → ten different card ids of one's own kit.
ChooseTen = Callable[[CardSet, Rng], Sequence[int]]
#: R7.3: ``ban(cards, theirs, mine, rng)`` → the card id to remove from the opponent's revealed ``theirs``.
Ban = Callable[[CardSet, Sequence[int], Sequence[int], Rng], int]


def chooser_name(choice: Callable) -> str:
    """How an error names whoever made a choice: a policy's name for its method, else the function's."""
    owner = getattr(choice, "__self__", None)
    return str(getattr(owner, "name", None) or getattr(choice, "__name__", "chooser"))


def draft(
    cards: CardSet,
    pick_a: Pick,
    pick_b: Pick,
    rng: Rng,
    *,
    pool: Sequence[int] | None = None,
) -> Draft:
    """R7.2: shuffle the kit; per round reveal 4, the round's first picker takes 1, the other 2
    of the remaining 3, the first picker the last; the first picker alternates A, B, A, B.

    ``pick_a`` and ``pick_b`` choose (a policy's ``pick`` is one)."""
    picks = (pick_a, pick_b)
    deck = list(kit(cards) if pool is None else pool)
    if len(deck) < DRAFT_REVEAL * DRAFT_ROUNDS:
        raise DeckError(f"draft: the kit has {len(deck)} cards, a draft needs {DRAFT_REVEAL * DRAFT_ROUNDS} (R7.2)")
    rng.shuffle(deck)
    hands: tuple[list[int], list[int]] = ([], [])
    last = 0
    for round_ in range(DRAFT_ROUNDS):
        first = round_ % 2  # A leads the odd rounds (1st, 3rd), B the even ones
        second = 1 - first
        offered = deck[round_ * DRAFT_REVEAL : (round_ + 1) * DRAFT_REVEAL]
        # The first picker takes 1 …
        _take(cards, picks[first], offered, hands[first], rng, first)
        # … the other player 2 of the remaining 3 …
        _take(cards, picks[second], offered, hands[second], rng, second)
        _take(cards, picks[second], offered, hands[second], rng, second)
        # … and the first picker the last card.
        hands[first].append(offered.pop())
        last = first
    return Draft(hands[0], hands[1], last)


def _take(cards: CardSet, pick: Pick, offered: list[int], mine: list[int], rng, player: int) -> None:
    choice = pick(cards, tuple(offered), tuple(mine), rng)
    if choice not in offered:
        raise DeckError(
            f"draft: policy {chooser_name(pick)!r} of {'AB'[player]} picked {choice!r}, not an offered card (R7.2)"
        )
    offered.remove(choice)
    mine.append(choice)


@dataclass(frozen=True, slots=True)
class Constructed:
    """The result of R7.3: each player's ten, the bans in the order made, and the final eights."""

    ten_a: list[int]
    ten_b: list[int]
    bans: list[tuple[int, int]]  # (banning player, banned card id)
    a: list[int]
    b: list[int]


def constructed(
    cards: CardSet,
    choose_ten: tuple[ChooseTen, ChooseTen],
    ban: tuple[Ban, Ban],
    rng: Rng,
) -> Constructed:
    """R7.3: each chooses 10 from their own kit; then B bans one of A's, A one of B's,
    A a second of B's, B a second of A's.  ``choose_ten`` and ``ban`` are A's and B's
    choices (a policy's methods of those names are such)."""
    own_kit = set(kit(cards))
    if len(own_kit) < CONSTRUCTED_CHOICE:
        raise DeckError(
            f"constructed: the kit holds {len(own_kit)} cards; R7.3 chooses {CONSTRUCTED_CHOICE} different ones"
        )
    chosen = []
    for player in (0, 1):
        ten = list(choose_ten[player](cards, rng))
        where = f"constructed: policy {chooser_name(choose_ten[player])!r} of {'AB'[player]}"
        if len(ten) != CONSTRUCTED_CHOICE or len(set(ten)) != CONSTRUCTED_CHOICE:
            raise DeckError(f"{where} chose {len(set(ten))} different cards, not {CONSTRUCTED_CHOICE} (R7.3)")
        if not own_kit.issuperset(ten):
            raise DeckError(f"{where} chose a card that is not in its kit (R7.3)")
        chosen.append(ten)
    remaining = [chosen[0][:], chosen[1][:]]
    bans = []
    for banner in (1, 0, 0, 1):
        victim = 1 - banner
        card = ban[banner](cards, tuple(remaining[victim]), tuple(remaining[banner]), rng)
        if card not in remaining[victim]:
            raise DeckError(
                f"constructed: policy {chooser_name(ban[banner])!r} of {'AB'[banner]} banned {card!r}, "
                f"not one of {'AB'[victim]}'s revealed cards (R7.3)"
            )
        remaining[victim].remove(card)
        bans.append((banner, card))
    return Constructed(chosen[0], chosen[1], bans, remaining[0], remaining[1])


__all__ = [
    "CONSTRUCTED",
    "CUSTOM",
    "DRAFT",
    "PRECONSTRUCTED",
    "Constructed",
    "DeckSpec",
    "Ban",
    "ChooseTen",
    "Draft",
    "Pick",
    "chooser_name",
    "constructed",
    "draft",
    "format_of",
    "kit",
    "parse_deck",
]
