"""The first build's compile step (``python -m clashkit.runs.warm``): its stamp and its lock.

The compile itself is exercised by every fast-engine test; these check that a
current cache is never remade and that a second build waits for the first
instead of deleting its cache mid-compile.
"""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
import sys
import time

from clashkit.runs import warm


def test_a_current_stamp_skips_the_compile(tmp_path, capsys):
    stamp = tmp_path / ".fast-warm"
    stamp.write_text(warm.fingerprint() + "\n")
    assert warm.warm(stamp) is False
    assert capsys.readouterr().out == ""


def test_the_fingerprint_follows_the_fast_engines_sources(tmp_path, monkeypatch):
    before = warm.fingerprint()
    copy = tmp_path / "fast"
    copy.mkdir()
    for source in warm.FAST.glob("*.py"):
        (copy / source.name).write_bytes(source.read_bytes())
    monkeypatch.setattr(warm, "FAST", copy)
    assert warm.fingerprint() == before
    (copy / "lanes.py").write_text((copy / "lanes.py").read_text() + "\n# changed\n")
    assert warm.fingerprint() != before


def test_a_second_build_waits_for_the_first(tmp_path):
    stamp = tmp_path / ".fast-warm"
    stamp.write_text(warm.fingerprint() + "\n")
    with open(tmp_path / ".fast-warm.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        second = subprocess.Popen(
            [sys.executable, "-m", "clashkit.runs.warm", "--stamp", str(stamp)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert second.stdout is not None
        line = second.stdout.readline()  # blocks until the second build says it waits (no time assumed)
        assert line == "make: another build is compiling the fast engine here; waiting for it\n"
        time.sleep(0.2)
        assert second.poll() is None, "the second build went on while the lock was held"
    # Released: it finds the cache current (the first build's stamp) and compiles nothing.
    rest, _ = second.communicate(timeout=120)
    assert second.returncode == 0
    assert rest == ""


def test_sigterm_stops_the_build_and_every_chain_it_started(tmp_path):
    """A build killed with SIGTERM (a CI timeout, ``kill``) stops its chains' processes too.

    Each stand-in chain leaves a file named by its process id in ``started/`` and sleeps; the
    test waits for every file (a generous limit, no speed assumed), then stops the build."""
    import os
    import signal

    started = tmp_path / "started"
    started.mkdir()
    script = tmp_path / "build.py"
    script.write_text(
        "import subprocess, sys\n"
        "from clashkit.runs import warm\n"
        "real = subprocess.Popen\n"
        "child = ('import os, sys, time, pathlib; pathlib.Path(sys.argv[1], str(os.getpid())).touch();'\n"
        "         ' time.sleep(600)')\n"
        "quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # the build's pipes end with it\n"
        f"warm.subprocess.Popen = lambda command: real([sys.executable, '-c', child, {str(started)!r}], **quiet)\n"
        "warm.main([])\n"
    )
    build = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wanted = min(len(warm.chains()), os.cpu_count() or 1)
    deadline = time.monotonic() + 300
    chains: list[int] = []
    try:
        while len(chains) < wanted:
            assert build.poll() is None, "the build ended before its chains started"
            assert time.monotonic() < deadline, f"{len(chains)} of {wanted} chains started in 300 s"
            time.sleep(0.05)
            chains = [int(f.name) for f in started.iterdir()]
        build.send_signal(signal.SIGTERM)
        _, err = build.communicate(timeout=120)
        assert build.returncode == 130
        assert "make: compiling interrupted; the next build starts it again" in err
        for pid in chains:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            raise AssertionError(f"chain process {pid} still runs after the build was stopped")
    finally:  # nothing of the test left running, whatever it found
        if build.poll() is None:
            build.kill()
            build.wait()
        for leftover in started.iterdir():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(leftover.name), signal.SIGKILL)
