"""Learn the rules as ipywidgets: a view of :class:`~clashkit.viz.labs.rules_stepper.RulesStepper`."""

from __future__ import annotations

from html import escape

import ipywidgets as w

from ...show import board_html
from ..rules import rule_link
from .rules_stepper import RulesStepper
from .siege_lab import SiegeLab
from .view_common import _LI, _button, _View


class RulesStepperView(_View):
    """A scenario's turn, one step at a time, each step explained with its rules."""

    def __init__(self, stepper: RulesStepper | None = None) -> None:
        self.stepper = stepper if stepper is not None else RulesStepper()
        self.next_button = _button("next step ▶", "ck-next", self.on_next, style="primary")
        self.back_button = _button("◀ back", "ck-back", self.on_back)
        self.run_button = _button("to the end ▶▶", "ck-run", self.on_run)
        self.upcoming = w.HTML()
        self.explanation = w.HTML()
        self.board = w.HTML()
        self.board.add_class("ck-board")
        controls = w.HBox(
            [
                _button("⟲ start again", "ck-reset", self.on_reset),
                self.back_button,
                self.next_button,
                self.run_button,
            ]
        )
        self.widget = w.VBox([controls, self.upcoming, self.explanation, self.board])
        self.widget.add_class("ck-rules-stepper")
        self.redraw()

    def on_next(self) -> None:
        self.stepper.next()
        self.redraw()

    def on_back(self) -> None:
        self.stepper.back()
        self.redraw()

    def on_run(self) -> None:
        self.stepper.run()
        self.redraw()

    def on_reset(self) -> None:
        self.stepper.reset()
        self.redraw()

    def redraw(self) -> None:
        s = self.stepper
        head = s.explanation[0] if s.explanation else ""
        items = "".join(
            f"<li {_LI}>{escape(row['what happened'])} {rule_link(row['rule']) if row['rule'] else ''}</li>"
            for row in s.last.iter_rows(named=True)
        )
        self.explanation.value = (
            '<div style="font-size:13px;background:#fffdf6;border-left:4px solid #d4a017;'
            'padding:4px 10px">'
            f"<b>{escape(head)}</b><ul style='margin:2px 0 2px 18px;padding:0'>{items}</ul></div>"
        )
        nxt = "" if s.finished else f"Next: {s.upcoming}."
        self.upcoming.value = f'<span style="font-size:12px;color:#6b6250">step {s.step} · {escape(nxt)}</span>'
        self.board.value = board_html(s.state, caption=f"step {s.step}")
        self.next_button.disabled = self.run_button.disabled = s.finished
        self.back_button.disabled = s.step == 0


def rules_stepper(scenario=None) -> RulesStepperView:
    """The rules stepper as widgets, on ``scenario``: a scenario file, TOML text, a
    :class:`SiegeLab` (or its view) whose position it opens, or by default the shipped
    ``first_siege``."""
    lab = getattr(scenario, "lab", None)  # a view of a siege lab opens its lab's position
    if isinstance(lab, SiegeLab):
        scenario = lab
    return RulesStepperView(RulesStepper(scenario))
