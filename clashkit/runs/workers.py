"""Work spread over worker processes or a Dask cluster, behind one function: :func:`run_tasks`.

Everything that plays many games — :func:`~clashkit.runs.simulate.simulate`, the
design studies, the ladder, the solo calibration — hands its tasks here, so the
pool, its start method, signals and the script guard live in one place:

- workers start by ``forkserver`` (else ``spawn``), never by ``fork``: they do not
  inherit the parent's threads (polars', a notebook's);
- Ctrl-C reaches the whole process group; workers ignore it and the parent,
  which sees it as ``KeyboardInterrupt``, kills them and re-raises; SIGTERM is
  turned into the same interrupt (:func:`sigterm_as_interrupt`, :class:`Terminated`).
  While the pool runs, both are noted and raised between steps, never inside the
  executor's own code;
- the fork server starts with SIGINT and SIGTERM blocked (:func:`signals_blocked`), so a
  Ctrl-C while it imports ends in clashkit's one line, not in its traceback; each worker
  unblocks them once it ignores Ctrl-C;
- a worker that dies (killed by a signal, out of memory) stops the run in one line naming it
  (:class:`~clashkit.base.errors.WorkerError`), never the executor's ``BrokenProcessPool``;
- workers end with the run, even when it is killed by SIGKILL (:func:`end_with_parent`);
- a script that starts workers at its top level, outside
  ``if __name__ == "__main__":``, is refused in one line before any worker
  starts (:func:`check_main_guard`): each worker would run it again;
- a bounded number of tasks is in flight, so results stream through and memory
  does not grow with the number of tasks;
- a task stream may hold :data:`BARRIER` between tasks: the tasks after it are made only
  once every result before it has been yielded, so work that depends on earlier results
  runs on the same workers.

A cluster (a ``distributed.Client``, :mod:`clashkit.runs.cluster`) plays the same
tasks on Dask instead.
"""

from __future__ import annotations

import ast
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any

from ..base.errors import WorkerError, WorkerStartError
from .barrier import BARRIER
from .startup import STARTUP_SIGNALS, signals_blocked

#: Tasks in flight per worker process.
WINDOW_PER_JOB = 4

#: ``shared`` when there is none.
_NOTHING = object()

