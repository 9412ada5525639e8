"""What a player at the table can know: the fair player of R1.7.

clashkit lets every policy read the whole state (R1.7); the rulebook's player
does not see the contents of the opponent's hand.  What the acting player
*can* know:

* its own hand, in order (it dealt and has watched it, R2.2);
* everything in play, both sides;
* the opponent's cards as a set: the starter deck's list (R7.1), the draft's
  picks (R7.2, made from revealed cards) or the constructed reveals (R7.3) —
  in every duel format the eight cards each player holds are public, so the
  cards in the opponent's hand are that set less what is in play;
* the place of every card it has seen come back to the opponent's hand: a
  returning card goes to the rightmost place (R4.4, R5.2), and every later
  move of the row — a card taken from a place, the keep moving (R4.7, R4.8)
  — happens in front of both players;
* hand sizes and where the keeps stand (hand-health, R1.5).

What it cannot know: the order of the opponent's cards that have stayed in
the hand since the deal (R2.2 shuffled them face down), and in solo the
order of the AI pile above its keep (R8.1, R8.7 shuffle it; no card ever
goes back into the pile at a known place).  Those places are the **hidden
slots** (:func:`hidden_slots`).

**How sightings are kept.**  The state stays plain data (no callbacks), so a
fair policy remembers, per game and per player, which of the opponent's cards
it has seen in play at its own decisions (:class:`Sightings`).  A card seen in
play that is back in the opponent's hand came back at a known place; the
others are hidden.  This counts a little *less* than a player at the table
knows — an incantation the opponent cast between two of its decisions, or a
creature that came and went between them, is not remembered — never more.
A card the opponent holds twice (custom decks) is hidden in both places.

:func:`canonical` writes the hidden slots in card-id order — a function of
what the player knows only — and :func:`sample` shuffles them with a given
generator: a decision made from the canonical state plus draws from the
game's generator cannot change when only the hidden order changes.
"""

from __future__ import annotations

from collections import Counter

from ..base.vocab import KEEP
from ..engine.state import GameState


class Sightings:
    """The opponent's cards each player has seen in play, in one game (see the module docstring)."""

    __slots__ = ("game", "seen")

    def __init__(self) -> None:
        self.game: GameState | None = None
        self.seen: tuple[set[int], set[int]] = (set(), set())

    def of(self, state: GameState, player: int) -> set[int]:
        """What ``player`` has seen of the opponent's cards, updated with what is in play now;
        a new game (another state object) starts afresh."""
        if state is not self.game:
            self.game = state
            self.seen = (set(), set())
        seen = self.seen[player]
        for lane in state.lanes[1 - player]:
            for creature in lane:
                seen.add(creature.card)
        return seen


def hidden_row(state: GameState, player: int) -> list[int]:
    """The row whose order ``player`` partly cannot see: the opponent's hand, or in solo the AI
    pile (top first, R8.1); the list itself, not a copy."""
    if state.solo:
        return state.pile if player == 0 else []
    return state.hands[1 - player]


def hidden_slots(state: GameState, player: int, seen: set[int]) -> list[int]:
    """The places of :func:`hidden_row` whose card ``player`` cannot know, left to right."""
    row = hidden_row(state, player)
    if state.solo:
        return [i for i, card in enumerate(row) if card != KEEP]  # R8.1, R8.7: the pile is never seen
    counts = Counter(row)
    return [i for i, card in enumerate(row) if card != KEEP and (card not in seen or counts[card] > 1)]


def canonical(state: GameState, player: int, slots: list[int]) -> list[int]:
    """Write the hidden slots in card-id order, in place; returns the cards as they were there."""
    row = hidden_row(state, player)
    was = [row[i] for i in slots]
    for i, card in zip(slots, sorted(was), strict=True):
        row[i] = card
    return was


def restore(state: GameState, player: int, slots: list[int], was: list[int]) -> None:
    """Undo :func:`canonical`."""
    row = hidden_row(state, player)
    for i, card in zip(slots, was, strict=True):
        row[i] = card


def sample(state: GameState, player: int, slots: list[int], rng) -> None:
    """One determinization: the hidden slots of a canonical state shuffled with ``rng``, in place."""
    row = hidden_row(state, player)
    cards = sorted(row[i] for i in slots)
    rng.shuffle(cards)
    for i, card in zip(slots, cards, strict=True):
        row[i] = card


__all__ = ["Sightings", "canonical", "hidden_row", "hidden_slots", "restore", "sample"]
