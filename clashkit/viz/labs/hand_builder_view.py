"""The hand builder as ipywidgets: a view of :class:`~clashkit.viz.labs.hand_builder.HandBuilder`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import ipywidgets as w
import polars as pl

from ...base import ClashkitError
from ...policies import POLICIES
from ...show import board_html, hand_html
from ..tables import table_html
from .hand_builder import HandBuilder
from .view_common import NAME_WIDTH, _button, _message, _View, events_html


class HandBuilderView(_View):
    """Choose 8 cards and their order, read the plan of the first turns, then play them."""

    def __init__(self, builder: HandBuilder | None = None) -> None:
        self.builder = builder if builder is not None else HandBuilder()
        b = self.builder
        names = sorted(b.cards.names)
        self.slots = [w.Dropdown(options=names, value=name, layout=w.Layout(width=NAME_WIDTH)) for name in b.order]
        slot_boxes = []
        small = w.Layout(width="36px", height="24px", padding="0")
        for i, slot in enumerate(self.slots):
            slot.observe(lambda change, i=i: self.on_slot(i, change["new"]), names="value")
            left = _button("◀", f"ck-left-{i}", partial(self.on_move, i, -1), tip="move left")
            right = _button("▶", f"ck-right-{i}", partial(self.on_move, i, +1), tip="move right")
            left.layout = right.layout = small
            label = w.HTML(f'<span style="font-size:11px;color:#6b6250;padding:0 6px">{i + 1}</span>')
            arrows = w.HBox([left, label, right], layout=w.Layout(justify_content="center"))
            slot_boxes.append(w.VBox([slot, arrows], layout=w.Layout(margin="0 2px 4px 0")))
        self.hand_view = w.HTML()
        self.preset = w.Dropdown(options=["—", *b.decks], description="load", layout=w.Layout(width="180px"))
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
        self.seed = w.BoundedIntText(value=b.seed, min=0, max=10**9, description="seed", layout=w.Layout(width="160px"))
        self.actions = w.Dropdown(options=[], description="your move", layout=w.Layout(width="560px"))
        self.actions.add_class("ck-moves")
        self.play_button = _button("play", "ck-play", self.on_play, style="primary")
        self.bot_button = _button("bot plays for me", "ck-bot", self.on_bot)
        self.end_button = _button("finish my turn", "ck-end", self.on_end_turn)
        self.back_button = _button("◀ back", "ck-back", self.on_back)
        self.message = w.HTML()
        self.board = w.HTML(layout=w.Layout(flex="3 1 0%", min_width="520px"))
        self.board.add_class("ck-board")
        self.log = w.HTML(layout=w.Layout(flex="2 1 0%", min_width="300px", max_height="420px", overflow="auto"))
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
        from ...base import Rng

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
            plan.select(
                "turn",
                "mana",
                pl.col("playable").alias("playable at the start"),
                pl.col("plays").alias("each play, and what was playable then (R3.2)"),
                "mana_left",
                "hand_health",
            ),
            caption="If nobody stopped you: your first turns, playing every affordable playable creature "
            "(a play frees a place: the fifth card slides into the first four)",
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
            self.board.value = '<div style="color:#6b6250">Press “new game” to play this hand.</div>'
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
        self.play_button.disabled = self.bot_button.disabled = self.end_button.disabled = not playing
        self.back_button.disabled = not self.builder.can_back
        who = "you move first" if self.builder.first == "A" else "the bot moved first"
        self.log.value = events_html(self.builder.log(), caption=f"What happened ({who})")


def hand_builder(builder: HandBuilder | None = None) -> HandBuilderView:
    """The hand builder as widgets (starter deck 1 in file order by default)."""
    return HandBuilderView(builder)
