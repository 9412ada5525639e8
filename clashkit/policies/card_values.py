"""The card values the bots build decks by (R7.2, R7.3): fitted by a meta study, shipped as data.

``data/card-values.csv`` is what ``make card-values`` writes (``clashkit meta --policy expert …
--write-values``, :func:`clashkit.studies.meta.values.values_csv`): one row a card, its ``value``
— how much a deck of the meta scores more holding the card than an ordinary other card, in points
of score (a win 1, an unfinished game 1/2) — and, on every row, the digest of the card set it was
fitted on (:meth:`~clashkit.base.cards.CardSet.digest`, column ``card_set``).  :func:`fitted_values`
gives those values to a card set only when it is that set, card for card; any other set (an
edited card file, a random one) gets ``None``, and the bots rank its cards by the formula of
:func:`clashkit.policies.greedy.card_value` as before.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ..base.cards import CardSet
from ..base.shipped import shipped_file

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


__all__ = ["CARD", "CARD_SET", "SHIPPED_VALUES", "VALUE", "fitted_values", "read_values"]
