"""Card sets drawn from ``expert``'s fitting set, by kind and seed: what ``expert`` is fitted on
and what its verdicts are checked on (R7.1, R9).

Every set starts from the frozen fitting set (:data:`clashkit.studies.expert_fit.FIT_CARDS`,
never ``data/cards.csv``): its 32 names, its four starter decks of eight (R7.1) and its six
incantations (R9.1) stay where they are, so every set plays the same pairings and deals.
Four kinds, each a function of one seed:

* ``fit`` — the fitting set itself (the seed is not read);
* ``moved`` — every value moved: each creature's cost, attack and health and each
  incantation's cost and amount one or two up or down, within the card file's limits
  (:data:`clashkit.base.limits.LIMITS`); abilities and Auras stay, so R9.2 holds as in the
  fitting set;
* ``random`` — the same names, decks and kinds with every value drawn afresh: creatures' cost,
  attack, health, abilities and Aura, incantations' effect (R5.5), amount and cost; then every
  ability of R6 is put on some creature that lacks it and every Aura direction on some Aura
  (R9.2) where the draw left one out;
* ``designer`` — the fitting set with one new card (:data:`NEW_CARD`: random cost, attack,
  health, abilities and, one time in two, an Aura) in one starter deck, in the place of one of
  its cards (the set's order kept, so :func:`clashkit.studies.design.compare` pairs the deals):
  what a designer asks about.

Randomness comes from one :class:`clashkit.base.rng.Rng` a set, seeded from the kind and the
seed, so a set is the same on every machine.  Every card is built from the text of a card-file
row by :func:`clashkit.base.cards.card_from_fields` and the set by
:class:`~clashkit.base.cards.CardSet`: a drawn set passes the card file's own checks, or the
draw fails loudly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..base.cards import Card, CardSet, card_from_fields, card_row, load_cards
from ..base.errors import OptionError
from ..base.limits import LIMITS
from ..base.rng import Rng
from ..base.shipped import shipped_file
from ..base.vocab import Ability, Direction, Effect, TargetSide

#: The kinds of set, in the order a fit or a benchmark lists them.
KINDS = ("fit", "moved", "random", "designer")
#: The card file every set starts from (``expert``'s fitting set; :mod:`clashkit.studies.expert_fit`).
FIT_CARDS = "data/expert-fit-cards.csv"
#: The name of a ``designer`` set's new card.
NEW_CARD = "NEWCOMER"
#: The ranges (inclusive) a ``random`` set's and a new card's values are drawn from: those of
#: the fitting set, a little wider.
COST = (0, 6)
INCANTATION_COST = (0, 4)
ATTACK = (0, 7)
HEALTH = (1, 8)
AMOUNT = (1, 4)
#: How many printed abilities a drawn creature has, drawn from this list.
ABILITY_COUNTS = (0, 0, 0, 1, 1, 1, 2)
#: The share of drawn creatures with an Aura (a new card: :data:`NEW_AURA`).
AURA = 0.25
NEW_AURA = 0.5
#: Whom a drawn incantation is meant for (R5.5), by effect: harm the enemy, help an ally.
TARGETS = {
    Effect.DAMAGE: TargetSide.ENEMY,
    Effect.DESTROY: TargetSide.ENEMY,
    Effect.BOUNCE: TargetSide.ENEMY,
    Effect.WEAKEN: TargetSide.ENEMY,
    Effect.SHIFT: TargetSide.ANY,
    Effect.EMPOWER: TargetSide.ALLY,
    Effect.GRANT: TargetSide.ALLY,
    Effect.HEAL: TargetSide.ALLY,
}
#: Effects that take an amount (``damage 2``).
_AMOUNTS = (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER)


@dataclass(frozen=True)
class DrawnSet:
    """One drawn card set: its kind, its seed and its cards; a ``designer`` set also names its new
    card, the card it replaced and the starter deck (R7.1) both belong to."""

    kind: str
    seed: int
    cards: CardSet
    new_card: str | None = None
    replaced: str | None = None
    deck: int | None = None

    @property
    def label(self) -> str:
        """``moved 7``; a designer set also says where its new card went."""
        if self.kind == "fit":
            return "fit"
        text = f"{self.kind} {self.seed}"
        if self.new_card is not None:
            text += f" ({self.cards.card(self.new_card).describe()} for {self.replaced}, deck {self.deck})"
        return text


def fit_set() -> CardSet:
    """The fitting set, :data:`FIT_CARDS`."""
    return load_cards(shipped_file(FIT_CARDS))


def draw(kind: str, seed: int = 0, base: CardSet | None = None) -> DrawnSet:
    """The set of ``kind`` (:data:`KINDS`) and ``seed``, drawn from ``base`` (default: the fitting set)."""
    if kind not in KINDS:
        raise OptionError(f"card set kind {kind!r}: one of {', '.join(KINDS)}")
    base = fit_set() if base is None else base
    if kind == "fit":
        return DrawnSet(kind, seed, base)
    rng = Rng(seed * len(KINDS) + KINDS.index(kind))
    if kind == "moved":
        return DrawnSet(kind, seed, CardSet(_moved(card, rng) for card in base))
    if kind == "random":
        return DrawnSet(kind, seed, _with_every_ability(CardSet(_redrawn(card, rng) for card in base), rng))
    return _designer(base, seed, rng)


def draws(kinds: Iterable[str], seeds: Iterable[int], base: CardSet | None = None) -> list[DrawnSet]:
    """Every set of ``kinds`` for every seed, seed by seed (the ``fit`` set once, first)."""
    base = fit_set() if base is None else base
    kinds = list(kinds)
    out = [draw("fit", 0, base)] if "fit" in kinds else []
    out += [draw(kind, seed, base) for seed in seeds for kind in kinds if kind != "fit"]
    return out


def lacking(cards: CardSet) -> list[str]:
    """What R9.2 asks of a set that ``cards`` lacks: abilities on no creature, Aura directions on no
    Aura (``["sprint", "aura side"]``); empty when every one is there."""
    creatures = [c for c in cards if c.is_creature]
    have = {a for c in creatures for a in c.abilities}
    reach = {d for c in creatures if c.aura is not None for d in c.aura.directions}
    return [a.value for a in Ability if a not in have] + [f"aura {d.value}" for d in Direction if d not in reach]


# --- Drawing values ------------------------------------------------------------------------------


def _between(rng: Rng, span: tuple[int, int]) -> int:
    return span[0] + rng.randrange(span[1] - span[0] + 1)


def _choice(rng: Rng, options: Sequence):
    return options[rng.randrange(len(options))]


def _move(value: int, limit: str, rng: Rng) -> int:
    """``value`` one or two up or down, within ``LIMITS[limit]``: always a different value."""
    step = 1 + rng.randrange(2)
    low, high = LIMITS[limit].low, LIMITS[limit].high
    down = rng.randrange(2) == 0
    if (down and value - step < low) or (not down and value + step > high):
        down = not down
    return value - step if down else value + step


def _card(fields: dict[str, str]) -> Card:
    """A card from a row's text, checked as a card file's row is (ValueError names the column)."""
    return card_from_fields(fields)


def _moved(card: Card, rng: Rng) -> Card:
    row = card_row(card)
    row["cost"] = str(_move(card.cost, "cost", rng))
    if card.is_creature:
        row["attack"] = str(_move(card.attack or 0, "attack", rng))
        row["health"] = str(_move(card.health or 1, "health", rng))
    elif card.effect in _AMOUNTS:
        row["effect"] = f"{card.effect} {_move(card.amount, 'amount', rng)}"
    return _card(row)


def _abilities(rng: Rng) -> list[str]:
    return [a.value for a in rng.sample(list(Ability), _choice(rng, ABILITY_COUNTS))]


def _aura(rng: Rng) -> str:
    directions = rng.sample(list(Direction), 1 + rng.randrange(len(Direction)))
    return f"{_choice(rng, list(Ability))}@{'+'.join(d.value for d in directions)}"


def _creature_row(name: str, deck: int | None, rng: Rng, aura_share: float) -> dict[str, str]:
    row = {
        "name": name,
        "deck": "" if deck is None else str(deck),
        "kind": "creature",
        "cost": str(_between(rng, COST)),
        "attack": str(_between(rng, ATTACK)),
        "health": str(_between(rng, HEALTH)),
        "abilities": ";".join(_abilities(rng)),
        "aura": "",
        "notes": "",
    }
    if rng.random() < aura_share:
        row["aura"] = _aura(rng)
    return row


def _redrawn(card: Card, rng: Rng) -> Card:
    """A card of the same name, deck and kind, every value drawn afresh."""
    if card.is_creature:
        return _card(_creature_row(card.name, card.deck, rng, AURA))
    effect = _choice(rng, list(Effect))
    text = effect.value
    if effect in _AMOUNTS:
        text += f" {_between(rng, AMOUNT)}"
    elif effect is Effect.GRANT:
        text += f" {_choice(rng, list(Ability))}"
    row = card_row(card) | {
        "cost": str(_between(rng, INCANTATION_COST)),
        "effect": text,
        "target": TARGETS[effect].value,
    }
    return _card(row)


def _with_every_ability(cards: CardSet, rng: Rng) -> CardSet:
    """``cards`` with R9.2 made to hold: a missing ability given to a creature without it, a missing
    Aura direction added to an Aura (or a new Aura on a creature, if there is none)."""
    out = list(cards)
    creatures = [i for i, c in enumerate(out) if c.is_creature]
    for missing in lacking(CardSet(out)):
        if missing.startswith("aura "):
            direction = missing.removeprefix("aura ")
            with_aura = [i for i in creatures if out[i].aura is not None]
            i = _choice(rng, with_aura or creatures)
            row = card_row(out[i])
            row["aura"] = f"{row['aura']}+{direction}" if row["aura"] else f"{_choice(rng, list(Ability))}@{direction}"
        else:
            i = _choice(rng, [i for i in creatures if missing not in out[i].abilities])
            row = card_row(out[i])
            row["abilities"] = ";".join([*(a.value for a in out[i].abilities), missing])
        out[i] = _card(row)
    return CardSet(out)


def _designer(base: CardSet, seed: int, rng: Rng) -> DrawnSet:
    """The fitting set with :data:`NEW_CARD` in one starter deck, in the place of one of its cards."""
    deck = _choice(rng, sorted(base.decks))
    replaced = _choice(rng, base.deck(deck))
    new = _card(_creature_row(NEW_CARD, deck, rng, NEW_AURA))
    cards = CardSet(new if c.name == replaced else c for c in base)
    return DrawnSet("designer", seed, cards, NEW_CARD, replaced, deck)


__all__ = ["FIT_CARDS", "KINDS", "NEW_CARD", "TARGETS", "DrawnSet", "draw", "draws", "fit_set", "lacking"]
