"""The first build's compile step (``python -m clashkit.runs.warm``): its stamp, its lock, its
``--then`` (``make lab``'s JupyterLab, started before anything compiles), and what a process
says when it compiles a part itself.

The compile itself is exercised by every fast-engine test; these check that a
current cache is never remade, that a second build waits for the first
instead of deleting its cache mid-compile, and that a stopped build leaves nothing running.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

import pytest

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


# Stand-in chains for the tests below: each leaves a file named by its process id in ``started/``,
# then waits for ``release`` (at most 600 s).  Their output goes to /dev/null, so the build's pipes
# end with the build.
CHAIN = """
import os, pathlib, sys, time
folder = pathlib.Path(sys.argv[1])
(folder / "started" / str(os.getpid())).touch()
deadline = time.monotonic() + 600
while not (folder / "release").exists() and time.monotonic() < deadline:
    time.sleep(0.05)
"""


def stand_in_build(folder, *argv: str) -> subprocess.Popen:
    """``python -m clashkit.runs.warm ARGV`` with the stand-in chains (the rest of warm as it is).

    Its fast engine is a copy of the sources in ``folder/fast``, so a cache it removes is the
    copy's (a stale file in it, ``stale.nbi``), never the checkout's."""
    (folder / "started").mkdir()
    fast = folder / "fast"
    (fast / "__pycache__").mkdir(parents=True)
    for source in warm.FAST.glob("*.py"):
        (fast / source.name).write_bytes(source.read_bytes())
    (fast / "__pycache__" / "stale.nbi").touch()
    script = folder / "build.py"
    script.write_text(
        "import pathlib, subprocess, sys\n"
        "from clashkit.runs import warm\n"
        f"warm.FAST = pathlib.Path({str(fast)!r})\n"
        "real = subprocess.Popen\n"
        "quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "def popen(command, **options):\n"
        "    if '--chain' not in command:\n"
        "        return real(command, **options)  # --then's command\n"
        f"    return real([sys.executable, '-c', {CHAIN!r}, {str(folder)!r}, *command], **options, **quiet)\n"
        "warm.subprocess.Popen = popen\n"
        f"warm.main({list(argv)!r})\n"
    )
    return subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(what: str, found: Callable[[], bool], build: subprocess.Popen, limit: float = 300) -> None:
    """Poll ``found`` until it holds (a generous limit, no speed assumed) while ``build`` runs."""
    deadline = time.monotonic() + limit
    while not found():
        assert build.poll() is None, f"the build ended before {what}"
        assert time.monotonic() < deadline, f"no {what} in {limit:.0f} s"
        time.sleep(0.05)


def stop_everything(build: subprocess.Popen, pids: Iterable[int]) -> None:
    """Nothing of a test left running, whatever it found."""
    if build.poll() is None:
        build.kill()
        build.wait()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def still_running(pids: Iterable[int]) -> list[int]:
    running = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        running.append(pid)
    return running


def started(folder) -> list[int]:
    return [int(f.name) for f in (folder / "started").iterdir()]


def test_sigterm_stops_the_build_and_every_chain_it_started(tmp_path):
    """A build killed with SIGTERM (a CI timeout, ``kill``) stops its chains' processes too."""
    build = stand_in_build(tmp_path)
    wanted = warm.side_by_side()
    try:
        wait_for(f"{wanted} chains", lambda: len(started(tmp_path)) == wanted, build)
        build.send_signal(signal.SIGTERM)
        _, err = build.communicate(timeout=120)
        assert build.returncode == 130
        assert "make: compiling interrupted; the next build starts it again" in err
        assert still_running(started(tmp_path)) == [], "chain processes still run after the build was stopped"
    finally:
        stop_everything(build, started(tmp_path))


# --then's command (make lab's JupyterLab), a stand-in: its process id into ``lab``, then it waits
# for ``release`` and ends with status 3.
LAB = """
import os, pathlib, sys, time
folder = pathlib.Path(sys.argv[1])
(folder / "lab.tmp").write_text(str(os.getpid()))
(folder / "lab.tmp").rename(folder / "lab")
deadline = time.monotonic() + 600
while not (folder / "release").exists() and time.monotonic() < deadline:
    time.sleep(0.05)
sys.exit(3)
"""


def lab_pid(folder) -> list[int]:
    return [int((folder / "lab").read_text())] if (folder / "lab").is_file() else []


def test_then_starts_its_command_at_once_when_the_cache_is_current(tmp_path):
    stamp = tmp_path / ".fast-warm"
    stamp.write_text(warm.fingerprint() + "\n")
    (tmp_path / "release").touch()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clashkit.runs.warm",
            "--stamp",
            str(stamp),
            "--then",
            sys.executable,
            "-c",
            LAB,
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "", "")
    assert (tmp_path / "lab").is_file()


