"""Learn the rules: a scenario's turn played one step at a time, each step explained with the rules it applies.

Plain Python, no ipywidgets: :mod:`clashkit.viz.labs.rules_stepper_view` draws it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import polars as pl

from ...base import LANES, PLAYERS
from ...engine import (
    ATTACK,
    BEGIN_SIEGE,
    END_TURN,
    SIEGE,
    SUMMON,
    Scenario,
    apply,
    load_scenario,
    next_in_order,
    parse_scenario,
)
from .lab_common import _History, _log_len, events_table
from .siege_lab import SiegeLab


def example_scenario_path(name: str = "first_siege") -> Path:
    """A teaching scenario shipped with clashkit (``first_siege``)."""
    return Path(str(resources.files("clashkit.viz") / "scenarios" / f"{name}.toml"))


class RulesStepper:
    """A scenario's turn played one step at a time: its summon-phase actions, the siege
    begun, each creature's turn in the siege order with the siege actions in their windows
    (R3.11), then the end of the turn (R3.12).  After each step :attr:`explanation` says
    what happened and which rules applied.

    ``scenario`` is a scenario file, TOML text, a loaded :class:`~clashkit.engine.scenario.Scenario`
    or a :class:`SiegeLab`, whose current position (and the incantations cast in it) it
    opens."""

    def __init__(self, scenario: Scenario | SiegeLab | str | Path | None = None) -> None:
        if scenario is None:
            scenario = example_scenario_path()
        if isinstance(scenario, SiegeLab):  # the lab's position, with the casts made there
            scenario = parse_scenario(scenario.scenario_text(), source="siege lab", cards=scenario.cards)
        if isinstance(scenario, Path) or (isinstance(scenario, str) and "\n" not in scenario):
            scenario = load_scenario(scenario)
        elif isinstance(scenario, str):
            scenario = parse_scenario(scenario)
        self.scenario = scenario
        self.reset()

    def reset(self) -> None:
        self.state = self.scenario.initial.clone()
        self._summon = [a for a in self.scenario.actions if a.siege is None]
        self._siege = [a for a in self.scenario.actions if a.siege is not None]
        self._i = 0  # summon actions played
        self._j = 0  # siege actions played
        self._order = 0  # turns of the siege order taken
        self._ended = False
        self._history = _History()
        self.explanation: list[str] = ["The position before the turn goes on. Press next."]
        self.last: pl.DataFrame = events_table(self.state, _log_len(self.state))

    @property
    def finished(self) -> bool:
        return self._ended or self.state.over

    @property
    def step(self) -> int:
        return len(self._history)

    def _next_move(self):
        """(what, action) of the next step, or None when the turn is over."""
        state = self.state
        if self.finished:
            return None
        if state.phase == SUMMON:
            if self._i < len(self._summon):
                return "summon", self._summon[self._i]
            return "siege", BEGIN_SIEGE
        if state.phase == SIEGE:
            if self._j < len(self._siege) and self._siege[self._j].window <= self._order:
                return "cast", self._siege[self._j]
            if next_in_order(state) is not None:
                return "attack", ATTACK
            if self._j < len(self._siege):
                return "cast", self._siege[self._j]
            return "end", END_TURN
        return None

    @property
    def upcoming(self) -> str:
        """What the next step will do, in words."""
        move = self._next_move()
        if move is None:
            return "the turn is over"
        what, action = move
        if what in ("summon", "cast"):
            return f"{PLAYERS[self.state.active]} plays {action.text().removeprefix('play ')}"
        if what == "siege":
            return "the summon phase ends and the siege begins (R1.6, R3.9)"
        if what == "attack":
            place = next_in_order(self.state)
            assert place is not None, "an attack is the next step only while a creature has its turn to take"
            lane, position = place
            name = self.state.cards.names[self.state.lanes[self.state.active][lane][position].card]
            return f"{name} at {LANES[lane]}.{position} takes its turn in the siege (R3.9)"
        return "the turn ends: every creature regenerates (R3.12)"

    def next(self) -> list[str]:
        """Take one step; returns (and keeps in :attr:`explanation`) what happened."""
        move = self._next_move()
        if move is None:
            return []
        what, action = move
        state = self.state
        self._history.push(state.clone(), self._i, self._j, self._order, self._ended, self.explanation, self.last)
        before = _log_len(state)
        heading = self.upcoming
        if what in ("summon", "cast"):
            apply(state, action.resolve(state))
            if what == "summon":
                self._i += 1
            else:
                self._j += 1
        elif what == "siege":
            apply(state, BEGIN_SIEGE)
        elif what == "attack":
            apply(state, ATTACK)
            self._order += 1
        else:
            apply(state, END_TURN)
            self._ended = True
        self.last = events_table(state, before)
        self.explanation = [heading[0].upper() + heading[1:] + "."] + [
            f"{row['what happened']} ({row['rule']})" if row["rule"] else row["what happened"]
            for row in self.last.iter_rows(named=True)
        ]
        return self.explanation

    def back(self) -> bool:
        if not len(self._history):
            return False
        (self.state, self._i, self._j, self._order, self._ended, self.explanation, self.last) = self._history.pop()
        return True

    def run(self) -> None:
        while self._next_move() is not None:
            self.next()
