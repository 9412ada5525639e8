"""The studies layer: what designers measure with many games.

The balance matrix (:mod:`~clashkit.studies.analysis`), sweeps, per-card numbers
and the tuner (:mod:`~clashkit.studies.design`), the ladder of policies
(:mod:`~clashkit.studies.ladder`), balance by skill (:mod:`~clashkit.studies.skill`)
and the solo difficulty calibration (:mod:`~clashkit.studies.calibration`).

May import: :mod:`clashkit.runs` and every layer below it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base.exports import lazy_exports

if TYPE_CHECKING:
    from .analysis import balance_matrix, deck_results, pairing_counts
    from .design import FIELDS, HALF_WIDTH, Sweep, Tuning, card_stats, compare, field_value, games_for_half_width, sweep
    from .ladder import MEAN

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__)
