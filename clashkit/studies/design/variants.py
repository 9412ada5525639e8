"""Card sets that differ in one card (R9.3): a card changed in place, so decks keep their
order and their deals; the fields a designer varies: numbers (:data:`FIELDS`) and what a card
does (:data:`TEXT_FIELDS`)."""

from __future__ import annotations

from collections.abc import Mapping

from ...base.cards import Card, CardSet, card_from_fields, card_row
from ...base.errors import OptionError
from ...base.suggest import did_you_mean
from ...base.vocab import Effect, Kind

#: The fields :func:`sweep` can set: a creature's cost, attack and health, an incantation's
#: cost and the amount of an effect that has one (``damage 3``).
FIELDS = {
    Kind.CREATURE: ("cost", "attack", "health"),
    Kind.INCANTATION: ("cost", "amount"),
}
_AMOUNT_EFFECTS = (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER)
#: The fields of what a card does that :func:`vary` can set, each the text of a card-file
#: cell (``docs/cards.md``; ``""``: none): a creature's abilities (R6) and Aura (R6.8), an
#: incantation's effect and the side it is meant for (R5.5).  ``ability`` writes the whole
#: ``abilities`` cell (``"splash;pierce"``).
TEXT_FIELDS = {
    Kind.CREATURE: ("ability", "aura"),
    Kind.INCANTATION: ("effect", "target"),
}
#: The card-file column each of :data:`TEXT_FIELDS` writes.
COLUMNS = {"ability": "abilities", "aura": "aura", "effect": "effect", "target": "target"}


# --- Card sets that differ in one card -----------------------------------------------------


def unknown_card(name: str, cards: CardSet, *, asked: object = None) -> OptionError:
    """The one error for a card name the set does not hold, with the closest names in it
    (``asked``: what the caller was given, shown as given; else ``name``)."""
    shown = name if asked is None else asked
    return OptionError(f"unknown card {shown!r} (not in the card set){did_you_mean(name, cards.names)}")


def replace_card(cards: CardSet, card: Card) -> CardSet:
    """``cards`` with the card of the same name replaced *in place* (same id, same deck order),
    so that every deck deals as before and games on the same seeds stay comparable."""
    if card.name not in cards:
        raise unknown_card(card.name, cards)
    new = CardSet(card if c.name == card.name else c for c in cards)
    new.source = cards.source
    return new


def vary(cards: CardSet, name: str, **values: int) -> CardSet:
    """``cards`` with card ``name``'s fields set (``attack=6``, ``cost=2``, ``amount=3``),
    checked as the card file would check them (R9.3)."""
    card = _card_of(cards, name)
    row = card_row(card)
    for key, value in values.items():
        _check_field(card, key, FIELDS[card.kind])
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{name} {key}={value!r}: a value must be a whole number")
        if key == "amount":
            if card.effect not in _AMOUNT_EFFECTS:
                raise OptionError(f"{name}: effect {card.effect_text!r} takes no amount (R5.5)")
            row["effect"] = f"{card.effect.value} {value}"
        else:
            row[key] = str(value)
    return _rebuilt(cards, row, values)


def vary_text(cards: CardSet, name: str, **texts: str) -> CardSet:
    """``cards`` with card ``name``'s :data:`TEXT_FIELDS` set to card-file text
    (``ability="splash;rage"``, ``aura=""``, ``effect="destroy"``, ``target="ally"``), checked
    as the card file would check them (R9.3)."""
    card = _card_of(cards, name)
    row = card_row(card)
    for key, text in texts.items():
        _check_field(card, key, TEXT_FIELDS[card.kind])
        if not isinstance(text, str):
            raise OptionError(f"{name} {key}={text!r}: a value must be the card file's text")
        row[COLUMNS[key]] = text
    return _rebuilt(cards, row, texts)


def _card_of(cards: CardSet, name: str) -> Card:
    if name not in cards:
        raise unknown_card(str(name), cards)
    return cards.card(name)


def _check_field(card: Card, key: str, allowed: tuple[str, ...]) -> None:
    if key not in allowed:
        raise OptionError(
            f"{card.name} is {'a' if card.is_creature else 'an'} {card.kind.value}: "
            f"unknown field {key!r} (one of {', '.join(allowed)}){did_you_mean(key, allowed)}"
        )


def _rebuilt(cards: CardSet, row: dict[str, str], values: Mapping[str, object]) -> CardSet:
    """``cards`` with the card of ``row`` read back from it in place, or the card file's
    complaint as an :class:`OptionError` naming ``values``."""
    try:
        changed = card_from_fields(row)
    except ValueError as e:
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        raise OptionError(f"{row['name']} {shown}: {e}") from None
    return replace_card(cards, changed)


def field_value(card: Card, name: str) -> int:
    """The value of one of :data:`FIELDS` on ``card``."""
    return card.amount if name == "amount" else getattr(card, name)


def text_value(card: Card, name: str) -> str:
    """The text of one of :data:`TEXT_FIELDS` on ``card``: its card-file cell (``""``: none)."""
    return card_row(card)[COLUMNS[name]]


def vanilla(card: Card) -> Card:
    """The stand-in of a removed card: a creature of cost 1, attack 0, health 1, no ability,
    in the same deck under the same name."""
    return Card(card.name, Kind.CREATURE, 1, 0, 1, deck=card.deck, notes="vanilla stand-in")
