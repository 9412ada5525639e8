"""Charts and widgets for the notebooks: ``import clashkit.viz as viz``.

The engine never imports this package (nor altair, nor ipywidgets), and
importing it loads neither: each module below loads on first use.  In a
notebook kernel, altair is switched to offline rendering
(:func:`~clashkit.viz.rendering.enable_offline`) when the first chart is made:
charts are compiled to Vega in the kernel and drawn by JupyterLab's own Vega,
with tooltips; nothing is loaded from a CDN.  A polars frame a cell shows is
drawn whole up to 100 rows, a longer one with a line saying how to see the rest
(:func:`~clashkit.viz.tables.frame_html`).

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
- :mod:`~clashkit.viz.skill` — balance by skill: ``play_skill``, ``chart_skill_matrices``,
  ``chart_skill`` (each deck's rate over the strengths' Elo), ``skill_table``, ``skill_strengths``;
- :mod:`~clashkit.viz.meta` — the deck space of a meta study: ``deck_map`` (the search's map),
  ``equilibrium_chart``, ``card_values_chart``, ``starters_chart``, ``meta_report`` (all four),
  ``top_decks_table``, ``card_change_table`` (a new card's place in the meta);
- :func:`~clashkit.viz.tables.table` — a frame shown whole, or its first rows and
  how to see the rest;
- :func:`~clashkit.viz.rules.rule` — a rule's text (``viz.rule("R6.7")``).

Each lab is a controller module (plain Python, testable without a browser) beside
its view module in :mod:`clashkit.viz.labs` (``siege_lab`` and ``siege_lab_view``, …).

May import: :mod:`clashkit.show`, :mod:`clashkit.studies` and every layer below
them; charts talk to the studies and runs layers through their public functions.
"""

from __future__ import annotations

import importlib

from .rendering import enable_offline, enable_when_loaded, in_notebook

_EXPORTS = {
    "charts": (
        "chart_card_numbers",
        "chart_first_player",
        "chart_hand_health",
        "chart_hand_health_track",
        "chart_ladder",
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
        "hand_health_readable",
        "label_decks",
        "mana_curve",
        "mana_per_turn",
        "matchups",
        "matchups_readable",
        "starter_deck_names",
    ),
    "paired": (
        "chart_paired_by_strength",
        "chart_paired_changes",
        "paired_matrix_html",
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
    "skill": (
        "chart_skill",
        "chart_skill_matrices",
        "play_skill",
        "skill_decks",
        "skill_matrices",
        "skill_strengths",
        "skill_table",
    ),
    "meta": (
        "card_change_table",
        "card_values_chart",
        "deck_map",
        "equilibrium_chart",
        "meta_report",
        "starters_chart",
        "top_decks_table",
    ),
    "tables": ("table",),
    "rules": ("rule", "rules_matching"),
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


def _show_frame(frame) -> str:
    from .tables import frame_html

    return frame_html(frame)


if in_notebook():
    enable_when_loaded()
    # Polars frames shown whole (or with how to see the rest), without importing polars now.
    from IPython import get_ipython

    get_ipython().display_formatter.formatters["text/html"].for_type_by_name(
        "polars.dataframe.frame", "DataFrame", _show_frame
    )

__all__ = ["enable_offline", "in_notebook", *sorted(_WHERE)]
