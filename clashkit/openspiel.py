"""Clash of Decks for OpenSpiel: importing this module registers ``python_clash_of_decks`` with pyspiel.

Needs the ``rl`` extra (``pip install clashkit[rl]``)::

    >>> import pyspiel, clashkit.openspiel  # doctest: +SKIP
    >>> game = pyspiel.load_game("python_clash_of_decks(deck_a=3,deck_b=4)")  # doctest: +SKIP

The game, its parameters and its interface choices: :mod:`clashkit.interop.openspiel_game`
and ``docs/interop.md``.
"""

from __future__ import annotations

from .interop.openspiel_game import GAME_TYPE, NAME, ClashGame, ClashState, deal_as_clashkit, register

__all__ = ["GAME_TYPE", "NAME", "ClashGame", "ClashState", "deal_as_clashkit", "register"]
