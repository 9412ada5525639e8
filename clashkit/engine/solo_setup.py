"""Solo setup (R8.1): the player's 8 cards, the AI's 24, and a solo game ready to play.

Three ways to give the player a deck, as on the command line:

- a starter deck number ``1``–``4`` (the preconstructed variant: the AI gets
  the other three decks);
- ``"draft"``: the 32 starter cards are shuffled, 4 are revealed, the
  player's policy picks 1 (:meth:`~clashkit.policies.Policy.pick`) and the AI
  gets the other 3, until the player has 8 and the AI 24;
- 8 card names (a list, a comma-separated string, or a file holding them):
  the AI gets the rest of the starter cards.

Every random draw — the draft's shuffle and picks, the hand, the AI pile —
comes from the game's one generator (R10.2), so one seed fixes the whole game::

    >>> from clashkit.engine.solo_setup import solo_setup
    >>> state = solo_setup(2, seed=7).state  # a starter deck: no pick to make
    >>> state.hand_health(0), state.hand_health(1)
    (8, 24)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..base.cards import CardSet, starter_set
from ..base.errors import DeckError, OptionError
from ..base.limits import read_text
from ..base.rules import Rules
from ..base.vocab import Mode
from .formats import check_first_player
from .setup import deal_solo
from .state import GameState

#: R8.1: the draft reveals this many cards at a time; the player picks one.
REVEALED = 4
#: R8.1: the player's hand and the AI's share of the 32 starter cards.
PLAYER_CARDS, AI_CARDS = 8, 24

DeckSpec = int | str | Path | Sequence[str]


@dataclass(frozen=True, slots=True)
class SoloSetup:
    """A solo game right after R8.1: the state and how the 32 cards were split.

    ``format`` is the games frame's word for the deck spec
    (``preconstructed``, ``draft`` or ``custom``); ``player_deck`` and
    ``ai_cards`` are card names, the player's in the order they were chosen,
    the AI's in the order it received them (before the pile's shuffle).
    """

    state: GameState
    format: str
    player_deck: tuple[str, ...]
    ai_cards: tuple[str, ...]


def starter_pool(cards: CardSet) -> list[int]:
    """R8.1, R9.1: the ids of the starter cards (every card with a deck number), in file order."""
    return [i for i, card in enumerate(cards) if card.deck is not None]


def deck_format(spec: DeckSpec) -> str:
    """The games frame's ``format`` for a solo deck spec."""
    text = str(spec).strip().lower() if isinstance(spec, int | str) else None
    if text == "draft":
        return "draft"
    if text is not None and text.isascii() and text.isdigit():
        return "preconstructed"
    return "custom"


def draft_against_ai(cards: CardSet, policy, rng) -> tuple[list[int], list[int]]:
    """R8.1: the solo draft; returns (the player's 8 card ids, the AI's 24), in pick order.

    Shuffle the starter cards, reveal 4, the player's policy picks 1 and the
    AI takes the other 3 in the order they were revealed; repeat until the
    pool is spent.  ``policy`` is the player: an object with a ``pick`` method,
    such as a :class:`~clashkit.policies.Policy` (``get_policy("greedy")``).
    """
    policy = _player(policy)
    pool = starter_pool(cards)
    if len(pool) != PLAYER_CARDS + AI_CARDS:
        raise DeckError(f"draft: the solo draft needs the 32 starter cards (R8.1), the card set has {len(pool)}")
    rng.shuffle(pool)
    mine: list[int] = []
    ai: list[int] = []
    while pool:
        offered, pool = pool[:REVEALED], pool[REVEALED:]
        picked = getattr(policy, "pick_solo", policy.pick)(cards, list(offered), list(mine), rng)
        if picked not in offered:
            raise DeckError(f"draft: {policy.name} picked card {picked!r}, not one of the 4 revealed (R8.1)")
        mine.append(picked)
        ai.extend(card for card in offered if card != picked)
    return mine, ai


def preconstructed(cards: CardSet, number: int) -> tuple[list[int], list[int]]:
    """R8.1: starter deck ``number`` for the player, the other three decks for the AI."""
    decks = cards.decks
    if number not in decks:
        raise DeckError(f"deck {number}: not a starter deck (R7.1: {', '.join(map(str, decks))})")
    mine = cards.ids(decks[number])
    ai = [cards.id(name) for n, names in decks.items() if n != number for name in names]
    return mine, ai


