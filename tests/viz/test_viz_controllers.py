"""The widget controllers, driven as plain objects: set values, press buttons, read state."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from clashkit.base.cards import load_cards
from clashkit.base.errors import IllegalActionError, ScenarioError
from clashkit.engine.scenario import load_scenario, run_siege
from clashkit.show.render import state_dict
from clashkit.viz.controllers import (
    CardDesigner,
    HandBuilder,
    RulesStepper,
    SiegeLab,
    events_table,
    example_scenario_path,
)

#: The values these tests were written against, frozen (the shipped ones are tuned for balance).
FROZEN = load_cards(Path(__file__).resolve().parent.parent / "golden" / "cards.csv")


def fingerprint(state) -> tuple:
    """Everything that makes a state: table, marks, mana, phase, log and generator."""
    marks = [
        (
            p,
            lane,
            pos,
            c.card,
            c.damage,
            c.new,
            c.protection_used,
            c.took_turn,
            c.attack_mod,
            c.granted,
            c.sprint_bonus,
        )
        for p, lane, pos, c in state.in_play()
    ]
    return (
        state_dict(state)["A"],
        state_dict(state)["B"],
        marks,
        state.mana,
        state.phase,
        state.siege_lane,
        state.turn,
        state.active,
        state.winner,
        bytes(state.log.buffer),
        state.rng.getstate(),
        repr(state.counters),
    )


# --- Hand builder -----------------------------------------------------------------------


def test_hand_builder_order_playable_and_problems():
    hb = HandBuilder()
    assert hb.hand[0] == "BASTION" and len(hb.hand) == 9
    assert hb.playable == hb.order[:4]
    hb.set_card(0, "ogre")
    assert hb.order[0] == "OGRE"
    hb.move(0, +1)
    assert hb.order[:2] == ["BARON", "OGRE"]
    hb.move(0, -1)  # nothing left of the first slot
    assert hb.order[0] == "BARON"
    hb.set_card(2, "OGRE")  # OGRE is in slot 1: the two slots swap (R7.1)
    assert hb.order[1:3] == ["BOOM!", "OGRE"] and hb.problems == []
    hb.set_order(["OGRE", "OGRE", *hb.order[2:]])
    assert any("OGRE twice" in p for p in hb.problems)
    with pytest.raises(ValueError, match="OGRE twice"):
        hb.start()
    with pytest.raises(ValueError, match="OGRE twice"):
        hb.plan()  # no plan played with two copies
    with pytest.raises(KeyError, match="NOBODY"):
        hb.set_card(0, "NOBODY")


def test_hand_builder_plan_follows_r3_1_and_r3_7():
    hb = HandBuilder(
        ["GNOME", "BRIGAND", "GRRR", "MARTYR", "DISCIPLE", "PARASITE", "METEORITE", "VORTEX"],
        cards=FROZEN,
    )
    plan = hb.plan(turns=3)
    first = plan.row(0, named=True)
    # R2.3: 6 mana on the game's first turn; the playable cards are the 4 leftmost.
    assert first["mana"] == 6
    assert first["playable"] == "GNOME, BRIGAND, GRRR, MARTYR"
    # 0 + 1 + 1 + 1, then DISCIPLE (1) and PARASITE (2) slide into the playable four (R3.2).
    assert first["played"] == "GNOME, BRIGAND, GRRR, MARTYR, DISCIPLE, PARASITE"
    # Each play says what was playable at that moment: DISCIPLE was not at the start.
    plays = first["plays"].split("; ")
    assert plays[0] == "1. GNOME (playable then: GNOME, BRIGAND, GRRR, MARTYR)"
    assert plays[4] == "5. DISCIPLE, slid into the first four (playable then: DISCIPLE, PARASITE, METEORITE, VORTEX)"
    assert plays[5].startswith("6. PARASITE, slid into the first four (playable then: PARASITE, METEORITE")
    assert first["mana_left"] == 0
    # R3.7: six cards played right of the keep cost six hand-health.
    assert first["hand_health"] == 2
    # R3.1: next turn's mana is the cards in hand with the keep.
    assert plan.row(1, named=True)["mana"] == 3
    assert HandBuilder(hb.order).plan(first=False).row(0, named=True)["mana"] == 9


def test_hand_builder_plays_the_first_turns_and_back_restores_exactly():
    hb = HandBuilder(opponent="deck 3", bot="random", seed=4, first="A")
    state = hb.start()
    assert [state.cards.names[c] for c in state.hands[0][1:]] == hb.order  # the chosen order, not shuffled
    assert state.active == 0 and state.mana == 6
    before = fingerprint(hb.state)
    legal = hb.legal()
    assert legal[-1] == "siege"
    said = hb.act(legal[0])
    assert any("plays" in line for line in said)
    after = fingerprint(hb.state)
    assert after != before
    assert hb.back()
    assert fingerprint(hb.state) == before
    hb.act(legal[0])
    assert fingerprint(hb.state) == after  # same seed, same game
    hb.finish_turn()
    # The bot has played B's whole turn: A decides again, on turn 3.
    assert hb.state.active == 0 and hb.state.turn == 3
    turns = hb.turns()
    assert turns["turn"].to_list() == [1, 2] and turns["player"].cast(pl.String).to_list() == [
        "A",
        "B",
    ]
    track = hb.hand_health_track()
    assert set(track["player"]) == {"A", "B"}
    with pytest.raises(IllegalActionError):
        hb.act("attack")  # R1.6: the summon phase comes first
    assert hb.state.turn == 3  # an illegal action changes nothing


def test_hand_builder_bot_first_plays_b_turn_at_start():
    hb = HandBuilder(opponent="deck 2", bot="random", first="B", seed=1)
    state = hb.start()
    assert state.turn == 2 and state.active == 0
    assert state.mana == 9  # R3.1: 9 cards with the keep
    logged = len(hb.state.log)
    hb.bot_move()  # the bot chooses A's move too
    assert len(hb.state.log) > logged and hb.can_back


# --- Siege lab ------------------------------------------------------------------------------


def test_siege_lab_setup_becomes_a_checked_scenario():
    lab = SiegeLab()
    lab.set_hand("A", ["BASTION", "GNOME"])
    lab.set_hand("B", ["BASTION", "MARTYR"])
    lab.add("A", "upper", "OGRE")
    lab.add("B", "upper", "TROLL", damage=2, new=True)
    text = lab.scenario_text()
    assert '{ card = "TROLL", damage = 2, new = true }' in text
    state = lab.start()
    assert state.lanes[1][0][0].damage == 2 and state.lanes[1][0][0].new
    lab.update("B", "upper", 0, damage=6)  # TROLL has health 6
    with pytest.raises(ScenarioError, match="would be destroyed"):
        lab.start()
    lab.remove("B", "upper", 0)
    lab.clear("A")
    assert lab.sides["A"].upper == [] and lab.sides["B"].upper == []


def test_siege_lab_next_back_run():
    lab = SiegeLab.example(FROZEN)
    state = lab.start()
    assert state.phase == 3  # SIEGE
    start = fingerprint(lab.state)
    said = lab.next()
    assert said[0].startswith("A's SCRIBE at upper.1 attacks")  # farthest first (R3.9)
    one = fingerprint(lab.state)
    lab.next()
    lab.next()
    assert lab.steps == 3
    assert lab.back() and lab.back()
    assert fingerprint(lab.state) == one
    assert lab.back()
    assert fingerprint(lab.state) == start and not lab.can_back
    assert not lab.back()
    lab.run()
    assert lab.done
    assert lab.next() == []
    events = lab.events()
    assert events["kind"].to_list()[0] == "siege_started"
    assert "keep_flipped" in events["kind"].to_list()
    # The siege stops before regeneration: damage stays visible (docs/scenarios.md).
    assert lab.state.lanes[1][0][0].damage == 4


def test_siege_lab_casts_between_attacks():
    lab = SiegeLab.example()
    lab.start()
    spells = lab.incantations()
    assert "play METEORITE@2 B.upper.1" in spells
    lab.cast("play METEORITE@2 B.upper.1")  # GNOME, 1 damage already, health 2
    assert [c.card for c in lab.state.lanes[1][0]] == [lab.cards.id("CARAPACE")]
    assert lab.state.mana == 0
    assert lab.incantations() == []
    lab.back()
    assert lab.state.mana == 2


def test_siege_lab_menu_marks_targets_an_incantation_changes_nothing_on():
    """R5.4: METEORITE on an Indestructible MACHINE does nothing; the menu says so, and casting
    it anyway says why in the events."""
    lab = SiegeLab(active="A", mana=2)
    lab.set_hand("A", ["BASTION", "METEORITE", "GNOME"])
    lab.set_hand("B", ["BASTION", "MARTYR"])
    lab.add("A", "upper", "OGRE")
    lab.add("B", "upper", "MACHINE")
    lab.add("B", "lower", "GNOME")
    lab.start()
    labels = dict((text, label) for label, text in lab.incantation_menu())
    assert labels["play METEORITE@1 B.upper.0"].endswith("· no effect: Indestructible (R5.4)")
    assert "no effect" not in labels["play METEORITE@1 B.lower.0"]
    said = lab.cast("play METEORITE@1 B.upper.0")
    assert "METEORITE has no effect: B's MACHINE is Indestructible (R5.4, R6.5)" in said


def test_siege_lab_matches_run_siege():
    lab = SiegeLab.example()
    lab.start()
    lab.run()
    from clashkit.engine.scenario import parse_scenario

    expected = run_siege(parse_scenario(lab.scenario_text()))
    assert state_dict(lab.state) == state_dict(expected)


# --- Learn the rules --------------------------------------------------------------------------


def test_rules_stepper_walks_the_scenario_turn():
    stepper = RulesStepper()
    assert stepper.step == 0 and not stepper.finished
    assert stepper.upcoming.startswith("A plays GRRR")
    positions = [fingerprint(stepper.state)]
    stepper.next()
    assert "R3.5" in " ".join(stepper.explanation)
    positions.append(fingerprint(stepper.state))
    while not stepper.finished:
        stepper.next()
        positions.append(fingerprint(stepper.state))
    # 2 summon actions, the siege begins, 4 creatures take their turn, the turn ends.
    assert stepper.step == 8
    assert stepper.upcoming == "the turn is over"
    reference = run_siege(load_scenario(example_scenario_path()))
    assert state_dict(stepper.state)["B"]["hand"] == state_dict(reference)["B"]["hand"]
    assert stepper.state.active == 1  # B's turn has begun
    for expected in reversed(positions[:-1]):
        stepper.back()
        assert fingerprint(stepper.state) == expected
    assert stepper.step == 0 and not stepper.back()


def test_rules_stepper_explains_with_rule_numbers():
    stepper = RulesStepper(load_scenario(example_scenario_path(), cards=FROZEN))
    stepper.run()
    table = events_table(stepper.state)
    pairs = list(zip(table["what happened"], table["rule"], strict=True))

    def rule_of_line(start: str) -> str:
        """The rule of the event line that begins with ``start`` (the line may go on to say why)."""
        (rule,) = [rule for line, rule in pairs if line.startswith(start)]
        return rule

    assert rule_of_line("B's CARAPACE's Protection stops 1 damage") == "R6.4"
    assert rule_of_line("B's GNOME at upper.1 takes 4 damage (from OGRE") == "R6.2"  # Pierce from the Aura
    assert rule_of_line("B's Bastion is destroyed: it flips to the Fort") == "R4.8"
    assert rule_of_line("METEORITE returns to A's hand (index 4)") == "R5.2"


def test_rules_stepper_siege_window_actions(tmp_path):
    path = tmp_path / "window.toml"
    path.write_text(
        example_scenario_path()
        .read_text()
        .replace(
            '  { play = "METEORITE", target = "B.upper.0" },',
            '  { play = "METEORITE", target = "B.lower.0", siege = 2 },',
        )
    )
    stepper = RulesStepper(path)
    upcoming = []
    while not stepper.finished:
        upcoming.append(stepper.upcoming)
        stepper.next()
    # The incantation comes before the third turn of the siege order (GRRR's).
    assert upcoming[4].startswith("A plays METEORITE")
    assert upcoming[5].startswith("GRRR")


# --- Card designer ------------------------------------------------------------------------------


def test_card_designer_edits_validate_like_the_card_file():
    d = CardDesigner(FROZEN)
    card = d.edit("GNOME", attack=2, health=3)
    assert (card.attack, card.health, card.cost) == (2, 3, 0)
    assert d.cards.card("GNOME").attack == 2 and d.base.card("GNOME").attack == 1
    with pytest.raises(ValueError, match="column health"):
        d.edit("GNOME", health=0)
    with pytest.raises(ValueError, match="column abilities"):
        d.edit("GNOME", abilities="flying")
    spell = d.edit("VORTEX", effect="damage 2", target="enemy")
    assert spell.effect_text == "damage 2"
    d.undo("GNOME")
    assert "GNOME" not in d.changes


def test_card_designer_adds_a_card_to_a_deck():
    d = CardDesigner()
    card = d.add(
        {
            "name": "wisp",
            "kind": "creature",
            "cost": 1,
            "attack": 1,
            "health": 1,
            "abilities": "sprint",
        },
        deck=3,
        replaces="GNOME",
    )
    assert card.name == "WISP"
    assert "WISP" in d.decks["deck 3"] and "GNOME" not in d.decks["deck 3"]
    assert d.changed_decks() == ["deck 3"]
    with pytest.raises(KeyError, match="not in deck 1"):
        d.add(
            {"name": "X", "kind": "creature", "cost": 1, "attack": 1, "health": 1},
            deck=1,
            replaces="GNOME",
        )
    with pytest.raises(ValueError, match="already exists"):
        d.add(
            {"name": "OGRE", "kind": "creature", "cost": 1, "attack": 1, "health": 1},
            deck=1,
            replaces="BRUTE",
        )


def test_card_designer_run_compares_before_and_after():
    d = CardDesigner(games_per_pairing=2, policy="random", seed=3)
    unchanged = d.run(progress=False)
    assert unchanged["version"].to_list() == ["before"] * 4 + ["after"] * 4
    # Same seeds and no change: the same games.
    assert (
        unchanged.filter(pl.col("version") == "before")
        .drop("version")
        .equals(unchanged.filter(pl.col("version") == "after").drop("version"))
    )
    d.edit("GNOME", attack=9, health=9)
    changed = d.run(progress=False)
    assert changed["games"].to_list() == [12] * 8
    before = changed.filter(pl.col("version") == "before")
    assert before.drop("version").equals(unchanged.filter(pl.col("version") == "before").drop("version"))
    with pytest.raises(RuntimeError):
        CardDesigner().comparison()


def test_card_designer_plays_each_strength_on_the_same_seeds():
    both = CardDesigner(games_per_pairing=2, policies=("random", "greedy"), seed=3)
    both.edit("GNOME", attack=9, health=9)
    played = both.run(progress=False)
    assert played["strength"].to_list() == ["random"] * 8 + ["greedy"] * 8
    for policy in ("random", "greedy"):
        alone = CardDesigner(games_per_pairing=2, policy=policy, seed=3)
        alone.edit("GNOME", attack=9, health=9)
        assert alone.run(progress=False).equals(played.filter(pl.col("strength") == policy))


def test_card_designer_preview_keeps_nothing():
    d = CardDesigner()
    card = d.preview("GNOME", attack=5)
    assert card.attack == 5 and d.changes == {}
    new = d.preview("SPRITE", kind="incantation", cost=1, effect="heal", target="ally")
    assert new.effect_text == "heal" and "SPRITE" not in d.cards


def test_table_shows_every_word():
    from clashkit.viz.tables import table

    frame = pl.DataFrame({"what happened": ["x" * 200], "rate": [0.123456]})
    html = table(frame)._repr_html_()
    assert "x" * 200 in html and "0.123" in html and "0.1234" not in html
    many = table(pl.DataFrame({"n": list(range(100))}), max_rows=10)._repr_html_()
    assert "90 more rows not shown" in many


def test_card_designer_edit_back_to_shipped_is_no_change():
    d = CardDesigner()
    d.edit("GNOME", attack=3)
    d.edit("GNOME", attack=1)
    assert d.changes == {}
