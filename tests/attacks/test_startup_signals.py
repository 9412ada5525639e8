"""Attacks on start-up: Ctrl-C or SIGTERM at any moment of a run's start ends it in clashkit's
one line, with no traceback of a helper process (the fork server, a worker, Dask's workers).

Two moments are told apart.  Once ``clashkit`` says it has started (the line
``clashkit: started``, printed only under ``CLASHKIT_TEST_STARTED=1``), every signal is
clashkit's to handle: the test sends its signals only after that line.  Before it the
interpreter itself is starting (finding ``runpy``, importing clashkit), which clashkit does not
run: the second test only asks that the run ends there, leaves nothing behind, and that
CPython's own report is all there is.  No test assumes a speed: each waits for what it needs to
see, with generous limits.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from run_processes import processes_marked, simulate_command

from clashkit.cli import STARTED_LINE, STARTED_VARIABLE

#: Seconds after the started line at which a signal is sent: while the command's modules load,
#: the fork server and the resource tracker start, the workers start and import, and play.
AFTER_START = (0.0, 0.1, 0.5, 1.5, 4.0)
#: Seconds a run may take to say it has started, or to end after a signal, on a busy machine.
LIMIT = 300


def _start(out: Path, mark: str, *extra: str) -> subprocess.Popen:
    env = {**os.environ, STARTED_VARIABLE: "1", "CLASHKIT_TEST_RUN": mark}
    # A session of its own, so that a signal can go to the run's whole process group as a
    # terminal's Ctrl-C does (the helpers receive it too), and to nothing else.
    return subprocess.Popen(
        simulate_command(out, 200000, *extra),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _first_line(process: subprocess.Popen, limit: float) -> bytes:
    """The first line ``process`` writes on stderr (``b""`` if it ends first)."""
    assert process.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    line = b""
    deadline = time.monotonic() + limit
    fd = process.stderr.fileno()
    while not line.endswith(b"\n") and time.monotonic() < deadline:
        if selector.select(timeout=1.0):
            byte = os.read(fd, 1)
            if not byte:
                break
            line += byte
    selector.close()
    return line


def _finish(process: subprocess.Popen, limit: float) -> tuple[str, str]:
    """The rest of ``process``'s stdout and stderr once it ends; fail with its threads' stacks
    (Python's fault handler, on SIGABRT) if it has not ended within ``limit`` seconds."""
    try:
        stdout, stderr = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, stderr = process.communicate(timeout=60)
        pytest.fail(f"the run had not ended {limit:.0f} s after the signal; its threads then:\n{stderr[-6000:]!r}")
    return stdout.decode(errors="replace"), stderr.decode(errors="replace")


def _nothing_left(mark: str) -> list[int]:
    deadline = time.monotonic() + 60
    while processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    return processes_marked(mark)


def _kill_all(process: subprocess.Popen, mark: str) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
    for pid in processes_marked(mark):
        os.kill(pid, signal.SIGKILL)


def _signalled_after_start(out: Path, signum: int, delay: float, *extra: str) -> tuple[subprocess.Popen, str, str]:
    """Start a run, wait for its started line, send ``signum`` to its process group ``delay``
    seconds later; the ended process, its stdout and stderr (nothing of it is left running)."""
    mark = uuid.uuid4().hex
    process = _start(out, mark, *extra)
    try:
        started = _first_line(process, LIMIT)
        assert started == (STARTED_LINE + "\n").encode(), (delay, started, process.poll())
        time.sleep(delay)
        os.killpg(process.pid, signum)
        stdout, stderr = _finish(process, LIMIT)
    finally:
        _kill_all(process, mark)
    assert _nothing_left(mark) == [], delay
    return process, stdout, stderr


needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


@needs_proc
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
@pytest.mark.parametrize("jobs", ["2", "1"])
def test_a_signal_at_any_moment_after_start_up_ends_the_run_in_one_line(tmp_path, signum, jobs):
    for delay in AFTER_START:
        out = tmp_path / f"run-{delay}"
        process, stdout, stderr = _signalled_after_start(out, signum, delay, "--jobs", jobs)
        assert "Traceback" not in stderr, (delay, stderr)
        lines = stderr.strip().splitlines()
        # clashkit's own ending: 130 or 143 with one line; SIGTERM before a command installs its
        # handler ends the process by SIGTERM, as SIGTERM does, and says nothing.
        if signum == signal.SIGINT:
            assert process.returncode == 130, (delay, process.returncode, stderr)
            assert len(lines) == 1 and lines[0].startswith("clashkit: "), (delay, stderr)
        else:
            assert process.returncode in (143, -signal.SIGTERM), (delay, process.returncode, stderr)
            assert len(lines) <= 1 and all(line.startswith("clashkit: ") for line in lines), (delay, stderr)
        assert stdout == ""
        assert not (out / ".clashkit.lock").exists()


@needs_proc
def test_a_signal_during_the_interpreters_own_start_up_ends_it_and_leaves_nothing(tmp_path):
    """Before clashkit has started, CPython decides: it may end by SIGINT, or report the
    ``KeyboardInterrupt`` it was importing (``Could not import runpy module``) and exit 1; once
    ``python -m clashkit`` runs, clashkit says it in one line.  Either way the run ends, no
    process of it is left and no folder is locked."""
    for delay in (0.0, 0.01, 0.05, 0.1, 0.2):
        out = tmp_path / f"run-{delay}"
        mark = uuid.uuid4().hex
        process = _start(out, mark, "--jobs", "2")
        try:
            time.sleep(delay)
            os.killpg(process.pid, signal.SIGINT)
            _, stderr = _finish(process, LIMIT)
        finally:
            _kill_all(process, mark)
        lines = stderr.strip().splitlines()
        if lines and lines[0] == STARTED_LINE:  # the signal came after all: clashkit's one line
            assert process.returncode == 130 and len(lines) == 2, (delay, stderr)
            assert lines[1].startswith("clashkit: "), (delay, stderr)
        elif lines and lines[0].startswith("clashkit: "):  # while clashkit's modules load: its line
            assert process.returncode == 130 and len(lines) == 1, (delay, process.returncode, stderr)
        else:  # the interpreter's own start-up: what CPython does there
            assert process.returncode in (1, -signal.SIGINT), (delay, process.returncode, stderr)
            assert "KeyboardInterrupt" in stderr or not lines, (delay, stderr)
        assert not (out / ".clashkit.lock").exists()
        assert _nothing_left(mark) == [], delay


@needs_proc
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_signal_while_a_local_dask_cluster_starts_ends_the_run_in_one_line(tmp_path, signum):
    pytest.importorskip("distributed")
    pytest.importorskip("cryptography")
    for delay in (0.5, 2.0, 5.0):
        out = tmp_path / f"run-{delay}"
        process, stdout, stderr = _signalled_after_start(out, signum, delay, "--cluster", "local:2")
        assert "Traceback" not in stderr, (delay, stderr)
        lines = stderr.strip().splitlines()
        code = 130 if signum == signal.SIGINT else 143
        assert process.returncode == code and len(lines) == 1 and lines[0].startswith("clashkit: "), (delay, stderr)
        assert stdout == "" and not (out / ".clashkit.lock").exists()
