"""``clashkit siege SCENARIO [--json]`` (``interfaces.md`` §3): the JSON contract, the account,
and errors as one line on stderr with exit status 2."""

# ruff: noqa: E501

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import SCENARIOS, cli, cli_json, scenario_path, siege

from clashkit.cli import main

EXAMPLE = scenario_path("interfaces_example")

# interfaces.md §3, the example's output (events are the developers' design).
EXPECTED = {
    "winner": None,
    "A": {
        "hand": ["BASTION", "IMP", "ZAP"],
        "keep": "bastion",
        "hand_health": 2,
        "upper": [{"card": "SPLASHER", "damage": 0}],
        "lower": [{"card": "GUARD", "damage": 0}],
    },
    "B": {
        "hand": ["RAT", "FORT", "BAT", "OGRE", "WISP"],
        "keep": "fort",
        "hand_health": 3,
        "upper": [],
        "lower": [],
    },
}
PLAYER_KEYS = ["hand", "keep", "hand_health", "upper", "lower"]
AI_KEYS = ["pile", "discard", "last_turn", "keep", "hand_health", "upper", "lower"]


def test_the_interfaces_example_gives_exactly_the_documented_output():
    out = cli_json("siege", str(EXAMPLE), "--json")
    assert list(out) == ["winner", "A", "B", "events"]
    events = out.pop("events")
    assert out == EXPECTED
    assert isinstance(events, list) and all(isinstance(e, dict) and "kind" in e for e in events)
    attacks = [e for e in events if e["kind"] == "attack"]
    assert [(e["card"], e["target_card"], e["amount"]) for e in attacks] == [("SPLASHER", "OGRE", 3)]


def test_json_is_exactly_one_object_on_stdout():
    done = cli("siege", str(EXAMPLE), "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("\n") == 1 and done.stdout.endswith("}\n")
    json.loads(done.stdout)


def test_duel_json_keys_and_words():
    out = cli_json("siege", str(scenario_path("r4_9_fort_falls_game_ends_mid_siege")), "--json")
    assert out["winner"] == "A"
    for player in ("A", "B"):
        assert list(out[player]) == PLAYER_KEYS
        assert out[player]["keep"] in ("bastion", "fort")
        assert [c for c in out[player]["hand"] if c in ("BASTION", "FORT")] == [out[player]["keep"].upper()]
        for lane in ("upper", "lower"):
            assert all(list(entry) == ["card", "damage"] for entry in out[player][lane])
    assert out["B"]["hand"] == ["P", "P", "FORT"] and out["B"]["hand_health"] == 0


def test_solo_json_has_the_ai_pile_discard_and_last_turn():
    out = cli_json("siege", str(scenario_path("r8_7_fort_alone_last_turn_pending")), "--json")
    assert list(out["A"]) == PLAYER_KEYS
    assert list(out["B"]) == AI_KEYS
    assert {k: out["B"][k] for k in AI_KEYS} == {
        "pile": ["FORT"],
        "discard": ["D1", "C1"],
        "last_turn": "pending",
        "keep": "fort",
        "hand_health": 0,
        "upper": [],
        "lower": [{"card": "AI", "damage": 0}],
    }
    milled = cli_json("siege", str(scenario_path("r8_6_mill_from_the_top")), "--json")
    assert (milled["B"]["pile"], milled["B"]["discard"], milled["B"]["last_turn"]) == (
        ["C3", "BASTION"],
        ["D1", "C1", "C2"],
        "none",
    )
    assert milled["winner"] is None


def test_damage_is_visible_at_the_end_of_the_siege():
    out = cli_json("siege", str(scenario_path("r6_6_bloodlust_chains_until_a_survivor")), "--json")
    assert out["B"]["upper"] == [{"card": "WALL", "damage": 2}]


