"""The base layer: the game's words and the values everything else is made of.

The closed vocabularies (:mod:`~clashkit.base.vocab`), the errors
(:mod:`~clashkit.base.errors`), the range of every quantity
(:mod:`~clashkit.base.limits`), the one seeded generator (:mod:`~clashkit.base.rng`),
the rules options (:mod:`~clashkit.base.rules`), the solo levels
(:mod:`~clashkit.base.levels`), cards and card files (:mod:`~clashkit.base.cards`),
the rules text (:mod:`~clashkit.base.rulebook`) and win-rate intervals
(:mod:`~clashkit.base.stats`).

May import: nothing of clashkit above it (the order of the layers is checked by
the import-linter contract in ``pyproject.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .exports import lazy_exports

if TYPE_CHECKING:
    from .cards import KEEP_NAMES, Card, CardSet, card_from_fields, starter_set
    from .errors import ClashkitError, ScenarioError, UnknownRuleError
    from .rng import Rng
    from .rulebook import Rule, is_number, rule, search
    from .rules import Rules
    from .stats import rate_exprs
    from .vocab import KEEP, LANES, PLAYERS, Ability, Direction, Effect, Mode, Player, TargetSide, hand_health_of

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__)
