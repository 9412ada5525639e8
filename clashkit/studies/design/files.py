"""A study's frames written as a run folder (the same writer as ``clashkit simulate``'s)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl


def write_parquet(
    directory: str | os.PathLike, frames: Mapping[str, pl.DataFrame], run: Mapping[str, Any] | None = None
) -> list[Path]:
    """Write each frame as ``NAME.parquet`` in ``directory``, as one unit with its manifest.

    The folder is written the way ``clashkit simulate`` writes a run
    (:class:`clashkit.runs.output.RunWriter`): locked, staged, ``manifest.json``
    (naming ``run``, the study's parameters) last, files of an earlier
    study that this one does not write removed.
    """
    from ...runs.output import RunWriter

    with RunWriter(directory, dict(run or {}), files=list(frames)) as writer:
        return writer.commit(dict(frames))
