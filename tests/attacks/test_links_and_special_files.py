"""Attack: links and special files where a run keeps its files (issue 41, points 2, 4 and 8).

A ``.clashkit.lock`` linked (symbolically or hard) to another file made the
next writer truncate that file; a FIFO in a run file's place hung every
reader for ever, and a ``manifest.json`` linked to ``/dev/zero`` was read until
memory ran out; a symbolic link that loops as ``--out`` or ``--write-cards``
ended in a traceback.  Each is now refused in one line, unopened or opened
without blocking.  Readers that could hang run in a fresh interpreter with a
timeout and a memory limit, so a regression fails the test instead of
hanging the suite.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from command_line import cli, one_line_exit_2
from run_folders import python, small_run, small_trace, snapshot

from clashkit.base.errors import OutputError, RunFolderError
from clashkit.runs.output import RunLock
from clashkit.runs.run_folder import COMMIT, LOCK, MANIFEST, STAGING, read_manifest
from clashkit.runs.simulate import simulate_to
from clashkit.runs.trace import Trace


@pytest.fixture(scope="module")
def trace() -> Trace:
    return small_trace()


@pytest.fixture
def no_hang():
    """An in-process test that blocks (a FIFO opened for reading waits for a writer) fails
    after two minutes instead of hanging the suite: the alarm interrupts the blocked call."""

    class Blocked(Exception):  # not an OSError: no reader may take it for a read error
        pass

    def stuck(signum, frame):
        raise Blocked("blocked on a special file")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text("the user's own text\n")
    return path


# --- The lock (point 2) -------------------------------------------------------------------------


def test_a_lock_that_is_a_symbolic_link_is_refused_and_its_target_untouched(tmp_path, victim):
    run = tmp_path / "run"
    run.mkdir()
    (run / LOCK).symlink_to(victim)
    one_line_exit_2(
        cli("simulate", "--policy-a", "random", "-n", "2", "--no-progress", "--out", str(run)),
        f"{run / LOCK}: a symbolic link",
    )
    assert victim.read_text() == "the user's own text\n"
    assert (run / LOCK).is_symlink()


def test_a_lock_that_is_a_dangling_symbolic_link_creates_nothing_at_its_target(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / LOCK).symlink_to(tmp_path / "made-by-the-link")
    with pytest.raises(OutputError, match="a symbolic link"):
        RunLock(run).acquire()
    assert not (tmp_path / "made-by-the-link").exists()


def test_a_lock_hard_linked_to_another_file_is_refused_and_that_file_untouched(tmp_path, victim):
    run = tmp_path / "run"
    run.mkdir()
    os.link(victim, run / LOCK)
    with pytest.raises(OutputError, match=r"a file with 2 names \(a hard link\)"):
        simulate_to(run, 2, "1", "2", "random")
    assert victim.read_text() == "the user's own text\n"


def test_a_lock_that_is_a_fifo_is_refused_unopened(tmp_path, no_hang):
    run = tmp_path / "run"
    run.mkdir()
    os.mkfifo(run / LOCK)
    with pytest.raises(OutputError, match=r"\.clashkit\.lock: a FIFO \(named pipe\)"):
        RunLock(run).acquire()


def test_a_lock_that_is_a_directory_is_refused(tmp_path):
    run = tmp_path / "run"
    (run / LOCK).mkdir(parents=True)
    with pytest.raises(OutputError, match=r"\.clashkit\.lock: a directory"):
        RunLock(run).acquire()


def test_a_stale_lock_left_by_a_killed_writer_is_still_taken_over(tmp_path, trace):
    run = small_run(tmp_path / "run", trace)
    (run / LOCK).write_text("pid 999999 on elsewhere\n")
    trace.write_parquet(run, events=False)
    assert Trace.read_parquet(run).games.height == 3
    assert not (run / LOCK).exists()


def test_a_live_lock_is_still_refused_naming_its_holder_in_printable_characters(tmp_path):
    holder = RunLock(tmp_path)
    holder.acquire()
    try:
        os.pwrite(holder.fd, b"pid 1 on \x1b[31mred\x07\nsecond line\n", 0)
        with pytest.raises(OutputError, match=r"another run is writing there \(pid 1 on \?\[31mred\?\)"):
            RunLock(tmp_path).acquire()
    finally:
        holder.release()


def test_a_staging_folder_that_is_a_link_is_refused_and_nothing_is_moved_out_of_its_target(tmp_path, trace):
    elsewhere = small_run(tmp_path / "elsewhere", trace)  # a folder of files someone keeps
    manifest = json.loads((elsewhere / MANIFEST).read_text())
    (elsewhere / COMMIT).write_text(json.dumps(manifest))  # looks like a decided commit
    run = tmp_path / "run"
    run.mkdir()
    (run / STAGING).symlink_to(elsewhere)
    before = snapshot(tmp_path)
    with pytest.raises(RunFolderError, match=r"\.clashkit-run: a symbolic link"):
        trace.write_parquet(run)
    for read in (Trace.read_parquet, read_manifest):
        with pytest.raises(RunFolderError, match=r"\.clashkit-run: a symbolic link"):
            read(run)
    assert snapshot(tmp_path) == before


# --- Readers and special files (point 4) ----------------------------------------------------------

#: Each special file, as the folder gets it: (path in the run folder, how it is made).
SPECIAL = {
    "fifo_as_games": ("games.parquet", "fifo"),
    "fifo_as_manifest": (MANIFEST, "fifo"),
    "fifo_as_commit": (f"{STAGING}/{COMMIT}", "fifo"),
    "fifo_as_run_json": (f"{STAGING}/run.json", "fifo"),
    "dev_zero_as_manifest": (MANIFEST, "/dev/zero"),
    "dev_zero_as_games": ("games.parquet", "/dev/zero"),
    "dev_zero_as_commit": (f"{STAGING}/{COMMIT}", "/dev/zero"),
    "link_loop_as_manifest": (MANIFEST, "loop"),
    "link_loop_as_games": ("games.parquet", "loop"),
    "huge_manifest": (MANIFEST, "huge"),
}

#: The readers, and ``simulate --resume`` (which reads the folder before it writes).
READERS = {
    "Trace.read_parquet": "Trace.read_parquet(run)",
    "read_manifest": "read_manifest(run)",
    "simulate --resume": "simulate_to(run, 3, '1', '2', 'random', seed=7, resume=True)",
}

_PROBE = """
import signal, sys
from pathlib import Path
from clashkit.base.errors import ClashkitError
from clashkit.runs.run_folder import read_manifest
from clashkit.runs.simulate import simulate_to
from clashkit.runs.trace import Trace

