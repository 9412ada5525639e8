"""The card values the bots build decks by (R7.2, R7.3), fitted by a meta study and shipped as
data, and the draw of their constructed ten.

``data/card-values.csv`` is what ``make card-values`` writes (``clashkit meta --policy expert …
--write-values``, :func:`clashkit.studies.meta.values.values_csv`): one row a card, its ``value``
— how much a deck of the meta scores more holding the card than an ordinary other card, in points
of score (a win 1, an unfinished game 1/2) — and, on every row, the digest of the card set it was
fitted on (:meth:`~clashkit.base.cards.CardSet.digest`, column ``card_set``).  :func:`fitted_values`
gives those values to a card set only when it is that set, card for card; any other set (an
edited card file, a random one) gets ``None``, and the bots rank its cards by the formula of
:func:`clashkit.policies.greedy.card_value`.  Either way the constructed ten are drawn by
:func:`draw_ten` with the weights of :func:`draw_weights` (``GreedyPolicy.choose_ten``).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path

from ..base.cards import CardSet
from ..base.rng import Rng
from ..base.shipped import shipped_file
from ..engine.formats import CONSTRUCTED_CHOICE

#: The shipped values, as the repository holds them.
SHIPPED_VALUES = "data/card-values.csv"
#: The file's columns read here: the card's name, its value, the digest of the set it was fitted on.
CARD, VALUE, CARD_SET = "card", "value", "card_set"

_READ: dict[tuple[Path, int], tuple[str, dict[str, float]] | None] = {}


def read_values(path: Path) -> tuple[str, dict[str, float]] | None:
    """The digest and the values by card name of a values file, or ``None`` when it is missing, is
    not such a file or names more than one card set (read once per version of the file)."""
    try:
        key = (path, path.stat().st_mtime_ns)
    except OSError:
        return None
    if key not in _READ:
        _READ.clear()
        _READ[key] = _parse(path)
    return _READ[key]


def _parse(path: Path) -> tuple[str, dict[str, float]] | None:
    try:
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
        digests = {row[CARD_SET] for row in rows}
        values = {row[CARD]: float(row[VALUE]) for row in rows}
    except (OSError, UnicodeDecodeError, csv.Error, KeyError, TypeError, ValueError):
        return None
    if len(digests) != 1 or len(values) != len(rows):
        return None
    return digests.pop(), values


def fitted_values(cards: CardSet, path: Path | None = None) -> tuple[float, ...] | None:
    """The fitted value of every card of ``cards`` by id, when the values file (the shipped one
    unless ``path``) was fitted on this very set (the same digest, every card valued); else ``None``."""
    read = read_values(path if path is not None else shipped_file(SHIPPED_VALUES))
    if read is None:
        return None
    digest, values = read
    if digest != cards.digest() or set(values) != set(cards.names):
        return None
    return tuple(values[name] for name in cards.names)


#: R7.2, R7.3: the incantations a bot's draft hand and its constructed ten hold at most while
#: creatures are left to take.
INCANTATIONS_KEPT = 3
#: How far the constructed ten lean to valuable cards: a card whose choice value is one standard
#: deviation (of the set's choice values) above another's is drawn ``e ** (1 / DRAW_TEMPERATURE)``
#: times as often (about 7 times).
DRAW_TEMPERATURE = 0.5
#: The draw weight of the set's most valuable card; the others' in proportion, at least 1.
DRAW_SCALE = 1 << 20


def draw_weights(values: Sequence[float]) -> tuple[int, ...]:
    """Each card's whole-number weight in the draw of the constructed ten (:func:`draw_ten`), from
    its choice value standardized over the set: ``DRAW_SCALE`` × e^((value − best) / (sd ×
    DRAW_TEMPERATURE)), rounded, at least 1.  Whole numbers, so that both engines draw the same
    cards from the same numbers (R10.2); all equal when the values are."""
    mean = sum(values) / len(values) if values else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) if values else 0.0
    if sd == 0.0:
        return tuple(DRAW_SCALE for _ in values)
    best = max(values)
    return tuple(max(1, round(DRAW_SCALE * math.exp((v - best) / (sd * DRAW_TEMPERATURE)))) for v in values)


def draw_ten(pool: Sequence[int], is_creature: Sequence[bool], weight: Sequence[int], rng: Rng) -> list[int]:
    """R7.3: ten different cards of ``pool`` (the kit), drawn one by one without replacement from
    the game's generator, each with chance in proportion to its ``weight`` among the cards still
    open.  Incantations are open while fewer than ``INCANTATIONS_KEPT`` are drawn, or once no
    creature is left (a kit short of creatures).  One ``rng.randrange(total weight open)`` a card,
    the cards counted in pool order; the compiled draw (:func:`clashkit.fast.setup.choose_ten`)
    is the same."""
    left = list(pool)
    creatures = sum(1 for c in left if is_creature[c])
    spells = 0
    chosen: list[int] = []
    while len(chosen) < CONSTRUCTED_CHOICE:
        spells_open = spells < INCANTATIONS_KEPT or not creatures
        drawn_from = [c for c in left if spells_open or is_creature[c]]
        r = rng.randrange(sum(weight[c] for c in drawn_from))
        for c in drawn_from:
            if r < weight[c]:
                break
            r -= weight[c]
        left.remove(c)
        chosen.append(c)
        if is_creature[c]:
            creatures -= 1
        else:
            spells += 1
    return chosen


__all__ = [
    "CARD",
    "CARD_SET",
    "DRAW_SCALE",
    "DRAW_TEMPERATURE",
    "INCANTATIONS_KEPT",
    "SHIPPED_VALUES",
    "VALUE",
    "draw_ten",
    "draw_weights",
    "fitted_values",
    "read_values",
]
