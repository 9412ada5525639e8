"""Charts and widgets for the notebooks: ``import clashkit.viz as viz``.

The engine never imports this package (nor altair, nor ipywidgets); importing
it in a notebook kernel switches altair to offline rendering
(:func:`~clashkit.viz.rendering.enable_offline`: charts are drawn to SVG in the
kernel by vl-convert, nothing is loaded from a CDN).

What it holds, loaded on first use:

- :mod:`~clashkit.viz.charts` — ``chart_mana_curve``, ``chart_mana_per_turn``,
  ``chart_hand_health``, ``chart_matchups``, ``chart_first_player``,
  ``chart_card_numbers``, ``chart_win_rate_shift``, ``chart_hand_health_track``;
- :mod:`~clashkit.viz.summaries` — the polars aggregations they draw;
- :mod:`~clashkit.viz.controllers` — ``HandBuilder``, ``SiegeLab``,
  ``RulesStepper``, ``CardDesigner`` as plain classes;
- :mod:`~clashkit.viz.widgets` — their ipywidgets views: ``hand_builder()``,
  ``siege_lab()``, ``rules_stepper()``, ``card_designer()``;
- :func:`~clashkit.viz.runs.play_matchups` — every pairing of some decks, with
  a progress bar;
- :func:`~clashkit.viz.tables.table` — a small frame shown whole.
"""

from __future__ import annotations

import importlib

from .rendering import enable_offline, in_notebook

_EXPORTS = {
    "charts": (
        "chart_card_numbers",
        "chart_first_player",
        "chart_hand_health",
        "chart_hand_health_track",
        "chart_mana_curve",
        "chart_mana_per_turn",
        "chart_matchups",
        "chart_win_rate_shift",
    ),
    "summaries": (
        "card_numbers",
        "cards_frame",
        "compare_win_rates",
        "deck_win_rates",
        "decks_frame",
        "first_player_advantage",
        "hand_health_over_turns",
        "label_decks",
        "mana_curve",
        "mana_per_turn",
        "matchups",
        "starter_deck_names",
    ),
    "controllers": (
        "CardDesigner",
        "HandBuilder",
        "RulesStepper",
        "SiegeLab",
        "events_table",
        "example_scenario_path",
    ),
    "widgets": (
        "CardDesignerView",
        "HandBuilderView",
        "RulesStepperView",
        "SiegeLabView",
        "card_designer",
        "hand_builder",
        "rules_stepper",
        "siege_lab",
    ),
    "runs": ("play_matchups", "default_policy"),
    "tables": ("table",),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        if name in _EXPORTS:
            return importlib.import_module(f".{name}", __name__)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE, *_EXPORTS])


if in_notebook():
    enable_offline()

__all__ = ["enable_offline", "in_notebook", *sorted(_WHERE)]
