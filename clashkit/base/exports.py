"""A layer's entry point whose names load on first use (PEP 562), so importing a layer costs nothing.

A layer's ``__init__`` lists its public names as ordinary imports under
``if TYPE_CHECKING:`` — what type checkers and readers see — and hands its own
file to :func:`lazy_exports`, which reads that block once and imports each name
from its module when it is first asked for.  ``import clashkit.base`` thus
imports neither polars nor anything else a name would need::

    if TYPE_CHECKING:
        from .cards import CardSet

    __getattr__, __dir__, __all__ = lazy_exports(__name__, __file__)
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path


def _listed(path: str) -> dict[str, tuple[str, str]]:
    """``name -> (module, attribute)`` of the ``from .m import a as name`` lines under ``if TYPE_CHECKING:``."""
    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    where: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.level == 1 and statement.module:
                    for alias in statement.names:
                        where[alias.asname or alias.name] = (statement.module, alias.name)
    return where


def lazy_exports(package: str, path: str) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """The package's ``__getattr__``, ``__dir__`` and ``__all__`` for the names listed in ``path``."""
    where = _listed(path)
    folder = Path(path).parent
    for name in where:
        if (folder / f"{name}.py").exists() or (folder / name / "__init__.py").is_file():
            # once the submodule is imported its name on the package is the module, not this name
            raise ImportError(f"{package}: the export {name!r} has the name of a module of the package")

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = where[name]
        value = getattr(importlib.import_module(f".{module}", package), attribute)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__, sorted(where)


__all__ = ["lazy_exports"]
