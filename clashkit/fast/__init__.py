"""The fast engine: whole games in numba over flat arrays, the same games as the reference engine."""
