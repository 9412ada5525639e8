"""``clashkit meta`` on the command line: its JSON, its files, its sizes, its refusals."""

from __future__ import annotations

import json

import polars as pl
import pytest
from command_line import cli, one_line_exit_2

from clashkit.studies.meta.budget import Probe, Sizes, from_budget, seconds_for

TINY = ("--evaluations", "12", "-n", "2", "--value-games", "1", "--top", "3", "--no-progress", "--jobs", "1")


def test_one_policy_json_files_and_values(tmp_path):
    out, values = tmp_path / "run", tmp_path / "values.csv"
    done = cli("meta", *TINY, "--seed", "2", "--json", "--out", str(out), "--write-values", str(values))
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout.strip().splitlines()[-1])
    assert data["policy"] == "greedy" and len(data["decks"]) == 3
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["candidates.parquet", "cards.parquet", "decks.parquet", "manifest.json", "matrix.parquet", "starters.parquet"]
    )
    decks = pl.read_parquet(out / "decks.parquet")
    assert decks["policy"].unique().to_list() == ["greedy"]
    assert decks["rate"].to_list() == [d["rate"] for d in data["decks"]]
    assert pl.read_parquet(out / "candidates.parquet").height == 12
    lines = values.read_text().splitlines()
    assert lines[0].startswith("card,value,low,high,inclusion") and len(lines) == 33
    assert [line.split(",")[0] for line in lines[1:]] == [c["card"] for c in data["cards"]]


def test_several_policies_nest_by_policy():
    done = cli("meta", *TINY, "--policies", "random,greedy", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout.strip().splitlines()[-1])
    assert list(data["policies"]) == ["random", "greedy"]
    assert {"decks", "equilibrium", "cards", "starters"} <= set(data["policies"]["greedy"])


def test_the_text_report_says_how_to_repeat_it():
    done = cli("meta", *TINY, "--seed", "4")
    assert done.exit_code == 0, done.output
    assert "Repeat exactly: --seed 4 --evaluations 12 -n 2 --value-games 1 --top 3" in done.stdout
    assert (
        "Equilibrium of the 3 best" in done.stdout
        and "The starter decks against the equilibrium mixture" in done.stdout
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--budget-seconds", "soon"), "--budget-seconds: must be a number 0.001…604800"),
        (("--budget-seconds", "inf"), "--budget-seconds"),
        (("--mirror",), "--mirror: meta plays every pair"),
        (("--top", "1"), "--top"),
        (("--evaluations", "0"), "--evaluations"),
        (("--format", "sealed"), "--format"),
        (("--policy", "grredy"), "grredy"),
        (("--rules", "turn_limit=0"), "turn_limit"),
    ],
)
def test_bad_options_are_one_line(args, words):
    one_line_exit_2(cli("meta", "--evaluations", "4", "-n", "1", "--value-games", "1", "--no-progress", *args), words)


def test_values_into_a_folder_are_refused_before_any_game(tmp_path):
    one_line_exit_2(cli("meta", *TINY, "--write-values", str(tmp_path)), "--write-values", "is a directory")


def test_sizes_from_a_budget():
    cost = Probe(start=0.001, game=0.0001)
    sizes = from_budget(100, cost, workers=2, cards=32, gauntlet=4, top=16)
    # 100 s x 2 workers x 0.8 usable: 88 s of search at 8 pairings of 32 games a deck.
    assert sizes.evaluations == int(0.55 * 160 / (8 * 0.001 + 8 * 32 * 0.0001))
    assert sizes.n == int((0.2 * 160 / (20 * 19) - 0.001) / 0.0001)
    assert sizes.value_games == int((0.25 * 160 / (33 * 16 * 19 * 2) - 0.001) / 0.0001)
    assert seconds_for(sizes, cost, workers=2, cards=32, gauntlet=4) == pytest.approx(100 * 0.8, rel=0.02)
    assert (
        sizes.options() == f"--evaluations {sizes.evaluations} -n {sizes.n} --value-games {sizes.value_games} --top 16"
    )
    assert Sizes(1, 1, 1).top == 16


def test_the_strength_check_is_paired_with_the_study_game_by_game(tmp_path):
    """Checked by the study's own policy, the check replays the very same games: no difference."""
    out = tmp_path / "run"
    args = ("meta", *TINY, "-n", "4", "--check-strength", "--check-policy", "greedy", "--check-n", "3", "--json")
    done = cli(*args, "--out", str(out))
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout.strip().splitlines()[-1])
    check = data["check"]
    assert check["policy"] == "greedy" and check["n"] == 3 and sorted(check["decks"]) == ["0", "1", "2"]
    for row in check["decks"].values():
        assert row["difference"] == 0.0 and row["agree"] is True
        assert row["rate"] == row["study"] and row["games"] == 4 * 2 * 3
    assert pl.read_parquet(out / "check.parquet").height == 3


def test_a_check_option_without_the_check_is_refused():
    one_line_exit_2(cli("meta", *TINY, "--check-n", "3"), "--check-n is an option of the strength check")
