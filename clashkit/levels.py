"""Solo difficulty (R8.9): levels, their points, and a default combination of settings per level.

``solo_settings(level=3)`` gives the documented default combination for Hard;
``solo_settings(level=3, settings={...})`` checks that explicit settings add
up to the level's points, unless ``free=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import OptionError
from .rules import SoloSettings

#: R8.9: level number → name (level 5 is also called "Legendary").
LEVELS: dict[int, str] = {0: "Quick", 1: "Easy", 2: "Medium", 3: "Hard", 4: "Heroic", 5: "Mythic"}

#: The default combination of settings for each level (the setting names of R10.3).
DEFAULT_LEVELS: dict[int, dict[str, Any]] = {
    0: {},
    1: {"ai_fixed_mana": 7},
    2: {"ai_fixed_mana": 8},
    3: {"ai_fixed_mana": 8, "ai_ability": "protection"},
    4: {"ai_fixed_mana": 8, "ai_pile_damage": "minus_one"},
    5: {"ai_fixed_mana": 9, "ai_pile_damage": "minus_one"},
}


def solo_settings(
    level: int | None = None,
    settings: Mapping[str, Any] | None = None,
    *,
    free: bool = False,
) -> SoloSettings:
    """The AI settings for a level (R8.9), or explicit ``settings`` checked against it."""
    if level is not None and level not in LEVELS:
        raise OptionError(f"level {level!r} is not a level (R8.9: {', '.join(f'{k} {v}' for k, v in LEVELS.items())})")
    if settings is None:
        return SoloSettings.from_mapping(DEFAULT_LEVELS[level or 0], where="level")
    chosen = SoloSettings.from_mapping(settings, where="--settings")
    if level is not None and not free and chosen.points != level:
        raise OptionError(
            f"R8.9: these settings are worth {chosen.points} difficulty points, "
            f"but level {level} ({LEVELS[level]}) needs {level}; adjust them or allow free-form settings"
        )
    return chosen
