"""Shared test set-up: ``tests/`` is importable, so test modules can ``from helpers import …``;
nbmake does not run a notebook a second time that a browser test runs whole."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

# The conftest files below are loaded as conftest files, never collected again for their doctests
# (--doctest-modules would import two modules named ``conftest`` and stop on the second).
collect_ignore = ["rules/conftest.py", "viz/conftest.py"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A notebook that a selected browser test runs whole in JupyterLab is not run by nbmake
    as well: the browser test fails on any cell that raised, so a second run would only spend
    minutes (notebooks 05 and 06 play tens of thousands of games).  Where the browser tests
    cannot run (no Chromium) or are not selected (``-m 'not browser'``, ``-k``), nbmake runs
    every notebook.  ``trylast``: after ``-m`` and ``-k`` have deselected what they deselect."""
    whole = {
        name
        for item in items
        if isinstance(item, pytest.Function) and hasattr(item.module, "runs_whole")
        for name in item.module.runs_whole()
    }
    if not whole:
        return
    twice = [item for item in items if item.path.suffix == ".ipynb" and item.path.name in whole]
    if twice:
        config.hook.pytest_deselected(items=twice)
        items[:] = [item for item in items if item not in twice]
