"""The hand and the keep (R1.4, R1.5, R3.2, R3.4, R3.7, R3.8, R4.4, R4.7–R4.9).

Your hand is your life: the cards right of the keep are your hand-health, a
hit slides the keep right, a destroyed creature comes back on the right and
heals you.  In solo mode the AI has no hand; its keep lives at the bottom of
the AI pile, and the AI-side versions of these steps are in :mod:`clashkit.engine.solo`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.vocab import KEEP
from . import events as ev
from .outcome import Termination, end_game
from .state import GameState

#: R3.2: how many cards left of the hand (the keep skipped) are playable.
PLAYABLE = 4


def playable_indices(hand: Sequence[int | str]) -> tuple[int, ...]:
    """R3.2: hand indices of the playable cards, the 4 leftmost besides the keep."""
    at = hand.index(KEEP)
    n = len(hand)
    return _PLAYABLE_AT[at if at < PLAYABLE else PLAYABLE][n if n < PLAYABLE + 1 else PLAYABLE + 1]


#: ``playable_indices`` by where the keep is (4: anywhere from index 4 on) and how many cards the
#: hand holds (5: five or more), worked out once from R3.2.
_PLAYABLE_AT = tuple(
    tuple(tuple([i for i in range(min(size, PLAYABLE + 1)) if i != at][:PLAYABLE]) for size in range(PLAYABLE + 2))
    for at in range(PLAYABLE + 1)
)


def take_from_hand(state: GameState, player: int, index: int) -> int:
    """R3.7: remove a card; the cards right of it shift one place left."""
    return state.hands[player].pop(index)


def return_to_hand(state: GameState, player: int, card: int) -> None:
    """R4.4, R5.2: a card comes back in the rightmost place (the owner heals by 1)."""
    hand = state.hands[player]
    hand.append(card)
    if state.log is not None:
        ev.record(state, ev.CARD_RETURNED, target_player=player, target_card=card, position=len(hand) - 1)


def check_keep(state: GameState, player: int) -> None:
    """R3.8: whenever the keep is the rightmost card, it is destroyed at once."""
    hand = state.hands[player]
    if hand[-1] == KEEP:
        destroy_keep(state, player)


def damage_keep(state: GameState, player: int, amount: int) -> None:
    """R4.7: the keep moves ``amount`` places right, stopping at the rightmost place."""
    hand = state.hands[player]
    at = hand.index(KEEP)
    moved = min(amount, len(hand) - 1 - at)
    if moved:
        del hand[at]
        hand.insert(at + moved, KEEP)
    state.counters.keep_damage += moved
    if state.log is not None:
        ev.record(state, ev.KEEP_MOVED, target_player=player, position=at + moved, amount=moved)
    if at + moved == len(hand) - 1:
        destroy_keep(state, player)


def destroy_keep(state: GameState, player: int) -> None:
    """R4.8: the Bastion flips to the Fort and goes leftmost; R4.9: the Fort falls, the game is lost."""
    hand = state.hands[player]
    if state.forts[player]:
        end_game(state, Termination.FORT_FELL, 1 - player)
        return
    state.forts[player] = True
    hand.remove(KEEP)
    hand.insert(0, KEEP)
    if state.log is not None:
        ev.record(state, ev.KEEP_FLIPPED, target_player=player)
