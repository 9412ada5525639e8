"""Files the project ships beside its code: the card set (``data/``) and the rules text (``docs/``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The repository's root, when clashkit runs from a source checkout.
CHECKOUT = Path(__file__).resolve().parents[2]


def shipped_file(path: str) -> Path:
    """``path`` (``"data/cards.csv"``) in a source checkout, else the copy the installed package carries.

    The wheel carries ``data/`` as ``clashkit/_data`` and ``docs/`` as ``clashkit/_docs``
    (``pyproject.toml``)."""
    checkout = CHECKOUT / path
    if checkout.is_file():
        return checkout
    folder, _, rest = path.partition("/")
    return Path(str(resources.files("clashkit") / f"_{folder}" / rest))
