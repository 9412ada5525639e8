"""The fast engine: the reference engine's games, compiled with numba over flat arrays.

Its contract: **the same games as the reference engine, much faster.**  Both
engines draw every random number from the same generator (:mod:`clashkit.base.rng`,
:mod:`clashkit.fast.rng`), list the legal actions in the same order, and ask
the players at the same moments, so a seed gives the same game in both — the
same ``games``, ``turns`` and ``events`` frames (``tests/fast`` plays both and
compares, step by step with :mod:`clashkit.runs.compare`).  Events are
recorded by the same rule steps as the reference's (:mod:`~clashkit.fast.events`),
only when asked for: the same compiled code runs with or without them.

Modules mirror the reference engine's (:mod:`clashkit.engine`) module for
module, with the same names and R-numbers: :mod:`~clashkit.fast.hand`,
:mod:`~clashkit.fast.lanes`, :mod:`~clashkit.fast.abilities`,
:mod:`~clashkit.fast.destruction`, :mod:`~clashkit.fast.siege`,
:mod:`~clashkit.fast.incantations`, :mod:`~clashkit.fast.solo`,
:mod:`~clashkit.fast.turn`, :mod:`~clashkit.fast.legality` and
:mod:`~clashkit.fast.transition`; then :mod:`~clashkit.fast.greedy`, :mod:`~clashkit.fast.game` (setup, loop, batches),
:mod:`~clashkit.fast.setup` (the formats' deals: draft, constructed, solo),
:mod:`~clashkit.fast.state` and :mod:`~clashkit.fast.tables` (cards and rules
as arrays: a card file is data, never compiled in).  Games by the batch are
played from :mod:`clashkit.runs.fast_games`.

Policies here: ``random``, ``greedy``, ``search`` (plain and fair; its
rollouts run compiled too, :mod:`~clashkit.fast.search`), ``expert`` (a search
player scored by :mod:`~clashkit.fast.expert`) and ``deep`` (a search player
whose look-aheads play the opponent's turn with expert's search,
:func:`~clashkit.fast.search.deep_choose`).  Every format is
dealt in compiled code: fixed decks (R7.1 and custom lists), the draft (R7.2),
the constructed format (R7.3) and solo setups (R8.1), with random's and
greedy's format choices (the draft picks, the constructed ten and bans), which
``search`` inherits.  A policy whose format choices are not compiled has its
games dealt by the reference code (the same draws) and converted with
:func:`from_state`.

How each function is compiled (inlined by LLVM, by numba, or called) is chosen
once, in :mod:`~clashkit.fast.jit`, and why.

The fast layer: may import :mod:`clashkit.policies`, :mod:`clashkit.engine` and
:mod:`clashkit.base` (it mirrors both the engine and the shipped policies).
"""

from .convert import FAST_POLICIES, capacity, from_state, play_out, policy_code, search_params

__all__ = ["FAST_POLICIES", "capacity", "from_state", "play_out", "policy_code", "search_params"]
