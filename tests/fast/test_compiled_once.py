"""The called entry points of search compile for one list of argument types (``clashkit/fast/jit.py``).

numba compiles a called function again for every list of argument types it meets, a bare constant
typed as a literal of its own: ``choose(..., False, 0)`` beside ``choose(..., fair, k)`` compiled the
search's decision twice more and ``deep_choose`` once more, about a minute of ``make venv``'s search
chain.  The signatures are read from numba's cache, which ``make venv`` filled by playing every
compiled part (:mod:`clashkit.runs.warm`); the games below make sure they are in it.
"""

from __future__ import annotations

import pytest
from numba import types

from clashkit.fast import game, search
from clashkit.fast.jit import JIT
from clashkit.runs.simulate import simulate

pytestmark = pytest.mark.skipif(not JIT, reason="NUMBA_DISABLE_JIT: nothing is compiled")


@pytest.fixture(scope="module")
def played():
    """A deep game, a fair search game and a greedy game, so that every entry point below is cached."""
    for policies in (("deep", "search:budget=2,fair"), ("greedy", "random")):
        simulate(1, "1", "2", *policies, engine="fast", progress=False)


def signatures(dispatcher) -> list[tuple]:
    """The argument types ``dispatcher`` is compiled for in numba's cache."""
    return [key[0] for key in dispatcher._cache._cache_file._load_index()]


@pytest.mark.parametrize("name", ["choose", "deep_choose", "search_decision"])
def test_a_search_entry_point_is_compiled_once_and_for_no_literal(played, name):
    found = signatures(getattr(search, name))
    assert len(found) == 1, f"search.{name} compiled for {len(found)} lists of argument types: {found}"
    assert not [a for a in found[0] if isinstance(a, types.Literal)], found[0]


def test_the_game_loop_is_compiled_once_without_search_and_once_with_it(played):
    found = signatures(game.play)
    assert sorted(type(sig[-1]).__name__ for sig in found) == ["NamedTuple", "NoneType"]
    assert not [a for sig in found for a in sig if isinstance(a, types.Literal)]
