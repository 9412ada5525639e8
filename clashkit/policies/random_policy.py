"""``random``: uniform over the legal actions, at every decision and every format choice."""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.formats import kit
from ..engine.legality import legal_actions
from ..engine.state import GameState
from .base import Policy


class RandomPolicy(Policy):
    """Picks uniformly with the game's generator (R10.2)."""

    name = "random"

    def decide(self, state: GameState, cards=None) -> Action:
        legal = legal_actions(state)
        return legal[state.rng.randrange(len(legal))]

    def order_returns(self, state, owner, cards):
        cards = list(cards)
        state.rng.shuffle(cards)
        return cards

    def pick(self, cards, offered, mine, rng):
        return offered[rng.randrange(len(offered))]

    def choose_ten(self, cards, rng):
        """R7.3: ten different cards of the kit, drawn uniformly."""
        return rng.sample(kit(cards), 10)

    def ban(self, cards, theirs, mine, rng):
        return theirs[rng.randrange(len(theirs))]
