"""Changes to cards, as the tuner makes them: one field of one card from one value to another
(:class:`Change`) — a number (cost, attack, health, amount) or what the card does (an ability,
an Aura, an effect, the side an effect is meant for) — the changes a card file and R9.2 allow
(:func:`candidates`), their size and which way each moves its deck."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...base.cards import Aura, Card, CardSet
from ...base.errors import OptionError
from ...base.vocab import Ability, Direction, Effect, TargetSide
from ..card_sets import TARGETS, lacking
from .variants import _AMOUNT_EFFECTS, FIELDS, TEXT_FIELDS, field_value, text_value, vary, vary_text

#: How much a change of what a card does weighs in the tuner's size objective, beside a number's
#: change, which weighs ``|new − old|`` (one point of attack: 1).  A designer reads these as bigger
#: edits than a point of a value: they change how the card plays, not how much.
#:
#: * ``target`` 2: the same effect aimed at another side (R5.5) — the bots read it, the card
#:   text hardly changes;
#: * ``ability`` 3, ``aura`` 3: a creature given or denied a way to fight (R6, R6.8), which
#:   changes every fight it is in, so the tuner takes a change of one or two points of a value
#:   over it when both balance as well;
#: * ``effect`` 4: the incantation does something else (R5.5); a new amount comes with it free.
CHANGE_WEIGHT = {"ability": 3, "aura": 3, "effect": 4, "target": 2}


def weights_text() -> str:
    """:data:`CHANGE_WEIGHT` in words, lightest first: ``target 2, ability 3, …`` (the help)."""
    return ", ".join(f"{f} {w}" for f, w in sorted(CHANGE_WEIGHT.items(), key=lambda fw: fw[1]))


@dataclass(frozen=True, slots=True)
class Change:
    """One field of one card changed: ``card``'s ``field`` from ``old`` to ``new``.  A number
    field (:data:`~clashkit.studies.design.variants.FIELDS`) holds whole numbers; a field of
    what the card does (:data:`~clashkit.studies.design.variants.TEXT_FIELDS`) holds the card
    file cell's text, ``""`` for none (``ability``: the whole ``abilities`` cell)."""

    card: str
    field: str
    old: int | str
    new: int | str

    def __str__(self) -> str:
        return f"{self.card} {self.field} {_shown(self.old)} → {_shown(self.new)}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "from": self.old, "to": self.new}

    @property
    def undone(self) -> Change:
        """The change that takes this one back."""
        return Change(self.card, self.field, self.new, self.old)


def _shown(value: int | str) -> str:
    return "none" if value == "" else str(value)


def apply_changes(cards: CardSet, changes: Iterable[Change]) -> CardSet:
    """``cards`` with every change made (in place, :func:`vary` or :func:`vary_text`)."""
    for change in changes:
        cards = _applied(cards, change.card, change.field, change.new)
    return cards


def _applied(cards: CardSet, name: str, field: str, new: int | str) -> CardSet:
    if isinstance(new, str):
        return vary_text(cards, name, **{field: new})
    return vary(cards, name, **{field: new})


def change_size(change: Change) -> int:
    """How far one change moves its card: ``|new − old|`` for a number, else the field's
    :data:`CHANGE_WEIGHT`."""
    if change.field in CHANGE_WEIGHT:
        return CHANGE_WEIGHT[change.field]
    assert isinstance(change.new, int) and isinstance(change.old, int)
    return abs(change.new - change.old)


def size(changes: Iterable[Change]) -> int:
    """How far a set of changes moves the cards: the sum of :func:`change_size` (the tuner's
    second objective, after the number of changes)."""
    return sum(change_size(c) for c in changes)


#: Which way a number field moves its deck (R1.3, R5.5): a dearer card is weaker, more attack,
#: health or amount stronger.
STRENGTHENS = {"cost": -1, "attack": 1, "health": 1, "amount": 1}


def direction(change: Change) -> int:
    """Which way ``change`` moves its card's deck: +1 stronger, −1 weaker, 0 unknown.  A change
    of what a card does is 0: an ability, an Aura or an effect helps or hurts by the board
    (Sprint pulls a creature to the front, Indestructible also refuses helpful incantations,
    R6.5), so the search tries it either way."""
    if change.field not in STRENGTHENS:
        return 0
    assert isinstance(change.new, int) and isinstance(change.old, int)
    return STRENGTHENS[change.field] * (1 if change.new > change.old else -1)


def keeps_r9_2(before: CardSet, after: CardSet) -> bool:
    """R9.2: every special ability of R6 is on at least one shipped creature, and the shipped
    Auras reach each of the three directions.  ``after`` keeps it if it lacks nothing of that
    which ``before`` has (:func:`~clashkit.studies.card_sets.lacking`): on a set that holds R9.2,
    as the shipped one does, every candidate holds it too."""
    return set(lacking(after)) <= set(lacking(before))


def keeps_character(card: Card, change: Change) -> bool:
    """Whether ``change`` keeps ``card``'s character (the tuner's ``keep_character``): a cheap
    card stays cheap and a card keeps what it does, so each deck stays what its notes say
    (deck 1 brute force, deck 2 auras, deck 3 swarm, deck 4 tricks):

    * its cost moves by at most 1;
    * it loses no ability and no Aura (it may gain one, or an Aura change its ability or
      directions);
    * an incantation stays meant for the same side: ``ally`` stays ``ally``, ``enemy`` and
      ``any`` (which bots and the solo AI aim alike, R8.4) stay among themselves.
    """
    if change.field == "cost":
        assert isinstance(change.new, int)
        return abs(change.new - card.cost) <= 1
    if change.field == "ability":
        assert isinstance(change.new, str)
        return {a.value for a in card.abilities} <= set(change.new.split(";"))
    if change.field == "aura":
        return card.aura is None or change.new != ""
    if change.field == "target":
        return (card.target is TargetSide.ALLY) == (change.new == TargetSide.ALLY.value)
    return True


