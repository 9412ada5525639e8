"""ipywidgets views of the controllers (:mod:`clashkit.viz.controllers`).

Each view builds its widgets once, wires each button to one controller
method and redraws from the controller's state afterwards; it keeps no game
logic of its own.  ``view.widget`` is the root box, and a view displays itself
in a notebook cell.  Buttons carry CSS classes (``ck-next``, ``ck-back`` …) so a
browser test can find them.

=========================  ===============================================
:func:`hand_builder`       :class:`HandBuilderView` of a :class:`~.controllers.HandBuilder`
:func:`siege_lab`          :class:`SiegeLabView` of a :class:`~.controllers.SiegeLab`
:func:`rules_stepper`      :class:`RulesStepperView` of a :class:`~.controllers.RulesStepper`
:func:`card_designer`      :class:`CardDesignerView` of a :class:`~.controllers.CardDesigner`
=========================  ===============================================
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

import ipywidgets as w
import polars as pl
from IPython.display import display

from ..base.errors import ClashkitError
from ..base.vocab import PLAYERS, Ability, Direction, Effect, TargetSide
from ..policies import POLICIES
from ..show.board import board_html, card_html, hand_html
from .controllers import CardDesigner, HandBuilder, RulesStepper, SiegeLab
from .rules import rule_link
from .runs import default_policy
from .tables import table_html

#: Wide enough for the longest card name (ANNIHILATION) in JupyterLab's dropdown font.
NAME_WIDTH = "150px"


def events_html(events: pl.DataFrame, *, caption: str, max_rows: int = 400) -> str:
    """An events table (step, rule, what happened) whose rule numbers unfold to their text."""
    return table_html(
        events.select("step", "rule", "what happened"),
        caption=caption,
        max_rows=max_rows,
        formatters={"rule": lambda number: rule_link(str(number or ""))},
        rest="the events() method of the lab or builder returns them all",
    )


def _button(
    description: str, css: str, on_click: Callable[[], None], *, style: str = "", tip: str = ""
) -> w.Button:
    button = w.Button(
        description=description,
        button_style=style,
        tooltip=tip or description,
        layout=w.Layout(width="auto"),
    )
    button.add_class(css)
    button.on_click(lambda _b: on_click())
    return button


#: List items as tight as the board's text (JupyterLab spaces them widely otherwise).
_LI = 'style="margin:1px 0;line-height:15px"'


def _message(text: str, *, error: bool = False) -> str:
    colour = "#c62828" if error else "#2e7d32"
    return f'<span style="color:{colour};font-size:12px">{escape(text)}</span>' if text else ""


class _View:
    widget: w.Widget

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        display(self.widget)


def _show_chart(output: w.Output, chart) -> None:
    with output:
        output.clear_output(wait=True)
        display(chart)


# --- Siege lab -------------------------------------------------------------------------------


class SiegeLabView(_View):
    """Set up both sides' lanes, then step the siege: reset, back, next, run; an incantation
    can be played between attacks.  The board, the events and a hand-health chart follow."""

    def __init__(self, lab: SiegeLab | None = None, *, chart: bool = True) -> None:
        self.lab = lab if lab is not None else SiegeLab.example()
        cards = self.lab.cards
        creatures = sorted(c.name for c in cards if c.is_creature)
        # Setup.
        self.player = w.ToggleButtons(
            options=["A", "B"], description="side", style={"button_width": "40px"}
        )
        self.lane = w.ToggleButtons(
            options=["upper", "lower"], description="lane", style={"button_width": "60px"}
        )
        self.card = w.Dropdown(
            options=creatures, description="creature", layout=w.Layout(width="260px")
        )
        self.damage = w.BoundedIntText(
            value=0, min=0, max=20, description="damage", layout=w.Layout(width="150px")
        )
        self.new = w.Checkbox(
            value=False, description="new this turn", indent=False, layout=w.Layout(width="120px")
        )
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
        self.spell = w.Dropdown(
            options=[], description="incantation", layout=w.Layout(width="520px")
        )
        self.spell.add_class("ck-spell")
        self.cast_button = _button(
            "cast", "ck-cast", self.on_cast, tip="R3.11: between two attacks"
        )
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
        self.last_chart = None
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
        self.message.value = _message(
            f"saved to {saved}: load it here again, or run clashkit siege {saved}"
        )

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
            self.board.value = (
                '<div style="color:#c62828">This position cannot arise; change the setup.</div>'
            )
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
            self.status.value = _message(
                f"{PLAYERS[state.winner]} has won: the game is over (R4.9)"
            )
        elif done:
            self.status.value = _message(
                "The siege is over: every creature has had its turn (R3.9)."
            )
        else:
            from ..base.vocab import LANES
            from ..engine.siege import next_in_order

            lane, position = next_in_order(state)
            name = state.cards.names[state.lanes[state.active][lane][position].card]
            self.status.value = (
                f'<span style="font-size:12px">step {self.lab.steps} · '
                f"next: <b>{escape(name)}</b> at "
                f"{LANES[lane]}.{position}</span>"
            )
        if self.chart is not None:
            from .charts import chart_hand_health_track

            self.last_chart = chart_hand_health_track(
                self.lab.trace().events, width=320, height=130
            )
            _show_chart(self.chart, self.last_chart)


def siege_lab(lab: SiegeLab | str | Path | None = None, **kwargs) -> SiegeLabView:
    """The siege lab as widgets: the :meth:`SiegeLab.example` position by default, or a lab,
    or a scenario file's position (:meth:`SiegeLab.from_scenario`)."""
    if isinstance(lab, (str, Path)):
        lab = SiegeLab.from_scenario(lab)
    return SiegeLabView(lab, **kwargs)


