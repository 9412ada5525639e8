"""Attack: files that no clashkit run wrote, in the folder a run is written to (issue 41, point 3).

Writing into a folder that held no run removed or overwrote the user's own
``games.parquet``, ``turns.parquet`` and ``events.parquet``, and
``clashkit simulate`` wrote into the current folder by default.  A file of a
run's name is clashkit's only when the folder's manifest (or a decided
commit) lists it with its size; anything else is refused before any game,
unless ``--force``; ``simulate`` without ``--out`` writes into a folder of its
own under ``runs/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from command_line import cli, one_line_exit_2
from run_folders import ROOT, small_run, small_trace, snapshot

from clashkit.base.errors import OutputError
from clashkit.runs.output import RunWriter
from clashkit.runs.run_folder import MANIFEST
from clashkit.runs.simulate import DEFAULT_RUNS
from clashkit.runs.trace import Trace

#: The user's own files, by the run name they take.
FOREIGN = {
    "games.parquet": b"PAR1 the user's games PAR1",
    "turns.parquet": b"the user's turns",
    "events.parquet": b"the user's events",
    MANIFEST: b'{"name": "a web app", "version": "1.0.0"}\n',
}

SIMULATE = ("simulate", "--policy-a", "random", "-n", "2", "--no-progress")

#: Every command that writes a run folder, with options that make it quick.
WRITERS = {
    "simulate": SIMULATE,
    "balance": ("balance", "--policy", "random", "-n", "1", "--no-progress"),
    "sweep": ("sweep", "--card", "OGRE", "--set", "attack=1", "--policy", "random", "-n", "1", "--no-progress"),
    "card-stats": ("card-stats", "--policy", "random", "-n", "1", "--no-progress"),
    "tune": ("tune", "--policy", "random", "-n", "1", "--max-changes", "1", "--no-progress"),
    "compare": (
        "compare",
        "--cards",
        str(ROOT / "data" / "cards.csv"),
        "--policy",
        "random",
        "-n",
        "1",
        "--no-progress",
    ),
    "exploit": ("exploit", "--policy", "random", "-n", "1", "--no-progress"),
    "ladder": ("ladder", "--policies", "random,greedy", "-n", "1", "--no-progress"),
    "solo-levels": ("solo-levels", "--calibrate", "-n", "2", "--jobs", "1"),
}


@pytest.fixture(scope="module")
def trace() -> Trace:
    return small_trace()


def foreign_folder(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(FOREIGN[name])
    return folder


@pytest.mark.parametrize("name", list(FOREIGN))
def test_a_users_file_of_a_run_name_is_refused_by_simulate_and_kept(tmp_path, name):
    folder = foreign_folder(tmp_path / "mine", name)
    line = one_line_exit_2(cli(*SIMULATE, "--out", str(folder)), f"{folder}: holds {name} that no clashkit run wrote")
    assert line.endswith("choose another --out or remove it (--force writes over it)")
    assert sorted(p.name for p in folder.iterdir()) == [name]
    assert (folder / name).read_bytes() == FOREIGN[name]


@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_refuses_a_folder_of_user_files_before_any_game(tmp_path, writer):
    folder = tmp_path / "mine"
    for name in ("games.parquet", "turns.parquet"):
        foreign_folder(folder, name)
    before = snapshot(folder)
    one_line_exit_2(
        cli(*WRITERS[writer], "--out", str(folder)),
        f"{folder}: holds games.parquet, turns.parquet that no clashkit run wrote",
        "remove them (--force writes over them)",
    )
    assert snapshot(folder) == before


def test_force_writes_over_the_users_files(tmp_path):
    folder = foreign_folder(tmp_path / "mine", "games.parquet")
    result = cli(*SIMULATE, "--out", str(folder), "--force")
    assert result.exit_code == 0, result.output
    assert Trace.read_parquet(folder).games.height == 2


@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_takes_force_from_one_shared_definition(writer):
    from clashkit.cli.design_options import out_options

    result = cli(WRITERS[writer][0], "--help")
    assert result.exit_code == 0
    help_text = " ".join(result.stdout.split())
    assert "--force Write into --out even where it holds files of a run's names" in help_text
    assert callable(out_options)


def test_the_api_writers_refuse_a_users_file_too(tmp_path, trace):
    from clashkit.runs.simulate import simulate_to

    folder = foreign_folder(tmp_path / "mine", "events.parquet")
    with pytest.raises(OutputError, match="holds events.parquet that no clashkit run wrote"):
        trace.write_parquet(folder)
    with pytest.raises(OutputError, match="holds events.parquet that no clashkit run wrote"):
        simulate_to(folder, 2, "1", "2", "random")
    assert (folder / "events.parquet").read_bytes() == FOREIGN["events.parquet"]
    trace.write_parquet(folder, force=True)
    assert Trace.read_parquet(folder).events.height == trace.events.height


def test_a_users_file_beside_a_run_that_does_not_list_it_is_not_removed(tmp_path, trace):
    """A run without events once removed any events.parquet; now only one its manifest listed."""
    folder = small_run(tmp_path / "run", trace)
    trace.write_parquet(folder, events=False)  # clashkit's own events.parquet is removed, as before
    assert not (folder / "events.parquet").exists()
    (folder / "events.parquet").write_bytes(FOREIGN["events.parquet"])
    with pytest.raises(OutputError, match="holds events.parquet that no clashkit run wrote"):
        trace.write_parquet(folder, events=False)
    assert (folder / "events.parquet").read_bytes() == FOREIGN["events.parquet"]


def test_a_run_file_replaced_by_a_file_of_another_size_is_not_clashkits(tmp_path, trace):
    folder = small_run(tmp_path / "run", trace)
    (folder / "turns.parquet").write_bytes(FOREIGN["turns.parquet"])
    with pytest.raises(OutputError, match="holds turns.parquet that no clashkit run wrote"):
        trace.write_parquet(folder)


def test_a_link_in_place_of_a_run_file_is_not_clashkits_and_force_replaces_only_the_link(tmp_path, trace):
    mine = tmp_path / "mine.parquet"
    mine.write_bytes(FOREIGN["games.parquet"])
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "games.parquet").symlink_to(mine)
    with pytest.raises(OutputError, match="holds games.parquet that no clashkit run wrote"):
        trace.write_parquet(folder)
    trace.write_parquet(folder, force=True)
    assert not (folder / "games.parquet").is_symlink()
    assert mine.read_bytes() == FOREIGN["games.parquet"]


def test_a_study_writing_over_a_simulate_run_is_clashkits_own_business(tmp_path, trace):
    """Files a clashkit run wrote are replaced or removed as before: the folder's run is replaced."""
    folder = small_run(tmp_path / "run", trace)
    with RunWriter(folder, {"command": "a study"}, files=["ratings"]) as writer:
        writer.commit({"ratings": trace.games.select("game")})
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST, "ratings.parquet"]
    assert json.loads((folder / MANIFEST).read_text())["files"].keys() == {"ratings.parquet"}


def test_simulate_without_out_writes_a_folder_of_its_own_never_the_current_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    foreign_folder(tmp_path, "games.parquet")
    first = cli(*SIMULATE, "--seed", "3")
    assert first.exit_code == 0, first.output
    folders = sorted((tmp_path / DEFAULT_RUNS).iterdir())
    assert len(folders) == 1 and folders[0].name.startswith("simulate-s3-n2-")
    assert len(folders[0].name) == len("simulate-s3-n2-") + 8
    own = folders[0].relative_to(tmp_path)
    assert f"(no --out: {own} is the run's own folder, named after its seed, n and options)" in first.stdout
    assert Trace.read_parquet(own).games.height == 2
    assert (tmp_path / "games.parquet").read_bytes() == FOREIGN["games.parquet"]
    # The same command names the same folder (and writes the same run there); other options another.
    again = cli(*SIMULATE, "--seed", "3")
    assert again.exit_code == 0 and sorted((tmp_path / DEFAULT_RUNS).iterdir()) == folders
    other = cli(*SIMULATE, "--seed", "3", "--policy-b", "greedy")
    assert other.exit_code == 0 and len(list((tmp_path / DEFAULT_RUNS).iterdir())) == 2
