"""R4 Attacks, damage, destruction and the keep (R4.1–R4.9)."""

from __future__ import annotations

import pytest
from helpers import attacks, board, kinds, load, siege, siege_text

from clashkit.engine.scenario import run_siege
from clashkit.show.render import state_dict

#: R4.6's default order (the order destroyed, as ``clashkit siege`` plays it) is the reference's
#: alone: the fast engine always asks the owner's policy (greedy's order, or random's).
DEFAULT_ORDER = pytest.mark.reference_only("R4.6 default return order: the fast engine always asks a policy")


# --- R4.1 The attack and its target ----------------------------------------------------


def test_r4_1_attack_hits_the_opposing_creature_at_position_0():
    out = siege("r4_1_target_is_nearest_opposing_creature")
    assert attacks(out) == ["A.HITTER upper -> B.FRONT 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "FRONT(2) BACK",
        "B.lower": "BACK",
    }


def test_r4_1_modifiers_add_to_the_attack():
    out = siege("r4_1_empower_adds_to_the_attack")
    assert attacks(out) == ["A.HITTER upper -> B.BASTION 3"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN BOOST",
        "A.hand_health": 2,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "PAWN PAWN PAWN BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r4_1_sum_floored_at_0_and_a_zero_attack_is_still_an_attack():
    out = siege("r4_1_zero_damage_attack_is_still_an_attack")
    assert attacks(out) == ["A.HITTER upper -> B.SHIELD 0", "A.STRONG upper -> B.SHIELD 2"]
    assert [e["amount"] for e in out["events"] if e["kind"] == "protection_used"] == [0]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN HEX",
        "A.hand_health": 2,
        "A.upper": "STRONG HITTER",
        "A.lower": "",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "SHIELD(2)",
        "B.lower": "",
    }


def test_r4_1_the_sum_is_floored_not_each_modifier():
    # R4.1 floors attack + modifiers as a whole: 2 - 3 + 2 = 1 (flooring the
    # weaken alone would have given 0 + 2 = 2).
    out = siege_text(
        """
        card = [
          { name = "HITTER", kind = "creature", cost = 1, attack = 2, health = 3 },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "HEX", kind = "incantation", cost = 0, effect = "weaken 3", target = "enemy" },
          { name = "PUMP", kind = "incantation", cost = 0, effect = "empower 2", target = "ally" },
        ]
        [game]
        actions = [
          { play = "HEX", target = "A.upper.0" },
          { play = "PUMP", target = "A.upper.0" },
        ]
        [A]
        hand = ["BASTION", "HEX", "PUMP", "P"]
        upper = ["HITTER"]
        [B]
        hand = ["BASTION", "P", "P"]
        """
    )
    assert attacks(out) == ["A.HITTER upper -> B.BASTION 1"]
    assert board(out)["B.hand"] == "P BASTION P"


def test_r4_1_zero_attack_on_the_keep_moves_it_nowhere():
    out = siege_text(
        """
        card = [
          { name = "MOUSE", kind = "creature", cost = 1, attack = 0, health = 1 },
          { name = "P",     kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [A]
        hand = ["BASTION", "P"]
        upper = ["MOUSE"]
        [B]
        hand = ["BASTION", "P"]
        """
    )
    assert attacks(out) == ["A.MOUSE upper -> B.BASTION 0"]
    assert board(out)["B.hand"] == "BASTION P"
    assert out["B"]["keep"] == "bastion"


# --- R4.2 Empty side: the keep, and only the keep ---------------------------------------------


def test_r4_2_splash_and_pierce_do_nothing_when_the_keep_is_hit():
    out = siege("r4_2_splash_pierce_nothing_on_keep_hit")
    assert attacks(out) == ["A.MUTANT upper -> B.BASTION 2"]
    assert kinds(out, "damage") == []
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.hand": "PAWN PAWN BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "PAWN PAWN",
    }


# --- R4.3 One attack lands all at once ------------------------------------------------------


