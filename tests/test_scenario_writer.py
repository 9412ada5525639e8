"""``dump_scenario``: a position written back as scenario TOML (interfaces §2) reads back to
the same position and runs the same siege."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from clashkit.base.errors import ClashkitError
from clashkit.engine.scenario import dump_scenario, load_scenario, parse_scenario, run_siege
from clashkit.show.render import state_dict

SCENARIOS = sorted((Path(__file__).resolve().parent / "scenarios").glob("*.toml"))


def _loadable(path: Path):
    try:
        return load_scenario(path)
    except ClashkitError:
        return None  # the files that show a refusal


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_written_back_runs_the_same_siege(path):
    scenario = _loadable(path)
    if scenario is None:
        pytest.skip("a scenario the loader refuses")
    seed = tomllib.loads(path.read_text()).get("game", {}).get("seed", 0)
    text = dump_scenario(scenario.initial, scenario.actions, seed=seed)
    again = parse_scenario(text, source="written")
    assert dump_scenario(again.initial, again.actions, seed=seed) == text  # a fixed point
    try:
        expected = state_dict(run_siege(scenario))
    except ClashkitError as e:
        with pytest.raises(type(e)):
            run_siege(again)
        return
    assert state_dict(run_siege(again)) == expected


def test_written_scenario_reads_like_the_format():
    scenario = load_scenario(Path(__file__).resolve().parent / "scenarios" / "interfaces_example.toml")
    text = dump_scenario(scenario.initial, scenario.actions, seed=1)
    data = tomllib.loads(text)
    assert data["game"] == {
        "mode": "duel",
        "active": "A",
        "mana": 3,
        "seed": 1,
        "actions": [{"play": "GUARD", "lane": "lower"}, {"play": "ZAP", "target": "B.upper.0"}],
    }
    assert data["A"] == {"hand": ["GUARD", "BASTION", "ZAP", "IMP"], "upper": ["SPLASHER"], "lower": []}
    assert data["B"]["upper"] == ["OGRE"] and data["B"]["hand"] == ["RAT", "FORT", "BAT"]
    splasher = next(c for c in data["card"] if c["name"] == "SPLASHER")
    assert splasher == {
        "name": "SPLASHER",
        "kind": "creature",
        "cost": 2,
        "attack": 3,
        "health": 2,
        "abilities": ["splash"],
        "aura": {"ability": "protection", "directions": ["front"]},
    }
    assert "rules" not in data  # every option at the rulebook's default (R10.3)


def test_marks_options_and_solo_piles_are_written():
    text = """
[game]
mode = "solo"
mana = 2

[rules]
bloodlust_trigger = "any"

[solo]
ai_pile_damage = "one"

[A]
hand = ["OGRE", "BASTION", "GNOME"]
upper = [{ card = "TROLL", damage = 2, new = true, protection_used = true }]

[B]
pile = ["BRUTE", "FORT"]
discard = ["GNOME"]
"""
    scenario = parse_scenario(text)
    data = tomllib.loads(dump_scenario(scenario.initial))
    assert data["rules"] == {"bloodlust_trigger": "any"} and data["solo"] == {"ai_pile_damage": "one"}
    assert data["A"]["upper"] == [{"card": "TROLL", "damage": 2, "new": True, "protection_used": True}]
    assert data["B"] == {"pile": ["BRUTE", "FORT"], "discard": ["GNOME"], "last_turn": "none", "upper": [], "lower": []}