def test_winner_b_in_solo():
    out = cli_json("siege", str(scenario_path("r8_8_player_fort_falls")), "--json")
    assert out["winner"] == "B" and out["A"]["hand"] == ["X", "X", "X", "FORT"]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_scenario_gives_the_same_json_through_the_command(path):
    result = CliRunner().invoke(main, ["siege", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == siege(path.stem)


def test_the_readable_account():
    done = cli("siege", str(EXAMPLE))
    assert done.returncode == 0 and done.stderr == ""
    text = done.stdout
    assert text.startswith("start:\n")
    assert "A's SPLASHER at upper.0 attacks B's OGRE for 3" in text
    assert "A's GUARD at lower.0 cannot attack (it entered play this turn, R3.10)" in text
    assert "end of the siege:" in text and "B hand: RAT FORT BAT OGRE WISP" in text


# --- Errors: one line on stderr, status 2, nothing on stdout ---------------------------------------


def error_line(*args: str) -> str:
    done = cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")
    return done.stderr.rstrip("\n")


def test_error_malformed_toml(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[A]\nhand = ["BASTION"\n')
    assert error_line("siege", str(path), "--json").startswith(f"clashkit: error: {path}: not valid TOML (")


def test_error_unknown_card(tmp_path):
    path = tmp_path / "unknown.toml"
    path.write_text('[A]\nhand = ["BASTION", "DRAGON"]\n[B]\nhand = ["BASTION", "GNOME"]\n')
    assert error_line("siege", str(path), "--json") == (
        f"clashkit: error: {path}: [A] hand[1]: unknown card 'DRAGON' (define it in a [[card]] table)"
    )


def test_error_illegal_action_names_the_rule(tmp_path):
    path = tmp_path / "last.toml"
    path.write_text(
        'card = [{ name = "P", kind = "creature", cost = 1, attack = 1, health = 1 }]\n'
        '[game]\nmana = 1\nactions = [{ play = "P", lane = "upper" }]\n'
        '[A]\nhand = ["BASTION", "P"]\n[B]\nhand = ["BASTION", "P"]\n'
    )
    assert error_line("siege", str(path)) == (
        f"clashkit: error: {path}: [game] actions[0] (play P upper): R3.4: cannot play the last card besides the keep"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[rules]\nprotection = "never"\n', "[rules]: protection = 'never' is not allowed (R10.3"),
        (
            '[game]\nmana = 1\nactions = [{ play = "P", lane = "upper", siege = 0 }]\n',
            "R3.5: creatures can be played only in the summon phase",
        ),
        (
            '[game]\nmana = 0\nactions = [{ play = "ZAP", target = "B.upper.0" }]\n',
            "R3.3: ZAP costs 1 mana, only 0 left",
        ),
        (
            '[game]\nmana = 1\nactions = [{ play = "ZAP", target = "B.lower.3" }]\n',
            "R5.1: there is no creature at B.lower.3",
        ),
        (
            '[game]\nmana = 1\nactions = [{ play = "ZAP", target = "B.lower.0", siege = 0 }]\n[rules]\nincantations_in_siege = false\n',
            "R3.11: incantations_in_siege is false",
        ),
        (
            '[game]\nmana = 3\nactions = [{ play = "P", lane = "upper" }, { play = "ZAP", target = "B.upper.0", siege = 1 }, { play = "ZAP", target = "B.upper.0", siege = 0 }]\n',
            "[game] actions[2]: siege actions come after the summon actions, by increasing siege",
        ),
    ],
    ids=["R10.3", "R3.5", "R3.3", "R5.1", "R3.11", "actions-order"],
)
def test_error_messages_through_the_command(tmp_path, body, message):
    path = tmp_path / "case.toml"
    path.write_text(
        'card = [\n  { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },\n'
        '  { name = "ZAP", kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },\n]\n'
        + body
        + '[A]\nhand = ["BASTION", "P", "ZAP", "P"]\n[B]\nhand = ["BASTION", "P"]\nupper = ["P"]\n'
    )
    line = error_line("siege", str(path), "--json")
    assert line.startswith(f"clashkit: error: {path}: ") and message in line


def test_error_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes('[A]\nhand = ["BASTION", "CAFÉ"]\n'.encode("latin-1"))
    assert error_line("siege", str(path), "--json") == f"clashkit: error: {path}: not UTF-8 text"


def test_error_missing_file(tmp_path):
    line = error_line("siege", str(tmp_path / "none.toml"), "--json")
    assert line.startswith("clashkit: error: ") and "none.toml" in line


def test_the_account_names_splash_pierce_and_bloodlust_on_their_lines_as_the_labs_table_does():
    """R6.1, R6.2, R6.6: a class in a terminal reads the ability on the line it acts on, with the
    rule the siege lab's events table gives that line (one function names them for both)."""
    from clashkit.engine.scenario import load_scenario, run_siege
    from clashkit.viz.labs.lab_common import events_table

    expected = {
        "r6_2_pierce_with_splash_only_behind_primary": [
            (
                "  3  B's S at lower.0 takes 2 damage (from MUTANT; Splash: the creature at the same place in the "
                "other lane, R6.1)",
                "R6.1",
            ),
            (
                "  4  B's TB at upper.1 takes 2 damage (from MUTANT; Pierce: the creature behind the target, R6.2)",
                "R6.2",
            ),
        ],
        "r6_6_bloodlust_chains_until_a_survivor": [
            ("  5  A's BERSERKER at upper.0 attacks B's P2 for 2 (it attacks again: Bloodlust, R6.6)", "R6.6"),
            ("  9  A's BERSERKER at upper.0 attacks B's WALL for 2 (it attacks again: Bloodlust, R6.6)", "R6.6"),
        ],
    }
    for name, lines in expected.items():
        out = CliRunner().invoke(main, ["siege", str(scenario_path(name))])
        assert out.exit_code == 0, out.output
        named = [
            line for line in out.output.splitlines() if "Splash" in line or "Pierce" in line or "Bloodlust" in line
        ]
        assert named == [line for line, _ in lines]
        table = events_table(run_siege(load_scenario(scenario_path(name))))
        rules = dict(zip(table["step"], table["rule"], strict=True))
        assert [rules[int(line[:3])] for line, _ in lines] == [rule for _, rule in lines]
