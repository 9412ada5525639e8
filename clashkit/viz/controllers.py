"""What the notebook widgets do, as plain Python classes: no ipywidgets, no browser.

Each controller owns a game state and the few operations its view offers;
:mod:`clashkit.viz.widgets` only draws them and wires buttons to them, so
every behaviour is testable in plain pytest.

=====================  ==================================================================
:class:`HandBuilder`   choose 8 cards and their order, see the playable cards, the mana
                       each turn would bring and the hand-health; play the first turns
                       against a deck and a bot
:class:`SiegeLab`      set up both sides' lanes, then step the siege attack by attack
                       (next / back / run)
:class:`RulesStepper`  a scenario's turn played one step at a time, each step explained
                       with the rules it applies
:class:`CardDesigner`  edit or add a card, play the change on the same seeds, compare win rates
=====================  ==================================================================

Stepping back restores an exact copy of the state before the step: every
controller keeps a list of :meth:`~clashkit.engine.state.GameState.clone` snapshots.
"""

from __future__ import annotations

from .labs.card_designer import CARD_FIELDS, CardDesigner, card_fields
from .labs.hand_builder import HandBuilder
from .labs.lab_common import RULE_OF_EVENT, action_label, events_table, menu_order, on_meant_side, rule_of
from .labs.rules_stepper import RulesStepper, example_scenario_path
from .labs.siege_lab import Side, SiegeLab, Slot

__all__ = [
    "CARD_FIELDS",
    "CardDesigner",
    "HandBuilder",
    "RULE_OF_EVENT",
    "RulesStepper",
    "Side",
    "SiegeLab",
    "Slot",
    "action_label",
    "card_fields",
    "events_table",
    "example_scenario_path",
    "menu_order",
    "on_meant_side",
    "rule_of",
]
