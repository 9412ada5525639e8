"""Setting a game up: one constructor per mode (R2, R8.1).

:func:`new_duel` deals two 8-card hands with the keep leftmost (R2.2) and
flips the coin (R2.3); :func:`new_solo` builds the player's hand and the AI
pile (R8.1).  Both leave the game at the first player's first turn.  Every
random draw comes from the state's one generator (R10.2).  The formats that
choose the cards first (R7.2 draft, R7.3 constructed) are in
:mod:`clashkit.engine.formats`; :func:`clashkit.runs.game.new_game` puts them together
with named policies.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.cards import CardSet, starter_set
from ..base.errors import DeckError
from ..base.rules import Rules
from ..base.vocab import KEEP, Mode
from .state import GameState
from .turn import start_turn


def _ids(cards: CardSet, deck: Sequence[int | str], where: str) -> list[int]:
    out = []
    for card in deck:
        if isinstance(card, str):
            if card not in cards:
                raise DeckError(f"{where}: unknown card {card!r}")
            card = cards.id(card)
        out.append(card)
    return out


def deal_hand(state: GameState, deck: Sequence[int]) -> list[int]:
    """R2.2: shuffle the cards into a hand, then put the keep, Bastion side up, leftmost."""
    hand = list(deck)
    state.rng.shuffle(hand)
    return [KEEP, *hand]


def new_duel(
    deck_a: Sequence[int | str],
    deck_b: Sequence[int | str],
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
    first_player: int | None = None,
) -> GameState:
    """R2: a duel ready for the first player's first turn (6 mana, R2.3)."""
    cards = cards if cards is not None else starter_set()
    state = GameState(cards, rules, mode=Mode.DUEL, seed=seed, record=record)
    a, b = _ids(cards, deck_a, "deck A"), _ids(cards, deck_b, "deck B")
    for name, deck in (("A", a), ("B", b)):
        if len(deck) != 8:
            raise DeckError(f"deck {name}: a duel hand has 8 cards (R2.1), got {len(deck)}")
    state.hands[0] = deal_hand(state, a)
    state.hands[1] = deal_hand(state, b)
    begin(state, first_player)
    return state


def new_solo(
    player_deck: Sequence[int | str],
    ai_cards: Sequence[int | str],
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
) -> GameState:
    """R8.1: the player's hand, the AI pile (shuffled, keep at the bottom); the player starts
    with 6 mana unless ``ai_first`` (R8.9)."""
    cards = cards if cards is not None else starter_set()
    state = GameState(cards, rules, mode=Mode.SOLO, seed=seed, record=record)
    deal_solo(state, player_deck, ai_cards)
    return state


def deal_solo(state: GameState, player_deck: Sequence[int | str], ai_cards: Sequence[int | str]) -> None:
    """R8.1 on a fresh solo state: the player's hand (R2.2), the AI pile shuffled with its keep
    at the bottom, then the first turn — all with the state's generator (R10.2)."""
    mine, ai = _ids(state.cards, player_deck, "player deck"), _ids(state.cards, ai_cards, "AI cards")
    if len(mine) != 8:
        raise DeckError(f"player deck: a hand has 8 cards (R8.1), got {len(mine)}")
    if not ai:
        raise DeckError("AI cards: the AI pile needs at least one card (R8.1)")
    state.hands[0] = deal_hand(state, mine)
    state.hands[1] = []
    pile = list(ai)
    state.rng.shuffle(pile)
    state.pile = [*pile, KEEP]
    state.forts[1] = state.rules.solo.ai_starts_as_fort
    begin(state, 1 if state.rules.solo.ai_first else 0)


def begin(state: GameState, first_player: int | None = None) -> None:
    """R2.3: the coin flip (unless decided), then the first turn's mana phase.  The deal is
    recorded first (``state.dealt``: the games frame's ``hand_a`` and ``hand_b``)."""
    b = state.pile[:-1] if state.solo else state.hands[1][1:]
    state.dealt = (tuple(state.hands[0][1:]), tuple(b))
    if first_player is None:
        first_player = state.rng.randrange(2)
    state.first_player = state.active = first_player
    state.turn = 1
    start_turn(state)


__all__ = ["begin", "deal_hand", "deal_solo", "new_duel", "new_solo"]
