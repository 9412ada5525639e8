"""Reading a run folder into the three frames, an older frames version's included.

:meth:`clashkit.runs.trace.Trace.read_parquet` calls :func:`read_frames`.  Each frame must
have this version's schema (``clashkit.runs.trace``), but for the columns a later version
added, which an older run gets as it is read: a run of frames version 3 or older gets the
turns frame's ``own_turn``, ``seat`` and ``deck`` from its games frame
(:func:`~clashkit.runs.trace.turn_context`); one of version 4 or older gets the games frame's
``hand_a`` and ``hand_b`` null (its deals were not recorded).  Anything else that differs is
refused with one line naming the column and the run's version.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from ..base.cards import CardSet
from ..base.errors import RunFolderError
from ..base.rules import FRAMES_VERSION
from .schemas import (
    DEAL_COLUMNS,
    GAMES_SCHEMA,
    RAW_TURNS_SCHEMA,
    TURN_CONTEXT_SCHEMA,
    TURNS_SCHEMA,
    events_schema,
    turn_context,
)


def read_frames(
    directory: str | os.PathLike, cards: CardSet | None = None, *, verify: bool = True
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The events, turns and games frames of the run folder ``directory`` (see
    :meth:`~clashkit.runs.trace.Trace.read_parquet`)."""
    from ..base.cards import starter_set
    from .run_folder import open_run

    directory = Path(directory)
    cards = cards if cards is not None else starter_set()
    with open_run(directory, verify=verify) as (manifest, handles):
        frames = {}
        for name, schema in (("events", events_schema(cards)), ("turns", TURNS_SCHEMA), ("games", GAMES_SCHEMA)):
            handle = handles.get(f"{name}.parquet")
            if handle is None:
                if name != "events":
                    raise RunFolderError(f"{directory / MANIFEST_NAME}: lists no {name}.parquet (not a run of games)")
                frames[name] = pl.DataFrame(schema=schema)
                continue
            try:
                frame = pl.read_parquet(handle)
            except Exception:
                raise RunFolderError(f"{directory / f'{name}.parquet'}: not a Parquet file") from None
            if name == "turns" and _before_turn_context(frame, manifest):
                schema = RAW_TURNS_SCHEMA  # an older run: its turns get turn_context() below
            if name == "games" and _before_deal(frame, manifest):
                frame = frame.with_columns(  # an older run: its deals were not recorded
                    pl.lit(None, pl.List(pl.String)).alias(column) for column in DEAL_COLUMNS
                )
            frames[name] = _checked_schema(frame, schema, directory / f"{name}.parquet", manifest)
    if frames["turns"].schema == RAW_TURNS_SCHEMA:
        frames["turns"] = turn_context(frames["turns"], frames["games"], cards)
    return frames["events"], frames["turns"], frames["games"]


MANIFEST_NAME = "manifest.json"


def _checked_schema(frame: pl.DataFrame, schema: pl.Schema, path: Path, manifest) -> pl.DataFrame:
    """``frame`` if it has ``schema``'s columns and types (card names aside: a card file's own);
    else one line naming the column, and the frames version when the run is an older one's."""
    version = manifest.get("frames_version", manifest["run"].get("frames_version", FRAMES_VERSION))
    older = f" (frames version {version}; this clashkit reads {FRAMES_VERSION})" if version != FRAMES_VERSION else ""
    for column, dtype in schema.items():
        if column not in frame.schema:
            raise RunFolderError(f"{path}: has no column {column!r}{older}")
        given = frame.schema[column]
        same = given == dtype or (isinstance(dtype, pl.Enum) and isinstance(given, pl.Enum) and column in _CARD_COLUMNS)
        if not same:
            raise RunFolderError(f"{path}: column {column!r} is {given}, not {dtype}{older}")
    extra = [c for c in frame.columns if c not in schema]
    if extra:
        raise RunFolderError(f"{path}: has a column {extra[0]!r} the frames do not have{older}")
    return frame.select(list(schema))


#: The frames version whose turns frame first held :data:`TURN_CONTEXT_SCHEMA`'s columns.
TURN_CONTEXT_VERSION = 4
#: The frames version whose games frame first held the deal, :data:`DEAL_COLUMNS`.
DEAL_VERSION = 5


def _older_than(manifest, version: int) -> bool:
    """Whether the run of ``manifest`` was written by a frames version before ``version``."""
    written = manifest.get("frames_version", manifest["run"].get("frames_version", FRAMES_VERSION))
    try:
        return int(written) < version
    except (TypeError, ValueError):
        return False


def _before_turn_context(frame: pl.DataFrame, manifest) -> bool:
    """Whether a run's turns frame is an older version's, written before ``own_turn``,
    ``seat`` and ``deck`` (they are then computed from its games frame as it is read)."""
    return _older_than(manifest, TURN_CONTEXT_VERSION) and not set(TURN_CONTEXT_SCHEMA) & set(frame.columns)


def _before_deal(frame: pl.DataFrame, manifest) -> bool:
    """Whether a run's games frame is an older version's, written before the deal was recorded
    (its ``hand_a`` and ``hand_b`` are then null)."""
    return _older_than(manifest, DEAL_VERSION) and not set(DEAL_COLUMNS) & set(frame.columns)


#: Columns whose categories are a card set's names (any card file's, not only the shipped one's).
_CARD_COLUMNS = ("card", "target_card")


__all__ = ["DEAL_VERSION", "MANIFEST_NAME", "TURN_CONTEXT_VERSION", "read_frames"]
