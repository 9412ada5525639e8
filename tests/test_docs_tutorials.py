"""The site's tutorials (``docs/tutorials/``) are the notebooks of ``notebooks/`` run whole:
the same cells, in the same order, with outputs that a static page can show.  A notebook
changed since its copy was made fails here until ``make tutorials`` is run again."""

from __future__ import annotations

import json

import pytest
from helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def cells(path):
    return [(cell["cell_type"], "".join(cell["source"])) for cell in json.loads(path.read_text("utf-8"))["cells"]]


def test_there_are_seven_tutorials_one_a_notebook():
    assert len(NOTEBOOKS) == 7
    assert sorted(p.name for p in (ROOT / "docs/tutorials").glob("*.ipynb")) == [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_copy_holds_the_notebooks_cells_run(notebook):
    copy = ROOT / "docs/tutorials" / notebook.name
    assert cells(copy) == cells(notebook), f"{copy.relative_to(ROOT)} is out of date: make tutorials"
    nb = json.loads(copy.read_text("utf-8"))
    code = [cell for cell in nb["cells"] if cell["cell_type"] == "code"]
    assert all(cell["execution_count"] for cell in code), "every code cell has run"
    outputs = [o for cell in code for o in cell["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert not [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert "widgets" not in nb["metadata"] and nb["metadata"]["clashkit"]["source"] == f"notebooks/{notebook.name}"
    charts = [o for o in outputs if "application/vnd.vega.v5+json" in o.get("data", {})]
    assert all('class="clashkit-vega"' in "".join(o["data"]["text/html"]) for o in charts)
