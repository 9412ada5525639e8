"""The teaching notebooks (01–03) never load the fast engine: ``make lab`` starts JupyterLab at
once, before numba has compiled anything, and a class runs them without waiting for it."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
TEACHING = ("01_learn_the_rules.ipynb", "02_hand_builder.ipynb", "03_siege_lab.ipynb")


@pytest.mark.parametrize("name", TEACHING)
def test_a_teaching_notebook_runs_whole_without_numba(name):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))"
        )
    )
    nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    assert notebook.cells[-1].outputs[-1]["text"] == "[]\n"
