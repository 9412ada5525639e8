"""R6 Special abilities: Splash, Pierce, Rage, Protection, Indestructible, Bloodlust, Sprint, Aura."""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import pytest
from helpers import attacks, board, kinds, scenario_path, siege, siege_text, siege_with
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit.base.cards import Aura, Card, CardSet
from clashkit.base.vocab import ABILITY_BITS, DIRECTION_BITS, Ability, Direction, Kind
from clashkit.engine.abilities import abilities
from clashkit.engine.state import Creature, GameState


def with_rules(name: str, **options: str) -> dict:
    """Run scenario ``name`` with extra ``[rules]`` options."""
    return siege_with(name, rules=options)


# --- R6.1 Splash -------------------------------------------------------------------------


def test_r6_1_splash_hits_same_position_of_the_other_lane():
    out = siege("r6_1_splash_same_position_other_lane")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "SPLASHER",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "T(2)",
        "B.lower": "S(2) SB",
    }


def test_r6_1_splash_with_the_other_lane_empty_never_reaches_a_keep():
    out = siege_text(
        """
        card = [
          { name = "SPLASHER", kind = "creature", cost = 1, attack = 2, health = 3, abilities = ["splash"] },
          { name = "T", kind = "creature", cost = 1, attack = 1, health = 3 },
        ]
        [A]
        hand = ["BASTION", "T"]
        lower = ["SPLASHER"]
        [B]
        hand = ["BASTION", "T", "T"]
        lower = ["T"]
        """
    )
    assert kinds(out, "damage", "keep_moved") == ["damage"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION T",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "SPLASHER",
        "B.hand": "BASTION T T",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "T(2)",
    }


# --- R6.2 Pierce -------------------------------------------------------------------------


def test_r6_2_pierce_hits_directly_behind_the_target():
    out = siege("r6_2_pierce_directly_behind")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "PIERCER",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "T(2) TB(2) TBB",
    }


def test_r6_2_with_splash_pierce_only_behind_the_primary_target():
    out = siege("r6_2_pierce_with_splash_only_behind_primary")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "T(2) TB(2)",
        "B.lower": "S(2) SB",
    }


# --- R6.3 Rage ---------------------------------------------------------------------------


def test_r6_3_rage_attacks_a_creature_in_its_entry_turn():
    out = siege("r6_3_rage_attacks_a_creature_on_entry")
    assert attacks(out) == ["A.RAGER upper -> B.T 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "RAGER",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "T(2)",
        "B.lower": "",
    }


def test_r6_3_rage_never_hits_the_keep_in_its_entry_turn():
    out = siege("r3_10_rage_facing_empty_lane_is_done")
    assert "A.RUSHER" not in " ".join(attacks(out))
    assert board(out)["B.hand"] == "BASTION PAWN"


def test_r6_3_after_its_entry_turn_rage_hits_the_keep_like_anyone():
    out = siege_text(
        """
        card = [
          { name = "RAGER", kind = "creature", cost = 1, attack = 2, health = 2, abilities = ["rage"] },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [A]
        hand = ["BASTION", "P"]
        upper = ["RAGER"]
        [B]
        hand = ["BASTION", "P", "P", "P"]
        """
    )
    assert attacks(out) == ["A.RAGER upper -> B.BASTION 2"]
    assert board(out)["B.hand"] == "P P BASTION P"


# --- R6.4 Protection ---------------------------------------------------------------------


def test_r6_4_first_attack_aimed_is_reduced_to_0_the_next_lands():
    out = siege("r6_4_protection_cancels_first_attack")
    assert attacks(out) == ["A.H2 upper -> B.SHIELD 3", "A.H1 upper -> B.SHIELD 2"]
    assert [e["amount"] for e in out["events"] if e["kind"] == "protection_used"] == [3]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "H1 H2",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "SHIELD(2)",
        "B.lower": "",
    }


def test_r6_4_secondary_hits_are_not_prevented_and_do_not_use_it():
    out = siege("r6_4_secondary_hit_not_prevented_nor_used")
    assert attacks(out) == ["A.PIERCER upper -> B.FRONT 2", "A.H1 upper -> B.SHIELD 3"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "H1 PIERCER",
        "A.lower": "",
        "B.hand": "BASTION P FRONT",
        "B.hand_health": 2,
        "B.upper": "SHIELD(2)",
        "B.lower": "",
    }


