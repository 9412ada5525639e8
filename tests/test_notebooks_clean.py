"""The notebooks are committed clean: no outputs, no execution counts, no saved widget state, no
kernel language_info (`make strip`), whatever a lab session saved: git runs them through the
nbstripout filter (.gitattributes, configured by `make venv`), and these tests read what git
would commit."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _git(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], input=stdin, capture_output=True, check=False)


def _in_git() -> bool:
    return shutil.which("git") is not None and _git("rev-parse", "--is-inside-work-tree").stdout.strip() == b"true"


def committed_text(path) -> str:
    """What ``git add`` would store for ``path``: the file through its clean filter (as
    ``git hash-object --path`` applies it), or the file itself outside a git work tree."""
    if not _in_git():
        return path.read_text(encoding="utf-8")
    relative = str(path.relative_to(ROOT))
    blob = _git("hash-object", "-w", "--path", relative, str(path))
    assert blob.returncode == 0, blob.stderr.decode()
    return _git("cat-file", "blob", blob.stdout.decode().strip()).stdout.decode("utf-8")


def test_the_seven_notebooks_are_there():
    assert [p.name[:3] for p in NOTEBOOKS] == ["01_", "02_", "03_", "04_", "05_", "06_", "07_"]


def test_git_runs_notebooks_through_nbstripout():
    def filter_of(path: str) -> str:
        done = subprocess.run(["git", "check-attr", "filter", "--", path], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip().rpartition(": ")[2]

    assert filter_of("notebooks/01_learn_the_rules.ipynb") == "nbstripout"
    # The tutorials' copies are committed with their outputs (make tutorials).
    assert filter_of("docs/tutorials/01_learn_the_rules.ipynb") == "unspecified"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "git config filter.nbstripout.clean" in makefile and "venv: $(STAMP) $(WARM) $(NBSTRIPOUT)" in makefile


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_has_no_outputs(path):
    notebook = json.loads(committed_text(path))
    dirty = [
        i
        for i, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert dirty == [], f"{path.name}: cells {dirty} keep outputs; run `make venv` (the git filter) or `make strip`"
    assert "widgets" not in notebook["metadata"], f"{path.name} keeps widget state; run `make strip`"
    assert "language_info" not in notebook["metadata"], f"{path.name} keeps the kernel's language_info"


def test_the_filter_strips_what_a_lab_session_saves(tmp_path):
    """The filter command `make venv` configures, on a notebook as JupyterLab saves it."""
    import sys

    nbstripout = shutil.which("nbstripout", path=str(Path(sys.executable).parent))
    if nbstripout is None:
        pytest.skip("nbstripout is not installed in this environment")
    notebook = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    saved = json.loads(json.dumps(notebook))
    saved["metadata"]["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python"}
    code = next(c for c in saved["cells"] if c["cell_type"] == "code")
    code["execution_count"] = 3
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]}]
    flags = ["--keep-id", "--extra-keys", "metadata.language_info"]
    assert "NBSTRIP_FLAGS := " + " ".join(flags) in (ROOT / "Makefile").read_text(encoding="utf-8")
    out = subprocess.run([nbstripout, *flags], input=json.dumps(saved).encode(), capture_output=True, check=True)
    assert json.loads(out.stdout) == notebook
