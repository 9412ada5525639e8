"""``python -m clashkit``: the command line."""

from .cli import run

run()
