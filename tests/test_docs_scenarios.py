"""docs/scenarios.md: every TOML example in it loads and runs with ``clashkit siege`` as the text says."""

from __future__ import annotations

import re

from helpers import ROOT, cli, cli_json

from clashkit.engine.scenario import parse_scenario, run_siege
from clashkit.show.render import event_dicts, player_dict

DOC = ROOT / "docs" / "scenarios.md"


def examples() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_doc_has_its_two_complete_examples_and_each_parses():
    found = examples()
    assert len(found) == 2
    for text in found:
        parse_scenario(text, source="docs/scenarios.md")


def test_the_duel_example_runs_as_described(tmp_path):
    path = tmp_path / "example.toml"
    path.write_text(examples()[0], encoding="utf-8")
    out = cli_json("siege", str(path), "--json")
    events = out.pop("events")
    assert out == {
        "winner": None,
        "A": {
            "hand": ["BASTION", "PAWN", "SPARK"],
            "keep": "bastion",
            "hand_health": 2,
            "upper": [{"card": "RUNNER", "damage": 0}, {"card": "WALL", "damage": 0}],
            "lower": [{"card": "PAWN", "damage": 0}],
        },
        "B": {
            "hand": ["PAWN", "BASTION", "BRUTE", "PAWN"],
            "keep": "bastion",
            "hand_health": 2,
            "upper": [{"card": "PAWN", "damage": 2}],
            "lower": [],
        },
    }
    attacks = [(e["card"], e["target_card"], e["amount"]) for e in events if e["kind"] == "attack"]
    assert attacks == [("RUNNER", "PAWN", 3), ("WALL", "PAWN", 0)]
    assert [e["card"] for e in events if e["kind"] == "attack_skipped"] == ["PAWN"]
    account = cli("siege", str(path))
    assert account.returncode == 0 and account.stderr == ""
    assert "attacks B's PAWN for 3" in account.stdout


def test_the_solo_example_runs_as_described():
    state = run_siege(parse_scenario(examples()[1], source="docs/scenarios.md"))
    ai = player_dict(state, 1)
    # R8.7: the discard reshuffled (the scenario's seed 0) on top of the Fort
    assert ai["pile"] == ["MARTYR", "ZOMBIE", "GNOME", "FORT"] and ai["discard"] == [] and ai["keep"] == "fort"
    events = event_dicts(state)
    assert [(e["card"], e["amount"]) for e in events if e["kind"] == "attack"] == [("OGRE", 4)]
    assert [e["target_card"] for e in events if e["kind"] == "ai_mill"] == ["GNOME", "MARTYR"]
