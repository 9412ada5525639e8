""" "Did you mean": the close names of a mistyped one (a card, a policy, a deck, an option),
from the standard library's :mod:`difflib`.  The one helper every message of an unknown
name ends with.

    >>> did_you_mean("OGER", ["OGRE", "GNOME", "TROLL"])
    '; did you mean OGRE?'
    >>> did_you_mean("serch", ["random", "greedy", "search", "expert"])
    '; did you mean search?'
    >>> did_you_mean("zzz", ["random", "greedy"])
    ''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike a name must be to be offered (difflib's ratio, 0–1).
CUTOFF = 0.6


def close_names(word: str, choices: Iterable[str], *, n: int = 3, cutoff: float = CUTOFF) -> list[str]:
    """The names of ``choices`` closest to ``word`` (case aside), best first."""
    options = list(dict.fromkeys(str(c) for c in choices))
    by_key = {c.casefold(): c for c in options}
    found = difflib.get_close_matches(str(word).strip().casefold(), list(by_key), n=n, cutoff=cutoff)
    return [by_key[f] for f in found]


def did_you_mean(word: str, choices: Iterable[str], *, n: int = 3) -> str:
    """``"; did you mean X?"`` (``X or Y``) for the end of a message, or ``""`` when no name is close."""
    near = close_names(word, choices, n=n)
    if not near:
        return ""
    return "; did you mean " + (near[0] if len(near) == 1 else ", ".join(near[:-1]) + " or " + near[-1]) + "?"


__all__ = ["CUTOFF", "close_names", "did_you_mean"]
