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


#: What the hand-health chart will show, in its place before the first step.
HAND_HEALTH_NOTE = (
    '<div style="font-size:12px;color:#6b6250;border:1px dashed #d8cfb8;padding:6px 8px;margin:4px 0">'
    "<b>Hand-health, step by step</b>: after the first step (<b>next ▶</b>), a line for each player "
    "shows their hand-health (R1.5) after every event of the siege; it drops where an attack "
    "reaches a keep (R4.7), and a square marks a step with the keep on its Fort side (R4.8).</div>"
)


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
        self.card.add_class("ck-creature")
        self.damage.add_class("ck-damage")
        self.protection_used = w.Checkbox(
            value=False,
            description="Protection used (R6.4)",
            indent=False,
            layout=w.Layout(width="190px"),
        )
        #: The place in the lane the buttons act on: a creature's (0 nearest the bridge) or the back.
        self.place = w.Dropdown(description="place", layout=w.Layout(width="300px"))
        self.place.add_class("ck-place")
        self.move_to = w.Dropdown(description="move to", layout=w.Layout(width="220px"))
        self.move_to.add_class("ck-move-to")
        # Wide enough for eight names and the keep (two lines when they wrap), never cut off.
        hand_layout = w.Layout(width="98%", height="52px")
        self.hand_a = w.Textarea(
            description="A's hand", placeholder="left to right, commas between: BASTION, OGRE, …", layout=hand_layout
        )
        self.hand_b = w.Textarea(
            description="B's hand", placeholder="left to right, commas between: BASTION, OGRE, …", layout=hand_layout
        )
        self.hand_a.add_class("ck-hand-a")
        self.hand_b.add_class("ck-hand-b")
        self.hand_card = w.Dropdown(
            options=sorted(c.name for c in cards), description="card", layout=w.Layout(width="240px")
        )
        self.hand_side = w.ToggleButtons(options=["A", "B"], description="to hand", style={"button_width": "40px"})
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
                    [self.place, self.card, self.damage, self.new, self.protection_used],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
                w.HBox(
                    [
                        _button(
                            "insert here",
                            "ck-insert",
                            self.on_insert,
                            style="info",
                            tip="put the creature at this place; the ones from here on move back",
                        ),
                        _button("add at the back", "ck-add", self.on_add),
                        _button(
                            "change this one",
                            "ck-update",
                            self.on_update,
                            tip="set this creature's card, damage and flags",
                        ),
                        _button("remove this one", "ck-remove", self.on_remove),
                        self.move_to,
                        _button("move", "ck-move", self.on_move, tip="move the creature at this place"),
                        _button("clear lane", "ck-clear", self.on_clear),
                    ],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.hand_a,
                self.hand_b,
                w.HBox(
                    [
                        self.hand_side,
                        self.hand_card,
                        _button("add to the hand's right end", "ck-hand-add", self.on_hand_add),
                    ],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
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
        for widget in (self.player, self.lane):
            widget.observe(lambda _c: self._fill_places(), names="value")
        self.place.observe(lambda _c: self._load_place(), names="value")
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
        self.chart_note = w.HTML()
        self.chart_note.add_class("ck-chart-note")
        side = [self.events] + ([self.chart_note, self.chart] if self.chart is not None else [])
        body = w.HBox(
            [self.board, w.VBox(side, layout=w.Layout(flex="2 1 0%", min_width="320px"))],
            layout=w.Layout(flex_flow="row wrap"),
        )
        self.stepper = w.Output()
        self.stepper_view: RulesStepperView | None = None
        self.widget = w.VBox([self.setup, files, controls, self.message, self.status, body, self.stepper])
        self.widget.add_class("ck-siege-lab")
        self._fill_hands()
        self._fill_places()
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
        self._fill_places()
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

    def _slots(self):
        return self.lab.sides[self.player.value].lane(self.lane.value)

    def _fill_places(self) -> None:
        """The places of the chosen side of the chosen lane: each creature's, then the back."""
        slots = self._slots()
        keep = self.place.value
        self._filling = True  # a new list of options resets the value: that is not a choice to load
        places = [(f"{i}: {s.card}" + (f" (damage {s.damage})" if s.damage else ""), i) for i, s in enumerate(slots)]
        self.place.options = [*places, (f"{len(slots)}: the back (empty)", len(slots))]
        self.place.value = keep if isinstance(keep, int) and keep <= len(slots) else len(slots)
        self.move_to.options = [(str(i), i) for i in range(max(1, len(slots)))]
        self._filling = False

    def _load_place(self) -> None:
        """The fields show the creature at the chosen place (to change it or move it)."""
        slots, at = self._slots(), self.place.value
        if not getattr(self, "_filling", False) and isinstance(at, int) and at < len(slots):
            slot = slots[at]
            self.card.value, self.damage.value = slot.card, slot.damage
            self.new.value, self.protection_used.value = slot.new, slot.protection_used

    def _edit(self, change: Callable[[], object]) -> None:
        try:
            change()
        except (ValueError, KeyError, ClashkitError) as e:
            self.message.value = _message(str(e).strip(chr(34) + chr(39)), error=True)
            return
        self._fill_places()
        self._restart()

    def _fields(self) -> dict:
        return {"damage": self.damage.value, "new": self.new.value, "protection_used": self.protection_used.value}

    def on_insert(self) -> None:
        at = self.place.value
        self._edit(
            lambda: self.lab.add(self.player.value, self.lane.value, self.card.value, position=at, **self._fields())
        )

    def on_add(self) -> None:
        self._edit(lambda: self.lab.add(self.player.value, self.lane.value, self.card.value, **self._fields()))

    def on_update(self) -> None:
        at = self.place.value
        if not isinstance(at, int) or at >= len(self._slots()):
            self.message.value = _message("choose a placed creature under “place” to change it", error=True)
            return
        self._edit(
            lambda: self.lab.update(self.player.value, self.lane.value, at, card=self.card.value, **self._fields())
        )

    def on_move(self) -> None:
        at, to = self.place.value, self.move_to.value
        if not isinstance(at, int) or at >= len(self._slots()):
            self.message.value = _message("choose a placed creature under “place” to move it", error=True)
            return
        self._edit(lambda: self.lab.move(self.player.value, self.lane.value, at, to))
        self.place.value = to

    def on_remove(self) -> None:
        slots, at = self._slots(), self.place.value
        if not slots:
            return
        at = at if isinstance(at, int) and at < len(slots) else len(slots) - 1
        self._edit(lambda: self.lab.remove(self.player.value, self.lane.value, at))

    def on_clear(self) -> None:
        self._edit(lambda: self.lab.clear(self.player.value, self.lane.value))

    def on_hand_add(self) -> None:
        box = self.hand_a if self.hand_side.value == "A" else self.hand_b
        names = [n for n in (p.strip() for p in box.value.split(",")) if n]
        box.value = ", ".join([*names, self.hand_card.value])

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
        self._fill_places()
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
            if self.lab.steps == 0:
                # One point says nothing yet: say what the chart will show instead.
                self.chart_note.value = HAND_HEALTH_NOTE
                self.chart.clear_output()
                self.chart.layout.display = "none"
            else:
                self.chart_note.value = ""
                self.chart.layout.display = None
                _show_chart(self.chart, self.last_chart)


def siege_lab(lab: SiegeLab | str | Path | None = None, **kwargs) -> SiegeLabView:
    """The siege lab as widgets: the :meth:`SiegeLab.example` position by default, or a lab,
    or a scenario file's position (:meth:`SiegeLab.from_scenario`)."""
    if isinstance(lab, (str, Path)):
        lab = SiegeLab.from_scenario(lab)
    return SiegeLabView(lab, **kwargs)