# --- Learn the rules -----------------------------------------------------------------------


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
        self.upcoming.value = (
            f'<span style="font-size:12px;color:#6b6250">step {s.step} · {escape(nxt)}</span>'
        )
        self.board.value = board_html(s.state, caption=f"step {s.step}")
        self.next_button.disabled = self.run_button.disabled = s.finished
        self.back_button.disabled = s.step == 0


def rules_stepper(scenario=None) -> RulesStepperView:
    """The rules stepper as widgets, on ``scenario``: a scenario file, TOML text, a
    :class:`SiegeLab` (or its view) whose position it opens, or by default the shipped
    ``first_siege``."""
    if isinstance(scenario, SiegeLabView):
        scenario = scenario.lab
    return RulesStepperView(RulesStepper(scenario))


# --- Hand builder --------------------------------------------------------------------------


class HandBuilderView(_View):
    """Choose 8 cards and their order, read the plan of the first turns, then play them."""

    def __init__(self, builder: HandBuilder | None = None) -> None:
        self.builder = builder if builder is not None else HandBuilder()
        b = self.builder
        names = sorted(b.cards.names)
        self.slots = [
            w.Dropdown(options=names, value=name, layout=w.Layout(width=NAME_WIDTH))
            for name in b.order
        ]
        slot_boxes = []
        small = w.Layout(width="36px", height="24px", padding="0")
        for i, slot in enumerate(self.slots):
            slot.observe(lambda change, i=i: self.on_slot(i, change["new"]), names="value")
            left = _button("◀", f"ck-left-{i}", lambda i=i: self.on_move(i, -1), tip="move left")
            right = _button("▶", f"ck-right-{i}", lambda i=i: self.on_move(i, +1), tip="move right")
            left.layout = right.layout = small
            label = w.HTML(
                f'<span style="font-size:11px;color:#6b6250;padding:0 6px">{i + 1}</span>'
            )
            arrows = w.HBox([left, label, right], layout=w.Layout(justify_content="center"))
            slot_boxes.append(w.VBox([slot, arrows], layout=w.Layout(margin="0 2px 4px 0")))
        self.hand_view = w.HTML()
        self.preset = w.Dropdown(
            options=["—", *b.decks], description="load", layout=w.Layout(width="180px")
        )
        self.preset.observe(lambda change: self.on_preset(change["new"]), names="value")
        self.plan = w.HTML()
        self.problems = w.HTML()
        # The game.
        self.opponent = w.Dropdown(
            options=list(b.decks),
            value="deck 2" if "deck 2" in b.decks else None,
            description="against",
            layout=w.Layout(width="180px"),
        )
        bots = list(POLICIES)
        self.bot = w.Dropdown(
            options=bots,
            value=b.bot if b.bot in bots else bots[0],
            description="bot",
            layout=w.Layout(width="180px"),
        )
        self.first = w.ToggleButtons(
            options=["A", "B"],
            value=b.first,
            style={"button_width": "36px"},
            layout=w.Layout(width="auto"),
        )
        self.seed = w.BoundedIntText(
            value=b.seed, min=0, max=10**9, description="seed", layout=w.Layout(width="160px")
        )
        self.actions = w.Dropdown(
            options=[], description="your move", layout=w.Layout(width="560px")
        )
        self.actions.add_class("ck-moves")
        self.play_button = _button("play", "ck-play", self.on_play, style="primary")
        self.bot_button = _button("bot plays for me", "ck-bot", self.on_bot)
        self.end_button = _button("finish my turn", "ck-end", self.on_end_turn)
        self.back_button = _button("◀ back", "ck-back", self.on_back)
        self.message = w.HTML()
        self.board = w.HTML(layout=w.Layout(flex="3 1 0%", min_width="520px"))
        self.board.add_class("ck-board")
        self.log = w.HTML(
            layout=w.Layout(flex="2 1 0%", min_width="300px", max_height="420px", overflow="auto")
        )
        self.widget = w.VBox(
            [
                w.HTML(
                    "<b>Your hand, left to right</b> (the Bastion starts leftmost; "
                    "the first 4 cards are playable, R3.2)"
                ),
                w.HBox(slot_boxes, layout=w.Layout(flex_flow="row wrap")),
                w.HBox([self.preset, _button("shuffle", "ck-shuffle", self.on_shuffle)]),
                self.hand_view,
                self.problems,
                self.plan,
                w.HTML("<b>Play the first turns</b>"),
                w.HBox(
                    [
                        self.opponent,
                        self.bot,
                        w.Label("moves first", layout=w.Layout(margin="0 4px 0 12px")),
                        self.first,
                        self.seed,
                        _button("new game", "ck-new-game", self.on_new_game, style="info"),
                    ],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox(
                    [
                        self.actions,
                        self.play_button,
                        self.bot_button,
                        self.end_button,
                        self.back_button,
                    ],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                self.message,
                w.HBox([self.board, self.log], layout=w.Layout(flex_flow="row wrap")),
            ]
        )
        self.widget.add_class("ck-hand-builder")
        self._updating = False
        self.first.observe(lambda _change: self.redraw_hand(), names="value")
        self.redraw_hand()
        self.redraw_game()

    # -- The hand -----------------------------------------------------------------------

    def _sync_slots(self, *, edited: bool = True) -> None:
        """Show the builder's order in the slots; after an edit the hand is no longer the
        loaded deck, so the "load" choice goes back to "—"."""
        self._updating = True
        try:
            for slot, name in zip(self.slots, self.builder.order, strict=True):
                slot.value = name
            if edited:
                self.preset.value = "—"
        finally:
            self._updating = False

    def on_slot(self, i: int, name: str) -> None:
        if self._updating:
            return
        self.builder.set_card(i, name)  # a card already in the hand swaps places (R7.1)
        self._sync_slots()
        self.redraw_hand()

    def on_move(self, i: int, step: int) -> None:
        self.builder.move(i, step)
        self._sync_slots()
        self.redraw_hand()

    def on_preset(self, deck: str) -> None:
        if self._updating:
            return
        if deck in self.builder.decks:
            self.builder.set_order(self.builder.decks[deck])
            self._sync_slots(edited=False)
            self.redraw_hand()

    def on_shuffle(self) -> None:
        from ..base.rng import Rng

        order = list(self.builder.order)
        Rng(self.seed.value).shuffle(order)
        self.builder.set_order(order)
        self._sync_slots()
        self.redraw_hand()

    def redraw_hand(self) -> None:
        problems = self.builder.problems
        self.problems.value = _message("; ".join(problems), error=True) if problems else ""
        self.hand_view.value = hand_html(self.builder.cards, self.builder.hand)
        try:
            plan = self.builder.plan(first=self.first.value == "A")
        except ValueError:  # a card twice: no plan for a hand that cannot be played (R7.1)
            self.plan.value = ""
            return
        self.plan.value = table_html(
            plan.select("turn", "mana", "playable", "played", "mana_left", "hand_health"),
            caption="If nobody stopped you: your first turns, "
            "playing every affordable playable creature",
            tail=False,
        )

    # -- The game -----------------------------------------------------------------------

    def on_new_game(self) -> None:
        b = self.builder
        b.opponent, b.bot, b.first, b.seed = (
            self.opponent.value,
            self.bot.value,
            self.first.value,
            self.seed.value,
        )
        try:
            b.start()
        except (ClashkitError, ValueError) as e:
            self.message.value = _message(str(e), error=True)
            return
        self.message.value = ""
        self.redraw_game()

    def _do(self, step: Callable[[], list[str]]) -> None:
        if self.builder.state is None:
            self.on_new_game()
        try:
            step()
            self.message.value = ""
        except ClashkitError as e:
            self.message.value = _message(str(e), error=True)
        self.redraw_game()

    def on_play(self) -> None:
        if self.actions.value:
            self._do(lambda: self.builder.act(self.actions.value))

    def on_bot(self) -> None:
        self._do(self.builder.bot_move)

    def on_end_turn(self) -> None:
        self._do(self.builder.finish_turn)

    def on_back(self) -> None:
        self.builder.back()
        self.redraw_game()

    def redraw_game(self) -> None:
        state = self.builder.state
        if state is None:
            self.board.value = (
                '<div style="color:#6b6250">Press “new game” to play this hand.</div>'
            )
            self.actions.options = []
            for button in (self.play_button, self.bot_button, self.end_button, self.back_button):
                button.disabled = True
            self.log.value = ""
            return
        self.board.value = board_html(state, caption="hand builder")
        menu = self.builder.menu()
        self.actions.options = menu
        if menu:
            self.actions.index = 0  # menu_order: never an incantation on the wrong side (R5.5)
        playing = bool(menu)
        self.play_button.disabled = self.bot_button.disabled = (
            self.end_button.disabled
        ) = not playing
        self.back_button.disabled = not self.builder.can_back
        who = "you move first" if self.builder.first == "A" else "the bot moved first"
        self.log.value = events_html(self.builder.log(), caption=f"What happened ({who})")


def hand_builder(builder: HandBuilder | None = None) -> HandBuilderView:
    """The hand builder as widgets (starter deck 1 in file order by default)."""
    return HandBuilderView(builder)


# --- Card designer ---------------------------------------------------------------------------

_EFFECTS_WITH_AMOUNT = {"damage", "weaken", "empower"}
_NO_CHANGE = '<span style="font-size:12px;color:#6b6250">No change yet: the shipped cards.</span>'


class CardDesignerView(_View):
    """Edit or add a card with widgets and see the win rates move: **apply the change** plays it
    at once when the fast engine plays the bots (a few seconds); **run the simulation** plays
    it again with another game count or other bots."""

    def __init__(self, designer: CardDesigner | None = None) -> None:
        self.designer = designer if designer is not None else CardDesigner()
        d = self.designer
        names = list(d.base.names)
        self.mode = w.ToggleButtons(options=["change a card", "add a card"], value="change a card")
        self.which = w.Dropdown(options=names, description="card", layout=w.Layout(width="260px"))
        self.new_name = w.Text(value="NEWCOMER", description="name", layout=w.Layout(width="240px"))
        self.deck = w.Dropdown(
            options=list(d.base_decks), description="into", layout=w.Layout(width="180px")
        )
        self.replaces = w.Dropdown(
            options=d.base_decks[self.deck.value],
            description="instead of",
            layout=w.Layout(width="260px"),
        )
        self.kind = w.ToggleButtons(
            options=["creature", "incantation"],
            style={"button_width": "100px"},
            layout=w.Layout(width="auto", margin="0 16px 0 0"),
        )
        self.cost = w.IntSlider(min=0, max=10, description="cost")
        self.attack = w.IntSlider(min=0, max=10, description="attack")
        self.health = w.IntSlider(min=1, max=12, description="health")
        self.abilities = w.SelectMultiple(
            options=[a.value for a in Ability], description="abilities", rows=7
        )
        self.aura = w.Dropdown(
            options=["none", *(a.value for a in Ability)], description="aura grants"
        )
        self.aura_dirs = w.SelectMultiple(
            options=[d.value for d in Direction], description="toward", rows=3
        )
        self.effect = w.Dropdown(options=[e.value for e in Effect], description="effect")
        self.amount = w.BoundedIntText(
            value=2, min=1, max=20, description="amount", layout=w.Layout(width="160px")
        )
        self.grants = w.Dropdown(options=[a.value for a in Ability], description="grants")
        self.target = w.Dropdown(options=[t.value for t in TargetSide], description="meant for")
        self.creature_box = w.VBox(
            [
                self.attack,
                self.health,
                w.HBox([self.abilities, w.VBox([self.aura, self.aura_dirs])]),
            ]
        )
        self.incantation_box = w.VBox(
            [w.HBox([self.effect, self.amount, self.grants]), self.target]
        )
        self.message = w.HTML()
        self.changes = w.HTML()
        self.preview = w.HTML(layout=w.Layout(margin="0 0 0 16px"))
        self.games = w.BoundedIntText(
            value=d.games_per_pairing or 0,
            min=0,
            max=1_000_000,
            step=500,
            description=f"games a pairing (0: at least {d.MIN_GAMES:,}, enough for ±1.5 points)",
            style={"description_width": "initial"},
            layout=w.Layout(width="460px"),
        )
        bots = list(POLICIES)
        self.policy = w.Dropdown(
            options=bots,
            value=d.policy if d.policy in bots else default_policy(),
            description="bots",
        )
        self.progress = w.Output()
        self.chart = w.Output()
        self.table = w.HTML()
        self.matrix = w.HTML()
        self.stats = w.HTML()
        self.save_path = w.Text(value="my_cards.csv", description="card file", layout=w.Layout(width="300px"))
        self.saved = w.HTML()
        self.widget = w.VBox(
            [
                self.mode,
                w.HBox(
                    [self.which, self.new_name, self.deck, self.replaces],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox(
                    [
                        w.VBox(
                            [
                                w.HBox([w.Label("kind"), self.kind, self.cost]),
                                self.creature_box,
                                self.incantation_box,
                            ]
                        ),
                        self.preview,
                    ]
                ),
                w.HBox(
                    [
                        _button("apply the change", "ck-apply", self.on_apply, style="info"),
                        _button("undo this card's change", "ck-undo", self.on_undo),
                    ]
                ),
                self.message,
                self.changes,
                w.HBox(
                    [
                        self.games,
                        self.policy,
                        _button("run the simulation", "ck-simulate", self.on_run, style="primary"),
                    ]
                ),
                self.progress,
                self.chart,
                self.table,
                self.matrix,
                self.stats,
                w.HBox(
                    [self.save_path, _button("save the edited set", "ck-save", self.on_save), self.saved]
                ),
            ]
        )
        self.widget.add_class("ck-card-designer")
        self.mode.observe(lambda _c: self._layout(), names="value")
        self.kind.observe(lambda _c: self._layout(), names="value")
        self.effect.observe(lambda _c: self._layout(), names="value")
        self.which.observe(lambda change: self.load(change["new"]), names="value")
        self.deck.observe(
            lambda change: setattr(self.replaces, "options", d.base_decks[change["new"]]),
            names="value",
        )
        fields = (
            self.kind, self.cost, self.attack, self.health, self.abilities, self.aura,
            self.aura_dirs, self.effect, self.amount, self.grants, self.target, self.new_name,
            self.replaces, self.mode,
        )  # fmt: skip
        for widget in fields:
            widget.observe(lambda _change: self._preview(), names="value")
        self.load(self.which.value)
        self._layout()
        self._show_changes()
        self._preview()

    def _preview(self) -> None:
        """The card as shipped (or the one it replaces) beside the card as the widgets say."""
        d = self.designer
        adding = self.mode.value == "add a card"
        name = self.new_name.value.strip().upper() if adding else self.which.value
        shipped = d.base.card(self.replaces.value if adding else self.which.value)
        label = f"in place of {shipped.name}" if adding else "shipped"
        try:
            edited = card_html(d.preview(name, **self.fields()), caption="as edited")
        except (ValueError, KeyError) as e:
            edited = _message(str(e).strip("'\""), error=True)
        self.preview.value = card_html(shipped, caption=label) + edited

    def load(self, name: str) -> None:
        """Fill the fields from card ``name`` (with the changes made so far)."""
        f = self.designer.fields(name)
        self.kind.value = f["kind"]
        self.cost.value = f["cost"]
        if f["kind"] == "creature":
            self.attack.value, self.health.value = f["attack"], f["health"]
            self.abilities.value = tuple(a for a in str(f["abilities"]).split(";") if a)
            aura = str(f["aura"])
            if aura:
                ability, _, dirs = aura.partition("@")
                self.aura.value, self.aura_dirs.value = ability, tuple(dirs.split("+"))
            else:
                self.aura.value, self.aura_dirs.value = "none", ()
        else:
            effect, _, rest = str(f["effect"]).partition(" ")
            self.effect.value = effect
            if effect in _EFFECTS_WITH_AMOUNT:
                self.amount.value = int(rest)
            elif effect == "grant":
                self.grants.value = rest
            self.target.value = f["target"]

    def _layout(self) -> None:
        adding = self.mode.value == "add a card"
        for widget in (self.new_name, self.deck, self.replaces):
            widget.layout.display = None if adding else "none"
        self.which.layout.display = "none" if adding else None
        creature = self.kind.value == "creature"
        self.creature_box.layout.display = None if creature else "none"
        self.incantation_box.layout.display = "none" if creature else None
        self.amount.layout.display = None if self.effect.value in _EFFECTS_WITH_AMOUNT else "none"
        self.grants.layout.display = None if self.effect.value == "grant" else "none"

    def fields(self) -> dict[str, object]:
        """The card as the widgets describe it (fields of ``data/cards.csv``)."""
        out: dict[str, object] = {"kind": self.kind.value, "cost": self.cost.value}
        if self.kind.value == "creature":
            out.update(
                attack=self.attack.value,
                health=self.health.value,
                abilities=";".join(self.abilities.value),
            )
            if self.aura.value != "none" and not self.aura_dirs.value:
                raise ValueError(
                    f"aura grants {self.aura.value}: choose at least one direction under "
                    "“toward” (front, behind, side; R6.8), or “none”"
                )
            out["aura"] = (
                f"{self.aura.value}@{'+'.join(self.aura_dirs.value)}"
                if self.aura.value != "none"
                else ""
            )
        else:
            effect = self.effect.value
            if effect in _EFFECTS_WITH_AMOUNT:
                effect = f"{effect} {self.amount.value}"
            elif effect == "grant":
                effect = f"grant {self.grants.value}"
            out.update(effect=effect, target=self.target.value)
        return out

    def on_apply(self) -> None:
        try:
            if self.mode.value == "add a card":
                card = self.designer.add(
                    {"name": self.new_name.value, **self.fields()},
                    deck=self.deck.value,
                    replaces=self.replaces.value,
                )
                what = (
                    f"added {card.describe()} to {self.deck.value} instead of {self.replaces.value}"
                )
            else:
                card = self.designer.edit(self.which.value, **self.fields())
                what = f"changed: {card.describe()}"
        except (ValueError, KeyError) as e:
            self.message.value = _message(str(e).strip("'\""), error=True)
            return
        self.message.value = _message(what)
        self._show_changes()
        self._settings()
        if self.designer.engine_used == "fast":
            self.on_run()
        else:
            self.message.value = _message(f"{what}; press “run the simulation” (the reference engine plays "
                                          f"{self.policy.value}: it can take minutes)")  # fmt: skip

    def _settings(self) -> None:
        d = self.designer
        d.games_per_pairing, d.policy = (self.games.value or None), self.policy.value

    def on_undo(self) -> None:
        name = (
            self.new_name.value.strip().upper()
            if self.mode.value == "add a card"
            else self.which.value
        )
        self.designer.undo(name)
        if self.mode.value == "change a card":
            self.load(name)
        self.message.value = _message(f"{name}: back to the shipped card")
        self._show_changes()

    def _show_changes(self) -> None:
        d = self.designer
        if not d.changes:
            self.changes.value = _NO_CHANGE
            return
        items = []
        for name, card in d.changes.items():
            was = f" (was {d.base.card(name).describe()})" if name in d.base else ""
            swap = (
                f" — in {d.swaps[name][0]} instead of {d.swaps[name][1]}" if name in d.swaps else ""
            )
            items.append(f"<li {_LI}>{escape(card.describe())}{escape(was)}{escape(swap)}</li>")
        self.changes.value = (
            f'<div style="font-size:12px"><b>Changes</b><ul>{"".join(items)}</ul></div>'
        )

    def on_run(self) -> None:
        import time

        from .charts import chart_win_rate_shift

        d = self.designer
        self._settings()
        started = time.perf_counter()
        with self.progress:
            self.progress.clear_output()
            comparison = d.run(progress=True)
        seconds = time.perf_counter() - started
        _show_chart(self.chart, chart_win_rate_shift(comparison))
        self.table.value = table_html(
            d.change_table().select(
                "deck", "games", pl.col("before").round(3), pl.col("after").round(3),
                (100 * pl.col("change")).round(1).alias("change (points)"),
                (100 * pl.col("change_low")).round(1).alias("low"),
                (100 * pl.col("change_high")).round(1).alias("high"),
                pl.when(pl.col("clear")).then(pl.lit("yes")).otherwise(pl.lit("cannot be told from 0"))
                .alias("clear change"),
            ),  # fmt: skip
            caption=f"Each deck's rate before and after, and the change with its paired 95% interval "
            f"({d.games:,} games a pairing on the {d.engine_used} engine, the same seeds before and after; "
            f"mirrors left out; played in {seconds:.1f} s)",
            tail=False,
        )
        self.matrix.value = table_html(
            d.matrices().with_columns(pl.exclude("version", "deck").round(3)),
            caption="The row deck's rate against the column deck, both seats, before and after",
            tail=False,
        )
        name = self.new_name.value.strip().upper() if self.mode.value == "add a card" else self.which.value
        if name in d.cards and d.cards.card(name).deck is not None:
            stats = d.card_stats(name)
            self.stats.value = table_html(
                stats.with_columns(pl.col(pl.Float64).round(3)),
                caption=f"card-stats of {name} as edited: the play numbers from {min(d.games, d.STATS_GAMES):,} "
                f"games a pairing on the reference engine (only it records the events they need), the "
                f"removal impact from {d.games:,} games a pairing on the {d.engine_used} engine",
                tail=False,
            )

    def on_save(self) -> None:
        try:
            path = self.designer.save(self.save_path.value.strip())
        except (ValueError, OSError) as e:
            self.saved.value = _message(str(e), error=True)
            return
        self.saved.value = _message(f"wrote {path}")


def card_designer(designer: CardDesigner | None = None, **kwargs) -> CardDesignerView:
    """The card designer as widgets; ``kwargs`` go to :class:`CardDesigner`."""
    return CardDesignerView(designer if designer is not None else CardDesigner(**kwargs))


__all__ = [
    "CardDesignerView",
    "HandBuilderView",
    "RulesStepperView",
    "SiegeLabView",
    "card_designer",
    "hand_builder",
    "rules_stepper",
    "siege_lab",
    "table_html",
]