def test_sigterm_once_compiled_stops_the_command_and_ends_with_its_status(tmp_path):
    """After the compile (here: the cache current) the build only waits for its command; SIGTERM
    is passed on to it, and the build ends with the command's status (143: stopped by SIGTERM)."""
    stamp = tmp_path / ".fast-warm"
    stamp.write_text(warm.fingerprint() + "\n")
    command = [sys.executable, "-m", "clashkit.runs.warm", "--stamp", str(stamp), "--then"]
    build = subprocess.Popen([*command, sys.executable, "-c", LAB, str(tmp_path)], text=True)
    try:
        wait_for("--then's command", (tmp_path / "lab").is_file, build)
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=120) == 128 + signal.SIGTERM
        assert still_running(lab_pid(tmp_path)) == [], "the command still runs after the build was stopped"
    finally:
        stop_everything(build, lab_pid(tmp_path))


def test_then_starts_its_command_at_once_and_every_part_compiles_beside_it(tmp_path):
    """JupyterLab's URL without waiting for numba: the command runs while every chain still
    compiles (they wait for ``release``), the stamp is written when they end, and the build's
    status is the command's."""
    stamp = tmp_path / ".fast-warm"
    build = stand_in_build(tmp_path, "--stamp", str(stamp), "--then", sys.executable, "-c", LAB, str(tmp_path))
    try:
        wait_for("--then's command", (tmp_path / "lab").is_file, build)
        wanted = warm.side_by_side()
        wait_for(f"{wanted} chains", lambda: len(started(tmp_path)) == wanted, build)
        assert len(still_running(started(tmp_path))) == wanted, "a chain ended before its release"
        assert not stamp.exists(), "the stamp was written before the chains ended"
        (tmp_path / "release").touch()
        out, err = build.communicate(timeout=300)
        assert build.returncode == 3, err
        assert stamp.read_text() == warm.fingerprint() + "\n"  # the copy's sources are the checkout's
        assert not (tmp_path / "fast" / "__pycache__" / "stale.nbi").exists(), "the stale cache was kept"
        compiled = [line for line in out.splitlines() if line.startswith("make: fast engine compiled in")]
        assert len(compiled) == 1, out
    finally:
        stop_everything(build, [*started(tmp_path), *lab_pid(tmp_path)])


def test_sigterm_while_the_rest_compiles_stops_the_command_and_every_chain(tmp_path):
    build = stand_in_build(
        tmp_path, "--stamp", str(tmp_path / ".fast-warm"), "--then", sys.executable, "-c", LAB, str(tmp_path)
    )
    try:
        wait_for("--then's command", (tmp_path / "lab").is_file, build)
        build.send_signal(signal.SIGTERM)
        _, err = build.communicate(timeout=120)
        assert build.returncode == 130
        assert "make: compiling interrupted; the next build starts it again" in err
        assert still_running([*started(tmp_path), *lab_pid(tmp_path)]) == []
        assert not (tmp_path / ".fast-warm").exists()
    finally:
        stop_everything(build, [*started(tmp_path), *lab_pid(tmp_path)])


@pytest.mark.parametrize(
    ("policy_b", "said"),
    [
        ("greedy", []),
        (
            "search:budget=2",
            ["clashkit: compiling the fast engine's search player (once, a few minutes; make venv does it ahead)…"],
        ),
    ],
)
def test_a_game_with_a_search_player_says_so_when_its_loop_is_not_in_the_cache_yet(monkeypatch, capsys, policy_b, said):
    """A notebook that plays search while ``make lab`` still compiles it beside JupyterLab, or in a
    fresh environment, says why it is slow; once a process, and not when the cache has it."""
    from clashkit.runs import fast_games
    from clashkit.runs.spec import Matchup

    monkeypatch.setattr(fast_games, "_WARM", {"loop"})
    monkeypatch.setattr(fast_games, "_cache_present", lambda module, function: function != "choose")
    matchup = Matchup.build("1", "2", "greedy", policy_b, engine="fast")
    fast_games.Engine(matchup)
    fast_games.Engine(matchup)
    assert capsys.readouterr().err.splitlines() == said
    monkeypatch.setattr(fast_games, "_WARM", {"loop"})
    monkeypatch.setattr(fast_games, "_cache_present", lambda module, function: True)
    fast_games.Engine(matchup)
    assert capsys.readouterr().err == ""


def test_a_value_the_fast_engine_takes_from_elsewhere_is_in_the_fingerprint(monkeypatch):
    """numba compiles a global's value into the code: an event's code changed in engine/events.py
    (or an enumeration's member) remakes the cache as a changed fast source does; a function the
    Python around compiled code calls does not."""
    import enum

    from clashkit.engine import events, solo_setup

    before = warm.fingerprint()
    assert f"events.NO_EFFECT = {events.NO_EFFECT}" in warm.frozen_values()  # fast/events.py's import
    with monkeypatch.context() as patch:
        patch.setattr(events, "NO_EFFECT", events.NO_EFFECT + 1)
        assert warm.fingerprint() != before
    with monkeypatch.context() as patch:
        members = [(m.name, m.value + (1 if m.name == "NO_TARGET" else 0)) for m in events.NoEffect]
        patch.setattr(events, "NoEffect", enum.IntEnum("NoEffect", members))
        assert warm.fingerprint() != before
    with monkeypatch.context() as patch:
        patch.setattr(solo_setup, "split_cards", lambda *args: None)
        assert warm.fingerprint() == before
    assert warm.fingerprint() == before
