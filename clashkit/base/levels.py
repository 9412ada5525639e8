"""Solo difficulty (R8.9): the points table, the levels, a default combination of settings a level.

A custom solo game picks a level — Easy 1, Medium 2, Hard 3, Heroic 4,
Mythic 5 points (level 5 is also called Legendary; clashkit adds 0, the quick
game) — and AI settings whose difficulty points add up to it::

    >>> from clashkit.base.levels import points, settings_text, solo_settings
    >>> settings_text(solo_settings(level=5))     # the documented default for Mythic
    'ai_fixed_mana=10,ai_first=true'
    >>> points({"ai_fixed_mana": 9, "ai_starts_as_fort": True})
    2
    >>> solo_settings(level=2, settings={"ai_fixed_mana": 9})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clashkit.base.errors.OptionError: R8.9: these settings are worth 3 difficulty points (...), but ...

Settings that do not add up to the level are refused unless ``free=True``
(the command line's free-form switch).  The default combinations of
:data:`DEFAULT_LEVELS` were chosen from the calibration in
:mod:`clashkit.studies.calibration` (docs/guide/solo.md, "Solo difficulty") so that the player's
win rate falls as the level rises.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from typing import Any

from .errors import OptionError
from .limits import whole_number
from .rules import AI_ABILITIES, POINTS, SoloSettings

#: R8.9: level number → name (level 5 is also called "Legendary"; 0 is the quick game).
LEVELS: dict[int, str] = {0: "Quick", 1: "Easy", 2: "Medium", 3: "Hard", 4: "Heroic", 5: "Mythic"}
#: Names accepted for a level, lower-case.
LEVEL_NAMES: dict[str, int] = {name.lower(): n for n, name in LEVELS.items()} | {"legendary": 5}

#: R8.9: the rulebook's words for each row and choice of the points table.
SETTING_LABELS: dict[str, str] = {
    "ai_mana_per_creature": "variable mana",
    "ai_fixed_mana": "fixed mana",
    "ai_first": "first player",
    "ai_starts_as_fort": "AI keep",
    "ai_pile_damage": "player's siege damage to the AI pile",
    "ai_ability": "ability given to every AI creature",
}
CHOICE_LABELS: dict[str, dict[Any, str]] = {
    "ai_mana_per_creature": {1: "+1 per player creature", 2: "+2 per player creature"},
    "ai_fixed_mana": {n: f"{n} mana" for n in range(6, 11)},
    "ai_first": {False: "the player", True: "the AI"},
    "ai_starts_as_fort": {False: "starts as Bastion", True: "starts directly as Fort"},
    "ai_pile_damage": {
        "full": "full attack value",
        "minus_one": "reduced: 1 less per attack",
        "one": "reduced: exactly 1 per attack",
    },
    "ai_ability": {None: "none", **{a.value: a.value for a in AI_ABILITIES}},
}

#: The default combination of settings for each level, as the settings that
#: differ from the quick game's.  Each level is the one before plus one point
#: of AI strength, so it is at least as hard as the one before for any player,
#: not only on average.  The AI takes the first turn at every level and its
#: keep starts as the Fort at levels 1–4 (together worth 0 points, and
#: measured a little harder than the quick game); the fixed mana climbs one a
#: level from 7 to 10, the setting whose point moves the win rate least, so the
#: levels fall in even steps; level 5 gives the AI its Bastion back.  Chosen
#: from the calibration (docs/guide/solo.md, "Solo difficulty"), where ladders that start
#: from the quick game fall to a win rate of about 0 by level 3 for weaker
#: players and can no longer be told apart.
DEFAULT_LEVELS: dict[int, dict[str, Any]] = {
    0: {},
    1: {"ai_fixed_mana": 7, "ai_first": True, "ai_starts_as_fort": True},
    2: {"ai_fixed_mana": 8, "ai_first": True, "ai_starts_as_fort": True},
    3: {"ai_fixed_mana": 9, "ai_first": True, "ai_starts_as_fort": True},
    4: {"ai_fixed_mana": 10, "ai_first": True, "ai_starts_as_fort": True},
    5: {"ai_fixed_mana": 10, "ai_first": True},
}


def _as_settings(settings: SoloSettings | Mapping[str, Any]) -> SoloSettings:
    if isinstance(settings, SoloSettings):
        return settings
    return SoloSettings.from_mapping(settings, where="settings")


def points_breakdown(settings: SoloSettings | Mapping[str, Any]) -> list[tuple[str, Any, int]]:
    """R8.9: ``(setting, value, points)`` for every setting that differs from the quick game."""
    chosen = _as_settings(settings)
    out = []
    for name, choices in POINTS.items():
        value = getattr(chosen, name)
        if value != next(iter(choices)):
            out.append((name, value, choices[value]))
    return out


def points(settings: SoloSettings | Mapping[str, Any]) -> int:
    """R8.9: the difficulty points of a combination of settings."""
    return _as_settings(settings).points


def parse_level(level: int | str) -> int:
    """A level from its number (``3``, ``"3"``) or its name (``"hard"``, ``"legendary"``)."""
    if isinstance(level, str):
        text = level.strip().lower()
        if text in LEVEL_NAMES:
            return LEVEL_NAMES[text]
        with contextlib.suppress(OptionError):  # ASCII digits only (int() also reads "١")
            level = whole_number(text, "level", "level", OptionError)
    if isinstance(level, int) and not isinstance(level, bool) and level in LEVELS:
        return level
    known = ", ".join(f"{n} {name}" for n, name in LEVELS.items())
    raise OptionError(f"level {level!r} is not a level (R8.9: {known}; 5 is also called Legendary)")


def level_settings(level: int | str) -> SoloSettings:
    """The documented default combination of settings for ``level``."""
    return SoloSettings.from_mapping(DEFAULT_LEVELS[parse_level(level)], where=f"level {level}")


def check_level(settings: SoloSettings | Mapping[str, Any], level: int | str) -> SoloSettings:
    """R8.9: the settings, if their points add up to ``level``; else an :class:`OptionError`."""
    chosen = _as_settings(settings)
    level = parse_level(level)
    worth = points(chosen)
    if worth != level:
        parts = ", ".join(f"{name}={_text(value)} {p:+d}" for name, value, p in points_breakdown(chosen))
        raise OptionError(
            f"R8.9: these settings are worth {worth} difficulty points "
            f"({parts or 'the quick game'}), but level {level} ({LEVELS[level]}) needs {level}; "
            "change them or ask for free-form settings"
        )
    return chosen


def solo_settings(
    level: int | str | None = None,
    settings: SoloSettings | Mapping[str, Any] | None = None,
    *,
    free: bool = False,
) -> SoloSettings:
    """The AI settings of a solo game (R8.9).

    - ``level`` alone: the level's default combination (:data:`DEFAULT_LEVELS`);
    - ``settings`` (a mapping of R10.3 names, or a :class:`SoloSettings`),
      with or without a level: exactly those, the rest as in the quick game;
      with a level their points must add up to it unless ``free``;
    - neither: the quick game.
    """
    if settings is None:
        return level_settings(0 if level is None else level)
    chosen = _as_settings(settings)
    if level is None or free:
        if level is not None:
            parse_level(level)
        return chosen
    return check_level(chosen, level)


def settings_text(settings: SoloSettings | Mapping[str, Any]) -> str:
    """``ai_fixed_mana=8,ai_first=true``: the settings that differ from the quick game (``-`` none).

    The text parses back with :func:`clashkit.base.rules.parse_settings`.
    """
    changed = points_breakdown(settings)
    return ",".join(f"{name}={_text(value)}" for name, value, _ in changed) or "-"


def all_settings() -> list[SoloSettings]:
    """Every combination of the R8.9 table (720 of them)."""
    out = [SoloSettings()]
    for name, choices in POINTS.items():
        out = [dataclasses.replace(s, **{name: value}) for s in out for value in choices]
    return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "none" if value is None else str(value)


__all__ = [
    "CHOICE_LABELS",
    "DEFAULT_LEVELS",
    "LEVELS",
    "POINTS",
    "SETTING_LABELS",
    "all_settings",
    "check_level",
    "level_settings",
    "parse_level",
    "points",
    "points_breakdown",
    "settings_text",
    "solo_settings",
]
