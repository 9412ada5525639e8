"""The studies layer: what designers measure with many games.

The balance matrix (:mod:`~clashkit.studies.analysis`), sweeps, per-card numbers
and the tuner (:mod:`~clashkit.studies.design`), the ladder of policies
(:mod:`~clashkit.studies.ladder`), balance by skill (:mod:`~clashkit.studies.skill`)
and the solo difficulty calibration (:mod:`~clashkit.studies.calibration`).

May import: :mod:`clashkit.runs` and every layer below it.
"""
