"""The commands of ``clashkit``, one module each; :func:`register` adds them to the group."""

from __future__ import annotations

import importlib

#: Command modules; each defines ``command`` (a click command).
MODULES = (
    "siege",
    "solo_levels",
    "simulate",
    "play",
    "rules",
    "balance",
    "sweep",
    "card_stats",
    "tune",
    "compare",
    "ladder",
    "expert_train",
    "exploit",
    "meta",
)


def register(group) -> None:
    for name in MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        group.add_command(module.command)
