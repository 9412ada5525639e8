"""What each card is worth in the meta: a deck's score with the card against its score without it.

For each card and each of the study's best decks that holds it, the deck is played with the card
**swapped out** for another card it lacks (drawn by the study's generator), against the whole field,
on the same seeds as the deck itself (the values phase): the card's value is the mean paired
difference, the deck's score with the card minus without. A card that no best deck holds is valued
the other way round: **swapped in** for a card of each best deck (drawn too), its value the deck's
score with it minus without. Either way the value says how much better a deck of the meta does
holding the card than holding an ordinary other card, in points of score, with a 95% interval over
the paired games (normal, from their spread; never narrower than 3 / games, the rule of three). The
**inclusion** is the card's share of the meta: the equilibrium weight
(:mod:`clashkit.studies.meta.equilibrium`) of the best decks holding it.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ...base.cards import CardSet
from ...base.rng import Rng
from ...base.stats import Z95
from ...policies.card_values import CARD_SET
from .games import VALUES, Match
from .space import Deck, DeckSpace


@dataclass(frozen=True, slots=True)
class Variant:
    """Best deck ``base`` (its index) with card ``card`` swapped out (``holds``) or in: ``with_card``
    and ``without`` are the two decks compared."""

    card: int
    base: int
    holds: bool
    with_card: Deck
    without: Deck


def variants(space: DeckSpace, best: Sequence[Deck], rng: Rng) -> list[Variant]:
    """Every card's comparisons: out of each best deck holding it, else into each best deck."""
    held = {c for deck in best for c in deck}
    every = range(len(space.cards))
    out: list[Variant] = []
    for card in every:
        for index, deck in enumerate(best):
            if card in deck:
                other = rng.choice([c for c in every if c not in deck])
                out.append(Variant(card, index, True, deck, space.swapped(deck, card, other)))
            elif card not in held:
                replaced = rng.choice(list(deck))
                out.append(Variant(card, index, False, space.swapped(deck, replaced, card), deck))
    return out


def play_values(
    found: Sequence[Variant], field: Sequence[Deck], best: Sequence[Deck], games: int
) -> Generator[list[Match], list[np.ndarray], dict[Deck, np.ndarray]]:
    """A plan that plays every deck the comparisons need against every deck of ``field`` but the
    best deck it comes from, on ``games`` seeds of the values phase; returns each deck's scores
    (its matches' scores one after another, in the field's order)."""
    decks: dict[Deck, Deck] = {}  # each deck compared -> the best deck it comes from
    for v in found:
        base = best[v.base]
        decks.setdefault(v.with_card, base)
        decks.setdefault(v.without, base)
    matches = [
        Match(deck, opponent, VALUES, games) for deck, base in decks.items() for opponent in field if opponent != base
    ]
    scores = yield matches
    by_deck: dict[Deck, list[np.ndarray]] = {}
    for match, score in zip(matches, scores, strict=True):
        by_deck.setdefault(match.deck, []).append(score)
    return {deck: np.concatenate(parts) for deck, parts in by_deck.items()}


def card_values(
    space: DeckSpace, found: Sequence[Variant], scores: dict[Deck, np.ndarray], inclusion: Sequence[float]
) -> pl.DataFrame:
    """One row a card, most valuable first: ``card``, ``value`` with ``low`` and ``high``,
    ``inclusion``, ``measured`` (``out`` or ``in``), ``decks`` (best decks compared) and ``games``."""
    rows = []
    for card in range(len(space.cards)):
        mine = [v for v in found if v.card == card]
        differences = np.concatenate([scores[v.with_card] - scores[v.without] for v in mine])
        value = float(differences.mean())
        spread = float(differences.std(ddof=1)) if len(differences) > 1 else 1.0
        # Never narrower than the rule of three: no differing game in N bounds their share by 3 / N.
        half = max(Z95 * spread / np.sqrt(len(differences)), 3.0 / len(differences))
        rows.append(
            {
                "card": space.cards[card].name,
                "value": value,
                "low": value - half,
                "high": value + half,
                "inclusion": float(inclusion[card]),
                "measured": "out" if mine[0].holds else "in",
                "decks": len(mine),
                "games": len(differences),
            }
        )
    return pl.DataFrame(rows).sort(["value", "card"], descending=[True, False])


#: The card values file's columns (:func:`values_csv`; the last, the digest of the card set, is
#: :mod:`clashkit.policies.card_values`' to read), and its numbers' decimals.
VALUE_COLUMNS = ("card", "value", "low", "high", "inclusion", "measured", "decks", "games", CARD_SET)
VALUE_DECIMALS = 4


def values_csv(cards: pl.DataFrame, card_set: CardSet) -> str:
    """A study's card values (:func:`card_values`' frame) as the text of a CSV file, the same bytes
    on every machine for the same study: numbers rounded to :data:`VALUE_DECIMALS` places, cards in
    the frame's order (most valuable first), each row naming the card set studied by its digest
    (:meth:`~clashkit.base.cards.CardSet.digest`), so that the bots use the values on that set only
    (:func:`clashkit.policies.card_values.fitted_values`)."""
    numbers = [c for c in ("value", "low", "high", "inclusion") if c in cards.columns]
    named = cards.with_columns(pl.lit(card_set.digest()).alias(CARD_SET))
    rounded = named.select(VALUE_COLUMNS).with_columns(pl.col(numbers).round(VALUE_DECIMALS))
    return rounded.write_csv(float_precision=VALUE_DECIMALS, line_terminator="\n")


__all__ = ["VALUE_COLUMNS", "Variant", "card_values", "play_values", "values_csv", "variants"]
