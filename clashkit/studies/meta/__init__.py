"""The deck space: which decks a player can build, which win, the meta-game's equilibrium among
them, what each card is worth in it and where the starter decks stand (:func:`meta`).

The modules, in the order a study uses them: :mod:`~.formats` (what a deck is in a duel and in
the constructed format, R2.1, R7.1, R7.3), :mod:`~.space` (the decks and their axes),
:mod:`~.games` (paired matches on the workers), :mod:`~.search` (MAP-Elites), :mod:`~.budget`
(sizes from a time budget), :mod:`~.equilibrium` (the matrix game), :mod:`~.values` (the cards),
:mod:`~.study` (the three phases and their answers), :mod:`~.check` (the best decks played again
by a stronger bot), :mod:`~.run` (the entry point).
"""

from __future__ import annotations

from .formats import FORMATS
from .run import meta, metas
from .study import Meta

__all__ = ["FORMATS", "Meta", "meta", "metas"]
