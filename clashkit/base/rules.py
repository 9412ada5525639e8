"""The rules configuration: every named option of R10.3 and R10.4 in one place.

:class:`Rules` holds the duel options and the turn limit; :class:`SoloSettings`
the AI settings of R8.9.  Both are frozen; their defaults are the rulebook's
(and the quick game's).  ``RULES_VERSION`` is bumped whenever the engine's
results change for the same inputs, and recorded in the games frame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError
from .limits import LIMITS, shown
from .suggest import did_you_mean
from .vocab import Ability

#: 2: R6.5 read as printed (attacks damage and destroy an Indestructible creature),
#: and the R3.9 fix for a creature moved into the upper lane after the lower lane began.
#: 3: the events say no_effect (R5.4); the fast engine keeps an Aura loss across a shift
#: (R10.4); greedy's constructed ten fill up from any kit (R7.3).
RULES_VERSION = 3

#: The frames' schemas (clashkit.runs.trace), raised whenever one changes (2: the turns frame's
#: counts narrowed to Int8 where their ranges allow; 3: the events frame's ``kind`` gained
#: ``no_effect``; 4: the turns frame gained ``own_turn``, ``seat`` and ``deck``, which a
#: reader computes from the games frame of an older run; 5: the games frame gained the deal,
#: ``hand_a`` and ``hand_b``, null in an older run, and ``deck`` names a starter deck in every
#: format).  A run's manifest records it, so ``resume`` never mixes parts of two and a reader
#: refuses a newer run.
FRAMES_VERSION = 5

#: R8.9: abilities the solo AI may give every creature of its own.
AI_ABILITIES = (
    Ability.SPLASH,
    Ability.PIERCE,
    Ability.RAGE,
    Ability.PROTECTION,
    Ability.BLOODLUST,
)


#: R8.9: every setting (the names of R10.3) → its choices → their difficulty points,
#: in the rulebook's row order; each setting's first choice is the quick game's.
POINTS: dict[str, dict[Any, int]] = {
    "ai_mana_per_creature": {1: 0, 2: 2},
    "ai_fixed_mana": {6: 0, 7: 1, 8: 2, 9: 3, 10: 4},
    "ai_first": {False: 0, True: 1},
    "ai_starts_as_fort": {False: 0, True: -1},
    "ai_pile_damage": {"full": 0, "minus_one": 2, "one": 2},
    "ai_ability": {None: 0, **{a.value: 1 for a in AI_ABILITIES}},
}


#: Every rules option of R10.3 and R10.4 with a closed set of values → (its values, the default
#: first; the rules that name them).  The one list of them: :class:`Rules` checks against it,
#: and the differential tests sweep it (the options of :data:`RULES_RANGES` take a range instead).
RULES_CHOICES: dict[str, tuple[tuple, str]] = {
    "incantations_in_siege": ((True, False), "R10.3"),
    "protection": (("first_attack", "first_damage", "first_hit"), "R10.3, R10.4"),
    "bloodlust_trigger": (("primary", "any", "per_creature"), "R10.3, R10.4"),
    "ai_incantation_side": (("declared", "either"), "R10.3"),
    "ai_last_turn": (("next", "current"), "R10.3"),
    "first_player": (("coin", "last_drafter"), "R10.3"),
    "keep_distance": (("damage", "attack"), "R10.4"),
    "aura": (("adjacent", "until_holder_moves"), "R10.4"),
    "siege_order": (("live", "fixed"), "R10.4"),
    "solo_player_first_mana": (("hand", "six"), "R10.4"),
}
#: Every rules option that takes a whole number → the rules that name it; its range is
#: ``clashkit.base.limits.LIMITS[name]`` (:class:`Rules` checks it, the differential tests sweep it).
RULES_RANGES: dict[str, str] = {
    "turn_limit": "R10.1",
    "first_turn_mana": "R2.3, R10.3",
}
#: The same for the solo settings: R8.9's choices (the points table :data:`POINTS`) and R10.4's scope.
SOLO_CHOICES: dict[str, tuple[tuple, str]] = {
    **{name: (tuple(choices), "R10.3") for name, choices in POINTS.items()},
    "ai_reduced_scope": (("pile", "all"), "R10.4"),
}


def _one_of(name: str, value: object, allowed: tuple, rule: str = "R10.3") -> None:
    # Compare types too: ``True == 1`` and ``6.0 == 6`` must not pass for each other.
    if not any(value == a and type(value) is type(a) for a in allowed):
        shown = " | ".join(repr(a) if isinstance(a, str) else str(a).lower() for a in allowed)
        raise OptionError(f"{name} = {value!r} is not allowed ({rule}: {shown})")


@dataclass(frozen=True, slots=True)
class SoloSettings:
    """R8.9: the AI settings of a custom solo game; the defaults are the quick game's."""

    ai_fixed_mana: int = 6
    ai_mana_per_creature: int = 1
    ai_first: bool = False
    ai_starts_as_fort: bool = False
    ai_pile_damage: str = "full"
    ai_ability: str | None = None
    #: R10.4: whether a reduced ``ai_pile_damage`` reduces attacks on the AI pile
    #: only (``"pile"``) or every attack of the player's siege (``"all"``).
    ai_reduced_scope: str = "pile"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _one_of(f.name, getattr(self, f.name), *SOLO_CHOICES[f.name])

    @property
    def points(self) -> int:
        """R8.9: the difficulty points of these settings (the table :data:`POINTS`)."""
        return sum(choices[getattr(self, name)] for name, choices in POINTS.items())

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], *, where: str = "[solo]") -> SoloSettings:
        """Settings from a TOML table or ``K=V`` pairs; unknown keys are refused."""
        values = dict(values)
        if values.get("ai_ability") in ("none", ""):
            values["ai_ability"] = None
        return _from_mapping(cls, values, where)