def test_r6_4_the_attacks_splash_and_pierce_still_happen():
    out = siege("r6_4_protected_target_splash_pierce_still_land")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "SHIELD TB(2)",
        "B.lower": "S(2)",
    }


def test_r6_4_already_used_this_turn():
    text = scenario_path("r6_4_protection_cancels_first_attack").read_text()
    out = siege_text(text.replace('upper = ["SHIELD"]', 'upper = [{ card = "SHIELD", protection_used = true }]'))
    assert kinds(out, "protection_used") == []
    assert board(out)["B.upper"] == "" and board(out)["B.hand"] == "BASTION P SHIELD"  # 3 + 2 >= 5


def test_r6_4_option_first_damage_cancels_incantation_damage():
    out = siege("r6_4_protection_option_first_damage")
    assert [(e["card"], e["amount"]) for e in out["events"] if e["kind"] == "protection_used"] == [("ZAP", 2)]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P ZAP",
        "A.hand_health": 2,
        "A.upper": "H1",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "SHIELD(2)",
        "B.lower": "",
    }


def test_r6_4_option_first_damage_cancels_a_secondary_hit():
    out = with_rules("r6_4_secondary_hit_not_prevented_nor_used", protection="first_damage")
    assert board(out)["B.upper"] == "SHIELD(3)"  # Pierce's 2 cancelled, H1's 3 lands


def test_r6_4_zero_damage_uses_first_attack_but_not_first_damage():
    default = siege("r4_1_zero_damage_attack_is_still_an_attack")
    assert board(default)["B.upper"] == "SHIELD(2)"
    first_damage = with_rules("r4_1_zero_damage_attack_is_still_an_attack", protection="first_damage")
    assert board(first_damage)["B.upper"] == "SHIELD"  # the 0 did not count; STRONG's 2 was cancelled


# --- R6.5 Indestructible ------------------------------------------------------------------


def test_r6_5_attacks_destroy_indestructible_creatures_primary_splash_and_pierce():
    out = siege("r6_5_attacks_destroy_indestructible")
    assert [e["amount"] for e in out["events"] if e["kind"] == "damage"] == [5, 5, 5]
    assert attacks(out) == ["A.MUTANT upper -> B.ROCK 5", "A.MUTANT upper -> B.BASTION 5"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.hand": "FORT P ROCK ROCK ROCK",
        "B.hand_health": 4,
        "B.upper": "",
        "B.lower": "",
    }


def test_r6_5_an_attack_damages_indestructible_an_incantation_does_not_heal_it():
    out = siege("r6_5_indestructible_damaged_by_an_attack")
    assert kinds(out, "damage", "incantation_resolved") == ["damage", "incantation_resolved"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P MEND",
        "A.hand_health": 2,
        "A.upper": "OGRE",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "WALL(2)",
        "B.lower": "",
    }


# --- R6.6 Bloodlust ------------------------------------------------------------------------


def test_r6_6_bloodlust_chains_while_it_destroys_its_target():
    out = siege("r6_6_bloodlust_chains_until_a_survivor")
    assert attacks(out) == [
        "A.BERSERKER upper -> B.P1 2",
        "A.BERSERKER upper -> B.P2 2",
        "A.BERSERKER upper -> B.WALL 2",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "BERSERKER",
        "A.lower": "",
        "B.hand": "BASTION X P1 P2",
        "B.hand_health": 3,
        "B.upper": "WALL(2)",
        "B.lower": "",
    }


def test_r6_6_bloodlust_goes_on_to_the_keep_and_stops_after_it():
    out = siege("r6_6_bloodlust_chains_to_the_keep_once")
    assert attacks(out) == [
        "A.BERSERKER upper -> B.P1 2",
        "A.BERSERKER upper -> B.P2 2",
        "A.BERSERKER upper -> B.BASTION 2",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "BERSERKER",
        "A.lower": "",
        "B.hand": "X X BASTION X P1 P2",
        "B.hand_health": 3,
        "B.upper": "",
        "B.lower": "X",
    }


