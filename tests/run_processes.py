"""What the tests that start ``clashkit simulate`` as a process of its own share: the command,
and the processes of a run found by a mark in their environment (the run and everything it
started: the fork server, the workers, Dask's)."""

from __future__ import annotations

import sys
from pathlib import Path


def simulate_command(out: Path, n: int, *extra: str) -> list[str]:
    """``python -m clashkit simulate`` of ``n`` games of random play on the reference engine (slow
    enough to be caught mid-run), no events, no progress bar, into ``out``; ``extra`` options after."""
    return [
        sys.executable,
        "-m",
        "clashkit",
        "simulate",
        "-n",
        str(n),
        "--engine",
        "reference",
        "--policy-a",
        "random",
        "--no-events",
        "--no-progress",
        "--out",
        str(out),
        *extra,
    ]


def processes_marked(mark: str) -> list[int]:
    """Processes whose environment carries ``mark`` (the run and everything it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found
