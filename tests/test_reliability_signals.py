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

from clashkit.runs.output import MANIFEST, STAGING
from clashkit.runs.trace import Trace


def _processes_marked(mark: str) -> list[int]:
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


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_sigterm_stops_every_process_of_the_run_and_keeps_finished_games(tmp_path):
    mark = f"CLASHKIT_TEST_RUN={uuid.uuid4().hex}"
    env = {**os.environ, mark.split("=")[0]: mark.split("=")[1]}
    out = tmp_path / "run"
    # The reference engine: slow enough that the signal always lands mid-run (the fast engine
    # may finish 200,000 games before the workers are seen).
    command = [sys.executable, "-m", "clashkit", "simulate", "-n", "200000", "--jobs", "2", "--engine", "reference",
               "--policy-a", "random", "--no-events", "--no-progress", "--out", str(out)]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        # Wait until workers are playing and a part is written.
        while time.monotonic() < deadline:
            parts = list((out / STAGING).glob("part-*.games.parquet")) if (out / STAGING).exists() else []
            if parts and len(_processes_marked(mark)) >= 3:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the run never started its workers")
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, stderr
    assert stderr.strip().splitlines()[-1].startswith("clashkit: SIGTERM: stopped; the finished games are kept")
    deadline = time.monotonic() + 10
    while _processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_marked(mark) == []
    assert not (out / MANIFEST).exists() and list((out / STAGING).glob("part-*.games.parquet"))
    assert not list((out / STAGING).glob("*.tmp")) and not (out / ".clashkit.lock").exists()
    with pytest.raises(ValueError, match="no manifest.json"):
        Trace.read_parquet(out)