def test_r6_6_a_follow_up_is_an_attack_aimed_at_its_new_target():
    # The follow-up aimed at SHIELD is its first attack this turn: Protection
    # reduces it to 0, SHIELD survives and the chain stops (R6.4).
    out = siege_text(
        """
        card = [
          { name = "BERSERKER", kind = "creature", cost = 1, attack = 2, health = 3, abilities = ["bloodlust"] },
          { name = "P1", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "SHIELD", kind = "creature", cost = 1, attack = 1, health = 2, abilities = ["protection"] },
        ]
        [A]
        hand = ["BASTION", "P1"]
        upper = ["BERSERKER"]
        [B]
        hand = ["BASTION", "P1", "P1"]
        upper = ["P1", "SHIELD"]
        """
    )
    assert attacks(out) == ["A.BERSERKER upper -> B.P1 2", "A.BERSERKER upper -> B.SHIELD 2"]
    assert board(out)["B.upper"] == "SHIELD" and board(out)["B.hand"] == "BASTION P1 P1 P1"


def test_r6_6_in_its_entry_turn_the_extra_attack_hits_only_creatures():
    out = siege("r6_6_bloodlust_entry_turn_only_creatures")
    assert attacks(out) == ["A.FRENZY upper -> B.P1 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "FRENZY",
        "A.lower": "",
        "B.hand": "BASTION X X P1",
        "B.hand_health": 3,
        "B.upper": "",
        "B.lower": "",
    }


def test_r6_6_ruling_splash_kill_alone_earns_no_extra_attack():
    out = siege("r6_6_splash_kill_earns_no_bloodlust")
    assert attacks(out) == ["A.SPLASHY upper -> B.WALL 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "SPLASHY",
        "A.lower": "",
        "B.hand": "BASTION P P",
        "B.hand_health": 2,
        "B.upper": "WALL(2)",
        "B.lower": "",
    }


def test_r6_6_option_bloodlust_trigger_any():
    out = with_rules("r6_6_splash_kill_earns_no_bloodlust", bloodlust_trigger="any")
    assert attacks(out) == ["A.SPLASHY upper -> B.WALL 2", "A.SPLASHY upper -> B.WALL 2"]
    assert board(out)["B.upper"] == "WALL(4)"
    assert board(out)["B.hand"] == "BASTION P P"


def test_r6_6_option_any_one_extra_attack_per_attack():
    # The first attack destroys two creatures (primary and Splash): one extra attack, not two.
    text = """
        card = [
          { name = "SPLASHY", kind = "creature", cost = 1, attack = 2, health = 3, abilities = ["splash", "bloodlust"] },
          { name = "WALL", kind = "creature", cost = 1, attack = 0, health = 9 },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [rules]
        bloodlust_trigger = "any"
        [A]
        hand = ["BASTION", "P"]
        upper = ["SPLASHY"]
        [B]
        hand = ["BASTION", "P"]
        upper = ["P", "WALL"]
        lower = ["P"]
    """
    out = siege_text(text)
    assert attacks(out) == ["A.SPLASHY upper -> B.P 2", "A.SPLASHY upper -> B.WALL 2"]
    assert board(out)["B.upper"] == "WALL(2)" and board(out)["B.hand"] == "BASTION P P P"


def test_r6_6_bloodlust_granted_by_an_aura():
    out = siege("r6_6_bloodlust_from_an_aura")
    assert attacks(out) == ["A.ATT upper -> B.P1 2", "A.ATT upper -> B.P2 2", "A.ATT upper -> B.BASTION 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "ATT LIEUT",
        "A.lower": "",
        "B.hand": "X X BASTION X P1 P2",
        "B.hand_health": 3,
        "B.upper": "",
        "B.lower": "",
    }


# --- R6.7 Sprint ---------------------------------------------------------------------------


def test_r6_7_sprint_moves_to_position_0_with_a_bonus_and_attacks_once():
    out = siege("r6_7_sprint_moves_to_the_front")
    assert attacks(out) == [
        "A.RUNNER upper -> B.WALL 3",
        "A.F1 upper -> B.WALL 1",
        "A.F0 upper -> B.WALL 1",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P",
        "A.hand_health": 1,
        "A.upper": "RUNNER F0 F1",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "WALL(5)",
        "B.lower": "",
    }


