"""The show layer: states and events drawn for people, as text, JSON-ready dicts and HTML.

:mod:`~clashkit.show.render` (the command line's log and ``siege --json``) and
:mod:`~clashkit.show.board` (the table as HTML in notebooks).

May import: :mod:`clashkit.studies` and every layer below it.
"""
