"""Helper processes started without being stopped half-way: while the fork server of the
worker pools (:mod:`clashkit.runs.workers`) or a local Dask cluster (:mod:`clashkit.runs.cluster`)
starts, SIGINT and SIGTERM wait, so that a Ctrl-C at any moment ends a command in one line."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

#: The signals a process started by clashkit must not be stopped by while it starts.
STARTUP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Within the block SIGINT and SIGTERM wait (``pthread_sigmask``) in this thread, and in every
    process started from it, which inherits the mask: a helper interpreter (the fork server, a
    Dask worker) that a Ctrl-C reached while importing would print its own traceback.  On
    leaving, this thread's mask is restored and a signal that came meanwhile is delivered then.
    Without ``pthread_sigmask`` (not POSIX) the block does nothing.

    multiprocessing's resource tracker is started first: starting it unblocks SIGINT and
    SIGTERM in the thread that starts it (once), which would undo the block."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STARTUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


__all__ = ["STARTUP_SIGNALS", "signals_blocked"]