def test_r6_7_bonus_counts_on_the_keep():
    out = siege("r4_7_keep_moves_sprint_bonus_included")
    assert [e["amount"] for e in out["events"] if e["kind"] == "keep_moved"] == [3]


def test_r6_7_bonus_lasts_for_bloodlust_follow_ups():
    out = siege("r6_7_sprint_bonus_lasts_for_bloodlust")
    assert attacks(out) == ["A.RUNNER upper -> B.P 2", "A.RUNNER upper -> B.Q 2", "A.RUNNER upper -> B.BASTION 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "RUNNER F0",
        "A.lower": "",
        "B.hand": "X X BASTION X P Q",
        "B.hand_health": 3,
        "B.upper": "",
        "B.lower": "",
    }


def test_r6_7_at_position_0_no_move_no_bonus():
    out = siege_text(
        """
        card = [
          { name = "RUNNER", kind = "creature", cost = 1, attack = 1, health = 3, abilities = ["sprint"] },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [A]
        hand = ["BASTION", "P"]
        upper = ["RUNNER"]
        [B]
        hand = ["BASTION", "P", "P"]
        """
    )
    assert kinds(out, "creature_moved") == []
    assert attacks(out) == ["A.RUNNER upper -> B.BASTION 1"]


def test_r6_7_new_sprint_without_rage_does_not_move():
    out = siege_text(
        """
        card = [
          { name = "RUNNER", kind = "creature", cost = 1, attack = 1, health = 3, abilities = ["sprint"] },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [A]
        hand = ["BASTION", "P"]
        upper = [{ card = "P", new = true }, { card = "RUNNER", new = true }]
        [B]
        hand = ["BASTION", "P", "P"]
        upper = ["P"]
        """
    )
    assert kinds(out, "creature_moved", "attack") == []
    assert board(out)["A.upper"] == "P RUNNER"


def test_r6_7_splash_and_pierce_read_after_the_move():
    out = siege("r6_7_abilities_read_after_the_move")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "RUNNER F0",
        "A.lower": "GIVER",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "T(2) TB(2)",
        "B.lower": "",
    }


# --- R6.8 Aura ------------------------------------------------------------------------------


def test_r6_8_aura_front_and_the_holder_does_not_gain_it():
    out = siege("r6_8_aura_front")
    assert attacks(out) == ["A.HOLDER upper -> B.T 1", "A.ATT upper -> B.T 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "ATT HOLDER",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "T(3)",
        "B.lower": "S(2)",
    }


def test_r6_8_aura_behind():
    out = siege("r6_8_aura_behind")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "HOLDER ATT",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "T(2)",
        "B.lower": "S(2)",
    }


def test_r6_8_aura_side_upper_to_lower():
    out = siege("r6_8_aura_side")
    assert attacks(out) == ["A.LOW lower -> B.T 1", "A.ATT lower -> B.T 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "HOLDER",
        "A.lower": "ATT LOW",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "T(3) TB(2)",
    }


def test_r6_8_aura_side_lower_to_upper():
    text = scenario_path("r6_8_aura_side").read_text()
    text = text.replace(
        'upper = [{ card = "HOLDER", new = true }]\nlower = ["ATT", "LOW"]',
        'upper = ["ATT", "LOW"]\nlower = [{ card = "HOLDER", new = true }]',
    )
    text = text.replace('lower = ["T", "TB"]', 'upper = ["T", "TB"]')
    out = siege_text(text)
    assert board(out)["B.upper"] == "T(3) TB(2)"


def test_r6_8_ruling_grant_ends_when_the_holder_moves_away():
    out = siege("r6_8_aura_lost_when_the_holder_moves_away")
    assert attacks(out) == ["A.ATT upper -> B.T 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X VORTEX",
        "A.hand_health": 2,
        "A.upper": "ATT",
        "A.lower": "HOLDER",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "T(2)",
        "B.lower": "S",
    }


