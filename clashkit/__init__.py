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

from . import _moved
from ._version import __version__ as __version__
from .base.cards import Card, CardSet, load_cards, starter_decks, starter_set
from .base.errors import (
    CardFileError,
    ClashkitError,
    DeckError,
    IllegalActionError,
    InputError,
    OptionError,
    ScenarioError,
)
from .base.rules import RULES_VERSION, Rules, SoloSettings
from .base.vocab import Ability, Keep, Lane, Mode, Phase, Player
from .engine.actions import ATTACK, BEGIN_SIEGE, END_TURN, Play, Proceed, parse_action
from .engine.scenario import Scenario, load_scenario, parse_scenario, run_siege
from .engine.state import Creature, GameState
from .engine.transition import apply, legal_actions
from .runs.replay import replay, replay_frames


def _show_states_as_tables() -> None:
    """In IPython (a notebook), a ``GameState`` displays as the table of :func:`clashkit.show.board.board_html`.

    Registered here, above every layer, so that the state itself stays plain data."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        from .show.board import board_html

        shell.display_formatter.formatters["text/html"].for_type(GameState, board_html)


_show_states_as_tables()
_moved.install()

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
    "replay_frames",
    "run_siege",
    "starter_decks",
    "starter_set",
]
