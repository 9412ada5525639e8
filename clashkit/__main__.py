"""``python -m clashkit``: the command line."""

from .cli import main

main()