def test_r6_8_ruling_kept_by_creatures_sliding_forward_together():
    out = siege("r6_8_aura_kept_when_sliding_together")
    assert attacks(out) == ["B.B2 upper -> A.DOOMED 3", "B.B1 upper -> A.GUARDED 3"]
    assert kinds(out, "protection_used") == ["protection_used"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X DOOMED",
        "A.hand_health": 2,
        "A.upper": "GUARDED HOLDER",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "B1 B2",
        "B.lower": "",
    }


def test_r6_8_ruling_gained_when_a_gap_closes():
    out = siege("r6_8_aura_gained_when_a_gap_closes")
    assert attacks(out) == ["B.B2 upper -> A.FRONT 2", "B.B1 upper -> A.FRONT 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X DOOMED",
        "A.hand_health": 2,
        "A.upper": "FRONT(2) HOLDER",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "B1 B2",
        "B.lower": "",
    }


def test_r6_8_aura_rage_lets_a_new_creature_attack():
    out = siege("r6_8_aura_rage_for_a_new_creature")
    assert attacks(out) == ["A.PUP upper -> B.T 2", "A.ALPHA upper -> B.T 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "ALPHA PUP",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "T(3)",
        "B.lower": "",
    }


# Aura layouts: the engine reads grants from the receiver's side ("who
# gives me what"); this reference works from the holders' side ("whom do I
# give to") — the two must agree on every layout.

_AURA_CARDS = [
    Card(f"H{i}", Kind.CREATURE, 1, 1, 3, aura=Aura(ability, dirs) if ability else None)
    for i, (ability, dirs) in enumerate(
        [(None, ())]
        + [
            (ability, dirs)
            for ability in (Ability.SPLASH, Ability.PIERCE, Ability.PROTECTION)
            for dirs in (
                (Direction.FRONT,),
                (Direction.BEHIND,),
                (Direction.SIDE,),
                (Direction.FRONT, Direction.BEHIND),
                (Direction.FRONT, Direction.BEHIND, Direction.SIDE),
            )
        ]
    )
]
_AURA_SET = CardSet(_AURA_CARDS)
_lane = st.lists(st.integers(0, len(_AURA_CARDS) - 1), max_size=5)


def _expected_masks(layout):
    masks = {(lane, pos): 0 for lane in (0, 1) for pos in range(len(layout[lane]))}
    for lane in (0, 1):
        for pos, card_id in enumerate(layout[lane]):
            aura = _AURA_CARDS[card_id].aura
            if aura is None:
                continue
            bit = ABILITY_BITS[aura.ability]
            receivers = []
            if Direction.FRONT in aura.directions:
                receivers.append((lane, pos - 1))
            if Direction.BEHIND in aura.directions:
                receivers.append((lane, pos + 1))
            if Direction.SIDE in aura.directions:
                receivers.append((1 - lane, pos))
            for where in receivers:
                if where in masks:
                    masks[where] |= bit
    return masks


@settings(max_examples=300, deadline=None)
@given(upper=_lane, lower=_lane)
def test_r6_8_aura_grants_on_any_layout(upper, lower):
    state = GameState(_AURA_SET)
    state.lanes[0] = [[Creature(_AURA_SET, c) for c in upper], [Creature(_AURA_SET, c) for c in lower]]
    expected = _expected_masks((upper, lower))
    got = {(lane, pos): abilities(state, 0, lane, pos) for (lane, pos) in expected}
    assert got == expected
    # The other side of the table gives nothing to A's creatures, and vice versa.
    assert all(abilities(state, 0, lane, pos) == got[(lane, pos)] for (lane, pos) in got)


def test_r6_8_aura_direction_bits_match_the_card_file_words():
    assert {d.value for d in DIRECTION_BITS} == {"front", "behind", "side"}


@pytest.mark.parametrize("ability", ["splash", "pierce", "rage", "protection", "indestructible", "bloodlust", "sprint"])
def test_r6_every_ability_is_read_from_the_card(ability):
    text = f"""
        card = [{{ name = "C", kind = "creature", cost = 1, attack = 1, health = 1, abilities = ["{ability}"] }}]
        [A]
        hand = ["BASTION", "C"]
        upper = ["C"]
        [B]
        hand = ["BASTION", "C"]
    """
    from helpers import parse

    state = parse(text).state
    assert abilities(state, 0, 0, 0) == ABILITY_BITS[Ability(ability)]
