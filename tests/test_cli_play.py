"""``clashkit play``: one game as a readable log or as JSON; errors as one line, exit status 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import cli

from clashkit.cli import main
from clashkit.runs.game import new_game, play
from clashkit.show.render import event_dicts


def run(*args: str):
    return CliRunner().invoke(main, ["play", *args])


def test_json_is_one_object_with_the_game_and_its_events():
    done = run("--a", "1", "--b", "3", "--seed", "5", "--json")
    assert done.exit_code == 0, done.output
    out = json.loads(done.output)
    assert list(out)[:14] == [
        "seed",
        "mode",
        "format",
        "deck_a",
        "deck_b",
        "policy_a",
        "policy_b",
        "first_player",
        "winner",
        "turns",
        "finished",
        "termination",
        "rules_version",
        "rules",
    ]
    assert out["termination"] == "fort_fell"
    assert out["format"] == "preconstructed" and out["seed"] == 5
    assert out["policy_a"] == out["policy_b"] == "greedy"
    assert len(out["deck_a"]) == len(out["deck_b"]) == 8
    assert out["winner"] in ("A", "B") and out["finished"]
    events = out["events"]
    assert events[0]["kind"] == "turn_started" and events[-1]["kind"] == "game_won"
    assert events[-1]["target_player"] == out["winner"]
    assert [e["step"] for e in events] == list(range(len(events)))


def test_json_events_are_the_games_events():
    done = run("--a", "2", "--b", "4", "--policy-a", "random", "--seed", "8", "--json")
    out = json.loads(done.output)
    state, _ = new_game("2", "4", "random", "greedy", seed=8)
    play(state, "random", "greedy")
    assert out["events"] == event_dicts(state)


def test_same_seed_same_output():
    one = run("--a", "draft", "--b", "draft", "--seed", "3")
    two = run("--a", "draft", "--b", "draft", "--seed", "3")
    assert one.exit_code == 0 and one.output == two.output


def test_the_log_is_grouped_by_turn_with_hands_and_ends_with_the_result():
    done = run("--a", "4", "--b", "2", "--seed", "1")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("preconstructed duel, seed 1: A (greedy) ")
    assert "plays first (6 mana, R2.3)" in lines[2]
    out = json.loads(run("--a", "4", "--b", "2", "--seed", "1", "--json").output)
    headers = [line for line in lines if line.startswith("turn ")]
    assert len(headers) == out["turns"]
    assert headers[0].startswith("turn 1, ") and "mana 6" in headers[0]
    assert sum(1 for line in lines if line.startswith("A hand: ")) == out["turns"]
    assert "hand-health" in lines[lines.index(headers[0]) + 1]
    assert any(" attacks " in line for line in lines)
    assert lines[-1] == f"{out['winner']} wins on turn {out['turns']}."


def test_policies_formats_and_a_deck_file(tmp_path):
    deck = tmp_path / "a.deck"
    deck.write_text("# a deck\nOGRE, TROLL, BRUTE\nGNOME\nMARTYR\nZOMBIE\nREPTILE\nMETEORITE\n")
    done = run(
        "--a",
        str(deck),
        "--b",
        "1",
        "--policy-a",
        "search:budget=2",
        "--policy-b",
        "random",
        "--json",
    )
    out = json.loads(done.output)
    assert out["format"] == "custom"
    assert out["policy_a"] == "search:budget=2" and out["policy_b"] == "random"
    assert sorted(out["deck_a"]) == sorted(
        ["OGRE", "TROLL", "BRUTE", "GNOME", "MARTYR", "ZOMBIE", "REPTILE", "METEORITE"]
    )
    constructed = json.loads(run("--a", "constructed", "--b", "constructed", "--json").output)
    assert constructed["format"] == "constructed"


def test_rules_options_and_a_short_turn_limit():
    out = json.loads(run("--rules", "turn_limit=2", "--json").output)
    assert out["turns"] == 2 and out["winner"] is None and not out["finished"]
    assert out["termination"] == "turn_limit"
    assert out["events"][-1]["kind"] == "game_unfinished"
    text = run("--rules", "turn_limit=2").output
    assert text.splitlines()[-1] == "Unfinished after 2 turns (turn limit, R10.1)."


def test_mirror_allows_the_same_starter_deck():
    assert run("--a", "3", "--b", "3").exit_code == 2
    assert run("--a", "3", "--b", "3", "--mirror", "--json").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--a", "9"], "clashkit: error: deck A: there is no starter deck 9 (R7.1"),
        (
            ["--b", "OGRE,TROLL"],
            "clashkit: error: deck B: a duel hand has 8 cards (R2.1), the list has 2",
        ),
        (["--a", "draft"], "clashkit: error: deck B: draft is played by both players (R7.2)"),
        (["--policy-a", "clever"], "clashkit: error: unknown policy 'clever'"),
        (["--rules", "turn_limit=0"], "clashkit: error: --rules: turn_limit = 0"),
        (["--cards", "no/such/file.csv"], "clashkit: error: no/such/file.csv: cannot read"),
    ],
)
def test_errors_are_one_line_on_stderr_and_exit_status_2(args, message):
    done = cli("play", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message)
    assert done.stderr.count("\n") == 1
