"""The Python examples of the README and of the documentation site run as they are written.

Every ```python block of ``README.md`` and ``docs/**/*.md`` runs as a script in a fresh
process, except a script meant for worker processes or a cluster (it has an
``if __name__ == "__main__":`` guard): the parallel simulation runs with fewer games, and
the cluster example, which needs a scheduler, is compiled and its imports checked."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks() -> list[tuple[str, str]]:
    """(where, code) of every ```python block of the README and the docs."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
            line = text[: match.start()].count("\n") + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return found


def guarded(code: str) -> bool:
    return 'if __name__ == "__main__":' in code


def plain_blocks() -> list[tuple[str, str]]:
    """The blocks that run as they are, each distinct one once (the README repeats some)."""
    places: dict[str, list[str]] = {}
    for where, code in python_blocks():
        if not guarded(code):
            places.setdefault(code, []).append(where)
    return [(" = ".join(wheres), code) for code, wheres in places.items()]


PLAIN = plain_blocks()


def test_the_readme_and_the_docs_have_examples():
    assert any("README.md" in where for where, _ in PLAIN)
    assert len(PLAIN) >= 3


@pytest.mark.parametrize(("where", "code"), PLAIN, ids=[where for where, _ in PLAIN])
def test_the_example_runs(where, code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, f"{where}:\n{done.stderr}"


def test_the_parallel_simulate_snippet_runs_as_a_plain_script(tmp_path):
    (snippet,) = [code for _, code in python_blocks() if guarded(code) and "jobs=2" in code]
    snippet = snippet.replace("simulate(1000,", "simulate(40,")
    snippet = snippet.replace('simulate_to("runs/big", 5000,', 'simulate_to("runs/big", 60,')
    script = tmp_path / "run.py"
    script.write_text(snippet, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("40 ")
    for run in ("runs/1v2", "runs/big"):
        assert sorted(p.name for p in (tmp_path / run).iterdir()) == [
            "events.parquet",
            "games.parquet",
            "manifest.json",
            "turns.parquet",
        ]


def test_the_cluster_example_compiles_and_its_names_import():
    (snippet,) = [code for _, code in python_blocks() if guarded(code) and "Client(" in code]
    compile(snippet, "cluster example", "exec")
    imports = "\n".join(line for line in snippet.splitlines() if line.startswith(("from ", "import ")))
    done = subprocess.run([sys.executable, "-c", imports], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
