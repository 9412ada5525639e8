"""``clashkit simulate``: the three Parquet files, the printed summary, and clean refusals."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from clashkit.base.cards import starter_set
from clashkit.cli import main
from clashkit.runs.schemas import GAMES_SCHEMA, TURNS_SCHEMA, events_schema


def run(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


def test_writes_three_files_and_prints_intervals(tmp_path):
    out = tmp_path / "run"
    result = run(
        "-n",
        "12",
        "--a",
        "1",
        "--b",
        "4",
        "--policy-a",
        "random",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--events",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "events.parquet",
        "games.parquet",
        "manifest.json",
        "turns.parquet",
    ]
    games = pl.read_parquet(out / "games.parquet")
    assert games.schema == GAMES_SCHEMA and games.height == 12
    assert pl.read_parquet(out / "turns.parquet").schema == TURNS_SCHEMA
    assert pl.read_parquet(out / "events.parquet").schema == events_schema(starter_set())
    text = result.stdout
    assert "95% CI [" in text
    words = ["A (random) wins", "B (random) wins", "first player wins", "first-player advantage"]
    for line in [*words, "mean turns", "unfinished"]:
        assert line in text


def test_same_seed_same_files_whatever_the_jobs(tmp_path):
    for engine in ("reference", "fast"):
        for jobs in ("1", "2"):
            events = "--events" if engine == "reference" else "--no-events"
            result = run(
                "-n",
                "16",
                "--a",
                "2",
                "--b",
                "3",
                "--policy-a",
                "random",
                "--seed",
                "8",
                "--jobs",
                jobs,
                "--engine",
                engine,
                events,
                "--out",
                str(tmp_path / engine / jobs),
            )
            assert result.exit_code == 0, result.output
        for name in ("games", "turns", "events") if engine == "reference" else ("games", "turns"):
            one = pl.read_parquet(tmp_path / engine / "1" / f"{name}.parquet")
            two = pl.read_parquet(tmp_path / engine / "2" / f"{name}.parquet")
            assert one.equals(two), name
    # The two engines play the same games (tests/fast compares them at length).
    ref, fast = (pl.read_parquet(tmp_path / e / "1" / "games.parquet") for e in ("reference", "fast"))
    assert ref.drop("engine").equals(fast.drop("engine"))
    assert ref["engine"].to_list() == ["reference"] * 16 and fast["engine"].to_list() == ["fast"] * 16


def test_default_engine_is_fast_and_the_fast_engine_writes_events(tmp_path):
    result = run("-n", "4", "--out", str(tmp_path / "d"))
    assert result.exit_code == 0, result.output
    assert "fast engine" in result.output
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["games.parquet", "manifest.json", "turns.parquet"]
    events = run("-n", "4", "--engine", "fast", "--events", "--out", str(tmp_path / "e"))
    assert events.exit_code == 0, events.output
    assert "fast engine" in events.output
    written = pl.read_parquet(tmp_path / "e" / "events.parquet")
    assert written["game"].unique().sort().to_list() == [0, 1, 2, 3]


def test_no_events_skips_the_events_file(tmp_path):
    result = run("-n", "5", "--policy-a", "random", "--no-events", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.parquet", "manifest.json", "turns.parquet"]


def test_solo_mode_with_a_level(tmp_path):
    result = run(
        "-n", "4", "--mode", "solo", "--a", "3", "--level", "2", "--policy-a", "random", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    games = pl.read_parquet(tmp_path / "games.parquet")
    assert games["mode"].to_list() == ["solo"] * 4 and games["level"].to_list() == [2] * 4


def test_rules_option_sets_the_turn_limit(tmp_path):
    result = run("-n", "3", "--policy-a", "random", "--rules", "turn_limit=2", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "unfinished              3 of 3" in result.stdout
    games = pl.read_parquet(tmp_path / "games.parquet")
    assert games["winner"].null_count() == 3


@pytest.mark.parametrize(
    "args",
    [
        ["--a", "9"],
        ["--a", "1", "--b", "1"],
        ["--policy-a", "nobody"],
        ["--rules", "turn_limit=0"],
        ["--rules", "nonsense"],
        ["--level", "3"],
        ["--mode", "solo", "--b", "2"],
        ["--mode", "solo", "--level", "2", "--settings", "ai_fixed_mana=10"],
        ["--mode", "tournament"],
        ["-n", "0"],
        ["--jobs", "-1"],
        ["--cards", "no-such-file.csv"],
        ["--bogus"],
    ],
)
def test_bad_options_one_line_exit_2_nothing_written(tmp_path, args):
    out = tmp_path / "out"
    result = run("-n", "3", "--policy-a", "random", "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clashkit: error:")
    assert not out.exists()