@dataclass(frozen=True, slots=True)
class Rules:
    """R10.3 and R10.4: the named options, with the rulebook's defaults."""

    incantations_in_siege: bool = True
    protection: str = "first_attack"
    bloodlust_trigger: str = "primary"
    ai_incantation_side: str = "declared"
    ai_last_turn: str = "next"
    first_player: str = "coin"
    turn_limit: int = 200
    #: R2.3: the mana of a duel's first turn (the first player's).  Solo keeps R8.1's first turn
    #: (6, and R10.4's ``solo_player_first_mana``), so a solo game refuses another value.
    first_turn_mana: int = 6
    #: R10.4 (R4.7): a keep moves by the damage dealt, or by the attack value without Sprint's bonus.
    keep_distance: str = "damage"
    #: R10.4 (R6.8): an Aura holds while adjacent, or is lost until end of turn once its holder moves.
    aura: str = "adjacent"
    #: R10.4 (R3.9): the siege order evaluated live, or fixed when the siege begins.
    siege_order: str = "live"
    #: R10.4 (R8.1): when the solo AI starts, the player's first turn gains R3.1's mana or 6.
    solo_player_first_mana: str = "hand"
    solo: SoloSettings = field(default_factory=SoloSettings)

    def __post_init__(self) -> None:
        for name, (allowed, rule) in RULES_CHOICES.items():
            _one_of(name, getattr(self, name), allowed, rule)
        for name, rule in RULES_RANGES.items():
            low, high = LIMITS[name].low, LIMITS[name].high
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise OptionError(f"{name} = {shown(value)} must be a whole number {low}…{high} ({rule})")
        if not isinstance(self.solo, SoloSettings):
            raise OptionError("solo must be a SoloSettings (R8.9)")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], *, where: str = "[rules]") -> Rules:
        """Options from a TOML table or ``K=V`` pairs; unknown keys are refused."""
        if not isinstance(values, Mapping):
            raise OptionError(f"{where}: {values!r} is not a mapping of options (e.g. {{'turn_limit': 100}})")
        return _from_mapping(cls, dict(values), where)

    @classmethod
    def coerce(cls, value: Rules | Mapping[str, Any] | str | None, *, where: str = "rules") -> Rules:
        """What an API's ``rules=`` takes: ``None`` (the defaults), a :class:`Rules`, a mapping,
        or ``K=V,…`` text; anything else is an :class:`OptionError`."""
        if value is None:
            return cls()
        if isinstance(value, Rules):
            return value
        if isinstance(value, str):
            return cls.from_mapping(parse_settings(value, where=where), where=where)
        return cls.from_mapping(value, where=where)

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "solo"}
        out.update({f.name: getattr(self.solo, f.name) for f in dataclasses.fields(self.solo)})
        return out

    def changes(self) -> str:
        """The options (rules and solo settings) that differ from the defaults, as ``K=V,K=V`` text.

        Empty for the rulebook's defaults.  The games frame records it, so a
        result says which reading produced it; the text is what ``--rules``
        and ``--settings`` read back (booleans and ``none`` in lower case).
        """
        default = _DEFAULT.as_dict()
        return ",".join(f"{k}={_option_text(v)}" for k, v in self.as_dict().items() if v != default[k])


def _option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


_DEFAULT = Rules()


def _from_mapping(cls, values: dict[str, Any], where: str):
    names = [f.name for f in dataclasses.fields(cls) if f.name != "solo"]
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise OptionError(
            f"{where}: unknown option {unknown[0]!r} (known: {', '.join(names)}){did_you_mean(unknown[0], names)}"
        )
    try:
        return cls(**values)
    except OptionError as e:
        raise OptionError(f"{where}: {e}") from None


def parse_option_value(text: str) -> Any:
    """``K=V`` text from the command line: booleans, integers and ``none`` are read as such."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    digits = lowered.removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) <= 30:
        return int(lowered)
    return text.strip()


def parse_settings(text: str, *, where: str = "--settings") -> dict[str, Any]:
    """``"ai_fixed_mana=8,ai_first=true"`` → a dict (values typed by :func:`parse_option_value`).

    A key given twice is refused (``turn_limit=5,turn_limit=6`` would otherwise keep one of
    them unsaid)."""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"{where}: {part!r} is not KEY=VALUE")
        if key.strip() in out:
            raise OptionError(f"{where}: {key.strip()} is given twice; give each option once")
        digits = value.strip().removeprefix("-")
        if digits.isascii() and digits.isdigit() and len(digits) > 30:
            raise OptionError(f"{where}: {key.strip()} = {digits[:12]}… ({len(digits)} digits) is out of range")
        out[key.strip()] = parse_option_value(value)
    return out
