"""clashkit: the rules of Clash of Decks as an engine, traces as polars frames, and tools for designers.

The engine plays every rule of ``rules.md`` step by step::

    >>> from clashkit import parse_scenario, run_siege
    >>> state = run_siege(parse_scenario(open("scenario.toml").read()))  # doctest: +SKIP

Card values of the shipped set are provisional (R9).
"""

from __future__ import annotations

from .actions import ATTACK, BEGIN_SIEGE, END_TURN, Play, Proceed, parse_action
from .cards import Card, CardSet, load_cards, starter_decks, starter_set
from .engine import apply, legal_actions
from .errors import (
    CardFileError,
    ClashkitError,
    DeckError,
    IllegalActionError,
    InputError,
    OptionError,
    ScenarioError,
)
from .rules import RULES_VERSION, Rules, SoloSettings
from .scenario import Scenario, load_scenario, parse_scenario, run_siege
from .state import Creature, GameState
from .vocab import Ability, Keep, Lane, Mode, Phase, Player

__version__ = "0.1.0"


def replay(games_row, *, cards=None, rules=None, record: bool = True):
    """Replay one game of a batch (either engine) in the reference engine, from its seed, with its events.

    See :func:`clashkit.fast.replay`.
    """
    from .fast import replay as _replay

    return _replay(games_row, cards=cards, rules=rules, record=record)


__all__ = [
    "ATTACK",
    "BEGIN_SIEGE",
    "END_TURN",
    "Ability",
    "Card",
    "CardFileError",
    "CardSet",
    "ClashkitError",
    "Creature",
    "DeckError",
    "GameState",
    "IllegalActionError",
    "InputError",
    "Keep",
    "Lane",
    "Mode",
    "OptionError",
    "Phase",
    "Play",
    "Player",
    "Proceed",
    "RULES_VERSION",
    "Rules",
    "Scenario",
    "ScenarioError",
    "SoloSettings",
    "apply",
    "legal_actions",
    "load_cards",
    "load_scenario",
    "parse_action",
    "parse_scenario",
    "replay",
    "run_siege",
    "starter_decks",
    "starter_set",
]
