"""How the fast engine's functions are compiled: one decorator for each way, chosen here once.

Every compiled function is kept in numba's cache (``cache=True``: ``make venv`` compiles
them ahead, :mod:`clashkit.runs.warm`) and runs without numba's allocator
(``_nrt=False``): compiled code allocates nothing, every array comes from its caller.

Calls cost here: numba passes every array of the state and the tables as separate
words, about 200 of them on the stack a call.  So:

- :data:`step`, a rule step on the game loop's path, is inlined by LLVM where it is
  called (numba's ``forceinline``, LLVM's ``alwaysinline``, applied when the compiled
  functions are linked into the loop): a greedy or random game's loop makes no call on
  its way but greedy's loop check, from turn ``loop_watch`` on (R10.1);
- :data:`search_step`, a step of search and expert, is inlined by numba in its own IR:
  in LLVM those made the search chain compile longer;
- :data:`compiled`, anything else, is called (rare steps, and the entry points);
- :data:`batch`, a compiled batch of games, lets go of the GIL, so that a thread plays
  one part while the caller writes the one before (:mod:`clashkit.runs.simulate`).

A function that is called (:data:`compiled`, :data:`batch`) is compiled once for each list of
argument types it meets, and numba types a bare constant (``0``, ``False``, a variable that is ``0``
on one path) as a literal of its own: a search entry point called with one compiled again, about a
minute of the search chain's compile for nothing.  Such arguments are passed as ``np.int64(0)``,
``np.bool_(False)`` (``tests/fast/test_compiled_once.py`` reads the cache's signatures).

``docs/design.md`` (*The fast engine*) has the measurements behind each choice.

With ``NUMBA_DISABLE_JIT=1`` numba compiles nothing: every decorator here gives back the
plain function, and the fast engine plays its games in Python (to step a rule in a
debugger).  :data:`JIT` says which; what differs without the compiler is decided from it:
the card table's rows read by attribute (:func:`clashkit.fast.tables.card_tables`), the
generator's words wrapping silently (:mod:`clashkit.fast.rng`).
"""

from __future__ import annotations

from numba import config, njit

#: Whether the fast engine runs compiled (``False`` under ``NUMBA_DISABLE_JIT=1``: plain Python).
JIT = not config.DISABLE_JIT

#: Called where it is used; numba's cache, no allocator.
compiled = njit(cache=True, _nrt=False)
#: A rule step on the game loop's path: inlined by LLVM.
step = njit(cache=True, _nrt=False, forceinline=True)
#: A step of search or expert: inlined by numba.
search_step = njit(cache=True, _nrt=False, inline="always")
#: A batch of games: called from Python, without the GIL.
batch = njit(cache=True, _nrt=False, nogil=True)

__all__ = ["JIT", "batch", "compiled", "search_step", "step"]
