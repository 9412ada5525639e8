"""R3 The turn: mana (R3.1), summon (R3.2–R3.8), siege order (R3.9–R3.11), end of turn (R3.12)."""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import pytest
from helpers import attacks, board, kinds, parse, play_step, siege, siege_state, siege_text
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit import IllegalActionError, Play, apply, legal_actions
from clashkit.engine.actions import ATTACK, BEGIN_SIEGE, END_TURN
from clashkit.show.render import event_dicts, state_dict

PAWNS = """
card = [
  { name = "PAWN", kind = "creature", cost = 1, attack = 1, health = 1 },
  { name = "BIG",  kind = "creature", cost = 2, attack = 2, health = 2 },
  { name = "ZAP",  kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
]
"""


# --- R3.1 Mana phase ---------------------------------------------------------------


def test_r3_1_mana_is_cards_in_hand_and_unspent_mana_is_lost():
    state = siege_state(
        PAWNS
        + """
        [game]
        mana = 3
        [A]
        hand = ["BASTION", "PAWN", "PAWN"]
        [B]
        hand = ["BASTION", "PAWN", "PAWN", "PAWN", "PAWN"]
        """
    )
    assert state.mana == 3  # nothing spent
    play_step(state, END_TURN)
    # B's turn: 5 cards in hand, the keep included.
    assert (state.active, state.turn, state.mana) == (1, 2, 5)
    play_step(state, BEGIN_SIEGE)
    play_step(state, END_TURN)
    # A's next turn: 3 cards, not 3 + the 3 left unspent.
    assert (state.active, state.turn, state.mana) == (0, 3, 3)


def test_r3_1_mana_spendable_in_summon_and_siege():
    out = siege_text(
        PAWNS
        + """
        [game]
        mana = 2
        actions = [
          { play = "ZAP", target = "B.upper.0" },
          { play = "ZAP", target = "B.upper.0", siege = 0 },
        ]
        [A]
        hand = ["BASTION", "PAWN", "ZAP"]
        [B]
        hand = ["BASTION", "PAWN"]
        upper = [{ card = "BIG", damage = 0 }, "BIG"]
        """
    )
    # The first ZAP destroys the front BIG, the second (in the siege) the other.
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN ZAP",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION PAWN BIG BIG",
        "B.hand_health": 3,
        "B.upper": "",
        "B.lower": "",
    }
    assert [e["mana_left"] for e in out["events"] if e["kind"] == "card_played"] == [1, 0]


# --- R3.2 Playable cards -----------------------------------------------------------


def test_r3_2_playable_are_four_leftmost_skipping_the_keep():
    state = parse(
        """
        card = [{ name = "C", kind = "creature", cost = 1, attack = 1, health = 1 }]
        [game]
        mana = 5
        [A]
        hand = ["C", "C", "BASTION", "C", "C", "C"]
        [B]
        hand = ["BASTION", "C"]
        """
    ).state
    plays = [(a.index, a.lane) for a in legal_actions(state) if isinstance(a, Play)]
    assert plays == [(0, 0), (0, 1), (1, 0), (1, 1), (3, 0), (3, 1), (4, 0), (4, 1)]
    with pytest.raises(IllegalActionError, match=r"^R3\.2: C is not among the 4 leftmost") as err:
        apply(state, Play("C", 5, lane=0))
    assert err.value.rule == "R3.2"


def test_r3_2_the_keep_is_never_played():
    state = parse(PAWNS + '[A]\nhand = ["PAWN", "BASTION", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n').state
    state.mana = 5
    with pytest.raises(IllegalActionError, match=r"^R3\.2: the keep is never played$"):
        apply(state, Play("PAWN", 1, lane=0))


