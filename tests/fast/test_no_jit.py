"""The fast engine's source run as plain Python (``NUMBA_DISABLE_JIT=1``) plays the compiled games.

A fresh interpreter with numba's compiler off (:data:`clashkit.fast.jit.JIT` false) plays a
handful of games of every policy the fast engine has (random, greedy, ``search`` plain and
fair, ``expert``, ``deep`` with tiny budgets), of every format (fixed decks, the draft, the
constructed format, solo with fixed decks and a draft) with events recorded, and writes its
three frames; this process plays the same games compiled and compares them, frame for frame.
The games frame must say ``fast`` in both: the plain-Python run really plays ``clashkit.fast``.
That is what stepping a rule of the fast engine in a debugger relies on (``docs/design.md``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import polars as pl
import pytest
from helpers import ROOT

from clashkit.runs.simulate import simulate

#: (games, deck A, deck B, policy A, policy B, seed, options): 200 games in all.
CASES = [
    (80, "1", "2", "greedy", "greedy", 1, {}),
    (40, "3", "4", "random", "greedy", 2, {}),
    (20, "draft", "draft", "greedy", "random", 3, {}),
    (20, "constructed", "constructed", "random", "greedy", 4, {}),
    (15, "2", None, "greedy", None, 5, {"mode": "solo", "level": 3}),
    (10, "draft", None, "random", None, 6, {"mode": "solo"}),
    (4, "1", "3", "search:budget=2", "greedy", 7, {}),
    (4, "2", "4", "search:budget=2,fair", "random", 8, {}),
    (6, "4", "1", "expert:budget=2", "greedy", 9, {}),
    (1, "1", "2", "deep:budget=1", "greedy", 10, {}),
]


def ids(case) -> str:
    n, a, b, pa, pb, _, kw = case
    return f"{pa}-{pb or 'ai'}-{a}-{b or kw.get('mode')}"


def play(case):
    """The case's games in the fast engine, with events; their three frames."""
    n, a, b, pa, pb, seed, kw = case
    return simulate(n, a, b, pa, pb, seed=seed, engine="fast", record_events=True, progress=False, **kw)


#: Run in the interpreter without the compiler: say that it is, then write each case's frames.
SCRIPT = textwrap.dedent(
    """
    import json, sys, types
    from pathlib import Path
    from clashkit.fast import game, jit
    assert not jit.JIT and isinstance(game.play_batch, types.FunctionType), "compiled"
    sys.path.insert(0, "tests")
    from fast.test_no_jit import CASES, play
    out = Path(sys.argv[1])
    for i, case in enumerate(CASES):
        for name, frame in zip(("events", "turns", "games"), play(case)):
            frame.write_parquet(out / f"{i}.{name}.parquet")
    print(json.dumps({"plain": True}))
    """
)


@pytest.fixture(scope="module")
def plain_python(tmp_path_factory):
    """The folder of the frames the uncompiled engine wrote, one set a case."""
    out = tmp_path_factory.mktemp("no_jit")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", SCRIPT, str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"plain": True}
    return out


@pytest.mark.parametrize("i", range(len(CASES)), ids=[ids(c) for c in CASES])
def test_plain_python_plays_the_compiled_games(plain_python, i):
    compiled = play(CASES[i])
    assert sum(c[0] for c in CASES) == 200
    for name, frame in zip(("events", "turns", "games"), compiled, strict=True):
        plain = pl.read_parquet(plain_python / f"{i}.{name}.parquet")
        assert plain.equals(frame), f"the {name} frames differ"
    assert compiled.games["engine"].unique().to_list() == ["fast"]
    assert compiled.games.height == CASES[i][0]
    assert compiled.events.height > 0
