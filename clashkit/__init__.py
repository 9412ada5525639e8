"""clashkit: the rules of Clash of Decks as an engine, traces as polars frames, and tools for designers.

The engine plays every rule of ``docs/rules.md`` (``clashkit rules R3.9``) step by step::

    >>> from clashkit import parse_scenario, run_siege
    >>> state = run_siege(parse_scenario(open("scenario.toml").read()))  # doctest: +SKIP

Card values of the shipped set are provisional (R9).
"""

from __future__ import annotations


def _quiet_start() -> None:
    """The command line (``clashkit …``, ``python -m clashkit``): Ctrl-C or SIGTERM while the
    package is still importing ends the process in one line, not an import traceback.
    ``clashkit.cli`` puts the usual handlers back before a command runs."""
    import os
    import signal
    import sys

    argv = getattr(sys, "orig_argv", sys.argv)
    command = os.path.basename(sys.argv[0] if sys.argv else "") == "clashkit"
    module = any(a == "-m" and b == "clashkit" for a, b in zip(argv, argv[1:], strict=False))
    if not (command or module):
        return

    def stop(signum, frame):
        name = "SIGTERM" if signum == signal.SIGTERM else "interrupted"
        os.write(2, f"clashkit: {name}: stopped while starting\n".encode())
        os._exit(143 if signum == signal.SIGTERM else 130)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)


_quiet_start()

from ._version import __version__ as __version__
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
from .replay import replay
from .rules import RULES_VERSION, Rules, SoloSettings
from .scenario import Scenario, load_scenario, parse_scenario, run_siege
from .state import Creature, GameState
from .vocab import Ability, Keep, Lane, Mode, Phase, Player


def _show_states_as_tables() -> None:
    """In IPython (a notebook), a ``GameState`` displays as the table of :func:`clashkit.board.board_html`.

    Registered here, above every layer, so that the state itself stays plain data."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        from .board import board_html

        shell.display_formatter.formatters["text/html"].for_type(GameState, board_html)


_show_states_as_tables()

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
