"""``python -m clashkit.runs.warm``: compile the fast engine into numba's cache ahead of time (``make venv``).

Each compiled part is one line with its measured time, so a first build never
looks hung.  A lock file beside the stamp makes two builds in one checkout wait
for each other (the second finds the cache made and stops) instead of deleting
each other's cache mid-compile.  The stamp holds a hash of the fast engine's
sources, of every value they import from the rest of the package (numba compiles
a global's value into the code: :func:`frozen_values`) and numba's version: the
cache is remade, from scratch, only when one of them changes (numba's cache of a
function does not notice a change in the functions it calls, so a stale file is
never trusted).

``--then COMMAND…`` (``make lab``) starts COMMAND at once and lets every part
compile beside it: the teaching notebooks never wait for numba, and a process
that plays a fast game before its part is in the cache compiles that part
itself.  Stopped (Ctrl-C, SIGTERM), it stops COMMAND and every chain.
"""

from __future__ import annotations

import argparse
import fcntl
import gc
import hashlib
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from .workers import sigterm_as_interrupt

FAST = Path(__file__).resolve().parent.parent / "fast"


@dataclass(frozen=True)
class Part:
    """One compiled variant of the fast engine, compiled by playing a game or two with it."""

    title: str
    play: Callable[[], object]


def _simulate(*args, events: bool = False) -> Callable[[], object]:
    def run() -> object:
        from .simulate import simulate

        return simulate(*args, engine="fast", record_events=events, progress=False)

    return run


def chains() -> list[list[Part]]:
    """The fast engine's compiled parts, in chains that compile side by side on a machine of several cores.

    A chain's parts share compiled functions (the deals play games with the loop
    compiled just before them), so they compile one after the other in one process;
    the search variant shares little with the rest and compiles beside them.
    """
    duel = ("1", "2")
    drafts = ("draft", "draft")
    return [
        [
            Part("the game loop (greedy and random players)", _simulate(2, *duel, "greedy", "random")),
            Part("the deals of the draft and solo formats", _simulate(2, *drafts, "greedy", "random")),
            # The same compiled loop, its recording switched on (nothing more should compile).
            Part("the game loop recording events", _simulate(2, *duel, "greedy", "random", events=True)),
            Part("positions played on (fast.play_out)", _play_out("greedy", "random")),
        ],
        [
            Part("the game loop with a search player", _simulate(1, *duel, "search:budget=1", "greedy")),
            Part("the deals with a search player", _simulate(1, *drafts, "search:budget=1", "greedy")),
            Part("positions played on with a search player", _play_out("search:budget=1", "greedy")),
        ],
    ]


def _play_out(*policies: str) -> Callable[[], object]:
    """``clashkit.fast.play_out`` of a position by ``policies`` (the replays, the scenarios and the
    differential tests play positions on).  Each variant compiles in the chain of its own game loop:
    the one without search beside the search loop, not after it on the longer chain."""

    def run() -> object:
        from ..fast.convert import play_out
        from .game import new_game

        state, _ = new_game("1", "2", seed=1, record=False)
        return play_out(state, *policies)

    return run


