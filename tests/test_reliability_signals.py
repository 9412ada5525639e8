"""SIGTERM to ``clashkit simulate`` is handled like Ctrl-C: workers stopped, nothing left running,
finished games kept for ``--resume``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from run_processes import processes_marked, simulate_command

from clashkit.runs.run_folder import MANIFEST, STAGING
from clashkit.runs.trace import Trace


def _parts_written(out: Path) -> bool:
    return (out / STAGING).exists() and bool(list((out / STAGING).glob("part-*.games.parquet")))


def _wait_for(event, process: subprocess.Popen, limit: float) -> bool:
    """Whether ``event()`` came true within ``limit`` seconds while ``process`` ran."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if event():
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def _ended(process: subprocess.Popen) -> str:
    if process.poll() is None:
        return "it is still running"
    return f"it ended with status {process.returncode}: {process.stderr.read()[-2000:]}"


def _run(mark: str, out: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, mark.split("=")[0]: mark.split("=")[1]}
    command = simulate_command(out, 200000, "--jobs", "2", *extra)
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_no_process_of_the_run_outlives_a_sigkill_of_the_parent_by_5_s(tmp_path):
    mark = f"CLASHKIT_TEST_RUN={uuid.uuid4().hex}"
    process = _run(mark, tmp_path / "run")
    try:
        if not _wait_for(lambda: len(processes_marked(mark)) >= 4, process, 300):
            pytest.fail(f"the run never started its workers: {_ended(process)}")
        children = [pid for pid in processes_marked(mark) if pid != process.pid]
        process.kill()
        process.wait(timeout=60)
        killed = time.monotonic()
        while processes_marked(mark) and time.monotonic() - killed < 5:
            time.sleep(0.05)
        left = processes_marked(mark)
        assert left == [], f"{len(left)} of {len(children)} processes of the run alive 5 s after the kill"
        # Nothing holds the caller's output open: both pipes reach their end (the resource
        # tracker may note on stderr the semaphores the killed run left).
        assert process.stdout.read() == ""
        process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
        for pid in processes_marked(mark):
            os.kill(pid, signal.SIGKILL)


def _communicate_or_dump(process: subprocess.Popen, limit: float) -> tuple[str, str]:
    """``process``'s stdout and stderr once it ends; if it has not ended within ``limit`` seconds, fail
    with the stack of every thread of it (Python's fault handler, on SIGABRT)."""
    try:
        return process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, stderr = process.communicate(timeout=60)
        pytest.fail(f"the run had not ended {limit:.0f} s after the signal; its threads then:\n{stderr[-6000:]}")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_sigterm_stops_every_process_of_the_run_and_keeps_finished_games(tmp_path):
    mark = f"CLASHKIT_TEST_RUN={uuid.uuid4().hex}"
    out = tmp_path / "run"
    # The reference engine: slow enough that the signal always lands mid-run (the fast engine
    # may finish 200,000 games before the workers are seen).
    process = _run(mark, out)
    try:
        # Wait until workers are playing and a part is written (a busy machine may take minutes).
        if not _wait_for(lambda: _parts_written(out) and len(processes_marked(mark)) >= 3, process, 300):
            pytest.fail(f"the run never started its workers: {_ended(process)}")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, stderr
    assert stderr.strip().splitlines()[-1].startswith("clashkit: SIGTERM: stopped; the finished games are kept")
    deadline = time.monotonic() + 60
    while processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_marked(mark) == []
    assert not (out / MANIFEST).exists() and list((out / STAGING).glob("part-*.games.parquet"))
    assert not list((out / STAGING).glob("*.tmp")) and not (out / ".clashkit.lock").exists()
    with pytest.raises(ValueError, match="no manifest.json"):
        Trace.read_parquet(out)


HALF_SENT = """
import gc, os, signal, struct, sys, threading, time
from multiprocessing.queues import SimpleQueue
from pathlib import Path

from clashkit.runs.workers import run_tasks

READY = Path(sys.argv[1])


def half_sent(i):
    if i == 0:
        # A worker stopped in the middle of sending a result: the header of a 1 GB message
        # in the result pipe, and nothing more.
        results = next(o for o in gc.get_objects() if isinstance(o, SimpleQueue))
        os.write(results._writer.fileno(), struct.pack("!i", 1 << 30))
        READY.write_text("sent")
    time.sleep(600)


def interrupt_when_ready():
    while not READY.exists():
        time.sleep(0.05)
    time.sleep(0.5)  # the manager thread is reading the message by now
    os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    threading.Thread(target=interrupt_when_ready, daemon=True).start()
    try:
        for _ in run_tasks(half_sent, ((i, (i,)) for i in range(2)), jobs=2):
            pass
    except KeyboardInterrupt:
        print("stopped")
"""


def test_ctrl_c_while_a_result_is_half_sent_stops_the_run(tmp_path):
    """A worker stopped mid-send leaves half a message in the result pipe; stopping the run
    must not wait for the rest of it (before the fix the run hung for ever there)."""
    script = tmp_path / "half_sent.py"
    script.write_text(HALF_SENT)
    mark = f"CLASHKIT_TEST_RUN={uuid.uuid4().hex}"
    env = {**os.environ, "PYTHONFAULTHANDLER": "1", mark.split("=")[0]: mark.split("=")[1]}
    process = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "ready")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stdout, stderr = _communicate_or_dump(process, 120)
        assert (process.returncode, stdout) == (0, "stopped\n"), stderr
    finally:
        if process.poll() is None:
            process.kill()
        for pid in processes_marked(mark):
            os.kill(pid, signal.SIGKILL)
    assert (tmp_path / "ready").read_text() == "sent"
    assert processes_marked(mark) == []
