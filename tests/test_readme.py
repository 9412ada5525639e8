"""The README's Python snippets that are meant to run as they are."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import ROOT


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)


def test_the_parallel_simulate_snippet_runs_as_a_plain_script(tmp_path):
    (snippet,) = [b for b in python_blocks() if "jobs=2" in b]
    assert 'if __name__ == "__main__":' in snippet
    script = tmp_path / "run.py"
    snippet = snippet.replace("simulate(1000,", "simulate(40,")
    snippet = snippet.replace('simulate_to("runs/big", 5000,', 'simulate_to("runs/big", 60,')
    script.write_text(snippet, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("40 ")
    assert sorted(p.name for p in (tmp_path / "runs/1v2").iterdir()) == [
        "events.parquet",
        "games.parquet",
        "manifest.json",
        "turns.parquet",
    ]
    assert sorted(p.name for p in (tmp_path / "runs/big").iterdir()) == [
        "events.parquet",
        "games.parquet",
        "manifest.json",
        "turns.parquet",
    ]
