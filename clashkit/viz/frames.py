"""The columns each chart and summary reads from the frames it is given, checked on entry.

A frame without a column a function reads would otherwise fail deep inside polars
(``ColumnNotFoundError``) or, for a chart, draw nothing; :func:`needs` checks every
frame argument of a public function before it runs and names the function, the
frame and the missing column in one :class:`~clashkit.base.errors.InputError`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..base.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

#: The games-frame columns :func:`~clashkit.viz.summaries.label_decks` labels the decks from;
#: not needed when the frame has its labels (``label_a``, ``label_b``) already.
LABELLED = ("mode", "format", "deck_a", "deck_b")
LABELS = ("label_a", "label_b")

#: What each kind of frame must hold for the functions that read it (a trace's frames,
#: :mod:`clashkit.runs.trace`; the studies' result frames).
GAMES_RESULTS = (*LABELLED, "first_player", "winner", "turns")
GAMES_FIRST = ("game", *LABELLED, "first_player", "winner", "finished")
GAMES_OUTCOMES = ("game", "winner", "finished")
TURNS_MANA = ("game", "player", "mana_gained", "mana_spent", "own_turn")
TURNS_HEALTH = ("game", "player", "hand_health_end", "keep_end", "own_turn")
EVENTS_NUMBERS = ("game", "player", "kind", "card", "target_player", "target_card", "amount")
EVENTS_HEALTH = ("game", "step", "turn", "hand_health_a", "hand_health_b", "keep_a", "keep_b")
DECK_CARDS = ("name", "deck", "kind", "cost")
RATINGS = ("policy", "rating", "low", "high", "games", "score")
COMPARISON = ("version", "deck", "win_rate", "low", "high", "games")
PAIRED_CELLS = ("deck", "opponent", "change", "change_low", "change_high")
PAIRED_DECKS = ("deck", "change", "change_low", "change_high")
#: As drawn (:func:`~clashkit.viz.paired.paired_frame`): with whether each change is clear of 0.
PAIRED_CELLS_DRAWN = (*PAIRED_CELLS, "clear")
PAIRED_DECKS_DRAWN = (*PAIRED_DECKS, "clear")


def check_columns(frame: object, columns: Sequence[str], *, name: str, function: str) -> None:
    """Refuse ``frame`` (the argument ``name`` of ``function``) unless it is a polars frame with
    every one of ``columns``; the columns of :data:`LABELLED` count as present when the frame
    has its deck labels (:data:`LABELS`), except for the labelling itself (``columns`` is
    :data:`LABELLED`)."""
    names = _columns(frame)
    if names is None:
        raise InputError(f"{function}: {name} must be a polars DataFrame, not {type(frame).__name__}")
    have = set(names)
    if columns is not LABELLED and all(label in have for label in LABELS):
        have |= set(LABELLED)
    missing = [c for c in columns if c not in have]
    if missing:
        more = f" (nor {', '.join(map(repr, missing[1:]))})" if len(missing) > 1 else ""
        raise InputError(
            f"{function}: the {name} frame has no column {missing[0]!r}{more}; it needs {', '.join(columns)}"
        )


def _columns(frame: object) -> list[str] | None:
    import polars as pl

    if isinstance(frame, pl.DataFrame):
        return frame.columns
    if isinstance(frame, pl.LazyFrame):
        return frame.collect_schema().names()
    return None


def needs(**frames: Sequence[str]) -> Callable[[F], F]:
    """Check, on each call, that the frame arguments named here hold their columns
    (:func:`check_columns`); an argument left at ``None`` is not checked."""

    def wrap(function: F) -> F:
        signature = inspect.signature(function)
        unknown = set(frames) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{function.__name__} has no argument {sorted(unknown)[0]!r}")

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind_partial(*args, **kwargs)
            for name, columns in frames.items():
                frame = bound.arguments.get(name)
                if frame is not None:
                    check_columns(frame, columns, name=name, function=function.__name__)
            return function(*args, **kwargs)

        return checked  # type: ignore[return-value]

    return wrap


__all__ = ["check_columns", "needs"]
