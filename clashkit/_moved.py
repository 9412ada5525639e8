"""Module paths of earlier versions, importable for now with a one-line deprecation warning.

clashkit's modules live in one subpackage per layer (``clashkit.engine.scenario``,
``clashkit.runs.simulate``, …).  ``import clashkit.engine.scenario`` still works: the
finder below answers the old name with the module at its new place, and says where
that is.  The old names go in a later version.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: Old module path (below ``clashkit``) -> where the module is now.
MOVED = {
    "abilities": "engine.abilities",
    "actions": "engine.actions",
    "analysis": "studies.analysis",
    "board": "show.board",
    "calibration": "studies.calibration",
    "cards": "base.cards",
    "cluster": "runs.cluster",
    "design": "studies.design",
    "destruction": "engine.destruction",
    "errors": "base.errors",
    "events": "engine.events",
    "fast.simulate": "runs.fast_games",
    "fast.warm": "runs.warm",
    "formats": "engine.formats",
    "game": "runs.game",
    "hand": "engine.hand",
    "incantations": "engine.incantations",
    "ladder": "studies.ladder",
    "lanes": "engine.lanes",
    "legality": "engine.legality",
    "levels": "base.levels",
    "limits": "base.limits",
    "loop": "engine.loop",
    "outcome": "engine.outcome",
    "output": "runs.output",
    "records": "engine.records",
    "render": "show.render",
    "rng": "base.rng",
    "rulebook": "base.rulebook",
    "rules": "base.rules",
    "scenario": "engine.scenario",
    "setup": "engine.setup",
    "siege": "engine.siege",
    "simulate": "runs.simulate",
    "skill": "studies.skill",
    "solo": "engine.solo",
    "solo_setup": "engine.solo_setup",
    "state": "engine.state",
    "stats": "base.stats",
    "trace": "runs.trace",
    "turn": "engine.turn",
    "vocab": "base.vocab",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module path as the module at its new place, with a warning."""

    def find_spec(self, fullname, path=None, target=None):
        old = fullname.removeprefix("clashkit.")
        if old == fullname or old not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        new = f"clashkit.{MOVED[module.__name__.removeprefix('clashkit.')]}"
        warnings.warn(
            f"{module.__name__} is now {new}: import it from there (the old path goes in a later version)",
            DeprecationWarning,
            stacklevel=2,
        )
        # importlib returns what sys.modules holds under the name once this returns
        sys.modules[module.__name__] = importlib.import_module(new)


def install() -> None:
    """Answer the old module paths (after every ordinary finder, so a real module always wins)."""
    if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
        sys.meta_path.append(_MovedModules())
