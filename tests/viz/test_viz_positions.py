"""Positions saved and loaded: the siege lab as a scenario file (interfaces §2), read back by a
new lab, run by ``clashkit siege`` and opened by the rules stepper."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import buttons
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit.base.cards import starter_set
from clashkit.base.errors import ScenarioError
from clashkit.show.render import state_dict
from clashkit.viz import widgets as views
from clashkit.viz.controllers import RulesStepper, SiegeLab

CARDS = starter_set()
CREATURES = sorted(c.name for c in CARDS if c.is_creature)


def board(lab: SiegeLab) -> dict:
    return {k: v for k, v in state_dict(lab.state).items() if k != "events"}


def test_saved_position_comes_back_in_a_new_lab(tmp_path):
    lab = SiegeLab.example()
    lab.add("B", "lower", "TROLL", damage=3, protection_used=True)
    lab.rules = lab.rules.replace(bloodlust_trigger="any")
    path = lab.save(tmp_path / "position.toml")
    again = SiegeLab.from_scenario(path)
    assert again.scenario_text() == lab.scenario_text()
    assert again.sides == lab.sides and (again.active, again.mana) == ("A", 2)
    assert again.rules.bloodlust_trigger == "any"
    assert state_dict(again.start()) == state_dict(lab.start())


def test_saved_position_runs_the_same_siege_in_the_command_line(tmp_path):
    """The lab casts METEORITE before the first attack and after the second: the file keeps
    both casts in their windows (R3.11), and ``clashkit siege`` ends where the lab ends."""
    lab = SiegeLab.example()
    lab.add("B", "lower", "BRUTE")
    lab.set_hand("A", ["PARTISAN", "BASTION", "METEORITE", "BRIGAND", "METEORITE"])
    lab.mana = 6
    lab.cast("play METEORITE@2 B.upper.1")
    lab.next()
    lab.next()
    lab.cast(lab.incantations()[0])
    assert [(a.card, a.siege) for a in lab.plan] == [("METEORITE", 0), ("METEORITE", 2)]
    path = lab.save(tmp_path / "cast.toml")
    lab.run()
    out = subprocess.run(
        [sys.executable, "-m", "clashkit", "siege", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(out.stdout)
    mine = state_dict(lab.state)
    assert {k: v for k, v in cli.items() if k != "events"} == board(lab)
    assert [e["kind"] for e in cli["events"]] == [e["kind"] for e in mine["events"]]
    # A new lab from the file plays the casts in their windows by itself.
    again = SiegeLab.from_scenario(path)
    again.run()
    assert board(again) == board(lab)


def test_back_forgets_a_cast_and_reset_undoes_every_step():
    lab = SiegeLab.example()
    start = state_dict(lab.start())
    lab.cast("play METEORITE@2 B.upper.0")
    lab.next()
    assert len(lab.plan) == 1
    lab.back()
    lab.back()
    assert lab.plan == [] and state_dict(lab.state) == start
    lab.cast("play METEORITE@2 B.upper.0")
    lab.run()
    lab.reset()
    assert lab.plan == [] and state_dict(lab.state) == start


def test_a_changed_position_drops_the_casts_of_the_old_one():
    lab = SiegeLab.example()
    lab.cast("play METEORITE@2 B.upper.0")
    lab.add("B", "lower", "OGRE")
    assert lab.plan == [] and "actions" not in lab.scenario_text()


def test_the_lab_refuses_a_solo_scenario(tmp_path):
    path = tmp_path / "solo.toml"
    path.write_text('[game]\nmode = "solo"\n[A]\nhand = ["BASTION", "OGRE"]\n[B]\npile = ["BRUTE", "FORT"]\n')
    with pytest.raises(ScenarioError, match="solo.toml: \\[game\\] mode: the siege lab sets up duels"):
        SiegeLab.from_scenario(path)
    with pytest.raises(ScenarioError, match="cannot read"):
        SiegeLab.from_scenario(tmp_path / "missing.toml")


def test_the_rules_stepper_opens_the_labs_position():
    lab = SiegeLab.example()
    lab.cast("play METEORITE@2 B.upper.1")
    stepper = RulesStepper(lab)
    assert stepper.upcoming == "the summon phase ends and the siege begins (R1.6, R3.9)"
    stepper.next()
    assert stepper.upcoming == "A plays METEORITE@2 B.upper.1"
    stepper.run()
    lab.run()
    assert state_dict(stepper.state)["A"]["hand"] == board(lab)["A"]["hand"]
    assert state_dict(stepper.state)["B"]["hand"] == board(lab)["B"]["hand"]
    view = views.rules_stepper(views.siege_lab(lab, chart=False))
    assert 'data-place="A.upper.1"' in view.board.value


def test_save_and_load_buttons(tmp_path):
    view = views.siege_lab(chart=False)
    b = buttons(view.widget)
    view.player.value, view.lane.value, view.card.value = "B", "lower", "TROLL"
    b["ck-add"].click()
    view.path.value = str(tmp_path / "clicked.toml")
    b["ck-save"].click()
    assert "saved to" in view.message.value and (tmp_path / "clicked.toml").exists()
    b["ck-example"].click()
    assert 'data-place="B.lower.1"' not in view.board.value
    b["ck-load"].click()
    assert "loaded" in view.message.value and 'data-place="B.lower.1"' in view.board.value
    view.path.value = str(tmp_path / "nowhere.toml")
    b["ck-load"].click()
    assert "cannot read" in view.message.value
    b["ck-explain"].click()
    assert view.stepper_view is not None and "TROLL" in view.stepper_view.board.value


slots = st.builds(
    lambda card, damage, new, used: (card, damage, new, used),
    st.sampled_from(CREATURES),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(
    lanes=st.lists(st.lists(slots, max_size=3), min_size=4, max_size=4),
    hand=st.lists(st.sampled_from(CREATURES), min_size=1, max_size=6, unique=True),
    keep_at=st.integers(0, 5),
    fort=st.booleans(),
    active=st.sampled_from(["A", "B"]),
    mana=st.integers(0, 12),
)
def test_any_position_survives_save_and_load(tmp_path_factory, lanes, hand, keep_at, fort, active, mana):
    """A position built by clicking (any creatures, damage, marks, hands) is the same after a
    save and a load in a new lab, or is refused the same way (e.g. damage ≥ health, R4.3)."""
    lab = SiegeLab(active=active, mana=mana)
    keep = min(keep_at, len(hand) - 1)
    for player in ("A", "B"):
        lab.set_hand(player, [*hand[:keep], "FORT" if fort else "BASTION", *hand[keep:]])
    places = [("A", "upper"), ("A", "lower"), ("B", "upper"), ("B", "lower")]
    for (player, lane), entries in zip(places, lanes, strict=True):
        for card, damage, new, used in entries:
            lab.add(player, lane, card, damage=damage, new=new, protection_used=used)
    path = tmp_path_factory.mktemp("positions") / "p.toml"
    lab.save(path)
    try:
        expected = state_dict(lab.start())
    except ScenarioError as e:
        with pytest.raises(ScenarioError) as loading:
            SiegeLab.from_scenario(path)
        assert str(loading.value).split(": ", 1)[1] == str(e).split(": ", 1)[1]
        return
    again = SiegeLab.from_scenario(path)
    assert again.sides == lab.sides
    assert state_dict(again.start()) == expected
    assert Path(path).read_text() == again.scenario_text()
