"""Changes to card values, as the tuner makes them: one field of one card from one value to
another (:class:`Change`), the changes a card file allows (:func:`candidates`), their size and
which way each field moves its deck."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...base.cards import CardSet
from ...base.errors import OptionError
from .variants import _AMOUNT_EFFECTS, FIELDS, field_value, vary


@dataclass(frozen=True, slots=True)
class Change:
    """One field of one card changed: ``card``'s ``field`` from ``old`` to ``new``."""

    card: str
    field: str
    old: int
    new: int

    def __str__(self) -> str:
        return f"{self.card} {self.field} {self.old} → {self.new}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "from": self.old, "to": self.new}


def apply_changes(cards: CardSet, changes: Iterable[Change]) -> CardSet:
    """``cards`` with every change made (in place, :func:`vary`)."""
    for change in changes:
        cards = vary(cards, change.card, **{change.field: change.new})
    return cards


def size(changes: Iterable[Change]) -> int:
    """How far a set of changes moves the cards: the sum of ``|new − old|`` (the tuner's second
    objective, after the number of changes)."""
    return sum(abs(c.new - c.old) for c in changes)


#: Which way a field moves its deck (R1.3, R5.5): a dearer card is weaker, more attack,
#: health or amount stronger.
STRENGTHENS = {"cost": -1, "attack": 1, "health": 1, "amount": 1}


def candidates(
    cards: CardSet,
    fields: Sequence[str],
    step: int,
    *,
    names: Sequence[str] | None = None,
    done: Iterable[tuple[str, str]] = (),
    sizes: Sequence[int] | None = None,
) -> list[Change]:
    """Every single-field change of ±``step`` (or of each of ``sizes``) to a card of a starter
    deck that the card file allows (cost ≥ 0, health ≥ 1, …: :mod:`clashkit.base.limits`),
    fields already changed (``done``) left out."""
    done = set(done)
    steps = [step] if sizes is None else list(sizes)
    out = []
    for card in cards:
        if card.deck is None or (names is not None and card.name not in names):
            continue
        for f in fields:
            if f not in FIELDS[card.kind] or (card.name, f) in done:
                continue
            if f == "amount" and card.effect not in _AMOUNT_EFFECTS:
                continue
            value = field_value(card, f)
            for by in steps:
                for new in (value - by, value + by):
                    try:
                        vary(cards, card.name, **{f: new})
                    except OptionError:
                        continue
                    out.append(Change(card.name, f, value, new))
    return out


__all__ = ["STRENGTHENS", "Change", "apply_changes", "candidates", "size"]