# --- Signals --------------------------------------------------------------------------------


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's ``KeyboardInterrupt`` so that a run cleans up the same way."""


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises :class:`Terminated` (main thread only; restored after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise Terminated(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# --- The script guard -----------------------------------------------------------------------


def check_main_guard(jobs: int, call: str) -> None:
    """Refuse ``call(jobs>1)`` made at the top level of a script outside its ``__main__`` guard.

    Worker processes (``forkserver``, ``spawn``) import the main script again
    to start; without ``if __name__ == "__main__":`` each would run the
    call again and fail in its bootstrapping, so say it in one line first.
    """
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and (spec.name == "__main__" or spec.name.endswith(".__main__")):
        return  # a package's __main__ (python -m clashkit) is not run again
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return  # an interactive session or a notebook: nothing is run again
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None or _under_main_guard(path, frame.f_lineno):
        return
    raise WorkerStartError(
        f"{path}, line {frame.f_lineno}: {call}(jobs={jobs}) starts worker processes that import this script "
        'again; put the call under `if __name__ == "__main__":` (or use jobs=1)'
    )


def _under_main_guard(path: str, line: int) -> bool:
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return True  # cannot tell: let the workers start
    return any(
        isinstance(node, ast.If) and _is_main_test(node.test) and node.lineno < line <= (node.body[-1].end_lineno or 0)
        for node in ast.walk(tree)
    )


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


# --- Worker processes -----------------------------------------------------------------------


def pool_context(preload: Iterable[str] = ()):
    """Worker processes that do not inherit the parent's threads (polars', a notebook's).

    ``forkserver`` forks each worker from a small server that has imported the
    ``preload`` modules (those holding the work, which need neither numpy nor polars).
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, *preload])
        return context
    return multiprocessing.get_context("spawn")


def _start_server(context) -> None:
    """Start ``context``'s fork server now, with the start-up signals blocked
    (:func:`signals_blocked`); the first worker would otherwise start it unprotected."""
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    with signals_blocked():
        forkserver.ensure_running()


def _died(executor: ProcessPoolExecutor, workers: dict) -> WorkerError:
    """What broke the pool: the worker processes of ``workers`` (pid → process) that ended, the
    ones killed by another signal than the executor's own SIGTERM first.  The executor's manager
    thread, which ends the other workers and waits for them all, is let finish first (a process
    waited for from two threads may lose its status)."""
    manager = getattr(executor, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=STOP_SECONDS)
    ended = []
    for pid, process in sorted(workers.items()):
        code = process.exitcode if not manager or not manager.is_alive() else None
        if code is not None and code != 0:
            ended.append((code == -signal.SIGTERM, pid, code))
    if not ended:
        return WorkerError("a worker process ended without its result; the run stopped")
    ended.sort()
    _, pid, code = ended[0]
    how = f"was killed (signal {-code})" if code < 0 else f"ended with status {code}"
    return WorkerError(f"worker {pid} {how}; the run stopped")


#: In a worker: what every task shares, as a 1-tuple, or ``()`` when nothing is shared.
_SHARED: tuple = ()


def _start_worker(shared: tuple, parent: int) -> None:
    """In each worker: keep what every task shares, leave Ctrl-C to the parent, end with it."""
    global _SHARED
    _SHARED = shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # the fork server started with them blocked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STARTUP_SIGNALS)
    end_with_parent(parent)


def end_with_parent(parent: int) -> None:
    """End this worker process as soon as process ``parent`` (the run's) dies, even by SIGKILL.

    On Linux the kernel kills the worker when its own parent dies
    (``PR_SET_PDEATHSIG``; a ``forkserver`` worker's parent is the fork server,
    which ends with the run); a watchdog thread also waits on ``parent`` itself
    (a ``pidfd``, else a check every half second), so no worker outlives the
    run and holds its output open.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    watch = threading.Thread(target=_watch_parent, args=(parent,), name="clashkit-parent-watch", daemon=True)
    watch.start()


def _watch_parent(parent: int) -> None:
    import select

    try:
        fd = os.pidfd_open(parent)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])  # readable once the process has ended
        os._exit(1)
    while True:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except OSError:
            pass
        threading.Event().wait(0.5)


@contextlib.contextmanager
def _signals_noted() -> Iterator[list[int]]:
    """Within the block SIGINT and SIGTERM are noted, not raised; the caller raises them
    (:func:`_raise_noted`) where it is safe: between steps, never inside the executor's
    own code (an interrupt there can leave its locks held, and the run deaf to the next
    one).  Main thread only; handlers restored after."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, lambda signum, frame: noted.append(signum)) for signum in held}
    try:
        yield noted
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_noted(noted: list[int]) -> None:
    if signal.SIGTERM in noted:
        raise Terminated(signal.SIGTERM)
    if noted:
        raise KeyboardInterrupt


def _in_worker(function: Callable[..., Any], args: tuple) -> Any:
    return function(*_SHARED, *args)


#: How long a stopped worker may take to end before it is killed.
STOP_SECONDS = 5.0


def _stop(executor: ProcessPoolExecutor) -> None:
    """Kill the worker processes now (a task of hundreds of games is not waited for).

    A worker stopped while it was sending a result (a part's records: megabytes) leaves
    half a message in the result pipe, and the executor's manager thread reading it waits
    for the rest for ever, and ``shutdown`` with it.  So once the workers are gone, this
    process's own write end of that pipe (it never writes there) is closed: the read ends
    with end-of-file, the manager thread sees a broken pool and ends.
    """
    from multiprocessing.connection import wait as wait_for

    workers = dict(getattr(executor, "_processes", None) or {})
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.terminate()
    # Wait on the sentinels, not join(): the manager thread may be joining them too.
    sentinels = [p.sentinel for p in workers.values()]
    deadline = time.monotonic() + STOP_SECONDS
    while sentinels and time.monotonic() < deadline:
        done = wait_for(sentinels, timeout=max(0.0, deadline - time.monotonic()))
        sentinels = [s for s in sentinels if s not in done]
    for process in workers.values():
        if process.sentinel in sentinels:
            with contextlib.suppress(Exception):
                process.kill()
    if sentinels:
        wait_for(sentinels, timeout=STOP_SECONDS)
    results = getattr(executor, "_result_queue", None)
    if results is not None:
        with contextlib.suppress(Exception):
            results._writer.close()
    executor.shutdown(wait=True, cancel_futures=True)
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.join(timeout=5)


# --- The one entry point --------------------------------------------------------------------


def run_tasks(
    function: Callable[..., Any],
    tasks: Iterable[tuple[Any, tuple]],
    *,
    jobs: int = 1,
    shared: Any = _NOTHING,
    cluster: Any = None,
    call: str = "this call",
) -> Iterator[tuple[Any, Any]]:
    """``function(*args)`` for each ``(label, args)`` of ``tasks``; yields ``(label, result)`` as each finishes.

    ``shared`` (if given) is what every task needs, sent once to each worker and
    passed first: ``function(shared, *args)``.  With ``jobs == 1`` the tasks run
    here, in order; with more, in ``jobs`` worker processes, in the order they
    finish; with ``cluster`` (a ``distributed.Client``) on Dask.  ``function``
    must be importable by name (a module-level function).  ``call`` names the
    API call in the script-guard message.  ``tasks`` may hold :data:`BARRIER`.  On any exception — Ctrl-C, SIGTERM
    inside :func:`sigterm_as_interrupt`, a failed task — the workers are
    stopped before it goes on; a worker that dies raises :class:`~clashkit.base.errors.WorkerError`.
    """
    if cluster is not None:
        from .cluster import stream

        if shared is not _NOTHING:
            tasks = (task if task is BARRIER else (task[0], (shared, *task[1])) for task in tasks)
        yield from stream(cluster, function, tasks)
        return
    if jobs <= 1:
        for here in tasks:
            if here is BARRIER:
                continue
            label, args = here
            yield label, (function(*args) if shared is _NOTHING else function(shared, *args))
        return
    check_main_guard(jobs, call)
    tasks = iter(tasks)
    context = pool_context([function.__module__])
    given = () if shared is _NOTHING else (shared,)
    executor = None
    workers: dict = {}  # pid → process, every worker started (the executor forgets a dead one)
    try:
        with _signals_noted() as noted:
            _start_server(context)
            executor = ProcessPoolExecutor(jobs, context, initializer=_start_worker, initargs=(given, os.getpid()))
            pending: dict = {}
            window = jobs * WINDOW_PER_JOB
            exhausted = waiting = False
            _raise_noted(noted)
            try:
                while pending or not exhausted:
                    while not exhausted and not waiting and len(pending) < window:
                        task = next(tasks, None)
                        if task is None:
                            exhausted = True
                            break
                        if task is BARRIER:
                            waiting = True
                            break
                        label, args = task
                        pending[executor.submit(_in_worker, function, args)] = label
                    workers.update(getattr(executor, "_processes", None) or {})
                    if not pending:
                        if waiting:  # every result before the barrier has been yielded
                            waiting = False
                            continue
                        break
                    finished, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                    _raise_noted(noted)
                    for future in finished:
                        yield pending.pop(future), future.result()
                        _raise_noted(noted)
                executor.shutdown(wait=True)
            except BrokenProcessPool:
                _raise_noted(noted)  # an interrupt that also reached the workers is an interrupt
                raise _died(executor, workers) from None
            _raise_noted(noted)
    except BaseException:
        if executor is not None:
            _stop(executor)
        raise


__all__ = [
    "BARRIER",
    "STARTUP_SIGNALS",
    "WINDOW_PER_JOB",
    "Terminated",
    "check_main_guard",
    "pool_context",
    "run_tasks",
    "sigterm_as_interrupt",
    "signals_blocked",
]
