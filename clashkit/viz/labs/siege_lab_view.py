"""The siege lab as ipywidgets: :class:`~clashkit.viz.labs.siege_lab.SiegeLab` draws and steps, this
wires its buttons."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as w
from IPython.display import display

from ...base import PLAYERS, ClashkitError
from ...show import board_html
from .rules_stepper import RulesStepper
from .rules_stepper_view import RulesStepperView
from .siege_lab import SiegeLab
from .view_common import _button, _message, _show_chart, _View, events_html

if TYPE_CHECKING:
    import altair as alt


class SiegeLabView(_View):
    """Set up both sides' lanes, then step the siege: reset, back, next, run; an incantation
    can be played between attacks.  The board, the events and a hand-health chart follow."""

    def __init__(self, lab: SiegeLab | None = None, *, chart: bool = True) -> None:
        self.lab = lab if lab is not None else SiegeLab.example()
        cards = self.lab.cards
        creatures = sorted(c.name for c in cards if c.is_creature)
        # Setup.
        self.player = w.ToggleButtons(options=["A", "B"], description="side", style={"button_width": "40px"})
        self.lane = w.ToggleButtons(options=["upper", "lower"], description="lane", style={"button_width": "60px"})
        self.card = w.Dropdown(options=creatures, description="creature", layout=w.Layout(width="260px"))
        self.damage = w.BoundedIntText(value=0, min=0, max=20, description="damage", layout=w.Layout(width="150px"))
        self.new = w.Checkbox(value=False, description="new this turn", indent=False, layout=w.Layout(width="120px"))
        self.hand_a = w.Text(description="A's hand", layout=w.Layout(width="48%"))
        self.hand_b = w.Text(description="B's hand", layout=w.Layout(width="48%"))
        self.active = w.ToggleButtons(
            options=["A", "B"],
            description="attacker",
            value=self.lab.active,
            style={"button_width": "40px"},
        )
        self.mana = w.BoundedIntText(
            value=self.lab.mana, min=0, max=30, description="mana", layout=w.Layout(width="140px")
        )
        self.message = w.HTML()
        self.path = w.Text(
            value="position.toml",
            description="file",
            placeholder="my_position.toml",
            layout=w.Layout(width="320px"),
        )
        self.path.add_class("ck-path")
        files = w.HBox(
            [
                self.path,
                _button("save", "ck-save", self.on_save, tip="write the position as a scenario file"),
                _button("load", "ck-load", self.on_load, tip="read a scenario file (a duel)"),
                _button(
                    "explain step by step",
                    "ck-explain",
                    self.on_explain,
                    tip="open this position in the rules stepper",
                ),
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        setup = w.VBox(
            [
                w.HBox([self.player, self.lane]),
                w.HBox(
                    [
                        self.card,
                        self.damage,
                        self.new,
                        _button("add at the back", "ck-add", self.on_add, style="info"),
                        _button("remove last", "ck-remove", self.on_remove),
                        _button("clear lane", "ck-clear", self.on_clear),
                    ]
                ),
                w.HBox([self.hand_a, self.hand_b]),
                w.HBox(
                    [
                        self.active,
                        self.mana,
                        _button("use hands, attacker, mana", "ck-apply", self.on_apply),
                        _button("example", "ck-example", self.on_example),
                    ]
                ),
            ]
        )
        self.setup = w.Accordion(children=[setup], titles=("Set up the position",))
        # Stepping.
        self.next_button = _button(
            "next ▶",
            "ck-next",
            self.on_next,
            style="primary",
            tip="the next creature in the siege order takes its turn (R3.9)",
        )
        self.back_button = _button("◀ back", "ck-back", self.on_back)
        self.run_button = _button("run ▶▶", "ck-run", self.on_run)
        self.spell = w.Dropdown(options=[], description="incantation", layout=w.Layout(width="520px"))
        self.spell.add_class("ck-spell")
        self.cast_button = _button("cast", "ck-cast", self.on_cast, tip="R3.11: between two attacks")
        self.status = w.HTML()
        controls = w.HBox(
            [
                _button("⟲ reset", "ck-reset", self.on_reset),
                self.back_button,
                self.next_button,
                self.run_button,
                self.spell,
                self.cast_button,
            ],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.board = w.HTML(layout=w.Layout(flex="3 1 0%", min_width="520px"))
        self.board.add_class("ck-board")
        self.events = w.HTML(layout=w.Layout(max_height="460px", overflow="auto"))
        self.chart = w.Output() if chart else None
        self.last_chart: alt.LayerChart | alt.FacetChart | None = None
        side = [self.events] + ([self.chart] if self.chart is not None else [])
        body = w.HBox(
            [self.board, w.VBox(side, layout=w.Layout(flex="2 1 0%", min_width="320px"))],
            layout=w.Layout(flex_flow="row wrap"),
        )
        self.stepper = w.Output()
        self.stepper_view: RulesStepperView | None = None
        self.widget = w.VBox([self.setup, files, controls, self.message, self.status, body, self.stepper])
        self.widget.add_class("ck-siege-lab")
        self._fill_hands()
        self._restart()

    # -- Setup -----------------------------------------------------------------------------

    def _fill_hands(self) -> None:
        self.hand_a.value = ", ".join(self.lab.sides["A"].hand)
        self.hand_b.value = ", ".join(self.lab.sides["B"].hand)

    def _restart(self) -> None:
        try:
            self.lab.start()
        except ClashkitError as e:
            self.message.value = _message(str(e), error=True)
            self.lab.state = None
            self.redraw()
            return
        self.message.value = ""
        self.redraw()

    def _fill_setup(self) -> None:
        self.active.value, self.mana.value = self.lab.active, self.lab.mana
        self._fill_hands()

    def on_save(self) -> None:
        path = self.path.value.strip()
        if not path:
            self.message.value = _message("name a file to save the position in", error=True)
            return
        try:
            saved = self.lab.save(path)
        except OSError as e:
            self.message.value = _message(f"{path}: cannot write ({e.strerror})", error=True)
            return
        self.message.value = _message(f"saved to {saved}: load it here again, or run clashkit siege {saved}")

    def on_load(self) -> None:
        path = self.path.value.strip()
        try:
            self.lab = SiegeLab.from_scenario(path, cards=self.lab.cards)
        except ClashkitError as e:
            self.message.value = _message(str(e), error=True)
            return
        self._fill_setup()
        self._restart()
        self.message.value = _message(f"loaded {path}")

    def on_explain(self) -> None:
        """The rules stepper on this position (its casts included), below the lab."""
        try:
            self.stepper_view = RulesStepperView(RulesStepper(self.lab))
        except ClashkitError as e:
            self.message.value = _message(str(e), error=True)
            return
        with self.stepper:
            self.stepper.clear_output()
            display(self.stepper_view.widget)

    def on_add(self) -> None:
        self.lab.add(
            self.player.value,
            self.lane.value,
            self.card.value,
            damage=self.damage.value,
            new=self.new.value,
        )
        self._restart()

    def on_remove(self) -> None:
        side = self.lab.sides[self.player.value].lane(self.lane.value)
        if side:
            self.lab.remove(self.player.value, self.lane.value, len(side) - 1)
        self._restart()

    def on_clear(self) -> None:
        self.lab.clear(self.player.value, self.lane.value)
        self._restart()

    def on_apply(self) -> None:
        try:
            for player, text in (("A", self.hand_a.value), ("B", self.hand_b.value)):
                self.lab.set_hand(player, [n for n in (p.strip() for p in text.split(",")) if n])
        except KeyError as e:
            self.message.value = _message(f"hand: {str(e).strip(chr(34) + chr(39))}", error=True)
            return
        self.lab.active = self.active.value
        self.lab.mana = self.mana.value
        self.lab.summon, self.lab.plan = [], []
        self._restart()

    def on_example(self) -> None:
        self.lab = SiegeLab.example(self.lab.cards)
        self._fill_setup()
        self._restart()

    # -- Stepping --------------------------------------------------------------------------

    def _do(self, step: Callable[[], object]) -> None:
        if self.lab.state is None:
            return
        try:
            step()
        except ClashkitError as e:
            self.message.value = _message(str(e), error=True)
        self.redraw()

    def on_next(self) -> None:
        self._do(self.lab.next)

    def on_back(self) -> None:
        self._do(self.lab.back)

    def on_run(self) -> None:
        self._do(self.lab.run)

    def on_reset(self) -> None:
        self._do(self.lab.reset)

    def on_cast(self) -> None:
        if self.spell.value:
            self._do(lambda: self.lab.cast(self.spell.value))
        else:
            self.message.value = _message("choose an incantation and its target first", error=True)

    def redraw(self) -> None:
        state = self.lab.state
        if state is None:
            self.board.value = '<div style="color:#c62828">This position cannot arise; change the setup.</div>'
            self.events.value = ""
            for button in (self.next_button, self.back_button, self.run_button, self.cast_button):
                button.disabled = True
            return
        self.board.value = board_html(state, caption=f"siege lab · step {self.lab.steps}")
        self.events.value = events_html(self.lab.events(), caption="Events of this siege")
        done = self.lab.done
        self.next_button.disabled = self.run_button.disabled = done
        self.back_button.disabled = not self.lab.can_back
        menu = self.lab.incantation_menu()
        self.spell.options = menu
        # Preselect only a choice on the side its effect is meant for (R5.5), never a regret.
        self.spell.value = menu[0][1] if menu and self.lab.meant(menu[0][1]) else None
        self.cast_button.disabled = not menu
        if state.over:
            assert state.winner is not None, "a game that ends in the siege has a winner (R4.9)"
            self.status.value = _message(f"{PLAYERS[state.winner]} has won: the game is over (R4.9)")
        elif done:
            self.status.value = _message("The siege is over: every creature has had its turn (R3.9).")
        else:
            from ...base import LANES
            from ...engine import next_in_order

            place = next_in_order(state)
            assert place is not None, "the siege is not over: a creature has its turn to take"
            lane, position = place
            name = state.cards.names[state.lanes[state.active][lane][position].card]
            self.status.value = (
                f'<span style="font-size:12px">step {self.lab.steps} · '
                f"next: <b>{escape(name)}</b> at "
                f"{LANES[lane]}.{position}</span>"
            )
        if self.chart is not None:
            from ..charts import chart_hand_health_track

            self.last_chart = chart_hand_health_track(self.lab.trace().events, width=320, height=130)
            _show_chart(self.chart, self.last_chart)


def siege_lab(lab: SiegeLab | str | Path | None = None, **kwargs) -> SiegeLabView:
    """The siege lab as widgets: the :meth:`SiegeLab.example` position by default, or a lab,
    or a scenario file's position (:meth:`SiegeLab.from_scenario`)."""
    if isinstance(lab, (str, Path)):
        lab = SiegeLab.from_scenario(lab)
    return SiegeLabView(lab, **kwargs)
