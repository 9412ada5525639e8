"""What the run-folder attacks share: a small run to attack, the command line, one-line refusals.

Each attack module (``test_traversal``, ``test_links_and_special_files``,
``test_foreign_files``, ``test_folder_faults``) builds its folders from
:func:`small_run` and checks refusals with :func:`one_line_exit_2`.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from clashkit.runs.simulate import simulate
from clashkit.runs.trace import Trace

ROOT = Path(__file__).resolve().parents[2]


def small_trace() -> Trace:
    """Three games of two random players (the fast engine, with events)."""
    return simulate(3, "1", "2", "random", seed=7, record_events=True)


def small_run(folder: Path, trace: Trace) -> Path:
    """``folder`` holding ``trace`` as a complete run (files and ``manifest.json``)."""
    trace.write_parquet(folder)
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` (links as their target, files by SHA-256), to show nothing changed."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            seen[name] = f"-> {os.readlink(path)}"
        elif path.is_file():
            seen[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            seen[name] = "dir"
        else:
            seen[name] = "special"
    return seen


def python(code: str, *, timeout: float = 120, memory: int = 2 << 30) -> subprocess.CompletedProcess:
    """``python -c CODE`` in a fresh interpreter with this worktree first, at most ``memory``
    bytes of address space (a reader reading a device whole fails instead of filling the
    machine) and ``timeout`` seconds (a reader blocked on a FIFO fails the test, never hangs it)."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
        preexec_fn=limit,
    )
