"""The policy interface: what a bot (or a widget, or a person) decides in a game.

A policy is asked at every decision with the state and the legal actions
(:meth:`Policy.choose`); for the order of simultaneous returns (R4.6); and
for the choices of the formats: draft picks (R7.2, R8.1), the constructed
ten and bans (R7.3).  Every default here is a plain, deterministic choice, so a
policy only overrides what it cares about.  Randomness comes from
``state.rng`` or the ``rng`` passed in — the game's one seeded generator
(R10.2) — never from global state.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..cards import CardSet
from ..rng import Rng
from ..state import GameState


class Policy:
    """Base class of every policy; ``name`` is how the command line and the frames call it."""

    name = "policy"

    # A policy may also define a method ``act(state) -> bool`` that chooses exactly as
    # ``choose`` would from the legal actions and carries the action out at once,
    # returning whether it was an attack (the next creature in the siege order took its
    # turn).  The game loop uses it, when it belongs to the same class as ``choose``, to
    # skip making and reading action values; it must leave the game exactly as ``choose``
    # would.  In the summon phase the loop calls it without first asking whether anything
    # is playable: with nothing to play it begins the siege, and leaves the policy as it was.

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty; the last one always moves the turn on)."""
        raise NotImplementedError

    def order_returns(self, state: GameState, owner: int, cards: list[int]) -> list[int]:
        """R4.6: the order in which ``owner``'s creatures destroyed together return (default kept)."""
        return cards

    def pick(self, cards: CardSet, offered: Sequence[int], mine: Sequence[int], rng: Rng) -> int:
        """R7.2, R8.1: pick one card id from ``offered`` for a hand holding ``mine``."""
        return offered[0]

    def choose_ten(self, cards: CardSet, rng: Rng) -> list[int]:
        """R7.3: ten different card ids from a full kit."""
        return list(range(10))

    def ban(self, cards: CardSet, theirs: Sequence[int], mine: Sequence[int], rng: Rng) -> int:
        """R7.3: the card id to remove from the opponent's revealed cards ``theirs``."""
        return theirs[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
