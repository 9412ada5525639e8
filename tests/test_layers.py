"""The package's shape: one subpackage per layer, importing downwards only, in small modules.

The layers and their order are the import-linter contract in ``pyproject.toml``;
each layer's ``__init__`` docstring says what it may import.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

import clashkit
from clashkit._moved import MOVED

PACKAGE = Path(clashkit.__file__).parent
ROOT = PACKAGE.parent
#: The limits the layout keeps to (a module over them is split at its own sections).
MOST_TOP_LEVEL_MODULES = 8
MOST_LINES = 750


def _contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = config["contracts"]
    return contract


def test_the_layers_import_downwards_only():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


def test_every_subpackage_is_a_layer_of_the_contract_and_says_what_it_may_import():
    layers = _contract()["layers"]
    packages = sorted(f"clashkit.{p.parent.name}" for p in PACKAGE.glob("*/__init__.py"))
    assert sorted(layers) == packages
    for layer in layers:
        doc = importlib.import_module(layer).__doc__ or ""
        assert "May import" in doc or "may import" in doc, layer


def test_the_contract_is_not_weakened():
    contract = _contract()
    assert contract["type"] == "layers"
    assert not contract.get("ignore_imports") and not contract.get("exhaustive_ignores")
    assert _contract()["layers"][0] == "clashkit.cli" and contract["layers"][-1] == "clashkit.base"


def test_few_top_level_modules():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MOST_TOP_LEVEL_MODULES, top


def test_no_module_is_over_the_line_limit():
    long = {
        str(p.relative_to(ROOT)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def test_one_process_pool_in_the_package():
    """Every parallel run goes through clashkit.runs.workers.run_tasks."""
    pools = [
        str(p.relative_to(ROOT))
        for p in PACKAGE.rglob("*.py")
        for line in p.read_text(encoding="utf-8").splitlines()
        if "ProcessPoolExecutor(" in line
    ]
    assert pools == ["clashkit/runs/workers.py"]


@pytest.mark.parametrize("package", ["clashkit.base", "clashkit.runs", "clashkit.studies", "clashkit.viz"])
def test_no_name_an_entry_point_exports_is_the_name_of_one_of_its_modules(package):
    """Once a submodule is imported its name on the package is the module: ``viz.siege_lab``
    must stay the function."""
    module = importlib.import_module(package)
    folder = Path(module.__file__).parent
    modules = {p.stem for p in folder.glob("*.py")} | {p.parent.name for p in folder.glob("*/__init__.py")}
    assert sorted(set(module.__all__ if hasattr(module, "__all__") else dir(module)) & modules) == []


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_still_imports_and_says_where_it_went(old):
    name = f"clashkit.{old}"
    sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(name)
    assert module is importlib.import_module(f"clashkit.{MOVED[old]}")
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    moved = f"{name} is now clashkit.{MOVED[old]}"
    assert messages == [f"{moved}: import it from there (the old path goes in a later version)"]
