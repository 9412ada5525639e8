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
