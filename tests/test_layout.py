"""One declaration of a creature's marks (``clashkit/base/layout.py``) and everything made from it.

Each place that reads the marks is checked against the declaration, not against a second list: the
fast engine's columns, ``Creature``'s slots, copy and repr, the end-of-turn reset in both engines
(R3.12), a new creature's row (R3.5), the converter, a scenario's lane entry (read and written), and
the interop observations.  The last test adds a mark in a fresh process and finds it in every place.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from helpers import ROOT, parse

from clashkit.base import layout
from clashkit.base.cards import starter_set
from clashkit.base.errors import ScenarioError
from clashkit.engine.scenario import dump_scenario, parse_scenario
from clashkit.engine.state import Creature
from clashkit.engine.turn import regenerate
from clashkit.fast import from_state
from clashkit.fast import state as fast_state
from clashkit.fast.tables import WEIGHTS, card_tables
from clashkit.interop.encoding import Table, observation_vector
from clashkit.policies.greedy import GreedyPolicy

POSITION = """
card = [
  { name = "G", kind = "creature", cost = 1, attack = 1, health = 4, abilities = ["protection"] },
  { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
]
[game]
active = "A"
mana = 3
[A]
hand = ["BASTION", "P"]
upper = [{ card = "G", damage = 1, new = true, protection_used = true }, "G"]
[B]
hand = ["BASTION", "P"]
lower = ["G"]
"""


def marked():
    """A position whose first creature carries a value other than its reset in every mark."""
    state = parse(POSITION).state
    creature = state.lanes[0][0][0]
    others = [c for lanes in state.lanes for side in lanes for c in side if c is not creature]
    for mark in layout.MARKS:
        if mark.name in ("card", "uid"):
            continue
        if mark.kind == "list":
            creature.aura_lost = (others[0].uid,)
        elif mark.kind == "flag":
            setattr(creature, mark.name, True)
        else:
            setattr(creature, mark.name, 2)
    return state, creature


def test_the_fast_engine_s_columns_are_the_declaration_s():
    column = layout.columns()
    for mark in layout.MARKS:
        name = "C_LOST_COUNT" if mark.name == "aura_lost" else f"C_{mark.name.upper()}"
        assert getattr(fast_state, name) == column[mark.name], name
    assert fast_state.C_WIDTH == layout.WIDTH == len(layout.MARKS) + layout.MAX_LOST  # one a mark, plus the ids
    assert fast_state.new_state(8, 60).cr.shape[-1] == layout.WIDTH


def test_a_creature_s_slots_copy_and_repr_are_the_declaration_s():
    state, creature = marked()
    assert {m.name for m in layout.MARKS} <= set(Creature.__slots__)
    slots = [name for name in Creature.__annotations__ if name in Creature.__slots__]
    assert slots == list(Creature.__slots__)  # the type checker's view of every slot
    kinds = {"number": "int", "bits": "int", "flag": "bool", "list": "tuple[int, ...]"}
    assert {m.name: Creature.__annotations__[m.name] for m in layout.MARKS} == {
        m.name: kinds[m.kind] for m in layout.MARKS
    }
    copy = creature.copy()
    assert [getattr(copy, name) for name in Creature.__slots__] == [
        getattr(creature, name) for name in Creature.__slots__
    ]
    assert repr(creature) == f"Creature({creature.card}, damage=2, new, protection_used, took_turn)"
    fresh = Creature(state.cards, creature.card)  # R3.5: as it enters play
    assert {m.name: getattr(fresh, m.name) for m in layout.MARKS if m.name not in ("card", "uid")} == {
        "damage": 0,
        "new": True,
        "protection_used": False,
        "took_turn": False,
        "attack_mod": 0,
        "granted": 0,
        "sprint_bonus": 0,
        "slot": -1,
        "aura_lost": (),
    }


def test_r3_12_both_engines_reset_exactly_the_declared_marks():
    from clashkit.fast.turn import regenerate as fast_regenerate

    state, creature = marked()
    s = from_state(state)
    column = layout.columns()
    row = s.cr[0, 0, 0]
    assert row[column["damage"]] == 2 and row[column["new"]] == 1 and row[column["aura_lost"]] == 1
    regenerate(state)
    fast_regenerate(s)
    wanted = {"damage": 0, "new": 0, "protection_used": 0, "took_turn": 0, "attack_mod": 0, "granted": 0}
    wanted |= {"sprint_bonus": 0, "slot": -1, "aura_lost": 0}
    assert {m.name: m.reset for m in layout.RESET} == wanted
    for mark in layout.MARKS:
        value = getattr(creature, mark.name)
        fast = row[column[mark.name]]
        if mark.reset is None:
            assert fast == (row[column["card"]] if mark.name == "card" else 0)  # this game's uid 0
            continue
        assert fast == mark.reset, mark.name
        assert (len(value) if mark.kind == "list" else int(value)) == mark.reset, mark.name


def test_a_new_creature_s_row_is_the_declared_start():
    assert [int(fast_state.START_ROW[layout.columns()[m.name]]) for m in layout.MARKS] == [
        m.start for m in layout.MARKS
    ]
    assert fast_state.START_ROW[fast_state.C_NEW] == 1 and fast_state.START_ROW[fast_state.C_SLOT] == -1


def test_a_scenario_s_lane_entry_takes_the_declared_marks_and_writes_them_back():
    assert layout.SCENARIO_KEYS == {"card", "damage", "new", "protection_used"}
    state = parse(POSITION).state
    first, second = state.lanes[0][0]
    assert (first.damage, first.new, first.protection_used) == (1, True, True)
    assert (second.damage, second.new, second.protection_used) == (0, False, False)
    text = dump_scenario(state)
    assert '{ card = "G", damage = 1, new = true, protection_used = true }' in text
    again = parse_scenario(text).state.lanes[0][0][0]
    assert (again.damage, again.new, again.protection_used) == (1, True, True)
    with pytest.raises(ScenarioError, match="took_turn"):
        parse(POSITION.replace("protection_used = true", "took_turn = true"))


def test_the_observations_hold_the_declared_marks():
    state, creature = marked()
    table = Table(state.cards, False, 4, 9, 60)
    assert dict(table.pieces)["marks"] == (4, 4, len(layout.OBSERVED))
    vector = observation_vector(table, state, 0, set())
    at = 0
    for name, shape in table.pieces:
        if name == "marks":
            break
        at += int(np.prod(shape))
    marks = vector[at : at + 4 * 4 * len(layout.OBSERVED)].reshape(4, 4, len(layout.OBSERVED))
    assert marks[0, 0].tolist() == [1.0] * len(layout.OBSERVED)  # own upper lane, bridge first
    assert marks[0, 1].tolist() == [0.0] * len(layout.OBSERVED)


def test_greedy_s_weights_table_is_its_attributes_in_the_declared_order():
    class Bolder(GreedyPolicy):
        kill = 5.0
        shift_opens = 0.5

    weights = card_tables(starter_set(), Bolder()).weights
    assert len(weights) == len(WEIGHTS) == 29
    assert weights.tolist() == [float(getattr(Bolder, name)) for name in WEIGHTS]
    assert weights[WEIGHTS.index("kill")] == 5.0 and weights[WEIGHTS.index("shift_opens")] == 0.5


# A mark added in the declaration only: one line in a copy of the package (a fresh process, its own
# numba cache), then looked for in every place made from it.
NEW_MARK = """    Mark("warded", "flag", "R6.4", reset=0, scenario=True, observed=True),\n"""
LOOK = """
from helpers import parse
from clashkit.engine.scenario import dump_scenario
from clashkit.engine.turn import regenerate
from clashkit.fast import from_state, state as fast_state
from clashkit.fast.turn import regenerate as fast_regenerate
from clashkit.interop.encoding import Table

state = parse(POSITION.replace("new = true,", "new = true, warded = true,")).state
creature = state.lanes[0][0][0]
assert creature.warded is True and state.lanes[0][0][1].warded is False
assert "warded = true" in dump_scenario(state)
assert "warded" in repr(creature) and creature.copy().warded is True
s = from_state(state)
column = fast_state.COLUMN["warded"]
assert fast_state.C_WIDTH == s.cr.shape[-1] and s.cr[0, 0, 0, column] == 1
assert s.cr[0, 0, 0, fast_state.C_SPRINT_BONUS] == 0 and fast_state.C_SPRINT_BONUS == column + 3
fast_regenerate(s)
regenerate(state)
assert s.cr[0, 0, 0, column] == 0 and creature.warded is False
assert dict(Table(state.cards, False, 4, 9, 60).pieces)["marks"] == (4, 4, 4)
print("found in every place")
"""


def test_a_new_mark_is_one_line_of_the_declaration(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "clashkit", repo / "clashkit", ignore=shutil.ignore_patterns("__pycache__"))
    for shipped in ("data", "docs"):
        (repo / shipped).symlink_to(ROOT / shipped)
    declaration = repo / "clashkit" / "base" / "layout.py"
    text = declaration.read_text()
    at = text.index('    Mark("attack_mod"')
    declaration.write_text(text[:at] + NEW_MARK + text[at:])
    script = tmp_path / "look.py"
    script.write_text(f"POSITION = {POSITION!r}\n" + LOOK)
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONPATH": f"{repo}:{ROOT / 'tests'}"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "found in every place"


def test_the_converter_carries_every_mark_both_ways():
    from clashkit.fast.convert import creature_from_row

    state, creature = marked()
    s = from_state(state)
    order = [c.uid for lanes in state.lanes for side in lanes for c in side]  # this game's small numbers
    back = creature_from_row(state.cards, s.cr[0, 0, 0], lambda small: order[small])
    assert {m.name: getattr(back, m.name) for m in layout.MARKS} == {
        m.name: getattr(creature, m.name) for m in layout.MARKS
    }
