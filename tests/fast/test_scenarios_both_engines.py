"""Every scenario file of ``tests/scenarios`` played in both engines, step for step.

The reference engine plays the scenario's turn as ``clashkit siege`` does
(:func:`clashkit.engine.scenario.run_siege`: the summon-phase actions, the siege
with its actions in their windows); the fast engine plays the same steps from
the same position (:func:`clashkit.fast.from_state`).  After every step the
two tables must be the same, every creature must have the same abilities
(R6.8 Auras and their losses, R10.4, included), and the two engines must have
recorded the same events, row for row (``clashkit.engine.events.FIELDS``);
the fast position read back as a reference state (:func:`clashkit.runs.compare.to_state`)
must give the same ``siege --json`` object.  The fast side is ``helpers.FastPlay``, the
one the rules tests' ``[fast]`` runs play with.  R4.6: both engines return creatures
destroyed together in greedy's order.
"""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, FastPlay

from clashkit.base.layout import MARKS
from clashkit.engine import apply
from clashkit.engine.abilities import abilities
from clashkit.engine.actions import ATTACK, BEGIN_SIEGE
from clashkit.engine.loop import returns_asker
from clashkit.engine.scenario import load_scenario
from clashkit.engine.siege import next_in_order, take_turn
from clashkit.engine.state import SUMMON
from clashkit.fast.abilities import abilities as fast_abilities
from clashkit.fast.state import COLUMN, G_FORT_A, G_FORT_B, G_MANA, G_WINNER
from clashkit.policies import GreedyPolicy
from clashkit.runs.compare import describe
from clashkit.show.render import state_dict

GREEDY_RETURNS = returns_asker((GreedyPolicy(), GreedyPolicy()))


#: The marks both engines must agree on (a creature's uid is each engine's own numbering).
COMPARED = [mark for mark in MARKS if mark.name != "uid"]


def reference_marks(creature) -> tuple[int, ...]:
    return tuple(
        len(getattr(creature, m.name)) if m.kind == "list" else int(getattr(creature, m.name)) for m in COMPARED
    )


def fast_marks(row) -> tuple[int, ...]:
    return tuple(int(row[COLUMN[m.name]]) for m in COMPARED)


def table(ref, fast, t, r) -> tuple[dict, dict]:
    """The two engines' tables as plain values: hands, lanes (every mark of ``clashkit.base.layout``
    but the creature's identity, the Aura grants lost counted, and its abilities), keeps, mana, winner."""
    out = []
    for engine in ("reference", "fast"):
        d: dict = {}
        for p in (0, 1):
            if engine == "reference":
                d[f"hand{p}"] = list(ref.hands[p])
                for lane in (0, 1):
                    d[f"lane{p}{lane}"] = [
                        (*reference_marks(c), abilities(ref, p, lane, pos)) for pos, c in enumerate(ref.lanes[p][lane])
                    ]
            else:
                d[f"hand{p}"] = fast.hands[p, : fast.hlen[p]].tolist()
                for lane in (0, 1):
                    d[f"lane{p}{lane}"] = [
                        (*fast_marks(fast.cr[p, lane, pos]), int(fast_abilities(fast, t, r, p, lane, pos)))
                        for pos in range(fast.ln[p, lane])
                    ]
        if engine == "reference":
            d["keeps"] = list(map(int, ref.forts))
            d["mana"] = ref.mana
            d["winner"] = -1 if ref.winner is None else ref.winner
        else:
            d["keeps"] = [int(fast.g[G_FORT_A]), int(fast.g[G_FORT_B])]
            d["mana"] = int(fast.g[G_MANA])
            d["winner"] = int(fast.g[G_WINNER])
        out.append(d)
    return out[0], out[1]


def new_events(ref, fast: FastPlay, start: int) -> tuple[list[tuple], list[tuple]]:
    """The events both engines recorded since the scenario's position, as row tuples."""
    return ref.log.rows(start), fast.events()


def events_message(path, steps: int, what: str, ref_rows, fast_rows, names) -> str:
    """The first event that differs, in both engines, with its rule."""
    at = next(
        (i for i, (a, b) in enumerate(zip(ref_rows, fast_rows, strict=False)) if a != b),
        min(len(ref_rows), len(fast_rows)),
    )
    shown = [describe(r, names) for r in ref_rows[at : at + 2]] or ["no event"]
    fast = [describe(r, names) for r in fast_rows[at : at + 2]] or ["no event"]
    return (
        f"{path.name}: after step {steps} ({what}), event {at} differs: reference "
        f"{' then '.join(shown)}; fast: {' then '.join(fast)}"
    )


def play_both(path) -> tuple[int, int]:
    """Play scenario ``path`` in both engines step for step; returns the steps and events compared."""
    scenario = load_scenario(path)
    ref = scenario.state
    start = len(ref.log)
    fast = FastPlay(ref.clone())
    steps = 0

    def step(action, what: str) -> None:
        nonlocal steps
        if action is ATTACK and ref.solo and ref.active == 1:  # the AI's siege plays itself (R8.3a)
            take_turn(ref, order_returns=GREEDY_RETURNS)
        else:
            apply(ref, action, GREEDY_RETURNS)
        fast.apply(action)
        steps += 1
        left, right = table(ref, fast.s, fast.t, fast.r)
        assert left == right, f"{path.name}: after step {steps} ({what}) the engines differ"
        read_back = state_dict(fast.state())  # the fast position as a reference state (runs.compare.to_state)
        assert read_back == state_dict(ref), f"{path.name}: after step {steps} ({what}) the read-back differs"
        ref_rows, fast_rows = new_events(ref, fast, start)
        assert ref_rows == fast_rows, events_message(path, steps, what, ref_rows, fast_rows, ref.cards.names)

    summon = [a for a in scenario.actions if a.siege is None]
    siege = [a for a in scenario.actions if a.siege is not None]
    for action in summon:
        step(action.resolve(ref), action.text())
        if ref.over:
            return steps, len(new_events(ref, fast, start)[0])
    if ref.phase == SUMMON:
        step(BEGIN_SIEGE, "the siege begins")
    turn = 0
    while not ref.over:
        while siege and siege[0].siege <= turn and not ref.over:
            action = siege.pop(0)
            step(action.resolve(ref), action.text())
        if ref.over or next_in_order(ref) is None:
            break
        step(ATTACK, f"turn {turn} of the siege")
        turn += 1
    while siege and not ref.over:
        action = siege.pop(0)
        step(action.resolve(ref), action.text())
    return steps, len(new_events(ref, fast, start)[0])


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_scenario_plays_the_same_in_both_engines(path):
    steps, events = play_both(path)
    assert steps >= 1
    assert events >= 1
