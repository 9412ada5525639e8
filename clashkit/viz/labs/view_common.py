"""What the labs' ipywidgets views share: buttons with their CSS classes, messages, event
tables as HTML, the base view that displays itself."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import ipywidgets as w
import polars as pl
from IPython.display import display

from ..rules import rule_link
from ..tables import table_html

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


def _button(description: str, css: str, on_click: Callable[[], None], *, style: str = "", tip: str = "") -> w.Button:
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


def count_box(value: int, description: str, *, width: str, step: int = 500) -> w.IntText:
    """A box for a number of games: an ``IntText``, so that a number out of range stays as typed
    and :func:`count_in` says so (a ``BoundedIntText`` would set it to its bound without a word)."""
    return w.IntText(
        value=value,
        step=step,
        description=description,
        style={"description_width": "initial"},
        layout=w.Layout(width=width),
    )


def count_in(box: w.IntText, what: str, *, least: int, most: int = 1_000_000) -> int:
    """The number typed in ``box``; one below ``least`` or above ``most`` is refused (a
    ``ValueError``) in the box's words, ``what`` naming it as its label does."""
    if box.value < least:
        raise ValueError(f"“{what}” is {box.value:,}: a number of games is {least} or more")
    if box.value > most:
        raise ValueError(f"“{what}” is {box.value:,}: at most {most:,} games a pairing")
    return box.value


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