def custom(cards: CardSet, names: Sequence[str]) -> tuple[list[int], list[int]]:
    """8 named cards for the player; the AI gets the starter cards left over (one copy a name)."""
    mine = []
    for name in names:
        name = name.strip().upper()
        if name not in cards:
            raise DeckError(f"player deck: unknown card {name!r}")
        mine.append(cards.id(name))
    if len(mine) != PLAYER_CARDS:
        raise DeckError(f"player deck: a hand has 8 cards (R8.1), got {len(mine)}")
    left = Counter(mine)
    ai = []
    for card in starter_pool(cards):
        if left[card]:
            left[card] -= 1
        else:
            ai.append(card)
    return mine, ai


def split_cards(spec: DeckSpec, policy, cards: CardSet, rng) -> tuple[str, list[int], list[int]]:
    """(format, player card ids, AI card ids) for a deck spec; see the module docstring."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        return "preconstructed", *preconstructed(cards, spec)
    if isinstance(spec, Path) or (isinstance(spec, str) and _is_file(spec)):
        return "custom", *custom(cards, _names(read_text(spec, DeckError, f"player deck: {spec}")))
    if isinstance(spec, str):
        text = spec.strip()
        if text.lower() == "draft":
            return "draft", *draft_against_ai(cards, policy, rng)
        if text.lower() == "constructed":
            raise DeckError(
                "player deck: solo has no constructed format (R7.3 is a duel format); "
                "give a starter deck 1–4, 'draft', 8 card names or a file"
            )
        if text.isascii() and text.isdigit():
            return "preconstructed", *preconstructed(cards, int(text) if len(text) <= 6 else -1)
        return "custom", *custom(cards, _names(text))
    if isinstance(spec, Sequence):
        return "custom", *custom(cards, list(spec))
    raise DeckError(f"player deck: {spec!r} is not 1–4, 'draft', 8 card names or a file")


def solo_setup(
    deck: DeckSpec,
    policy=None,
    *,
    rules: Rules | None = None,
    cards: CardSet | None = None,
    seed: int = 0,
    record: bool = True,
) -> SoloSetup:
    """R8.1: a solo game ready for its first turn, and how the cards were split.

    ``policy`` is the player's (an object with a ``pick`` method, such as
    ``get_policy("greedy")``): it makes the draft picks, so only a draft needs
    it.  ``rules.solo`` holds the AI settings (R8.9); see
    :func:`clashkit.base.levels.solo_settings` for levels.  With ``ai_first`` the
    AI's first summon phase has been played when this returns and its siege
    comes next (the AI's summon plays itself at the start of its turn, R8.3).
    """
    cards = cards if cards is not None else starter_set()
    check_first_player(rules, "", solo=True)
    state = GameState(cards, rules, mode=Mode.SOLO, seed=seed, record=record)
    fmt, mine, ai = split_cards(deck, policy, cards, state.rng)
    names = cards.names
    setup = SoloSetup(state, fmt, tuple(names[c] for c in mine), tuple(names[c] for c in ai))
    deal_solo(state, mine, ai)
    return setup


def _player(policy):
    """The player who picks in a solo draft (R8.1): a policy object, never its name."""
    if policy is None:
        raise OptionError("a solo draft needs the player's policy to pick (R8.1): pass one, e.g. get_policy('random')")
    if isinstance(policy, str):
        raise OptionError(
            f"the solo setup takes a policy, not its name {policy!r}: "
            f"get_policy({policy!r}) (clashkit.policies) makes one"
        )
    return policy


def _is_file(text: str) -> bool:
    if "," in text or "\n" in text or not text.strip():
        return False
    try:
        return Path(text).is_file()
    except OSError:
        return False


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.replace("\n", ",").split(",") if n.strip()]


__all__ = [
    "SoloSetup",
    "custom",
    "deck_format",
    "draft_against_ai",
    "preconstructed",
    "solo_setup",
    "split_cards",
    "starter_pool",
]
