"""``clashkit balance``, ``sweep``, ``card-stats`` and ``tune``: JSON on the last line, Parquet
files, and one clear line with exit status 2 for bad input."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner
from helpers import ROOT

from clashkit.base.cards import load_cards, starter_set
from clashkit.cli import main
from clashkit.studies.analysis import MATCHUPS_SCHEMA


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def last_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_balance_json_and_parquet(tmp_path):
    data = last_json(run("balance", "-n", "2", "--seed", "1", "--json", "--out", str(tmp_path / "b")))
    assert sorted(data["decks"]) == ["1", "2", "3", "4"]
    assert set(data["decks"]["1"]) >= {"rate", "low", "high", "games"}
    assert len(data["matrix"]) == 12 and set(data["matrix"][0]) >= {"a", "b", "games", "rate_a", "low", "high"}
    assert set(data["first_player"]) >= {"rate", "low", "high"}
    matchups = pl.read_parquet(tmp_path / "b" / "matchups.parquet")
    assert matchups.schema == MATCHUPS_SCHEMA and matchups.height == 12
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["decks.parquet", "manifest.json", "matchups.parquet"]


def test_balance_text_and_mirror():
    result = run("balance", "-n", "1", "--mirror", "--rules", "turn_limit=100")
    assert result.exit_code == 0, result.output
    assert "| deck 1 | 50.0% (" in result.stdout  # a mirror: one side of each game wins
    assert "1 games per ordered pairing" in result.stdout and "Largest distance" in result.stdout


def test_sweep_json(tmp_path):
    data = last_json(
        run("sweep", "--card", "ogre", "--set", "attack=5..6", "-n", "2", "--json", "--out", str(tmp_path))
    )
    assert data["card"] == "OGRE" and data["field"] == "attack" and len(data["rows"]) == 8
    row = data["rows"][0]
    assert set(row) >= {"value", "deck", "rate", "low", "high", "change", "change_low", "change_high"}
    assert (row["value"], row["change"], row["change_low"], row["change_high"]) == (5, 0.0, 0.0, 0.0)
    assert pl.read_parquet(tmp_path / "sweep.parquet").height == 8


def test_sweep_names_the_value_of_the_designers_file_as_the_card_files_not_as_shipped():
    """R9.3: with --cards the value swept against is the designer's, not the shipped one."""
    warg = str(ROOT / "docs/examples/warg.csv")
    result = run("sweep", "--cards", warg, "--card", "WARG", "--set", "cost=3", "-n", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "WARG (in the card file: cost 3); 1 games per ordered pairing, seeds 0+k; "
        "change against the card file's WARG on the same seeds (paired 95% interval)"
    )


def test_sweep_text_says_when_a_change_cannot_be_told_from_0():
    result = run("sweep", "--card", "OGRE", "--set", "attack=5", "-n", "2")
    assert result.exit_code == 0, result.output
    assert "±0 (no game changed)" in result.stdout


def test_card_stats_json():
    data = last_json(run("card-stats", "--card", "GNOME", "-n", "1", "--json"))
    (card,) = data["cards"]
    assert card["card"] == "GNOME" and card["deck"] == 3 and card["games"] == 6
    for key in ("play_rate", "first_turn", "win_played", "win_not_played", "hand_health_after", "removed_change"):
        assert key in card


def tune_zombies_attack(games: int, *more: str) -> dict:
    """``tune --json`` of ZOMBIE's attack alone, one change at most, ``games`` a pairing."""
    return last_json(
        run("tune", "-n", str(games), "--max-changes", "1", "--card", "ZOMBIE", "--fields", "attack", *more, "--json")
    )


def test_tune_json_and_card_file(tmp_path):
    out = tmp_path / "tuned.csv"
    data = tune_zombies_attack(2, "--write-cards", str(out))
    assert set(data) >= {"changes", "before", "after"}
    tuned = load_cards(out)
    for change in data["changes"]:
        assert set(change) == {"card", "field", "from", "to"}
        assert getattr(tuned.card(change["card"]), change["field"]) == change["to"]
    if not data["changes"]:
        assert tuned.cards == starter_set().cards


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sweep", "--card", "NOPE", "--set", "attack=1,2"], "unknown card 'NOPE'"),
        (["sweep", "--card", "OGRE", "--set", "speed=1,2"], "unknown field 'speed'"),
        (["sweep", "--card", "OGRE", "--set", "health=0,1"], "health must be at least 1, not 0"),
        (["sweep", "--card", "OGRE", "--set", "cost=-1"], "cost must be at least 0"),
        (["sweep", "--card", "OGRE", "--set", "attack="], "--set attack: no values given"),
        (["sweep", "--card", "OGRE", "--set", "attack=2", "--set", "attack=3"], "given twice"),
        (["card-stats", "--card", "NOPE"], "unknown card 'NOPE'"),
        (["tune", "--fields", "speed"], "unknown field 'speed'"),
        (["tune", "--card", "NOPE"], "unknown card 'NOPE'"),
        (["tune", "--write-cards", "/no/such/dir/x.csv"], "--write-cards: no directory"),
        (["balance", "--cards", "/no/such/cards.csv"], "cannot read"),
        (["balance", "--rules", "speed=1"], "--rules: unknown option 'speed'"),
        (["balance", "--policy", "nope"], "unknown policy 'nope'"),
        # "Did you mean" for a mistyped card, policy, field or option; a reversed range named as such.
        (
            ["sweep", "--card", "OGER", "--set", "attack=1,2"],
            "unknown card 'OGER' (not in the card set); did you mean OGRE?",
        ),
        (["card-stats", "--card", "GNOEM"], "; did you mean GNOME?"),
        (
            ["balance", "--policy", "serch"],
            "unknown policy 'serch' (one of random, greedy, search, expert, deep, openspiel); did you mean search?",
        ),
        (["balance", "--rules", "turn_limt=100"], "; did you mean turn_limit?"),
        (["sweep", "--card", "OGRE", "--set", "atack=1,2"], "(one of cost, attack, health); did you mean attack?"),
        (
            ["sweep", "--card", "OGRE", "--set", "attack=7..3"],
            "--set attack=7..3: the range is reversed (from 7 down to 3); write it low..high: attack=3..7",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args, "-n", "1")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clashkit: error:") and message in lines[0], lines


def test_r2_3_tune_with_a_first_weight_weighs_the_first_players_edge_end_to_end():
    data = tune_zombies_attack(4, "--first-weight", "1")
    assert data["objective"] == {"pairing_weight": 0.0, "first_weight": 1.0}
    before = data["before"]
    decks = max(abs(deck["rate"] - 0.5) for deck in before["decks"].values())
    first = abs(before["first_player"]["rate"] - 0.5)
    # The fresh seeds' check of the set as shipped (the first row) is the larger of the two terms.
    assert data["check_distances"][0] == pytest.approx(max(decks, first))
    assert before["distance"] == pytest.approx(decks)
