"""Clash of Decks for PettingZoo: ``env(...)`` returns an AEC environment.

Needs the ``rl`` extra (``pip install clashkit[rl]``)::

    >>> from clashkit.pettingzoo import env  # doctest: +SKIP
    >>> e = env(3, 4, render_mode="ansi"); e.reset(seed=7)  # doctest: +SKIP

Agents, spaces, rewards and seeds: :mod:`clashkit.interop.pettingzoo_env` and ``docs/interop.md``.
"""

from __future__ import annotations

from .interop.pettingzoo_env import ClashEnv, env

__all__ = ["ClashEnv", "env"]
