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

:func:`new_game` turns two specs and two policies into a duel ready for its
first turn.  It creates the state first, so that every random draw — the
draft's shuffle, the hands' shuffles, the coin flip — comes from the game's one
generator, ``state.rng`` (R10.2)::

    >>> state, fmt = new_game("1", "2", "greedy", "greedy", seed=7)
    >>> fmt, state.hand_health(0), state.hand_health(1)
    ('preconstructed', 8, 8)

Solo setup (R8.1) lives with solo mode, not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .cards import CardSet, starter_set
from .errors import DeckError, OptionError
from .game import begin, deal_hand
from .policies import Policy, get_policy
from .rng import Rng
from .rules import Rules
from .state import GameState
from .vocab import Mode

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


def parse_deck(
    text: str | Sequence[str], cards: CardSet | None = None, *, side: str = "A"
) -> DeckSpec:
    """Read one deck argument (see the module docstring); errors are :class:`DeckError`.

    ``side`` names the argument in messages (``deck A``).  A sequence of names
    is taken as a list.
    """
    cards = cards if cards is not None else starter_set()
    where = f"deck {side}"
    if not isinstance(text, str):
        return _listed(cards, [str(n) for n in text], where, source=",".join(map(str, text)))
    arg = text.strip()
    if not arg:
        raise DeckError(
            f"{where}: empty deck argument (a deck 1–4, draft, constructed, 8 card names or a file)"
        )
    word = arg.lower()
    if word in (DRAFT, CONSTRUCTED):
        return DeckSpec(word, source=word)
    if arg.isdigit():
        number = int(arg)
        decks = cards.decks
        if number not in decks:
            known = ", ".join(map(str, decks)) or "none"
            raise DeckError(
                f"{where}: there is no starter deck {number} (R7.1; the card set has {known})"
            )
        return DeckSpec(PRECONSTRUCTED, tuple(decks[number]), number, source=arg)
    path = Path(arg)
    if path.is_file():
        return _listed(cards, _read_deck_file(path, where), f"{where} ({path})", source=arg)
    if path.is_dir():
        raise DeckError(f"{where}: {arg!r} is a directory, not a deck file")
    if "," in arg:
        return _listed(cards, arg.split(","), where, source=arg)
    if arg.upper() in cards:
        raise DeckError(
            f"{where}: {arg!r} is one card; a deck lists {HAND_SIZE} names separated by commas"
        )
    raise DeckError(
        f"{where}: {arg!r} is not a starter deck number, 'draft', 'constructed', "
        f"a comma-separated list of {HAND_SIZE} card names, nor an existing file"
    )


def _read_deck_file(path: Path, where: str) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise DeckError(f"{where}: cannot read {path} ({e.strerror})") from None
    except UnicodeDecodeError:
        raise DeckError(f"{where}: {path} is not UTF-8 text") from None
    names: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        names.extend(line.split(","))
    return names


def _listed(cards: CardSet, raw: list[str], where: str, *, source: str) -> DeckSpec:
    names = [n.strip().upper() for n in raw if n.strip()]
    unknown = [n for n in names if n not in cards]
    if unknown:
        raise DeckError(f"{where}: unknown card {unknown[0]!r}")
    if len(names) != HAND_SIZE:
        raise DeckError(
            f"{where}: a duel hand has {HAND_SIZE} cards (R2.1), the list has {len(names)}"
        )
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise DeckError(
            f"{where}: {repeated[0]} is listed twice; a hand holds different cards (R7)"
        )
    return DeckSpec(CUSTOM, tuple(names), source=source)


def format_of(spec_a: DeckSpec, spec_b: DeckSpec, *, mirror: bool = False) -> str:
    """The format two deck specs make together; refuses mixtures the rules do not know (R7)."""
    for fmt in (DRAFT, CONSTRUCTED):
        if (spec_a.format == fmt) != (spec_b.format == fmt):
            other = "B" if spec_a.format == fmt else "A"
            rule = "R7.2" if fmt == DRAFT else "R7.3"
            raise DeckError(
                f"deck {other}: {fmt} is played by both players ({rule}); give {fmt} for both decks"
            )
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
    """R2.3: ``first_player = "last_drafter"`` means something only in a duel's draft; refuse it elsewhere."""
    if rules is None or rules.first_player != "last_drafter":
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
    ids = [i for i, c in enumerate(cards) if c.deck is not None]
    return ids or list(range(len(cards)))


@dataclass(frozen=True, slots=True)
class Draft:
    """The result of a draft (R7.2): both hands in pick order, and who took the last card."""

    a: list[int]
    b: list[int]
    last_drafter: int


