"""The policy interface: what a bot (or a widget, or a person) decides in a game.

The decision protocol: at every point where the active player has a choice
— some card they may play (:func:`~clashkit.engine.legality.legal_cards`) — the game
loop asks :meth:`Policy.decide`, handing it those legal cards, and gets back a
*decision*, a plain value — one of the
:class:`~clashkit.engine.actions.Action` values of
:func:`~clashkit.engine.legality.legal_actions` — which the loop applies with the
engine's one entry point (:func:`~clashkit.engine.apply_unchecked`).  A
policy never changes the state itself.  The loop also asks it the rules'
other questions: the order of simultaneous returns (R4.6); and
for the choices of the formats: draft picks (R7.2, R8.1), the constructed
ten and bans (R7.3).  Every default here is a plain, deterministic choice, so a
policy only overrides what it cares about.  Randomness comes from
``state.rng`` or the ``rng`` passed in — the game's one seeded generator
(R10.2) — never from global state.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.cards import CardSet
from ..base.rng import Rng
from ..engine.actions import Action
from ..engine.state import GameState


class Policy:
    """Base class of every policy; ``name`` is how the command line and the frames call it."""

    name = "policy"
    #: Constructor arguments only code passes, never written in a policy's name on the command
    #: line or in a notebook menu (``expert``'s ``weights``, a tuple of floats for fitting).
    code_only_options: tuple[str, ...] = ()

    def decide(self, state: GameState, cards: list[tuple[int, int]] | None = None) -> Action:
        """The decision now: one of ``legal_actions(state)`` (of which there are at least two;
        the last one always moves the turn on).  It must not change ``state``.

        ``cards``: the legal cards now (:func:`~clashkit.engine.legality.legal_cards`, never empty),
        which the game loop has read already; a policy reads them itself when not given."""
        raise NotImplementedError

    def order_returns(self, state: GameState, owner: int, cards: list[int]) -> list[int]:
        """R4.6: the order in which ``owner``'s creatures destroyed together return (default kept)."""
        return cards

    def pick(self, cards: CardSet, offered: Sequence[int], mine: Sequence[int], rng: Rng) -> int:
        """R7.2, R8.1: pick one card id from ``offered`` for a hand holding ``mine``."""
        return offered[0]

    def pick_solo(self, cards: CardSet, offered: Sequence[int], mine: Sequence[int], rng: Rng) -> int:
        """R8.1: pick one card id from ``offered`` in the solo draft (the AI gets the rest); by
        default as in a duel's draft (:meth:`pick`)."""
        return self.pick(cards, offered, mine, rng)

    def choose_ten(self, cards: CardSet, rng: Rng) -> list[int]:
        """R7.3: ten different card ids from a full kit."""
        return list(range(10))

    def ban(self, cards: CardSet, theirs: Sequence[int], mine: Sequence[int], rng: Rng) -> int:
        """R7.3: the card id to remove from the opponent's revealed cards ``theirs``."""
        return theirs[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