def meant_for(effect: Effect, side: TargetSide) -> bool:
    """Whether ``effect`` suits an incantation meant for ``side`` (R5.5): its natural side
    (:data:`~clashkit.studies.card_sets.TARGETS`: harm the enemy, help an ally, ``shift``
    either) is ``side``, ``any`` aiming as ``enemy`` does (R8.4)."""
    natural = TARGETS[effect]
    return natural is TargetSide.ANY or (natural is TargetSide.ALLY) == (side is TargetSide.ALLY)


def _direction_sets() -> list[tuple[Direction, ...]]:
    """Every non-empty set of Aura directions (R6.8), the single ones first, in
    :class:`~clashkit.base.vocab.Direction` order."""
    return [ds for k in range(1, len(Direction) + 1) for ds in combinations(Direction, k)]


def text_options(card: Card, field: str, amounts: Sequence[int]) -> list[str]:
    """The new texts of one of :data:`~clashkit.studies.design.variants.TEXT_FIELDS` that the
    tuner tries on ``card``, before the card file's and R9.2's checks:

    * ``ability``: one ability of R6 removed (each in turn), or one it lacks added;
    * ``aura``: the Aura removed, its ability changed (same directions) or its directions
      changed (same ability); a creature without one is given each ability toward each single
      direction (R6.8);
    * ``effect``: every other effect meant for the card's side (:func:`meant_for`); one with an
      amount keeps the card's amount, or takes each of ``amounts`` if it has none; ``grant`` each
      ability;
    * ``target``: each other side (R5.5).
    """
    if field == "ability":
        have = [a.value for a in card.abilities]
        out = [";".join(a for a in have if a != gone) for gone in have]
        return out + [";".join([*have, a.value]) for a in Ability if a.value not in have]
    if field == "aura":
        if card.aura is None:
            return [str(Aura(a, (d,))) for a in Ability for d in Direction]
        ability, reach = card.aura.ability, card.aura.directions
        out = [""]
        out += [str(Aura(a, reach)) for a in Ability if a is not ability]
        return out + [str(Aura(ability, ds)) for ds in _direction_sets() if set(ds) != set(reach)]
    if field == "effect":
        assert card.target is not None
        out = []
        for effect in Effect:
            if not meant_for(effect, card.target):
                continue
            if effect in _AMOUNT_EFFECTS:
                kept = card.effect in _AMOUNT_EFFECTS and card.amount > 0
                out += [f"{effect.value} {n}" for n in ([card.amount] if kept else amounts)]
            elif effect is Effect.GRANT:
                out += [f"{effect.value} {a.value}" for a in Ability]
            else:
                out.append(effect.value)
        return [text for text in out if text != card.effect_text]
    if field == "target":
        return [side.value for side in TargetSide if side is not card.target]
    raise OptionError(f"unknown field {field!r} of what a card does (one of ability, aura, effect, target)")


def candidates(
    cards: CardSet,
    fields: Sequence[str],
    step: int,
    *,
    names: Sequence[str] | None = None,
    done: Iterable[tuple[str, str]] = (),
    sizes: Sequence[int] | None = None,
    keep_character: bool = False,
    base: CardSet | None = None,
) -> list[Change]:
    """Every single-field change to a card of a starter deck that the card file allows (cost
    ≥ 0, health ≥ 1, …: :mod:`clashkit.base.limits`) and that keeps R9.2
    (:func:`keeps_r9_2`), fields already changed (``done``) left out: a number ±``step`` (or
    ± each of ``sizes``), what a card does as :func:`text_options` lists (``sizes`` the
    amounts of a new effect).  With ``keep_character`` only changes that keep the card's
    character as it is in ``base`` (default ``cards``; :func:`keeps_character`)."""
    done = set(done)
    steps = [step] if sizes is None else list(sizes)
    base = cards if base is None else base
    out = []
    for card in cards:
        if card.deck is None or (names is not None and card.name not in names):
            continue
        for f in fields:
            if (card.name, f) in done:
                continue
            if f in TEXT_FIELDS[card.kind]:
                old: int | str = text_value(card, f)
                news: list[int | str] = list(text_options(card, f, steps))
            elif f in FIELDS[card.kind] and (f != "amount" or card.effect in _AMOUNT_EFFECTS):
                old = field_value(card, f)
                news = [v for by in steps for v in (old - by, old + by)]
            else:
                continue
            for new in news:
                change = Change(card.name, f, old, new)
                if keep_character and card.name in base and not keeps_character(base.card(card.name), change):
                    continue
                try:
                    changed = _applied(cards, card.name, f, new)
                except OptionError:
                    continue
                if f in TEXT_FIELDS[card.kind] and not keeps_r9_2(cards, changed):
                    continue
                out.append(change)
    return out


__all__ = [
    "CHANGE_WEIGHT",
    "STRENGTHENS",
    "Change",
    "apply_changes",
    "candidates",
    "change_size",
    "direction",
    "keeps_character",
    "keeps_r9_2",
    "meant_for",
    "size",
    "text_options",
    "weights_text",
]