def draft(
    cards: CardSet,
    policy_a: Policy | str,
    policy_b: Policy | str,
    rng: Rng,
    *,
    pool: Sequence[int] | None = None,
) -> Draft:
    """R7.2: shuffle the kit; per round reveal 4, the round's first picker takes 1, the other 2
    of the remaining 3, the first picker the last; the first picker alternates A, B, A, B."""
    policies = (get_policy(policy_a), get_policy(policy_b))
    deck = list(kit(cards) if pool is None else pool)
    if len(deck) < DRAFT_REVEAL * DRAFT_ROUNDS:
        raise DeckError(
            f"draft: the kit has {len(deck)} cards, "
            f"a draft needs {DRAFT_REVEAL * DRAFT_ROUNDS} (R7.2)"
        )
    rng.shuffle(deck)
    hands: tuple[list[int], list[int]] = ([], [])
    last = 0
    for round_ in range(DRAFT_ROUNDS):
        first = round_ % 2  # A leads the odd rounds (1st, 3rd), B the even ones
        second = 1 - first
        offered = deck[round_ * DRAFT_REVEAL : (round_ + 1) * DRAFT_REVEAL]
        # The first picker takes 1 …
        _take(cards, policies[first], offered, hands[first], rng, first)
        # … the other player 2 of the remaining 3 …
        _take(cards, policies[second], offered, hands[second], rng, second)
        _take(cards, policies[second], offered, hands[second], rng, second)
        # … and the first picker the last card.
        hands[first].append(offered.pop())
        last = first
    return Draft(hands[0], hands[1], last)


def _take(
    cards: CardSet, policy: Policy, offered: list[int], mine: list[int], rng, player: int
) -> None:
    choice = policy.pick(cards, tuple(offered), tuple(mine), rng)
    if choice not in offered:
        raise DeckError(
            f"draft: policy {policy.name!r} of {'AB'[player]} picked {choice!r}, "
            "not an offered card (R7.2)"
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
    policy_a: Policy | str,
    policy_b: Policy | str,
    rng: Rng,
) -> Constructed:
    """R7.3: each chooses 10 from their own kit; then B bans one of A's, A one of B's,
    A a second of B's, B a second of A's."""
    policies = (get_policy(policy_a), get_policy(policy_b))
    own_kit = set(kit(cards))
    chosen = []
    for player in (0, 1):
        ten = list(policies[player].choose_ten(cards, rng))
        where = f"constructed: policy {policies[player].name!r} of {'AB'[player]}"
        if len(ten) != CONSTRUCTED_CHOICE or len(set(ten)) != CONSTRUCTED_CHOICE:
            raise DeckError(
                f"{where} chose {len(set(ten))} different cards, not {CONSTRUCTED_CHOICE} (R7.3)"
            )
        if not own_kit.issuperset(ten):
            raise DeckError(f"{where} chose a card that is not in its kit (R7.3)")
        chosen.append(ten)
    remaining = [chosen[0][:], chosen[1][:]]
    bans = []
    for banner in (1, 0, 0, 1):
        victim = 1 - banner
        card = policies[banner].ban(cards, tuple(remaining[victim]), tuple(remaining[banner]), rng)
        if card not in remaining[victim]:
            raise DeckError(
                f"constructed: policy {policies[banner].name!r} of {'AB'[banner]} banned {card!r}, "
                f"not one of {'AB'[victim]}'s revealed cards (R7.3)"
            )
        remaining[victim].remove(card)
        bans.append((banner, card))
    return Constructed(chosen[0], chosen[1], bans, remaining[0], remaining[1])


# --- A duel ready to play ---------------------------------------------------------------


def new_game(
    deck_a: str | DeckSpec | Sequence[str],
    deck_b: str | DeckSpec | Sequence[str],
    policy_a: Policy | str = "greedy",
    policy_b: Policy | str = "greedy",
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
    mirror: bool = False,
) -> tuple[GameState, str]:
    """A duel in the first player's first turn, and the name of its format.

    The state is created first; the draft (R7.2) and the constructed choices
    (R7.3) then draw from ``state.rng``, the hands are shuffled (R2.2) and the
    first player chosen (R2.3) — by the coin, or with
    ``rules.first_player = "last_drafter"`` in a draft, the player who took the
    draft's last card.  For two fixed decks the game is the same as
    :func:`clashkit.game.new_duel` with the same seed.
    """
    cards = cards if cards is not None else starter_set()
    spec_a = deck_a if isinstance(deck_a, DeckSpec) else parse_deck(deck_a, cards, side="A")
    spec_b = deck_b if isinstance(deck_b, DeckSpec) else parse_deck(deck_b, cards, side="B")
    fmt = format_of(spec_a, spec_b, mirror=mirror)
    check_first_player(rules, fmt)
    state = GameState(cards, rules, mode=Mode.DUEL, seed=seed, record=record)
    first_player = None
    if fmt == DRAFT:
        result = draft(cards, policy_a, policy_b, state.rng)
        a, b = result.a, result.b
        if state.rules.first_player == "last_drafter":
            first_player = result.last_drafter
    elif fmt == CONSTRUCTED:
        result = constructed(cards, policy_a, policy_b, state.rng)
        a, b = result.a, result.b
    else:
        a, b = cards.ids(spec_a.names), cards.ids(spec_b.names)
    state.hands[0] = deal_hand(state, a)
    state.hands[1] = deal_hand(state, b)
    begin(state, first_player)
    return state, fmt


__all__ = [
    "CONSTRUCTED",
    "CUSTOM",
    "DRAFT",
    "PRECONSTRUCTED",
    "Constructed",
    "DeckSpec",
    "Draft",
    "constructed",
    "draft",
    "format_of",
    "kit",
    "new_game",
    "parse_deck",
]
