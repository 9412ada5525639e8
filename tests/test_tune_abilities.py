"""The tuner's changes to what cards do (``clashkit tune --fields ability,aura,effect,target``):
the candidates of each field on a tiny set, R9.2 never broken, the size weights, apply and undo,
the character guard, the command line, and a run that finds a change of what a card does."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest
from click.testing import CliRunner
from helpers import ROOT

from clashkit.base.cards import Aura, Card, CardSet, load_cards, starter_set
from clashkit.base.errors import OptionError
from clashkit.base.vocab import Ability, Direction, Effect, Kind, TargetSide
from clashkit.cli import main
from clashkit.studies import design
from clashkit.studies.card_sets import draw, lacking
from clashkit.studies.design import changes as ch
from clashkit.studies.design.variants import TEXT_FIELDS, text_value, vary, vary_text

# A tiny set: BEAR (rage) and WOLF (rage, sprint) carry the only printed abilities, ELF the only
# Aura (protection toward the front); LOOSE is in no starter deck.
TINY = CardSet(
    [
        Card("BEAR", Kind.CREATURE, 2, 3, 3, (Ability.RAGE,), deck=1),
        Card("ELF", Kind.CREATURE, 1, 1, 1, aura=Aura(Ability.PROTECTION, (Direction.FRONT,)), deck=1),
        Card("BOLT", Kind.INCANTATION, 1, effect=Effect.DAMAGE, amount=2, target=TargetSide.ENEMY, deck=1),
        Card("MEND", Kind.INCANTATION, 1, effect=Effect.HEAL, target=TargetSide.ALLY, deck=2),
        Card("WOLF", Kind.CREATURE, 2, 2, 2, (Ability.RAGE, Ability.SPRINT), deck=2),
        Card("LOOSE", Kind.CREATURE, 1, 1, 1),
    ]
)
TEXT = ("ability", "aura", "effect", "target")


def news(field: str, card: str, cards: CardSet = TINY, **options) -> list:
    return [c.new for c in ch.candidates(cards, [field], 1, sizes=[1, 2], **options) if c.card == card]


# --- Candidates of each field -------------------------------------------------------------------


def test_ability_candidates_remove_one_or_add_one_never_the_last_sprint():
    others = ["splash", "pierce", "protection", "indestructible", "bloodlust", "sprint"]
    assert news("ability", "BEAR") == ["", *(f"rage;{a}" for a in others)]
    assert news("ability", "ELF") == [a.value for a in Ability]
    # R9.2: WOLF carries the set's only sprint, so only its rage may go (BEAR keeps one).
    assert news("ability", "WOLF") == ["sprint", *(f"rage;sprint;{a}" for a in others[:-1])]
    assert news("ability", "LOOSE") == []  # in no starter deck: it plays no game


def test_aura_candidates_change_ability_or_directions_and_keep_the_only_front():
    # R9.2: ELF's is the only Aura, so it stays and keeps reaching the front.
    assert news("aura", "ELF") == [
        *(f"{a.value}@front" for a in Ability if a is not Ability.PROTECTION),
        "protection@front+behind",
        "protection@front+side",
        "protection@front+behind+side",
    ]
    assert news("aura", "BEAR") == [f"{a.value}@{d.value}" for a in Ability for d in Direction]


def test_effect_candidates_stay_meant_for_the_cards_side():
    # R5.5: BOLT is meant for the enemy, keeps its amount 2; MEND for an ally, has no amount to keep.
    assert news("effect", "BOLT") == ["destroy", "bounce", "shift", "weaken 2"]
    assert news("effect", "MEND") == ["shift", "empower 1", "empower 2", *(f"grant {a.value}" for a in Ability)]
    assert news("effect", "BEAR") == []


def test_target_candidates_are_the_other_sides():
    assert news("target", "BOLT") == ["ally", "any"]
    assert news("target", "MEND") == ["enemy", "any"]


def test_a_changes_old_value_is_the_card_files_cell():
    (change,) = [c for c in ch.candidates(TINY, ["aura"], 1) if c.card == "ELF" and c.new == "rage@front"]
    assert change == ch.Change("ELF", "aura", "protection@front", "rage@front")
    assert str(change) == "ELF aura protection@front → rage@front"
    assert str(ch.Change("BEAR", "aura", "", "rage@side")) == "BEAR aura none → rage@side"
    assert change.to_dict() == {"card": "ELF", "field": "aura", "from": "protection@front", "to": "rage@front"}
    assert ch.Change("BEAR", "attack", 3, 4).to_dict() == {"card": "BEAR", "field": "attack", "from": 3, "to": 4}


# --- R9.2 ---------------------------------------------------------------------------------------


def test_r9_2_no_candidate_of_the_shipped_set_breaks_it():
    shipped = starter_set()
    assert lacking(shipped) == []
    changes = ch.candidates(shipped, TEXT, 1, sizes=[1, 2])
    assert {c.field for c in changes} == set(TEXT)
    for change in changes:
        assert lacking(ch.apply_changes(shipped, [change])) == [], change
    # The only carriers are left alone: MACHINE's Indestructible, MUTANT's Splash.
    assert ch.Change("MACHINE", "ability", "indestructible", "") not in changes
    assert ch.Change("MUTANT", "ability", "splash;pierce", "pierce") not in changes
    assert ch.Change("MUTANT", "ability", "splash;pierce", "splash") in changes


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r9_2_a_candidate_never_loses_what_the_set_has(seed):
    cards = draw("random", seed).cards
    before = set(lacking(cards))
    for change in ch.candidates(cards, TEXT, 1, sizes=[1]):
        assert set(lacking(ch.apply_changes(cards, [change]))) <= before, change


def test_keeps_r9_2_refuses_the_last_carrier_going():
    without_sprint = vary_text(TINY, "WOLF", ability="rage")
    assert not ch.keeps_r9_2(TINY, without_sprint)
    assert ch.keeps_r9_2(TINY, vary_text(TINY, "WOLF", ability="sprint"))


# --- Size ---------------------------------------------------------------------------------------


def test_size_weighs_what_a_card_does_above_a_point_of_attack():
    assert ch.CHANGE_WEIGHT == {"ability": 3, "aura": 3, "effect": 4, "target": 2}
    assert all(weight > ch.change_size(ch.Change("BEAR", "attack", 3, 4)) for weight in ch.CHANGE_WEIGHT.values())
    changes = [
        ch.Change("BEAR", "attack", 3, 5),
        ch.Change("BEAR", "ability", "rage", ""),
        ch.Change("ELF", "aura", "protection@front", "rage@front"),
        ch.Change("BOLT", "effect", "damage 2", "weaken 2"),
        ch.Change("MEND", "target", "ally", "any"),
    ]
    assert [ch.change_size(c) for c in changes] == [2, 3, 3, 4, 2]
    assert ch.size(changes) == 14
    assert ch.weights_text() == "target 2, ability 3, aura 3, effect 4"


def test_a_change_of_what_a_card_does_is_tried_either_way():
    assert ch.direction(ch.Change("BEAR", "cost", 2, 3)) == -1
    assert ch.direction(ch.Change("BEAR", "attack", 3, 4)) == 1
    assert {ch.direction(ch.Change("BEAR", f, "", "x")) for f in TEXT} == {0}


# --- Apply and undo -----------------------------------------------------------------------------


@pytest.mark.parametrize("field", TEXT)
def test_apply_then_undo_gives_the_set_back(field):
    changes = ch.candidates(TINY, [field], 1, sizes=[1, 2])
    assert changes
    for change in changes:
        changed = ch.apply_changes(TINY, [change])
        assert text_value(changed.card(change.card), field) == change.new
        assert changed.names == TINY.names  # in place: the decks deal as before
        assert ch.apply_changes(changed, [change.undone]).cards == TINY.cards


def test_vary_text_refuses_what_the_card_file_refuses():
    with pytest.raises(OptionError, match="unknown ability 'speed'"):
        vary_text(TINY, "BEAR", ability="speed")
    with pytest.raises(OptionError, match="unknown field 'aura'"):
        vary_text(TINY, "BOLT", aura="rage@front")
    with pytest.raises(OptionError, match="unknown field 'ability' \\(one of cost, attack, health\\)"):
        vary(TINY, "BEAR", ability=1)  # type: ignore[arg-type]
    assert TEXT_FIELDS[Kind.CREATURE] == ("ability", "aura")


# --- Character ----------------------------------------------------------------------------------


def test_keep_character_keeps_cost_within_one_and_takes_nothing_away():
    kept = ch.candidates(TINY, ["cost", *TEXT], 1, sizes=[1, 2], keep_character=True)
    assert [c.new for c in kept if c.card == "BEAR" and c.field == "cost"] == [1, 3]
    assert "" not in [c.new for c in kept if c.card == "BEAR" and c.field == "ability"]
    assert all(c.new != "" for c in kept if c.field == "aura")
    assert [c.new for c in kept if c.field == "target"] == ["any"]  # BOLT: enemy → any; MEND stays ally
    every = ch.candidates(TINY, ["cost", *TEXT], 1, sizes=[1, 2])
    assert set(kept) < set(every)
    assert {c for c in every if c not in kept} == {
        ch.Change("BEAR", "cost", 2, 0),
        ch.Change("BEAR", "cost", 2, 4),
        ch.Change("ELF", "cost", 1, 3),
        ch.Change("BOLT", "cost", 1, 3),
        ch.Change("MEND", "cost", 1, 3),
        ch.Change("WOLF", "cost", 2, 0),
        ch.Change("WOLF", "cost", 2, 4),
        ch.Change("BEAR", "ability", "rage", ""),
        ch.Change("WOLF", "ability", "rage;sprint", "sprint"),
        ch.Change("BOLT", "target", "enemy", "ally"),
        ch.Change("MEND", "target", "ally", "enemy"),
        ch.Change("MEND", "target", "ally", "any"),
    }


# --- Command line -------------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            "abilities",
            "unknown field 'abilities' (one of cost, attack, health, amount, ability, aura, effect, target); "
            "did you mean ability?",
        ),
        ("aura,speed", "unknown field 'speed' (one of cost, attack, health, amount, ability, aura, effect, target)"),
    ],
)
def test_cli_refuses_a_bad_field_in_one_line(fields, message):
    result = run("tune", "--fields", fields, "-n", "1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"clashkit: error: {message}"]


# --- End to end ---------------------------------------------------------------------------------


def test_tune_finds_the_change_of_what_a_card_does_that_a_number_cannot_match(tmp_path):
    """A set broken by one cell: METEORITE (damage 3) meant for an ally, so greedy aims it at its
    own creatures (R5.5) and deck 3 loses nearly every game.  Among deck 3's attack (+1, +2) and
    every target, the tuner proposes the target back on the enemy's side."""
    broken = tmp_path / "broken.csv"
    vary_text(starter_set(), "METEORITE", target="ally").to_csv(broken)
    out, tuned = tmp_path / "out", tmp_path / "tuned.csv"
    args = ["tune", "--cards", str(broken), "--policies", "greedy", "-n", "10", "--max-changes", "1"]
    args += ["--beam", "1", "--evaluations", "20", "--fields", "attack,target", "--write-cards", str(tuned)]
    for name in starter_set().deck(3):
        args += ["--card", name]
    result = run(*args, "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    (change,) = data["changes"]
    assert (change["card"], change["field"], change["from"]) == ("METEORITE", "target", "ally")
    assert change["to"] in ("enemy", "any")  # bots aim both at the enemy (R8.4)
    # Every candidate: six creatures' attack +1 and +2 (toward 50%), METEORITE's and VORTEX's two other sides.
    assert data["candidates"] == 16
    assert data["pareto"][0]["size"] == 2
    assert data["check_distances"][1] < data["check_distances"][0]
    assert load_cards(tuned).card("METEORITE").target.value == change["to"]
    table = pl.read_parquet(out / "changes.parquet")
    assert table.rows() == [("METEORITE", "target", "ally", change["to"])]


def test_tune_keep_character_leaves_an_ally_incantation_meant_for_an_ally():
    """With ``keep_character`` METEORITE, here meant for an ally, may not move to the enemy's side:
    no candidate, so no change (and the set as it is checked on fresh seeds)."""
    broken = vary_text(starter_set(), "METEORITE", target="ally")
    result = design.tune(2, 1, fields=["target"], names=["METEORITE"], cards=broken, keep_character=True)
    assert (result.changes, result.candidates) == ((), 0)
    assert design.tune(2, 1, fields=["target"], names=["METEORITE"], cards=broken, evaluations=1).candidates == 1


def test_the_balance_guide_gives_the_weights_of_the_code():
    text = (ROOT / "docs/guide/balance.md").read_text()
    for field, weight in ch.CHANGE_WEIGHT.items():
        assert re.search(rf"^\| `{field}` \| .* \| {weight} \|$", text, re.MULTILINE), field
