"""``benchmarks/balance.py`` fails like the command line: one line on stderr, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT


def balance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "balance.py"), "--n", "2", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("name,deck\nX,1\n", ["--cards"],
         "header lacks column(s) kind, cost, attack, health, abilities, aura, effect, target, notes"),
        (None, ["--policy", "nope"], "unknown policy 'nope' (one of random, greedy, search)"),
    ],
)
def test_a_bad_card_file_or_policy_is_one_line_and_exit_2(tmp_path, content, args, message):
    if content is not None:
        path = tmp_path / "cards.csv"
        path.write_text(content, encoding="utf-8")
        args = [*args, str(path)]
        message = f"{path}: {message}"
    done = balance(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"clashkit: error: {message}\n")
