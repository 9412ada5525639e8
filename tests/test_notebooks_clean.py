"""The notebooks are committed clean: no outputs, no execution counts, no saved widget state (`make strip`)."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_six_notebooks_are_there():
    assert [p.name[:3] for p in NOTEBOOKS] == ["01_", "02_", "03_", "04_", "05_", "06_"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_has_no_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    dirty = [
        i
        for i, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert dirty == [], f"{path.name}: cells {dirty} keep outputs; run `make strip` before committing"
    assert "widgets" not in notebook["metadata"], f"{path.name} keeps widget state; run `make strip`"
