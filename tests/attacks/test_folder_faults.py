"""Attack: faults of the disk and of the folder's name while a run starts (issue 41, point 6).

A 100% full disk made the lock's write raise ``OSError ENOSPC`` with a
traceback and left an empty folder with a 0-byte lock; ``solo-levels --out``
wrote with polars directly and gave its tracebacks on a full disk, under
``ulimit -f``, on a read-only or missing folder and for a long name.  Each
fault is now one line, exit 2, and nothing is left behind: no folder the
writer created, no lock.  Faults are made in-process (the lock's write
failing with each ``errno``) and, where it is cheap, for real (``ulimit -f``,
a path too long for the system).
"""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from command_line import cli, one_line_exit_2
from run_folders import ROOT, small_run, small_trace, snapshot

import clashkit.runs.output as output
import clashkit.runs.run_folder as run_folder
from clashkit.base.errors import OutputError
from clashkit.runs.run_folder import LOCK
from clashkit.runs.trace import Trace

SIMULATE = ("simulate", "--policy-a", "random", "-n", "2", "--no-progress")
SOLO = ("solo-levels", "--calibrate", "-n", "2", "--jobs", "1", "--json")

#: The errors a lock's write meets: a full disk or quota, a read-only disk, no permission,
#: a name too long, a file size limit (``ulimit -f``).
FAULTS = [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.ENAMETOOLONG, errno.EFBIG]


@pytest.fixture(scope="module")
def trace() -> Trace:
    return small_trace()


def failing_lock_write(monkeypatch, code: int) -> None:
    """The lock's write (``pid N on HOST``) fails with ``code``; every other write goes through."""
    real = os.write

    def write(fd, data):
        if bytes(data).startswith(b"pid "):
            raise OSError(code, os.strerror(code))
        return real(fd, data)

    monkeypatch.setattr(output.os, "write", write)


@pytest.mark.parametrize("code", FAULTS, ids=[errno.errorcode[c] for c in FAULTS])
def test_a_lock_that_cannot_be_written_is_one_line_and_leaves_no_folder(tmp_path, monkeypatch, code):
    failing_lock_write(monkeypatch, code)
    out = tmp_path / "new" / "run"
    one_line_exit_2(
        cli(*SIMULATE, "--out", str(out)),
        f"{out / LOCK}: cannot write ({os.strerror(code)}); nothing of the run was written",
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", FAULTS, ids=[errno.errorcode[c] for c in FAULTS])
def test_a_lock_that_cannot_be_written_leaves_the_run_before_and_no_lock(tmp_path, monkeypatch, trace, code):
    run = small_run(tmp_path / "run", trace)
    before = snapshot(run)
    failing_lock_write(monkeypatch, code)
    with pytest.raises(OutputError, match=rf"cannot write \({os.strerror(code)}\)"):
        trace.write_parquet(run)
    assert snapshot(run) == before and not os.path.lexists(run / LOCK)


def test_a_short_write_of_the_lock_counts_as_a_full_disk(tmp_path, monkeypatch):
    real = os.write
    monkeypatch.setattr(output.os, "write", lambda fd, data: real(fd, bytes(data)[:3]))
    with pytest.raises(OutputError, match=r"cannot write \(No space left on device\)"):
        output.RunLock(tmp_path).acquire()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES, errno.ENOSPC])
def test_a_lock_that_cannot_be_created_is_one_line_and_leaves_no_folder(tmp_path, monkeypatch, code):
    real = os.open

    def open_(path, flags, *args, **kwargs):
        if str(path).endswith(LOCK):
            raise OSError(code, os.strerror(code))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(output.os, "open", open_)
    out = tmp_path / "new"
    one_line_exit_2(cli(*SIMULATE, "--out", str(out)), f"{out / LOCK}: cannot write ({os.strerror(code)})")
    assert list(tmp_path.iterdir()) == []


def _no_larger_files() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


@pytest.mark.parametrize("command", [SIMULATE, SOLO], ids=["simulate", "solo_levels"])
def test_a_file_size_limit_is_one_line_and_leaves_no_folder(tmp_path, command):
    """``ulimit -f 0`` for real: Python ignores SIGXFSZ, so the lock's write fails with EFBIG."""
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "clashkit", *command, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
        preexec_fn=_no_larger_files,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr == f"clashkit: error: {out / LOCK}: cannot write (File too large); nothing of the run was written\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_folder_whose_lock_name_is_too_long_for_the_system_is_one_line_and_removed(tmp_path):
    """A folder path the system takes whole (under 4,096 bytes), but not with ``/.clashkit.lock``."""
    out = tmp_path
    while len(os.fsencode(out)) < 4095 - 250:
        out = out / ("d" * 200)
    out = out / ("e" * (4094 - len(os.fsencode(out)) - 1))
    assert len(os.fsencode(out)) == 4094
    one_line_exit_2(cli(*SIMULATE, "--out", str(out)), "cannot write (File name too long)")
    assert list(tmp_path.iterdir()) == []


# --- solo-levels --out: the same writer as every command ------------------------------------------


def test_solo_levels_writes_its_calibration_as_a_run_folder(tmp_path):
    out = tmp_path / "missing" / "folder"
    result = cli(*SOLO, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["calibration.parquet", "manifest.json"]
    manifest = run_folder.read_manifest(out)
    assert manifest["run"] == {"command": "solo-levels", "n": 2, "policy": "greedy", "deck": "draft", "seed": 0}
    assert manifest["files"]["calibration.parquet"]["rows"] == pl.read_parquet(out / "calibration.parquet").height


def test_solo_levels_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise pl.exceptions.ComputeError("I/O error: No space left on device (os error 28)")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    out = tmp_path / "cal"
    one_line_exit_2(cli(*SOLO, "--out", str(out)), "cannot write (No space left on device)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_solo_levels_on_a_folder_it_cannot_create_is_one_line_before_any_game(tmp_path, monkeypatch, code):
    import clashkit.studies.calibration as calibration

    def refuse(self, *args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(Path, "mkdir", refuse)
    monkeypatch.setattr(calibration, "calibrate", lambda *a, **k: pytest.fail("played before --out was checked"))
    one_line_exit_2(
        cli(*SOLO, "--out", str(tmp_path / "cal")),
        f"{tmp_path / 'cal'}: cannot create the folder ({os.strerror(code)})",
    )


def test_solo_levels_with_a_name_too_long_is_one_line(tmp_path):
    one_line_exit_2(cli(*SOLO, "--out", str(tmp_path / ("x" * 300))), "more than the 255 a file name may have")
    assert list(tmp_path.iterdir()) == []
