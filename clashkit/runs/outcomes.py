"""Who won, and nothing else: many short pairings of fixed decks, as a study that compares
thousands of decks plays them (:mod:`clashkit.studies.meta`).

:class:`Pairings` plays games of two fixed decks under one :class:`~clashkit.runs.spec.Matchup`'s
policies, cards and rules and returns only their winners: the same games
:func:`~clashkit.runs.simulate.simulate` plays for those decks and seeds, without the frames that
cost milliseconds a run whatever its size, and (in the fast engine) with the card tables and
policies set up once for every pairing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ..engine import formats
from ..engine.records import GameRecords
from .simulate import play_game
from .spec import Matchup

#: The winner codes: seat A won, seat B won, no one (the turn limit, R10.1).
A_WON, B_WON, UNFINISHED = 0, 1, -1


class Pairings:
    """Games of any two fixed decks with ``matchup``'s policies, cards, rules and engine (its own
    decks are only checked, as every matchup's are)."""

    def __init__(self, matchup: Matchup) -> None:
        self.matchup = matchup
        self.engine = None
        if matchup.engine == "fast":
            from .fast_games import Engine

            self.engine = Engine(matchup)

    def winners(self, deck_a: Sequence[int], deck_b: Sequence[int], seeds: Sequence[int] | np.ndarray) -> np.ndarray:
        """The winner of each game of ``deck_a`` (seat A) against ``deck_b``, card ids of eight
        different cards each, with these seeds, as ``int8``: :data:`A_WON`, :data:`B_WON` or
        :data:`UNFINISHED`."""
        if self.engine is not None:
            return self.engine.outcomes(np.asarray(seeds, dtype=np.uint64), (deck_a, deck_b))
        m = self.matchup
        cards = m.card_set
        matchup = dataclasses.replace(
            m,
            deck_a=formats.parse_deck(list(cards.sorted_names(deck_a)), cards, side="A"),
            deck_b=formats.parse_deck(list(cards.sorted_names(deck_b)), cards, side="B"),
            mirror=sorted(deck_a) == sorted(deck_b),
        )
        records = GameRecords()
        for game, seed in enumerate(seeds):
            play_game(matchup, game, int(seed), records)
        return np.asarray(records.winner, dtype=np.int8)


__all__ = ["A_WON", "B_WON", "UNFINISHED", "Pairings"]