def test_r3_2_fifth_card_becomes_playable_after_a_play():
    out = siege("r3_2_fifth_card_becomes_playable")
    assert board(out) == {
        "winner": None,
        "A.hand": "TWO BASTION THREE FOUR",
        "A.hand_health": 2,
        "A.upper": "ONE",
        "A.lower": "FIVE",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert attacks(out) == []


def test_r3_2_fifth_card_is_not_playable_before():
    text = (
        PAWNS
        + """
        [game]
        mana = 2
        actions = [{ play = "BIG", lane = "upper" }]
        [A]
        hand = ["PAWN", "PAWN", "BASTION", "PAWN", "PAWN", "BIG"]
        [B]
        hand = ["BASTION", "PAWN"]
        """
    )
    with pytest.raises(IllegalActionError, match=r"actions\[0\] \(play BIG upper\): R3\.2: BIG is not among") as err:
        siege_text(text)
    assert err.value.rule == "R3.2"


# --- R3.3 Paying -------------------------------------------------------------------


def test_r3_3_cannot_play_without_enough_mana():
    state = parse(
        PAWNS + '[game]\nmana = 1\n[A]\nhand = ["BASTION", "BIG", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n'
    ).state
    assert [a for a in legal_actions(state) if isinstance(a, Play) and a.card == "BIG"] == []
    with pytest.raises(IllegalActionError, match=r"^R3\.3: BIG costs 2 mana, only 1 left$") as err:
        apply(state, Play("BIG", 1, lane=0))
    assert err.value.rule == "R3.3"
    assert state.hands[0] == [-1, state.cards.id("BIG"), state.cards.id("PAWN")]  # nothing changed


def test_r3_3_any_number_of_plays_each_paid():
    state = siege_state("r3_5_enters_behind_no_lane_limit")
    assert state.mana == 1  # 6 - 5 × 1


def test_r3_3_playing_nothing_is_allowed():
    out = siege_text(
        PAWNS + '[game]\nmana = 4\n[A]\nhand = ["PAWN", "BASTION", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n'
    )
    assert board(out) == {
        "winner": None,
        "A.hand": "PAWN BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


# --- R3.4 Keep one card besides the keep --------------------------------------------


def test_r3_4_cannot_play_last_creature():
    state = parse(PAWNS + '[game]\nmana = 3\n[A]\nhand = ["BASTION", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n').state
    assert legal_actions(state) == [BEGIN_SIEGE]
    with pytest.raises(IllegalActionError, match=r"^R3\.4: cannot play the last card besides the keep$") as err:
        apply(state, Play("PAWN", 1, lane=1))
    assert err.value.rule == "R3.4"


def test_r3_4_last_creature_left_of_the_keep_too():
    state = parse(
        PAWNS + '[game]\nmana = 3\n[A]\nhand = ["PAWN", "FORT", "BIG"]\n[B]\nhand = ["BASTION", "PAWN"]\n'
    ).state
    apply(state, "play PAWN upper")
    with pytest.raises(IllegalActionError) as err:
        apply(state, "play BIG lower")
    assert err.value.rule == "R3.4"


def test_r3_4_ruling_lone_incantation_may_be_played():
    out = siege_text(
        PAWNS
        + """
        [game]
        mana = 1
        actions = [{ play = "ZAP", target = "B.upper.0" }]
        [A]
        hand = ["BASTION", "ZAP"]
        [B]
        hand = ["BASTION", "PAWN"]
        upper = [{ card = "BIG", damage = 0 }, "PAWN"]
        """
    )
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION ZAP",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION PAWN BIG",
        "B.hand_health": 2,
        "B.upper": "PAWN",
        "B.lower": "",
    }


# --- R3.5 Playing a creature ---------------------------------------------------------


def test_r3_5_creature_enters_behind_and_lanes_have_no_limit():
    out = siege("r3_5_enters_behind_no_lane_limit")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION SIXTH",
        "A.hand_health": 1,
        "A.upper": "OLD FIRST SECOND THIRD FOURTH FIFTH",
        "A.lower": "",
        "B.hand": "PAWN BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert attacks(out) == ["A.OLD upper -> B.BASTION 1"]
    assert kinds(out, "attack_skipped") == ["attack_skipped"] * 5


def test_r3_5_creatures_only_in_the_summon_phase():
    text = (
        PAWNS
        + """
        [game]
        mana = 2
        actions = [{ play = "PAWN", lane = "upper", siege = 0 }]
        [A]
        hand = ["BASTION", "PAWN", "PAWN"]
        [B]
        hand = ["BASTION", "PAWN"]
        """
    )
    with pytest.raises(IllegalActionError, match=r"R3\.5: creatures can be played only in the summon phase$") as err:
        siege_text(text)
    assert err.value.rule == "R3.5"


def test_r3_5_creature_needs_a_lane():
    state = parse(
        PAWNS + '[game]\nmana = 2\n[A]\nhand = ["BASTION", "PAWN", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n'
    ).state
    for bad in (Play("PAWN", 1), Play("PAWN", 1, lane=2), Play("PAWN", 1, target=(1, 0, 0))):
        with pytest.raises(IllegalActionError, match=r"^R3\.5: PAWN is a creature: name a lane"):
            apply(state, bad)
    assert len(state.hands[0]) == 3 and state.mana == 2  # nothing was half done


# --- R3.6 Incantations in both phases --------------------------------------------------


def test_r3_6_incantation_in_summon_and_in_siege():
    # See also test_r3_1_mana_spendable_in_summon_and_siege: one ZAP each phase.
    out = siege("r3_11_incantations_between_attacks")
    phases = [e["phase"] for e in out["events"] if e["kind"] == "incantation_resolved"]
    assert phases == ["siege", "siege", "siege"]
    state = parse(
        PAWNS
        + '[game]\nmana = 1\n[A]\nhand = ["BASTION", "ZAP", "PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\nupper = ["BIG"]\n'
    ).state
    apply(state, "play ZAP B.upper.0")
    assert board(state) == {  # ZAP's 2 damage destroyed BIG
        "winner": None,
        "A.hand": "BASTION PAWN ZAP",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION PAWN BIG",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }
    assert [e["phase"] for e in state_dict(state)["events"] if e["kind"] == "incantation_resolved"] == ["summon"]


# --- R3.7 Removing a card shifts the hand ------------------------------------------------


def test_r3_7_left_of_keep_unchanged_right_of_keep_minus_one():
    out = siege("r3_7_left_of_keep_keeps_hand_health")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION STAYS",
        "A.hand_health": 1,
        "A.upper": "LEFT",
        "A.lower": "RIGHT",
        "B.hand": "BASTION STAYS",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    played = [e["hand_health_a"] for e in out["events"] if e["kind"] == "card_played"]
    assert played == [2, 1]


# --- R3.8 The keep rightmost is destroyed -------------------------------------------------


def test_r3_8_playing_y_from_x_keep_y_destroys_the_bastion():
    out = siege("r3_8_last_right_card_destroys_bastion")
    assert board(out) == {
        "winner": None,
        "A.hand": "FORT X",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "Y",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert kinds(out, "keep_flipped", "keep_moved") == ["keep_flipped"]


def test_r3_8_playing_y_from_x_fort_y_loses_the_game():
    out = siege("r3_8_last_right_card_with_fort_loses")
    assert board(out) == {
        "winner": "B",
        "A.hand": "X FORT",
        "A.hand_health": 0,
        "A.upper": "X",
        "A.lower": "Y",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert attacks(out) == []  # the game ended in the summon phase
    assert kinds(out)[-1] == "game_won"


def test_r3_8_ruling_incantation_checked_after_it_returns():
    out = siege("r3_8_incantation_comes_back_first")
    assert board(out) == {
        "winner": None,
        "A.hand": "X BASTION ZAP",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION X",
        "B.hand_health": 1,
        "B.upper": "TARGET(2)",
        "B.lower": "",
    }
    assert "keep_flipped" not in kinds(out)


# --- R3.9 Siege order ------------------------------------------------------------------


def test_r3_9_upper_then_lower_farthest_first():
    out = siege("r3_9_siege_order")
    assert attacks(out) == [
        "A.U1 upper -> B.BASTION 2",
        "A.U0 upper -> B.BASTION 1",
        "A.L1 lower -> B.BASTION 4",
        "A.L0 lower -> B.BASTION 3",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "U0 U1",
        "A.lower": "L0 L1",
        "B.hand": "PAWN " * 10 + "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r3_9_ruling_order_is_live_shifted_creature_attacks_in_upper():
    out = siege("r3_9_live_order_shifted_into_upper")
    assert attacks(out) == [
        "A.U1 upper -> B.BASTION 1",
        "A.L0 upper -> B.BASTION 1",
        "A.U0 upper -> B.BASTION 1",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN VORTEX",
        "A.hand_health": 2,
        "A.upper": "U0 U1 L0",
        "A.lower": "",
        "B.hand": "PAWN PAWN PAWN BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r3_9_upper_lane_goes_on_while_a_creature_is_left_to_attack():
    out = siege("r3_9_upper_done_shift_up_still_attacks")
    assert attacks(out) == [
        "A.U0 upper -> B.BASTION 1",
        "A.L1 upper -> B.BASTION 1",
        "A.L0 lower -> B.BASTION 1",
    ]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN VORTEX",
        "A.hand_health": 2,
        "A.upper": "U0 L1",
        "A.lower": "L0",
        "B.hand": "PAWN PAWN PAWN BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r3_9_shifted_into_upper_after_lower_began_does_not_attack():
    out = siege("r3_9_lower_begun_shift_up_does_not_attack")
    assert attacks(out) == ["A.U0 upper -> B.BASTION 1", "A.L1 lower -> B.BASTION 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN VORTEX",
        "A.hand_health": 2,
        "A.upper": "U0 L0",
        "A.lower": "L1",
        "B.hand": "PAWN PAWN BASTION PAWN PAWN",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }


def test_r3_9_a_lost_turn_stays_lost_when_moved_back_to_the_lower_lane():
    out = siege("r3_9_lost_turn_stays_lost_after_moving_back")
    assert attacks(out) == ["A.Y lower -> B.Z 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P SH",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "Y X",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "Z(1)",
    }


# Creatures of A (attack 1) facing walls that neither die nor hit back; A may shift any of its
# creatures (a free SHIFT incantation) in any window of the siege.
_SHIFTERS = """
card = [
  { name = "C0", kind = "creature", cost = 1, attack = 1, health = 9 },
  { name = "C1", kind = "creature", cost = 1, attack = 1, health = 9 },
  { name = "C2", kind = "creature", cost = 1, attack = 1, health = 9 },
  { name = "C3", kind = "creature", cost = 1, attack = 1, health = 9 },
  { name = "C4", kind = "creature", cost = 1, attack = 1, health = 9 },
  { name = "WALL", kind = "creature", cost = 1, attack = 0, health = 99 },
  { name = "SH", kind = "incantation", cost = 0, effect = "shift", target = "ally" },
  { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
]
[B]
hand = ["BASTION", "P"]
upper = ["WALL"]
lower = ["WALL"]
"""


def _expected_attackers(upper: list[str], lower: list[str], program: list[list[int]]) -> list[str]:
    """R3.9 told plainly: the live order, with the shifts of ``program`` made before each turn.

    ``program[k]`` lists the creatures (by their index in A's creatures, upper then lower, bridge
    outward) shifted in the window before the k-th turn.
    """
    lanes = [upper[:], lower[:]]
    done: set[str] = set()
    lane_now = 0
    order = []
    for shifts in program + [[]] * 20:
        for pick in shifts:
            everyone = [(lane, name) for lane in (0, 1) for name in lanes[lane]]
            lane, name = everyone[pick % len(everyone)]
            lanes[lane].remove(name)
            lanes[1 - lane].append(name)
            if lane == 1 and lane_now == 1:  # moved up once the lower lane has begun: its turn is lost
                done.add(name)
        while lane_now < 2 and all(name in done for name in lanes[lane_now]):
            lane_now += 1
        if lane_now == 2:
            break
        name = next(n for n in reversed(lanes[lane_now]) if n not in done)
        done.add(name)
        order.append(name)
    return order


@settings(max_examples=150, deadline=None)
@given(
    split=st.integers(0, 5),
    program=st.lists(st.lists(st.integers(0, 9), max_size=3), max_size=6),
)
def test_r3_9_live_order_under_any_sequence_of_lane_moves(split, program):
    names = ["C0", "C1", "C2", "C3", "C4"]
    upper, lower = names[:split], names[split:]
    state = parse(
        _SHIFTERS + f'[A]\nhand = ["SH", "BASTION", "P"]\nupper = {upper!r}\nlower = {lower!r}\n'.replace("'", '"')
    ).state
    play_step(state, BEGIN_SIEGE)
    for shifts in program + [[]] * 20:
        for pick in shifts:
            everyone = [(lane, pos) for lane in (0, 1) for pos in range(len(state.lanes[0][lane]))]
            lane, pos = everyone[pick % len(everyone)]
            index = state.hands[0].index(state.cards.id("SH"))
            apply(state, Play(card="SH", index=index, target=(0, lane, pos)))
        if ATTACK not in legal_actions(state):
            break
        play_step(state, ATTACK)
    got = [a.split()[0][2:] for a in attacks(state)]
    assert got == _expected_attackers(upper, lower, program)


def test_r3_9_a_creature_never_attacks_twice():
    out = siege("r3_9_attacked_creature_never_attacks_twice")
    assert attacks(out) == ["A.U0 upper -> B.BASTION 1", "A.L0 lower -> B.BASTION 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN VORTEX",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "L0 U0",
        "B.hand": "PAWN PAWN BASTION PAWN PAWN",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }


def test_r3_9_every_creature_must_take_its_turn_before_the_end():
    state = parse(PAWNS + '[A]\nhand = ["BASTION", "PAWN"]\nupper = ["PAWN"]\n[B]\nhand = ["BASTION", "PAWN"]\n').state
    play_step(state, BEGIN_SIEGE)
    assert legal_actions(state) == [ATTACK]
    with pytest.raises(
        IllegalActionError, match=r"^R3\.9: every creature takes its turn in the siege; PAWN at A\.upper\.0 has not$"
    ) as err:
        play_step(state, END_TURN)
    assert err.value.rule == "R3.9"
    play_step(state, ATTACK)
    assert legal_actions(state) == [END_TURN]
    with pytest.raises(IllegalActionError, match=r"^R3\.9: every creature has had its turn"):
        play_step(state, ATTACK)


# --- R3.10 New creatures --------------------------------------------------------------


def test_r3_10_new_creature_does_not_attack():
    out = siege("r3_10_new_creature_does_not_attack")
    assert attacks(out) == []
    assert kinds(out, "attack_skipped") == ["attack_skipped"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN",
        "A.hand_health": 1,
        "A.upper": "NEWBIE",
        "A.lower": "",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "PAWN",
        "B.lower": "",
    }


def test_r3_10_rage_facing_empty_lane_is_done_for_the_siege():
    out = siege("r3_10_rage_facing_empty_lane_is_done")
    assert attacks(out) == ["A.OLD upper -> B.VICTIM 1"]
    assert "creature_moved" not in [e["kind"] for e in out["events"] if e["target_player"] == "A"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN VORTEX",
        "A.hand_health": 2,
        "A.upper": "OLD RUSHER",
        "A.lower": "",
        "B.hand": "BASTION PAWN",
        "B.hand_health": 1,
        "B.upper": "VICTIM(1)",
        "B.lower": "",
    }


# --- R3.11 Incantations in the siege ------------------------------------------------------


def test_r3_11_incantations_before_between_and_after_attacks():
    out = siege("r3_11_incantations_between_attacks")
    assert attacks(out) == ["A.FAR upper -> B.BASTION 1", "A.NEAR lower -> B.GUARD 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION PAWN ZAP",
        "A.hand_health": 2,
        "A.upper": "FAR",
        "A.lower": "NEAR",
        "B.hand": "PAWN BASTION PAWN BLOCKER",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "GUARD(5)",
    }
    order = [e["kind"] for e in out["events"] if e["kind"] in ("attack", "incantation_resolved")]
    assert order == ["incantation_resolved", "attack", "incantation_resolved", "attack", "incantation_resolved"]


def test_r3_11_option_no_incantations_in_siege():
    text = """
        card = [
          { name = "PAWN", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "ZAP",  kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
        ]
        [game]
        mana = 2
        actions = [
          { play = "ZAP", target = "B.upper.0" },
          { play = "ZAP", target = "B.lower.0", siege = 0 },
        ]
        [rules]
        incantations_in_siege = false
        [A]
        hand = ["BASTION", "PAWN", "ZAP"]
        [B]
        hand = ["BASTION", "PAWN"]
        upper = ["PAWN"]
        lower = ["PAWN"]
    """
    with pytest.raises(IllegalActionError, match=r"actions\[1\] .*R3\.11: incantations_in_siege is false") as err:
        siege_text(text)
    assert err.value.rule == "R3.11"
    # The summon-phase ZAP alone is fine, and the siege offers no incantation.
    state = parse(
        text.replace(", siege = 0", "").replace('target = "B.lower.0"', 'target = "B.lower.0", index = 2')
    ).state
    state.mana = 1
    apply(state, "play ZAP B.upper.0")
    play_step(state, BEGIN_SIEGE)
    assert legal_actions(state) == [END_TURN]


def test_r3_11_ruling_an_attack_is_indivisible():
    # One `attack` action carries a Sprint move, its hit and the Bloodlust
    # follow-ups: there is no window between them.
    state = parse(
        """
        card = [
          { name = "PAWN",   kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "RUNNER", kind = "creature", cost = 1, attack = 1, health = 3, abilities = ["sprint", "bloodlust"] },
        ]
        [A]
        hand = ["BASTION", "PAWN"]
        upper = ["PAWN", "RUNNER"]
        [B]
        hand = ["BASTION", "PAWN", "PAWN", "PAWN"]
        upper = ["PAWN", "PAWN"]
        """
    ).state
    play_step(state, BEGIN_SIEGE)
    before = len(state.log)
    play_step(state, ATTACK)
    steps = [e["kind"] for e in event_dicts(state, before)]
    assert steps.count("creature_moved") == 1 and steps.count("attack") == 3
    assert steps[0] == "creature_moved"
    # Sprint passed one creature: 2 damage a hit. Both PAWNs are destroyed and
    # come back (hand-health 3 + 2), then the keep moves 2.
    assert state.hand_health(1) == 3
    assert [state.cards.names[c] if c >= 0 else "K" for c in state.hands[1]] == [
        "PAWN",
        "PAWN",
        "K",
        "PAWN",
        "PAWN",
        "PAWN",
    ]


# --- R3.12 End of turn -----------------------------------------------------------------


def test_r3_12_end_of_turn_regenerates_everything():
    state = siege_state(
        """
        card = [
          { name = "PAWN",   kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "SHIELD", kind = "creature", cost = 1, attack = 1, health = 9, abilities = ["protection"] },
          { name = "PUMP",   kind = "incantation", cost = 0, effect = "empower 2", target = "ally" },
          { name = "GIFT",   kind = "incantation", cost = 0, effect = "grant splash", target = "ally" },
          { name = "HEX",    kind = "incantation", cost = 0, effect = "weaken 1", target = "enemy" },
        ]
        [game]
        mana = 1
        actions = [
          { play = "PUMP", target = "A.upper.1" },
          { play = "GIFT", target = "A.upper.1" },
          { play = "HEX", target = "B.upper.0" },
          { play = "PAWN", lane = "lower" },
        ]
        [A]
        hand = ["BASTION", "PUMP", "GIFT", "HEX", "PAWN", "PAWN"]
        upper = [{ card = "SHIELD", protection_used = true }, "SHIELD"]
        [B]
        hand = ["BASTION", "PAWN", "PAWN"]
        upper = [{ card = "SHIELD", damage = 4 }]
        """
    )
    b_shield = state.lanes[1][0][0]
    # A's SHIELDs attack B's SHIELD: the first hit (3, empowered) is stopped by
    # its Protection, the second (1) lands.
    assert (b_shield.damage, b_shield.protection_used, b_shield.attack_mod) == (5, True, -1)
    play_step(state, END_TURN)
    for _, _, _, creature in state.in_play():
        assert (creature.damage, creature.attack_mod, creature.granted, creature.sprint_bonus) == (0, 0, 0, 0)
        assert not creature.protection_used and not creature.new and not creature.took_turn
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION PAWN PUMP GIFT HEX",
        "A.hand_health": 4,
        "A.upper": "SHIELD SHIELD",
        "A.lower": "PAWN",
        "B.hand": "BASTION PAWN PAWN",
        "B.hand_health": 2,
        "B.upper": "SHIELD",
        "B.lower": "",
    }
    assert (state.active, state.phase, state.mana) == (1, 2, 3)


# --- R3.10 Ruling: Rage is read before Sprint moves the creature -----------------------------

RAGE_BEFORE_SPRINT = """
    card = [
      { name = "S",     kind = "creature", cost = 1, attack = 1, health = 5, abilities = ["sprint"] },
      { name = "FRONT", kind = "creature", cost = 1, attack = 0, health = 5, aura = "rage@front" },
      { name = "BACK",  kind = "creature", cost = 1, attack = 0, health = 5, aura = "rage@behind" },
      { name = "MID",   kind = "creature", cost = 1, attack = 0, health = 5 },
      { name = "WALL",  kind = "creature", cost = 1, attack = 0, health = 9 },
    ]
    [A]
    hand = ["BASTION", "MID"]
    upper = [UPPER, { card = "S", new = true }]
    [B]
    hand = ["BASTION", "MID"]
    upper = ["WALL"]
"""


def test_r3_10_ruling_rage_is_read_where_the_creature_stands_before_its_sprint():
    # BACK's Aura gives the new S Rage where it stands (behind BACK): S may attack, so it
    # sprints past 2 and hits for 1 + 2 (R6.7).
    granted = siege_text(RAGE_BEFORE_SPRINT.replace("UPPER", '"MID", "BACK"'))
    assert [a for a in attacks(granted) if a.startswith("A.S ")] == ["A.S upper -> B.WALL 3"]
    # FRONT's Aura would reach S only at position 0, after the run: S has no Rage where its
    # turn comes, so it cannot attack and does not move (R3.10).
    not_yet = siege_text(RAGE_BEFORE_SPRINT.replace("UPPER", '"FRONT", "MID"'))
    assert [a for a in attacks(not_yet) if a.startswith("A.S ")] == []
    assert board(not_yet)["A.upper"] == "FRONT MID S"
    assert kinds(not_yet, "attack_skipped", "creature_moved")[0] == "attack_skipped"
