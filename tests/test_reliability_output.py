"""A run's output is one unit (issue: runs that never lose or mix data).

The folder holds one complete run — files and the manifest written last — or
is refused by every reader; a second writer is refused; an interrupted run
keeps its finished parts and ``resume`` continues it without replaying them.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import clashkit.runs.simulate as sim
from clashkit.base.errors import OutputError, RunFolderError
from clashkit.cli import main
from clashkit.runs.output import RunLock, RunWriter, _signals_held
from clashkit.runs.run_folder import LOCK, MANIFEST, STAGING, read_manifest
from clashkit.runs.simulate import play_parts, pool_seed_array, pool_seeds, seed_pool, simulate, simulate_to
from clashkit.runs.trace import Trace


def run(*args: str):
    return CliRunner().invoke(main, ["simulate", "--policy-a", "random", "--no-progress", *args])


def same(x: Trace, y: Trace) -> bool:
    return all(a.equals(b) for a, b in zip(x, y, strict=True))


# --- High 1: one unit ----------------------------------------------------------------------


def test_a_no_events_run_removes_the_events_of_the_run_before(tmp_path):
    assert run("-n", "30", "--seed", "1", "--events", "--out", str(tmp_path)).exit_code == 0
    assert (tmp_path / "events.parquet").exists()
    result = run("-n", "5", "--seed", "2", "--no-events", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.parquet", MANIFEST, "turns.parquet"]
    back = Trace.read_parquet(tmp_path)
    assert back.games.height == 5 and back.events.height == 0
    assert json.loads((tmp_path / MANIFEST).read_text())["run"]["n"] == 5


def test_the_manifest_names_the_run_and_every_file(tmp_path):
    simulate_to(tmp_path, 7, "1", "3", "random", seed=4)
    manifest = read_manifest(tmp_path)
    assert manifest["run"]["seed"] == 4 and manifest["run"]["n"] == 7
    assert manifest["run"]["engine"] == "fast" and manifest["run"]["policy_a"] == "random"
    assert set(manifest["versions"]) == {"clashkit", "rules", "polars", "numpy", "python"}
    games = manifest["files"]["games.parquet"]
    assert games["rows"] == 7
    assert games["sha256"] == hashlib.sha256((tmp_path / "games.parquet").read_bytes()).hexdigest()
    expected = simulate(7, "1", "3", "random", seed=4)
    assert same(Trace.read_parquet(tmp_path), expected)


def test_readers_refuse_a_folder_that_does_not_match_its_manifest(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    simulate_to(one, 6, "1", "2", "random", seed=1)
    simulate_to(two, 9, "1", "2", "random", seed=2)
    # Another run's events beside these games.
    (one / "events.parquet").write_bytes((two / "events.parquet").read_bytes())
    with pytest.raises(RunFolderError, match=r"events\.parquet: its contents differ from manifest\.json"):
        Trace.read_parquet(one)
    # No manifest at all: an unfinished run or loose files.
    (two / MANIFEST).unlink()
    with pytest.raises(RunFolderError, match="holds events.parquet, turns.parquet, games.parquet but no"):
        Trace.read_parquet(two)


def test_readers_refuse_a_run_file_the_manifest_does_not_list(tmp_path):
    simulate_to(tmp_path / "full", 4, "1", "2", "random", seed=1)
    simulate_to(tmp_path / "lean", 4, "1", "2", "random", seed=1, record_events=False)
    (tmp_path / "lean" / "events.parquet").write_bytes((tmp_path / "full" / "events.parquet").read_bytes())
    with pytest.raises(RunFolderError, match="not part of the run its manifest.json describes"):
        Trace.read_parquet(tmp_path / "lean")


def test_a_second_writer_is_refused_and_a_stale_lock_taken_over(tmp_path):
    holder = RunLock(tmp_path)
    holder.acquire()
    try:
        with pytest.raises(OutputError, match="another run is writing there"):
            simulate_to(tmp_path, 3, "1", "2", "random")
        result = run("-n", "3", "--out", str(tmp_path))
        assert result.exit_code == 2 and "another run is writing there" in result.stderr
    finally:
        holder.release()
    # A lock file left by a killed run holds no lock: the next run takes it over.
    (tmp_path / LOCK).write_text("pid 999999 on elsewhere\n")
    simulate_to(tmp_path, 3, "1", "2", "random")
    assert Trace.read_parquet(tmp_path).games.height == 3
    assert not (tmp_path / LOCK).exists() and not (tmp_path / STAGING).exists()


def test_a_directory_where_a_run_file_goes_is_refused_before_any_game(tmp_path, monkeypatch):
    (tmp_path / "events.parquet").mkdir()
    played = []
    monkeypatch.setattr(sim, "play_game", lambda *a: played.append(a))
    with pytest.raises(OutputError, match=r"events\.parquet: is a directory"):
        simulate_to(tmp_path, 3, "1", "2", "random")
    assert played == []


def test_signals_wait_until_the_swap_is_done():
    caught = []

    def handler(signum, frame):
        caught.append(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        with _signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            assert caught == []
        assert caught == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


# --- Medium 3: --out checked first; late I/O errors are one line -----------------------------


@pytest.mark.parametrize("where", ["file/sub", "/proc/clashkit-run"])
def test_an_out_that_cannot_be_written_is_refused_before_any_game(tmp_path, where):
    (tmp_path / "file").write_text("x")
    out = where if where.startswith("/") else str(tmp_path / where)
    result = run("-n", "100000", "--out", out)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clashkit: error: ") and "cannot" in lines[0]
    assert result.stdout == ""


def test_a_write_error_while_writing_is_one_line_and_keeps_the_earlier_run(tmp_path, monkeypatch):
    simulate_to(tmp_path, 4, "1", "2", "random", seed=3)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(self, path, *args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", broken)
    result = run("-n", "6", "--jobs", "1", "--events", "--out", str(tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        f"clashkit: error: {tmp_path / STAGING}/part-00000000.events.parquet: cannot write "
        "(Input/output error); the finished parts are kept and --resume continues the run"
    ]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != STAGING} == before


def test_a_full_disk_removes_the_parts_and_says_what_the_run_needs(tmp_path, monkeypatch):
    simulate_to(tmp_path, 4, "1", "2", "random", seed=3)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real = pl.DataFrame.write_parquet
    written = []

    def full(self, path, *args, **kwargs):  # the second part does not fit
        if len(written) >= 3:
            raise pl.exceptions.ComputeError("I/O error: No space left on device (os error 28)")
        written.append(path)
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    result = run("-n", "1000", "--jobs", "1", "--engine", "reference", "--events", "--out", str(tmp_path))
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(
        f"clashkit: error: {tmp_path / STAGING}/part-00000001.events.parquet: cannot write "
        "(No space left on device); the run needs up to "
    )
    assert line.endswith("; its parts are removed and the folder keeps the run before")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# --- Medium 6: streaming, resume ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 2**63 + 5])
def test_seeds_made_per_part_are_numpys_seed_sequence(seed):
    words = np.random.SeedSequence(seed).generate_state(1300, dtype=np.uint64).tolist()
    pool = seed_pool(seed)
    assert pool_seeds(pool, 0, 1300) == words
    assert pool_seeds(pool, 500, 1000) == words[500:1000]
    assert pool_seeds(pool, 1299, 1300) == words[1299:]
    # The fast engine's: the same words, as an array made without a Python loop.
    assert pool_seed_array(pool, 0, 1300).tolist() == words
    assert pool_seed_array(pool, 500, 1000).tolist() == words[500:1000]
    assert pool_seed_array(pool, 7, 7).tolist() == []


def test_a_huge_run_makes_only_the_seeds_of_the_part_it_plays(monkeypatch):
    monkeypatch.setattr(sim, "PART_GAMES", 20)
    matchup = sim.Matchup.build("1", "2", "random", engine="reference", record_events=False)
    parts = play_parts(matchup, seed_pool(0), 100_000_000, 1)
    part, records = next(parts)
    assert part == 0 and len(records) == 20
    assert list(records.seed) == np.random.SeedSequence(0).generate_state(20, dtype=np.uint64).tolist()
    parts.close()


def test_an_interrupted_run_resumes_without_replaying_finished_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(sim, "PART_GAMES", 30)
    n = 2 * 30 + 7
    original_write = RunWriter.write_part

    def interrupted(self, index, frames):
        if index == 1:
            raise KeyboardInterrupt
        original_write(self, index, frames)

    monkeypatch.setattr(RunWriter, "write_part", interrupted)
    with pytest.raises(KeyboardInterrupt):
        simulate_to(tmp_path, n, "1", "2", "random", seed=5, record_events=False, engine="reference")
    monkeypatch.setattr(RunWriter, "write_part", original_write)
    assert not (tmp_path / MANIFEST).exists()
    assert sorted(p.name for p in (tmp_path / STAGING).iterdir() if p.suffix == ".parquet") == [
        "part-00000000.games.parquet",
        "part-00000000.turns.parquet",
    ]
    # Without --resume the interrupted run is neither thrown away nor mixed in.
    result = run("-n", str(n), "--seed", "5", "--no-events", "--engine", "reference", "--out", str(tmp_path))
    assert result.exit_code == 2 and "add --resume to continue it" in result.stderr
    # With other options it is refused too.
    with pytest.raises(OutputError, match="plays something else"):
        simulate_to(tmp_path, n, "1", "2", "random", seed=6, record_events=False, engine="reference", resume=True)
    played = []
    play_game = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda m, game, *a: (played.append(game), play_game(m, game, *a)))
    simulate_to(tmp_path, n, "1", "2", "random", seed=5, record_events=False, engine="reference", resume=True)
    assert played == list(range(30, n))
    expected = simulate(n, "1", "2", "random", seed=5, record_events=False, engine="reference")
    assert same(Trace.read_parquet(tmp_path), expected)
    # Resuming a run that is complete plays nothing.
    played.clear()
    simulate_to(tmp_path, n, "1", "2", "random", seed=5, record_events=False, engine="reference", resume=True)
    assert played == [] and same(Trace.read_parquet(tmp_path), expected)


def test_the_same_seed_gives_the_same_bytes_whatever_the_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr(sim, "PART_GAMES", 40)  # several parts, each cut into tasks
    for engine, names in (("reference", ("games", "turns", "events")), ("fast", ("games", "turns"))):
        events = "--events" if engine == "reference" else "--no-events"
        for jobs in ("1", "2"):
            out = str(tmp_path / engine / jobs)
            result = run("-n", "130", "--seed", "3", "--jobs", jobs, "--engine", engine, events, "--out", out)
            assert result.exit_code == 0, result.output
        for name in names:
            one, two = (tmp_path / engine / jobs / f"{name}.parquet" for jobs in ("1", "2"))
            assert one.read_bytes() == two.read_bytes()


def test_both_engines_write_the_same_bytes_whatever_their_parts(tmp_path):
    # The reference engine's parts are 500 games, the fast engine's 8,192 with events; a frame
    # written at once is in chunks of its own. Row groups of a fixed size make all three one file.
    for engine in ("reference", "fast"):
        out = str(tmp_path / engine)
        result = run("-n", "600", "--seed", "3", "--jobs", "1", "--engine", engine, "--events", "--out", out)
        assert result.exit_code == 0, result.output
    at_once = simulate(600, "1", "2", "random", seed=3, engine="fast", record_events=True, progress=False)
    at_once.write_parquet(tmp_path / "at_once")
    for name in ("events", "turns"):
        written = {(tmp_path / where / f"{name}.parquet").read_bytes() for where in ("reference", "fast", "at_once")}
        assert len(written) == 1, name


# --- Medium 8: temporary files -----------------------------------------------------------------


def test_temporary_files_of_an_interrupted_write_are_removed(tmp_path):
    old = tmp_path / ".games.parquet.4242.deadbeef.tmp"
    old.write_bytes(b"half")
    (tmp_path / STAGING).mkdir()
    (tmp_path / STAGING / "part-00000000.games.parquet.ab12cd34.tmp").write_bytes(b"half")
    (tmp_path / STAGING / "run.json").write_text("{}")
    with pytest.raises(OutputError, match="plays something else"):
        simulate_to(tmp_path, 3, "1", "2", "random", resume=True)
    (tmp_path / STAGING / "run.json").unlink()
    (tmp_path / STAGING).rename(tmp_path / "kept")
    simulate_to(tmp_path, 3, "1", "2", "random")
    assert not old.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") or p.name.startswith(".")]