def fingerprint() -> str:
    """What the cache depends on: numba's version, the fast engine's sources, and every value they
    take from the rest of the package (:func:`frozen_values`)."""
    digest = hashlib.sha256(version("numba").encode())
    for source in sorted(FAST.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    for line in frozen_values():
        digest.update(line.encode() + b"\0")
    return digest.hexdigest()


def frozen_values() -> list[str]:
    """``module.NAME = value`` for every name a module of the fast engine imports from outside it
    (``from ..base.vocab import PIERCE``), as that module holds it: numba compiles a global's value
    into the code, so a changed constant elsewhere (an event's code in ``engine/events.py``) must
    remake the cache as a changed source does.  Functions and classes that are not enumerations are
    left out: compiled code cannot call them (the Python around it does, uncompiled)."""
    import ast
    import importlib

    lines = []
    for source in sorted(FAST.glob("*.py")):
        for node in ast.parse(source.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.level > 1:
                # ``from ..base.vocab import PIERCE`` in clashkit/fast/x.py: clashkit.base.vocab's PIERCE
                # (read there, so that numba is not imported to compute the fingerprint)
                origin = ".".join(["clashkit", *(node.module or "").split(".")]).rstrip(".")
                module = importlib.import_module(origin)
                for alias in node.names:
                    if not hasattr(module, alias.name):
                        importlib.import_module(f"{origin}.{alias.name}")  # a module of a package
                    value = getattr(module, alias.name)
                    lines.append(f"{source.stem}.{alias.asname or alias.name} = {_frozen(value)}")
    return lines


def _frozen(value: object, depth: int = 0) -> str:
    """What of ``value`` compiled code can freeze: a number, a string, a tuple of them, an
    enumeration's members, an array's bytes, a module's such attributes (one level deep)."""
    import dataclasses
    import enum
    import types

    import numpy as np

    if isinstance(value, types.ModuleType):
        if depth:
            return "module"
        names = sorted(n for n in vars(value) if not n.startswith("__"))
        return "{" + ", ".join(f"{n}: {_frozen(getattr(value, n), 1)}" for n in names) + "}"
    if isinstance(value, type) and issubclass(value, enum.Enum):
        return repr([(member.name, member.value) for member in value])
    if isinstance(value, np.ndarray):
        return f"array {value.dtype} {value.shape} {hashlib.sha256(value.tobytes()).hexdigest()}"
    if isinstance(value, (frozenset, set)):
        return "{" + ", ".join(sorted(_frozen(item, 1) for item in value)) + "}"  # in no order of the process's
    if isinstance(value, tuple):
        return "(" + ", ".join(_frozen(item, 1) for item in value) + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return repr(value)  # a declaration (clashkit.base.layout.Mark): its fields
    if isinstance(value, (int, float, str, bytes, bool, enum.Enum)) or value is None:
        return repr(value)
    return "code"  # a function or a class: called by the Python around compiled code, never frozen


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


@contextmanager
def _locked(stamp: Path) -> Iterator[None]:
    """Hold ``<stamp>.lock``; say so when another build holds it first."""
    stamp.parent.mkdir(parents=True, exist_ok=True)
    with open(stamp.with_name(stamp.name + ".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("make: another build is compiling the fast engine here; waiting for it", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _remove_cache() -> int:
    removed = 0
    for stale in (FAST / "__pycache__").glob("*.nb[ic]"):
        stale.unlink(missing_ok=True)
        removed += 1
    return removed


def warm(stamp: Path | None = None, then: Then | None = None) -> bool:
    """Compile every part unless ``stamp`` says the cache is current; returns whether it compiled.

    ``then``: started once the stamp is read, before anything compiles (the caller waits for it,
    :meth:`Then.wait`); stopped if the build is."""
    if stamp is None:
        if then is not None:
            then.start()
        return _compile(then)
    with _locked(stamp):
        wanted = fingerprint()
        current = stamp.is_file() and stamp.read_text().strip() == wanted
        if then is not None:
            then.start()
        if current:
            stamp.touch()  # the sources' times moved (a checkout), not their contents
            return False
        _remove_cache()
        stamp.unlink(missing_ok=True)
        _compile(then)
        stamp.write_text(wanted + "\n")
    return True


class Then:
    """The command of ``--then``: started at most once, never after it was stopped (a chain's
    signal and an interrupted build can come at once)."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.process: subprocess.Popen | None = None
        self._stopped = False
        self._lock = threading.Lock()

    def start(self, note: str = "") -> None:
        with self._lock:
            if self.process is None and not self._stopped:
                if note:
                    print(note, flush=True)
                self.process = subprocess.Popen(self.command)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self.process is not None and self.process.poll() is None:
                self.process.terminate()
                self.process.wait()

    def wait(self) -> int:
        """Its exit status, once it ends.  Ctrl-C is its own to handle (JupyterLab asks before it
        stops); SIGTERM stops it."""
        assert self.process is not None, "wait for a command that was started"
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            with sigterm_as_interrupt():
                status = self.process.wait()
        except KeyboardInterrupt:
            self.stop()
            status = self.process.returncode
        finally:
            signal.signal(signal.SIGINT, previous)
        return status if status >= 0 else 128 - status


def side_by_side() -> int:
    """How many chains compile at once: one process each, as many as the machine has cores."""
    return min(len(chains()), os.cpu_count() or 1)


def _compile(then: Then | None = None) -> bool:
    """Every chain, side by side in its own process when the machine has the cores; a line a part."""
    print("make: compiling the fast engine with numba into its cache (once, again when its sources change)", flush=True)
    started = time.perf_counter()
    parts = chains()
    count, at_once = len(parts), side_by_side()
    if at_once > 1:
        print(f"  ({count} chains of parts, {at_once} at a time, one process each)", flush=True)
    running: list[subprocess.Popen] = []
    cpu = 0.0
    try:
        for index in range(count):
            if len(running) == at_once:
                cpu += _finished(running)
            running.append(subprocess.Popen([sys.executable, "-m", "clashkit.runs.warm", "--chain", str(index)]))
        while running:
            cpu += _finished(running)
    except BaseException:
        if then is not None:
            then.stop()
        raise
    finally:
        for child in running:
            child.kill()
            child.wait()
    print(f"make: fast engine compiled in {time.perf_counter() - started:.1f} s ({cpu:.1f} s of CPU)", flush=True)
    return True


def _finished(running: list[subprocess.Popen]) -> float:
    """Wait for the first chain's process, then drop it from ``running``; its CPU time (raise if it
    failed).  Dropped only once it has ended, so an interrupted wait leaves it for the caller to stop."""
    child = running[0]
    _, status, used = os.wait4(child.pid, 0)
    running.pop(0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"make: compiling the fast engine failed (status {child.returncode}); see above")
    return used.ru_utime + used.ru_stime


def compile_chain(index: int) -> None:
    """Compile one chain's parts here, one line each with its wall and CPU time.

    Without the garbage collector: a compile makes millions of short-lived objects, and
    collecting them took about a tenth of the time (the memory is the process's until it ends)."""
    from .fast_games import compiling_ahead

    gc.disable()
    compiling_ahead()
    for part in chains()[index]:
        began, cpu_began = time.perf_counter(), _cpu()
        part.play()
        print(
            f"  {part.title:<45} {time.perf_counter() - began:6.1f} s ({_cpu() - cpu_began:.1f} s of CPU)",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m clashkit.runs.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--stamp", type=Path, help="skip when this file records the current sources; write it after")
    parser.add_argument(
        "--then",
        nargs=argparse.REMAINDER,
        metavar="COMMAND",
        help="start COMMAND at once, compile beside it, then wait for it",
    )
    parser.add_argument("--chain", type=int, help=argparse.SUPPRESS)  # one chain, in a process of its own
    args = parser.parse_args(argv)
    then = Then(args.then) if args.then else None
    try:
        # SIGTERM as Ctrl-C: the chains' processes are stopped with the build, never left compiling.
        with sigterm_as_interrupt():
            if args.chain is not None:
                compile_chain(args.chain)
            else:
                warm(args.stamp, then)
    except KeyboardInterrupt:
        if args.chain is not None:
            raise SystemExit(130) from None  # the build that started this chain says it
        print("make: compiling interrupted; the next build starts it again", file=sys.stderr)
        raise SystemExit(130) from None
    if then is not None:
        raise SystemExit(then.wait())


if __name__ == "__main__":
    main()