@DEFAULT_ORDER
def test_r4_3_victims_fixed_damage_dealt_then_destroyed_then_gaps_close():
    out = siege("r4_3_one_attack_lands_all_at_once")
    assert kinds(out, "attack", "damage", "creature_destroyed", "card_returned") == [
        "attack",
        "damage",
        "damage",
        "damage",
        "creature_destroyed",
        "creature_destroyed",
        "creature_destroyed",
        "card_returned",
        "card_returned",
        "card_returned",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.hand": "BASTION PAWN T S TB",
        "B.hand_health": 4,
        "B.upper": "TB2",
        "B.lower": "SB",
    }


def test_r4_3_damage_accumulates_over_the_turn_and_excess_is_lost():
    out = siege("r4_3_damage_accumulates_and_excess_is_lost")
    assert attacks(out) == ["A.HEAVY upper -> B.PAWN 9", "A.ONE lower -> B.WORN 1"]
    assert "keep_moved" not in kinds(out)
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "HEAVY",
        "A.lower": "ONE",
        "B.hand": "BASTION PAWN PAWN WORN",
        "B.hand_health": 3,
        "B.upper": "PAWN",
        "B.lower": "",
    }


# --- R4.4, R4.5 Back to the owner's hand; the gap closes --------------------------------------


def test_r4_4_destroyed_creature_returns_rightmost_to_its_owner():
    out = siege("r4_4_returns_rightmost_and_gap_closes")
    assert board(out)["B.hand"] == "X BASTION X P"
    assert board(out)["B.hand_health"] == 2  # healed from 1
    assert board(out)["A.hand"] == "BASTION X"


def test_r4_5_creatures_behind_move_toward_the_bridge():
    out = siege("r4_4_returns_rightmost_and_gap_closes")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "ONE",
        "A.lower": "",
        "B.hand": "X BASTION X P",
        "B.hand_health": 2,
        "B.upper": "Q R",
        "B.lower": "",
    }


# --- R4.6 Several destroyed: the owner orders their return -------------------------------------


@DEFAULT_ORDER
def test_r4_6_ruling_default_order_primary_splash_pierce():
    out = siege("r4_3_one_attack_lands_all_at_once")
    returned = [e["target_card"] for e in out["events"] if e["kind"] == "card_returned"]
    assert returned == ["T", "S", "TB"]


def test_r4_6_owner_may_choose_the_return_order():
    scenario = load("r4_3_one_attack_lands_all_at_once")
    asked = []

    def newest_first(state, owner, cards):
        asked.append((owner, [state.cards.names[c] for c in cards]))
        return list(reversed(cards))

    out = state_dict(run_siege(scenario, newest_first))
    assert asked == [(1, ["T", "S", "TB"])]
    assert board(out)["B.hand"] == "BASTION PAWN TB S T"


# --- R4.7–R4.9 The keep ------------------------------------------------------------------


def test_r4_7_keep_moves_by_the_damage_sprint_bonus_included():
    out = siege("r4_7_keep_moves_sprint_bonus_included")
    assert attacks(out) == ["A.RUNNER upper -> B.BASTION 3"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "RUNNER F0 F1",
        "A.lower": "",
        "B.hand": "PAWN PAWN PAWN BASTION PAWN PAWN",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }


def test_r4_8_bastion_destroyed_flips_goes_leftmost_excess_lost():
    out = siege("r4_8_bastion_destroyed_excess_lost")
    assert attacks(out) == ["A.HEAVY upper -> B.BASTION 5", "A.ONE lower -> B.FORT 1"]
    assert [e["amount"] for e in out["events"] if e["kind"] == "keep_moved"] == [2, 1]
    assert kinds(out, "keep_flipped") == ["keep_flipped"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "HEAVY",
        "A.lower": "ONE",
        "B.hand": "P FORT P P",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }
    assert out["B"]["keep"] == "fort"


def test_r4_9_fort_rightmost_loses_at_once_mid_siege():
    out = siege("r4_9_fort_falls_game_ends_mid_siege")
    assert attacks(out) == ["A.U1 upper -> B.FORT 1"]
    assert kinds(out)[-1] == "game_won"
    assert board(out) == {
        "winner": "A",
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "U0 U1",
        "A.lower": "L0",
        "B.hand": "P P FORT",
        "B.hand_health": 0,
        "B.upper": "",
        "B.lower": "",
    }
