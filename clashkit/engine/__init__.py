"""The engine layer: the rules of Clash of Decks in plain Python, one module per rule concept.

The state (:mod:`~clashkit.engine.state`), actions, events and outcome; the rule
modules named as the rulebook names them (:mod:`~clashkit.engine.hand`,
:mod:`~clashkit.engine.lanes`, :mod:`~clashkit.engine.abilities`,
:mod:`~clashkit.engine.destruction`, :mod:`~clashkit.engine.siege`,
:mod:`~clashkit.engine.incantations`, :mod:`~clashkit.engine.solo`,
:mod:`~clashkit.engine.turn`, :mod:`~clashkit.engine.legality`); the one way a
decision changes a game (:func:`apply`, in :mod:`~clashkit.engine.transition`),
the game loop (:mod:`~clashkit.engine.loop`), setups, formats and scenarios.
Policies come in as objects: the engine never resolves a policy's name.

May import: :mod:`clashkit.base`.
"""

from .actions import ATTACK, BEGIN_SIEGE, END_TURN, Action, Play, Proceed, format_place, parse_action
from .events import EVENT_FIELDS, NoEffect
from .hand import playable_indices
from .incantations import no_effect
from .loop import run
from .scenario import Scenario, ScenarioAction, dump_scenario, load_scenario, parse_scenario
from .setup import new_duel
from .siege import next_in_order
from .state import SIEGE, SUMMON, Creature, GameState
from .transition import (
    apply,
    apply_unchecked,
    can_cast_now,
    check,
    has_choice,
    legal_actions,
    legal_cards,
    legal_plays,
    play_creature,
    play_incantation,
    proceed_action,
)

__all__ = [
    "ATTACK",
    "Action",
    "BEGIN_SIEGE",
    "Creature",
    "NoEffect",
    "END_TURN",
    "EVENT_FIELDS",
    "GameState",
    "Play",
    "Proceed",
    "SIEGE",
    "SUMMON",
    "Scenario",
    "ScenarioAction",
    "apply",
    "apply_unchecked",
    "can_cast_now",
    "check",
    "dump_scenario",
    "format_place",
    "has_choice",
    "legal_actions",
    "legal_cards",
    "legal_plays",
    "load_scenario",
    "new_duel",
    "next_in_order",
    "no_effect",
    "parse_action",
    "parse_scenario",
    "play_creature",
    "play_incantation",
    "playable_indices",
    "proceed_action",
    "run",
]