class Blocked(BaseException):  # not an OSError: no reader may take it for a read error
    pass

def stuck(signum, frame):
    raise Blocked("blocked")

signal.signal(signal.SIGALRM, stuck)
run = Path(sys.argv[1])
for label, call in {readers!r}.items():
    signal.alarm(20)
    try:
        eval(call)
        print(label, "|", "read")
    except ClashkitError as e:
        print(label, "|", type(e).__name__, "|", str(e).replace("\\n", "\\\\n"))
    except BaseException as e:
        print(label, "|", "FAILED", "|", type(e).__name__, str(e)[:200].replace("\\n", " "))
    finally:
        signal.alarm(0)
"""


def make_special(run: Path, relative: str, how: str) -> Path:
    path = run / relative
    path.parent.mkdir(exist_ok=True)
    if os.path.lexists(path):
        path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "loop":
        path.symlink_to(path.name)
    elif how == "huge":
        path.write_bytes(b"{" + b" " * (2 << 20) + b"}")
    else:
        path.symlink_to(how)
    return path


@pytest.mark.parametrize("label", list(SPECIAL))
def test_every_reader_refuses_a_special_file_in_one_line_without_hanging(tmp_path, trace, label):
    relative, how = SPECIAL[label]
    run = small_run(tmp_path / "run", trace)
    if relative.endswith("run.json"):  # an interrupted run's record, which --resume reads
        make_special(run, relative, how)
        readers = {"simulate --resume": READERS["simulate --resume"]}
    else:
        make_special(run, relative, how)
        readers = READERS
    code = _PROBE.replace("{readers!r}", repr(readers)).replace("sys.argv[1]", repr(str(run)))
    done = python(code, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert [line.split(" | ")[0] for line in lines] == list(readers), done.stdout
    expected = {"fifo": "a FIFO (named pipe)", "/dev/zero": "a symbolic link", "loop": "a symbolic link"}
    for line in lines:
        reader, kind, *message = line.split(" | ")
        assert kind in ("RunFolderError", "OutputError"), line
        assert len(message) == 1 and str(run) in message[0] and Path(relative).name in message[0], line
        if relative.endswith("run.json"):  # unreadable: not the interrupted run this one continues
            assert "its run.json is unreadable" in message[0], line
        elif reader == "simulate --resume" and "no clashkit run wrote" in message[0]:
            continue  # the writer refuses the file as not clashkit's, unopened
        else:
            assert expected.get(how, "more than the 1,048,576") in message[0], line


def test_a_fifo_in_place_of_a_run_file_is_named_with_its_kind(tmp_path, trace, no_hang):
    run = small_run(tmp_path / "run", trace)
    make_special(run, "turns.parquet", "fifo")
    with pytest.raises(RunFolderError, match=r"turns\.parquet: a FIFO \(named pipe\), where a run has a regular file"):
        Trace.read_parquet(run)


def test_a_manifest_larger_than_any_run_writes_is_refused_unparsed(tmp_path, trace, no_hang):
    run = small_run(tmp_path / "run", trace)
    make_special(run, MANIFEST, "huge")
    with pytest.raises(RunFolderError, match=r"manifest\.json: 2,097,154 bytes, more than the 1,048,576"):
        read_manifest(run)


def test_a_run_file_that_is_a_link_to_its_own_run_is_refused(tmp_path, trace):
    """clashkit writes no links: a run file linked elsewhere (even to identical bytes) is refused."""
    run = small_run(tmp_path / "run", trace)
    (run / "games.parquet").rename(tmp_path / "games.parquet")
    (run / "games.parquet").symlink_to(tmp_path / "games.parquet")
    with pytest.raises(RunFolderError, match=r"games\.parquet: a symbolic link"):
        Trace.read_parquet(run)


# --- Symbolic link loops as a place to write (point 8) -----------------------------------------------


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    (tmp_path / "loop").symlink_to("loop")
    return tmp_path / "loop"


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--policy-a", "random", "-n", "2", "--no-progress", "--out"],
        ["balance", "--policy", "random", "-n", "1", "--no-progress", "--out"],
        ["ladder", "--policies", "random,greedy", "-n", "1", "--no-progress", "--out"],
        ["solo-levels", "--calibrate", "-n", "2", "--jobs", "1", "--out"],
        ["tune", "--policy", "random", "-n", "1", "--max-changes", "1", "--no-progress", "--write-cards"],
        ["ladder", "--policies", "random,greedy", "-n", "1", "--no-progress", "--write-ratings"],
        ["expert-train", "--games", "1", "--rounds", "1", "--out"],
    ],
    ids=[
        "simulate_out",
        "balance_out",
        "ladder_out",
        "solo_levels_out",
        "tune_write_cards",
        "ladder_write_ratings",
        "expert_train_out",
    ],
)
@pytest.mark.parametrize("inside", [False, True], ids=["the_link", "a_path_through_it"])
def test_a_symbolic_link_loop_as_a_place_to_write_is_one_line(tmp_path, loop, command, inside):
    target = loop / "x.csv" if inside else loop
    one_line_exit_2(cli(*command, str(target)), str(target), "loops")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]
