"""Attack: a run folder whose records name paths outside it (issue 41, point 1).

A folder received from someone else (a shared data set, an unzipped archive)
may hold a ``.clashkit-run/commit.json`` or a ``manifest.json`` whose
``files`` and ``removes`` name ``../`` paths, absolute paths, the folder's own
manifest or lock.  Every writer rolls a decided commit forward before it
writes, and every reader reads the commit first: each must refuse such a
name in one line naming the file, and nothing anywhere is deleted or moved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from command_line import cli, one_line_exit_2
from run_folders import small_run, small_trace, snapshot

from clashkit.base.errors import RunFolderError
from clashkit.runs.run_folder import COMMIT, MANIFEST, STAGING, read_manifest, run_file_name
from clashkit.runs.simulate import simulate_to
from clashkit.runs.trace import Trace

#: Names a record may hold that lead out of the folder or onto what is not a run's file.
BAD_NAMES = {
    "parent": "../victim",
    "parent_file": "../victim/precious.parquet",
    "absolute": "/tmp/victim.parquet",
    "separator": "sub/games.parquet",
    "dot_dot": "..",
    "the_folder": ".",
    "the_manifest": MANIFEST,
    "the_lock": ".clashkit.lock",
    "the_staging": STAGING,
    "hidden": ".games.parquet",
    "empty": "",
    "nul": "games\0.parquet",
    "backslash": "..\\games.parquet",
    "upper_case": "GAMES.parquet",
    "not_a_string": 5,
}


@pytest.fixture(scope="module")
def trace() -> Trace:
    return small_trace()


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A folder beside the run, with a file, that no run may touch."""
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "precious.parquet").write_bytes(b"the user's own data")
    return folder


def plant(run: Path, key: str, name: object, *, where: str = "commit") -> Path:
    """Put ``name`` into the ``key`` list of the run's manifest, as a decided commit (``commit``)
    or as its ``manifest.json`` (``manifest``); returns the record's path."""
    manifest = json.loads((run / MANIFEST).read_text())
    if key == "files":
        manifest["files"][name] = dict(manifest["files"]["games.parquet"])
    else:
        manifest["removes"] = [name]
    if where == "commit":
        (run / STAGING).mkdir(exist_ok=True)
        record = run / STAGING / COMMIT
    else:
        record = run / MANIFEST
    record.write_text(json.dumps(manifest))
    return record


@pytest.mark.parametrize("key", ["removes", "files"])
@pytest.mark.parametrize("label", list(BAD_NAMES))
def test_a_commit_naming_a_path_outside_the_run_is_refused_by_the_writer_and_nothing_is_touched(
    tmp_path, trace, victim, key, label
):
    run = small_run(tmp_path / "run", trace)
    record = plant(run, key, BAD_NAMES[label])
    before = snapshot(tmp_path)
    with pytest.raises(RunFolderError, match="is not a run file name") as refused:
        trace.write_parquet(run)
    assert str(refused.value).startswith(f"{record}: ") and "\n" not in str(refused.value)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("key", ["removes", "files"])
@pytest.mark.parametrize("where", ["commit", "manifest"])
def test_a_record_naming_a_parent_path_is_refused_by_every_reader(tmp_path, trace, victim, key, where):
    run = small_run(tmp_path / "run", trace)
    record = plant(run, key, "../victim", where=where)
    before = snapshot(tmp_path)
    for read in (Trace.read_parquet, read_manifest):
        with pytest.raises(RunFolderError, match=r"'\.\./victim' is not a run file name") as refused:
            read(run)
        assert str(refused.value).startswith(str(record))
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--policy-a", "random", "-n", "2", "--no-progress"],
        ["simulate", "--policy-a", "random", "-n", "2", "--no-progress", "--resume"],
        ["simulate", "--policy-a", "random", "-n", "2", "--no-progress", "--force"],
        ["balance", "--policy", "random", "-n", "1", "--no-progress"],
        ["ladder", "--policies", "random,greedy", "-n", "1", "--no-progress"],
    ],
    ids=["simulate", "simulate_resume", "simulate_force", "balance", "ladder"],
)
def test_a_commit_removing_a_folder_outside_the_run_is_one_line_for_every_writer(tmp_path, trace, victim, command):
    run = small_run(tmp_path / "run", trace)
    plant(run, "removes", "../victim")
    before = snapshot(tmp_path)
    one_line_exit_2(
        cli(*command, "--out", str(run)), f"{run / STAGING / COMMIT}: ", "'../victim' is not a run file name"
    )
    assert snapshot(tmp_path) == before


def test_the_api_writer_refuses_an_absolute_path_in_a_commit(tmp_path, trace, victim):
    run = small_run(tmp_path / "run", trace)
    plant(run, "removes", str(victim))
    with pytest.raises(RunFolderError, match="is not a run file name"):
        simulate_to(run, 2, "1", "2", "random")
    assert (victim / "precious.parquet").read_bytes() == b"the user's own data"


def test_one_function_decides_what_a_run_file_name_is():
    assert run_file_name("games.parquet", "here") == "games.parquet"
    assert run_file_name("pareto.parquet", "here") == "pareto.parquet"
    for name in BAD_NAMES.values():
        with pytest.raises(RunFolderError, match="^here: .* is not a run file name"):
            run_file_name(name, "here")
