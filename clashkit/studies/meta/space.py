"""The deck space of a duel: every eight different cards of the card set a player can hold (R2.1,
R7.1 custom lists; in the constructed format the eight left after R7.3's bans), how a search moves
through it, and where a deck sits on a designer's two axes.

A deck is a sorted tuple of card ids (:data:`Deck`), so two lists of the same cards are one deck.
The axes (:meth:`DeckSpace.niche`) are the two a designer reads off a deck list: its **mean cost**
(in steps of :data:`COST_STEP` mana) and how many of its cards are **creatures** (the rest are
incantations).  A quality-diversity search (:mod:`clashkit.studies.meta.search`) keeps the best
deck of each cell of that grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...base.cards import CardSet
from ...base.errors import DeckError
from ...base.rng import Rng
from ...engine.formats import HAND_SIZE

#: A deck: its card ids, sorted.
Deck = tuple[int, ...]
#: The mean-cost axis's step: decks whose mean cost falls in the same half mana share a column.
COST_STEP = 0.5
#: A mutation swaps one card; one time in :data:`DOUBLE_SWAP` it swaps two.
DOUBLE_SWAP = 4


@dataclass(frozen=True)
class DeckSpace:
    """The decks of :data:`~clashkit.engine.formats.HAND_SIZE` different cards of ``cards``."""

    cards: CardSet
    size: int = HAND_SIZE
    _costs: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _creature: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.cards) <= self.size:
            raise DeckError(
                f"the card set holds {len(self.cards)} cards: a deck space needs more than {self.size} (R2.1)"
            )
        object.__setattr__(self, "_costs", tuple(card.cost for card in self.cards))
        object.__setattr__(self, "_creature", tuple(card.is_creature for card in self.cards))

    # --- Decks ----------------------------------------------------------------------------

    def deck(self, names: Sequence[str]) -> Deck:
        """The deck of these card names (the card set's own names; eight different ones)."""
        ids = sorted(set(self.cards.ids(names)))
        if len(ids) != self.size:
            raise DeckError(f"a deck holds {self.size} different cards (R2.1), not {', '.join(names)}")
        return tuple(ids)

    def names(self, deck: Deck) -> tuple[str, ...]:
        """The deck's card names, in the card set's order."""
        return self.cards.sorted_names(deck)

    def starters(self) -> dict[int, Deck]:
        """The card set's starter decks (R7.1), by number."""
        return {number: self.deck(names) for number, names in self.cards.decks.items()}

    def random_deck(self, rng: Rng) -> Deck:
        """A deck drawn uniformly from the space."""
        return tuple(sorted(rng.sample(range(len(self.cards)), self.size)))

    def mutate(self, deck: Deck, rng: Rng) -> Deck:
        """``deck`` with one card (one time in :data:`DOUBLE_SWAP`, two) swapped for cards it lacks."""
        swaps = 2 if rng.randrange(DOUBLE_SWAP) == 0 else 1
        kept = list(deck)
        for card in rng.sample(kept, swaps):
            kept.remove(card)
        outside = [c for c in range(len(self.cards)) if c not in deck]
        return tuple(sorted(kept + rng.sample(outside, swaps)))

    def cross(self, first: Deck, second: Deck, rng: Rng) -> Deck:
        """A deck of cards drawn from both parents: what they share, and the rest drawn from either."""
        shared = sorted(set(first) & set(second))
        either = sorted(set(first) ^ set(second))
        return tuple(sorted(shared + rng.sample(either, self.size - len(shared))))

    def swapped(self, deck: Deck, out: int, into: int) -> Deck:
        """``deck`` with card ``out`` replaced by card ``into`` (not in it)."""
        return tuple(sorted([c for c in deck if c != out] + [into]))

    # --- The two axes ---------------------------------------------------------------------

    def mean_cost(self, deck: Deck) -> float:
        return sum(self._costs[c] for c in deck) / self.size

    def creatures(self, deck: Deck) -> int:
        return sum(self._creature[c] for c in deck)

    def niche(self, deck: Deck) -> tuple[int, int]:
        """The deck's cell: (mean-cost column, creatures).  Column ``k`` holds mean costs from
        ``k * COST_STEP`` up to the next step."""
        return math.floor(self.mean_cost(deck) / COST_STEP + 1e-9), self.creatures(deck)

    def cost_of_column(self, column: int) -> float:
        """The lowest mean cost of a column."""
        return column * COST_STEP


__all__ = ["COST_STEP", "Deck", "DeckSpace"]
