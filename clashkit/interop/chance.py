"""The setup as chance outcomes: the deal (R2.2, R8.1) and the coin (R2.3), one draw at a time.

A game's randomness is its setup.  After it, a duel draws nothing: every
rule is deterministic and every choice is a player's.  The adapters therefore
write the setup as explicit chance events, in the order clashkit's own setup
draws them (:func:`clashkit.engine.setup.new_duel`, :func:`~clashkit.engine.setup.deal_solo`):

1. A's hand, left to right after the keep: each draw is the card for the next
   place, uniform over A's cards not yet placed (a uniform shuffle, R2.2);
2. B's hand the same way — in solo, the AI pile, top first, above its keep (R8.1);
3. in a duel, the coin: ``0`` A starts, ``1`` B starts (R2.3; solo: R8.9 decides).

A chance outcome is a card id (or the coin's side); a card held twice is one
outcome with twice the probability.  The one draw the rules make later — the
solo AI's reshuffle when its Bastion is left alone (R8.7), in the middle of
an AI turn — comes from the game's generator, as in clashkit; that generator
starts where clashkit's setup with the game's ``seed`` leaves it, so
:meth:`Setup.outcomes_for_seed` and the ``seed`` parameter together give
exactly the game :func:`clashkit.runs.game.new_game` deals with that seed.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..base.cards import CardSet, load_cards, starter_set
from ..base.errors import DeckError, OptionError
from ..base.rng import Rng
from ..base.rules import Rules
from ..base.vocab import KEEP, Mode
from ..engine import formats
from ..engine.setup import begin, deal_hand
from ..engine.solo_setup import split_cards
from ..engine.state import GameState
from .encoding import Table

#: The coin's outcomes (R2.3).
COIN = (0, 1)


@dataclass(frozen=True)
class Setup:
    """One game's cards, rules and decks, checked, with the chance events of its deal.

    ``deck_a`` / ``deck_b`` are card ids in the order clashkit's setup shuffles
    them; in solo ``deck_b`` is the AI's cards."""

    cards: CardSet
    rules: Rules
    solo: bool
    deck_a: tuple[int, ...]
    deck_b: tuple[int, ...]
    seed: int = 0

    @classmethod
    def build(
        cls,
        deck_a: str | int = "1",
        deck_b: str | int = "2",
        *,
        mode: str = "duel",
        cards: str | os.PathLike | CardSet | None = None,
        rules: Rules | Mapping[str, Any] | None = None,
        seed: int = 0,
        mirror: bool = False,
    ) -> Setup:
        """From the adapters' parameters: decks as the command line writes them (a starter
        deck ``1``–``4`` or 8 names joined by ``+`` or ``,``), ``cards`` a card file or set,
        ``rules`` a :class:`~clashkit.base.rules.Rules` or a mapping of its options."""
        card_set = cards if isinstance(cards, CardSet) else (load_cards(cards) if cards else starter_set())
        rule_set = Rules.coerce(rules)
        try:
            solo = Mode(str(mode).lower()) is Mode.SOLO
        except ValueError:
            raise OptionError(f"mode {mode!r} is not a mode (duel, solo)") from None
        text_a = str(deck_a).replace("+", ",").strip()
        if solo:
            formats.check_first_player(rule_set, "", solo=True)
            if text_a.lower() == "draft":
                raise DeckError(
                    "deck A: the adapters deal fixed decks; the solo draft (R8.1) is not one of their chance events"
                )
            _, mine, ai = split_cards(text_a, None, card_set, Rng(0))
            return cls(card_set, rule_set, True, tuple(mine), tuple(ai), seed)
        spec_a = formats.parse_deck(text_a, card_set, side="A")
        spec_b = formats.parse_deck(str(deck_b).replace("+", ",").strip(), card_set, side="B")
        fmt = formats.format_of(spec_a, spec_b, mirror=mirror)
        if fmt in (formats.DRAFT, formats.CONSTRUCTED):
            raise DeckError(f"decks: the adapters deal fixed decks (a starter deck or 8 names), not the {fmt} format")
        formats.check_first_player(rule_set, fmt)
        a, b = card_set.ids(spec_a.names), card_set.ids(spec_b.names)
        for side, deck in (("A", a), ("B", b)):
            if len(deck) != 8:
                raise DeckError(f"deck {side}: a duel hand has 8 cards (R2.1), got {len(deck)}")
        return cls(card_set, rule_set, False, tuple(a), tuple(b), seed)

    # --- The chance events ---------------------------------------------------------------

    @property
    def draws(self) -> int:
        """How many chance events the setup has."""
        return len(self.deck_a) + len(self.deck_b) + (0 if self.solo else 1)

    def outcomes(self, drawn: list[int]) -> list[tuple[int, float]]:
        """The next chance event's ``(outcome, probability)`` after ``drawn``, ascending."""
        k = len(drawn)
        if k >= len(self.deck_a) + len(self.deck_b):
            return [(side, 0.5) for side in COIN]
        if k < len(self.deck_a):
            pool = Counter(self.deck_a) - Counter(drawn)
        else:
            pool = Counter(self.deck_b) - Counter(drawn[len(self.deck_a) :])
        total = sum(pool.values())
        return [(card, count / total) for card, count in sorted(pool.items())]

    def describe(self, drawn_before: int, outcome: int) -> str:
        """A chance outcome as text (``A hand 3: OGRE``, ``coin: B starts``)."""
        n_a = len(self.deck_a)
        if drawn_before >= n_a + len(self.deck_b):
            return f"coin: {'AB'[outcome]} starts"
        if drawn_before < n_a:
            return f"A hand {drawn_before + 1}: {self.cards.names[outcome]}"
        where = "AI pile" if self.solo else "B hand"
        return f"{where} {drawn_before - n_a + 1}: {self.cards.names[outcome]}"

    def start(self, drawn: list[int]) -> GameState:
        """The game at the first player's first turn once every chance event is drawn."""
        n_a, n_b = len(self.deck_a), len(self.deck_b)
        mode = Mode.SOLO if self.solo else Mode.DUEL
        state = GameState(self.cards, self.rules, mode=mode, seed=self.seed, record=False)
        state.hands[0] = [KEEP, *drawn[:n_a]]
        if self.solo:
            state.hands[1] = []
            state.pile = [*drawn[n_a : n_a + n_b], KEEP]
            state.forts[1] = self.rules.solo.ai_starts_as_fort
            first = 1 if self.rules.solo.ai_first else 0
        else:
            state.hands[1] = [KEEP, *drawn[n_a : n_a + n_b]]
            first = drawn[n_a + n_b]
        state.rng.setstate(self._rng_after_setup)
        begin(state, first)
        return state

    # --- The same game as clashkit's setup with the seed ---------------------------------

    @cached_property
    def _dealt_by_seed(self) -> tuple[list[int], int]:
        """What clashkit's setup draws with ``seed`` (R10.2): the outcomes, and the generator after."""
        state = GameState(self.cards, self.rules, mode=Mode.SOLO if self.solo else Mode.DUEL, seed=self.seed)
        drawn = deal_hand(state, self.deck_a)[1:]  # as clashkit.engine.setup.new_duel / deal_solo draw
        if self.solo:
            pile = list(self.deck_b)
            state.rng.shuffle(pile)
            drawn += pile
        else:
            drawn += deal_hand(state, self.deck_b)[1:]
            drawn.append(state.rng.randrange(2))
        return drawn, state.rng.getstate()

    def outcomes_for_seed(self) -> list[int]:
        """The chance outcomes clashkit's setup draws with this setup's ``seed``."""
        return list(self._dealt_by_seed[0])

    @property
    def _rng_after_setup(self) -> int:
        return self._dealt_by_seed[1]

    @cached_property
    def table(self) -> Table:
        """The sizes of the game's encodings: ``P`` is the most cards a player owns (the most
        creatures one side of one lane can hold); the opponent's row is a hand of 9 or the
        AI pile with its keep."""
        positions = max(len(self.deck_a), len(self.deck_b), 1)
        row = max(9, len(self.deck_b) + 1) if self.solo else 9
        return Table(self.cards, self.solo, positions, row, self.rules.turn_limit)


__all__ = ["COIN", "Setup"]
