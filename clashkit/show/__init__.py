"""The show layer: states and events drawn for people, as text, JSON-ready dicts and HTML.

:mod:`~clashkit.show.render` (the command line's log and ``siege --json``) and
:mod:`~clashkit.show.board` (the table as HTML in notebooks).

May import: :mod:`clashkit.studies` and every layer below it.
"""

from .board import board_html, card_html, hand_html
from .render import describe_event, event_dicts

__all__ = [
    "board_html",
    "card_html",
    "describe_event",
    "event_dicts",
    "hand_html",
]
