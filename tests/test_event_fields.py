"""The event field table (``clashkit.engine.events.EVENT_FIELDS``) says exactly which fields each kind sets."""

from __future__ import annotations

from helpers import varied_game

from clashkit.engine.events import COMMON_FIELDS, EVENT_FIELDS, EVENT_KINDS, FIELDS, EventKind, decode
from clashkit.runs.game import play
from clashkit.show.render import event_dicts
from clashkit.viz.controllers import RULE_OF_EVENT


def test_every_kind_has_a_rule_and_sets_only_its_fields():
    assert set(EVENT_FIELDS) == set(EventKind)
    assert all(spec.rule.startswith("R") for spec in EVENT_FIELDS.values())
    assert RULE_OF_EVENT["attack"] == "R4.1" and RULE_OF_EVENT["game_unfinished"] == "R10.1"
    seen = set()
    for seed in range(40):
        state = play(varied_game(seed, "random", "greedy"), "random", "greedy")
        for row in state.log.rows():
            kind = EVENT_KINDS[row[0]]
            seen.add(kind)
            allowed = set(COMMON_FIELDS) | set(EVENT_FIELDS[kind].fields)
            for name, value in zip(FIELDS, row, strict=True):
                if name not in allowed:
                    assert value == (0 if name == "amount" else -1), (kind, name, value)
    assert len(seen) >= 20


def test_decode_names_the_keep_an_attack_hits():
    state = play(varied_game(5, "greedy", "greedy"), "greedy", "greedy")
    rows = state.log.rows()
    on_keep = [decode(r, state.cards.names) for r in rows if EVENT_KINDS[r[0]] == "attack" and r[8] < 0]
    assert on_keep and {e["target_card"] for e in on_keep} <= {"BASTION", "FORT"}
    assert [e["step"] for e in event_dicts(state)] == list(range(len(rows)))


def test_the_frames_page_says_both_engines_record_events():
    """``simulate --events`` records the same events on either engine; the page's heading says so."""
    from helpers import ROOT

    from clashkit.runs.simulate import simulate

    page = (ROOT / "docs" / "frames.md").read_text(encoding="utf-8")
    assert "## `events`: one row an event (either engine)\n" in page and "(reference engine)" not in page
    fast, reference = (
        simulate(2, "1", "2", "greedy", seed=3, engine=e, progress=False).events for e in ("fast", "reference")
    )
    assert fast.height > 0 and fast.equals(reference)
