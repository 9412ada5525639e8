"""R8 Solo mode, siege side: the AI's siege (R8.3a), its reveals and incantations (R8.3, R8.4),
its discard (R8.5), milling (R8.6), its keep and last turn (R8.7), losing (R8.8), reduced damage (R8.9)."""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

from collections import Counter

import pytest
from helpers import (
    attacks,
    board,
    kinds,
    play_step,
    run_turn_out,
    scenario_path,
    siege,
    siege_state,
    siege_text,
    siege_with,
    with_tables,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit import apply, starter_set
from clashkit.base.vocab import KEEP, Mode
from clashkit.engine.actions import END_TURN
from clashkit.engine.solo import mill
from clashkit.engine.state import LAST_TURN_PENDING, LAST_TURN_UNDER_WAY, SIEGE, GameState


def ai_turn(text: str):
    """Run A's siege of a solo scenario, end A's turn: the AI's mana and summon play themselves."""
    state = siege_state(text)
    play_step(state, END_TURN)
    assert state.active == 1 and state.phase == SIEGE
    return state


# --- R8.3a The AI's siege ------------------------------------------------------------------


def test_r8_3a_ai_creatures_attack_in_order_and_move_the_players_keep():
    out = siege("r8_3a_ai_siege_hits_the_player")
    assert attacks(out) == ["B.AI2 upper -> A.BASTION 2", "B.AI1 upper -> A.BASTION 1", "B.AI3 lower -> A.P 3"]
    assert board(out) == {
        "winner": None,
        "A.hand": "X X X BASTION X",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "P(3)",
        "B.pile": "X BASTION",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "AI1 AI2",
        "B.lower": "AI3",
    }


# --- R8.3, R8.4 The AI's summon and incantations ---------------------------------------------


def test_r8_4_enemy_incantation_hits_the_players_nearest_creature_in_its_lane():
    state = ai_turn(scenario_path("r8_4_ai_incantations").read_text())
    assert state.mana_gained == 8  # R8.2: 6 + 1 per player creature
    assert kinds(state, "ai_reveal") == ["ai_reveal", "ai_reveal"]
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X X X X",
        "A.hand_health": 4,
        "A.upper": "P1(2) P2",
        "A.lower": "",
        "B.pile": "REST BASTION",
        "B.discard": "ZAP2",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "BIG",
    }


NO_TARGET = (
    scenario_path("r8_4_ai_incantations")
    .read_text()
    .replace(
        'upper = [{ card = "P1", new = true }, { card = "P2", new = true }]', 'lower = [{ card = "P1", new = true }]'
    )
    .replace('pile = ["ZAP2", "BIG", "REST", "BASTION"]', 'pile = ["ZAP2", "BIG", "REST", "MORE", "BASTION"]')
)


def test_r8_4_no_target_no_effect_and_its_cost_does_not_count():
    state = ai_turn(NO_TARGET)
    assert state.mana_gained == 7
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X X X X",
        "A.hand_health": 4,
        "A.upper": "",
        "A.lower": "P1",
        "B.pile": "MORE BASTION",
        "B.discard": "ZAP2",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "REST",
        "B.lower": "BIG",
    }


def test_r8_4_no_target_the_event_says_it_had_no_effect():
    from clashkit.show.render import describe_event, event_dicts

    state = ai_turn(NO_TARGET)
    lines = [describe_event(e) for e in event_dicts(state) if e["kind"] in ("ai_reveal", "no_effect", "card_discarded")]
    assert lines[:3] == [
        "the AI reveals ZAP2 for the upper lane (total so far 0)",
        "ZAP2 has no effect: no creature of A's in the upper lane to aim at (R8.4)",
        "ZAP2 goes to the AI discard",
    ]


def test_r8_3_ruling_a_reveal_leaving_the_bastion_alone_reshuffles_before_its_incantation_is_discarded():
    # ZAP is revealed: the Bastion is alone, flips, and the discard (D1) becomes the new pile at
    # once; ZAP then resolves on A's P and starts the new discard; D1 is revealed for the lower lane.
    state = ai_turn("""
        card = [
          { name = "P",   kind = "creature", cost = 1, attack = 1, health = 5 },
          { name = "D1",  kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "X",   kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "ZAP", kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
        ]
        [game]
        mode = "solo"
        [A]
        hand = ["BASTION", "X"]
        upper = [{ card = "P", new = true }]
        [B]
        pile = ["ZAP", "BASTION"]
        discard = ["D1"]
    """)
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "P(2)",
        "A.lower": "",
        "B.pile": "FORT",
        "B.discard": "ZAP",
        "B.last_turn": "pending",
        "B.hand_health": 0,
        "B.upper": "",
        "B.lower": "D1",
    }
    assert kinds(state, "ai_reveal", "keep_flipped", "ai_reshuffle", "incantation_resolved", "card_discarded") == [
        "ai_reveal",
        "keep_flipped",
        "ai_reshuffle",
        "incantation_resolved",
        "card_discarded",
        "ai_reveal",
    ]


def test_r8_4_ruling_declared_side_only_by_default():
    state = ai_turn(NO_TARGET.replace("pile = [", 'upper = ["OWN"]\npile = ['))
    assert board(state)["B.upper"] == "OWN REST"  # ZAP2 did not turn on the AI's own OWN


def test_r8_4_option_either_side():
    text = NO_TARGET.replace("pile = [", 'upper = ["OWN"]\npile = [') + '\n[rules]\nai_incantation_side = "either"\n'
    state = ai_turn(text)
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X X X X",
        "A.hand_health": 4,
        "A.upper": "",
        "A.lower": "P1",
        "B.pile": "REST MORE BASTION",
        "B.discard": "ZAP2",
        "B.last_turn": "none",
        "B.hand_health": 2,
        "B.upper": "OWN(2)",
        "B.lower": "BIG",
    }


def test_r8_4_ally_incantation_helps_the_ais_own_creature():
    text = (
        scenario_path("r8_4_ai_incantations")
        .read_text()
        .replace('upper = [{ card = "P1", new = true }, { card = "P2", new = true }]', "")
        .replace(
            'pile = ["ZAP2", "BIG", "REST", "BASTION"]', 'upper = ["OWN"]\npile = ["PUMP", "BIG", "REST", "BASTION"]'
        )
    )
    state = ai_turn(text)
    assert board(state)["B.discard"] == "PUMP"
    run_turn_out(state)
    # OWN attacks with 1 + 2; BIG is new.
    assert attacks(state) == ["B.OWN upper -> A.BASTION 3"]
    assert board(state) == {
        "winner": None,
        "A.hand": "X X X BASTION X",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "REST BASTION",
        "B.discard": "PUMP",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "OWN",
        "B.lower": "BIG",
    }


def test_r8_4_any_incantation_aims_at_the_players_creature():
    text = (
        scenario_path("r8_4_ai_incantations")
        .read_text()
        .replace(
            'pile = ["ZAP2", "BIG", "REST", "BASTION"]',
            'upper = ["OWN"]\npile = ["WHIRL", "BIG", "REST", "MORE", "BASTION"]',
        )
    )
    state = ai_turn(text)
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X X X X",
        "A.hand_health": 4,
        "A.upper": "P2",
        "A.lower": "P1",
        "B.pile": "MORE BASTION",
        "B.discard": "WHIRL",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "OWN REST",
        "B.lower": "BIG",
    }


# --- R8.5 The AI discard ---------------------------------------------------------------------


def test_r8_5_destroyed_and_bounced_ai_creatures_go_to_the_discard():
    out = siege("r8_5_ai_creatures_go_to_the_discard")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X HOP",
        "A.hand_health": 2,
        "A.upper": "MUTANT",
        "A.lower": "",
        "B.pile": "X X BASTION",
        "B.discard": "X S2 T S TB",
        "B.last_turn": "none",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }
    assert [e for e in out["events"] if e["kind"] == "card_returned" and e["target_player"] == "B"] == []


# --- R8.6 Milling -----------------------------------------------------------------------------


def test_r8_6_damage_mills_cards_from_the_top_one_at_a_time():
    out = siege("r8_6_mill_from_the_top")
    assert [e["target_card"] for e in out["events"] if e["kind"] == "ai_mill"] == ["C1", "C2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "HIT",
        "A.lower": "",
        "B.pile": "C3 BASTION",
        "B.discard": "D1 C1 C2",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


@settings(max_examples=300, deadline=None)
@given(above=st.integers(1, 8), discard=st.integers(0, 5), amount=st.integers(0, 12), fort=st.booleans())
def test_r8_6_r8_7_milling_any_pile(above, discard, amount, fort):
    state = GameState(starter_set(), mode=Mode.SOLO, seed=above * 100 + amount)
    state.hands[0] = [KEEP, 0]
    state.pile = list(range(1, above + 1)) + [KEEP]
    state.discard = list(range(20, 20 + discard))
    state.forts[1] = fort
    before = Counter(state.pile + state.discard)
    mill(state, amount)
    assert Counter(state.pile + state.discard) == before and state.pile[-1] == KEEP
    milled = min(amount, above)
    if milled < above:  # R8.6: from the top, one at a time
        assert state.pile == list(range(milled + 1, above + 1)) + [KEEP]
        assert state.discard == list(range(20, 20 + discard)) + list(range(1, milled + 1))
        assert (state.forts[1], state.ai_last_turn) == (fort, 0)
    elif not fort:  # R8.7: the Bastion flips, the whole discard is the new pile; excess lost
        assert state.forts[1] and state.discard == []
        assert len(state.pile) == above + discard + 1
        assert state.ai_last_turn == 0  # the milled cards at least are in the new pile
    else:  # R8.7: the Fort alone: the AI's last turn is pending
        assert state.pile == [KEEP] and state.ai_last_turn == LAST_TURN_PENDING


# --- R8.7 The AI keep ---------------------------------------------------------------------------


def test_r8_7_lone_bastion_flips_discard_becomes_the_pile_excess_lost():
    out = siege("r8_7_bastion_alone_flips_and_reshuffles")
    assert kinds(out, "ai_mill", "keep_flipped", "ai_reshuffle") == ["ai_mill", "keep_flipped", "ai_reshuffle"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "HIT",
        "A.lower": "",
        "B.pile": "C1 FORT",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert out["B"]["keep"] == "fort"


def test_r8_7_the_whole_discard_is_shuffled_by_the_seed():
    out = siege("r8_7_reshuffle_the_whole_discard")
    pile = out["B"]["pile"]
    assert sorted(pile[:-1]) == ["C1", "C2", "D1", "D2"] and pile[-1] == "FORT"
    assert (out["B"]["discard"], out["B"]["hand_health"], out["B"]["keep"]) == ([], 4, "fort")
    assert siege("r8_7_reshuffle_the_whole_discard")["B"]["pile"] == pile  # R10.2
    text = scenario_path("r8_7_reshuffle_the_whole_discard").read_text()
    orders = {tuple(siege_text(text.replace("seed = 7", f"seed = {s}"))["B"]["pile"]) for s in range(20)}
    assert len(orders) > 1


def test_r8_7_lone_fort_means_one_more_ai_turn_then_the_player_wins():
    state = siege_state("r8_7_fort_alone_last_turn_pending")
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X X X",
        "A.hand_health": 3,
        "A.upper": "HIT",
        "A.lower": "",
        "B.pile": "FORT",
        "B.discard": "D1 C1",
        "B.last_turn": "pending",
        "B.hand_health": 0,
        "B.upper": "",
        "B.lower": "AI",
    }
    play_step(state, END_TURN)
    assert state.ai_last_turn == LAST_TURN_UNDER_WAY
    assert kinds(state, "ai_reveal") == []  # nothing above the Fort to reveal
    run_turn_out(state)
    assert board(state)["A.hand"] == "X BASTION X X" and state.winner is None
    play_step(state, END_TURN)
    assert state.over and board(state)["winner"] == "A"


def test_r8_7_the_ai_may_still_win_in_its_last_turn():
    text = scenario_path("r8_7_fort_alone_last_turn_pending").read_text()
    state = siege_state(text.replace('hand = ["BASTION", "X", "X", "X"]', 'hand = ["X", "FORT", "X"]'))
    play_step(state, END_TURN)
    run_turn_out(state)
    assert board(state)["winner"] == "B" and board(state)["A.hand"] == "X X FORT"


def test_r8_7_reveal_leaving_the_bastion_alone_flips_it_and_reveals_go_on():
    state = ai_turn(scenario_path("r8_7_reveal_flips_and_reveals_on").read_text())
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "FORT",
        "B.discard": "",
        "B.last_turn": "pending",
        "B.hand_health": 0,
        "B.upper": "C1",
        "B.lower": "D1",
    }


def test_r8_7_ruling_fort_exposed_in_the_ais_turn_next_turn_is_the_last():
    text = scenario_path("r8_7_reveal_flips_and_reveals_on").read_text()
    state = ai_turn(text.replace('hand = ["BASTION", "X"]', 'hand = ["BASTION", "X", "X", "X", "X"]'))
    assert state.ai_last_turn == LAST_TURN_PENDING
    run_turn_out(state)
    play_step(state, END_TURN)
    assert not state.over and state.active == 0
    apply(state, "siege")
    play_step(state, END_TURN)
    assert state.ai_last_turn == LAST_TURN_UNDER_WAY and state.active == 1
    run_turn_out(state)  # C1 and D1 hit A's keep, which survives
    assert board(state)["A.hand"] == "X X BASTION X X"
    play_step(state, END_TURN)
    assert board(state)["winner"] == "A"


def test_r8_7_option_ai_last_turn_current():
    state = ai_turn(with_tables("r8_7_reveal_flips_and_reveals_on", rules={"ai_last_turn": "current"}))
    assert board(state)["B.last_turn"] == "under_way"
    run_turn_out(state)
    play_step(state, END_TURN)
    assert board(state)["winner"] == "A" and state.turn == 2


def test_r8_7_option_current_fort_exposed_in_the_players_turn_is_still_pending():
    out = siege_with("r8_7_fort_alone_last_turn_pending", rules={"ai_last_turn": "current"})
    assert out["B"]["last_turn"] == "pending"


def test_r8_7_empty_discard_the_fort_is_at_once_alone():
    text = scenario_path("r8_7_reveal_flips_and_reveals_on").read_text().replace('discard = ["D1"]', "discard = []")
    state = ai_turn(text)
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "FORT",
        "B.discard": "",
        "B.last_turn": "pending",
        "B.hand_health": 0,
        "B.upper": "C1",
        "B.lower": "",
    }


def test_r8_7_scenario_may_start_in_the_last_turn():
    out = siege_text(
        """
        card = [
          { name = "AI", kind = "creature", cost = 1, attack = 1, health = 3 },
          { name = "X", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [game]
        mode = "solo"
        active = "B"
        [A]
        hand = ["BASTION", "X", "X"]
        [B]
        pile = ["FORT"]
        last_turn = "under_way"
        upper = ["AI"]
        """
    )
    assert board(out)["B.last_turn"] == "under_way" and board(out)["A.hand"] == "X BASTION X"


# --- R8.8 The player loses -----------------------------------------------------------------------


def test_r8_8_players_fort_rightmost_the_ai_wins_at_once():
    out = siege("r8_8_player_fort_falls")
    assert attacks(out) == ["B.AI2 upper -> A.FORT 2"]
    assert board(out) == {
        "winner": "B",
        "A.hand": "X X X FORT",
        "A.hand_health": 0,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "X BASTION",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "AI1 AI2",
        "B.lower": "",
    }


# --- R8.9 Reduced damage to the AI pile ---------------------------------------------------------


@pytest.mark.parametrize(
    ("reading", "amounts", "discard", "pile"),
    [
        ("full", [4, 1], "C1 C2 C3 C4 C5", "C6 BASTION"),
        ("minus_one", [3, 0], "C1 C2 C3", "C4 C5 C6 BASTION"),
        ("one", [1, 1], "C1 C2", "C3 C4 C5 C6 BASTION"),
    ],
)
def test_r8_9_pile_damage_readings(reading, amounts, discard, pile):
    out = siege_with("r8_9_pile_damage_readings", solo={"ai_pile_damage": reading})
    assert [e["amount"] for e in out["events"] if e["kind"] == "attack"] == amounts
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "HIT",
        "A.lower": "ONE",
        "B.pile": pile,
        "B.discard": discard,
        "B.last_turn": "none",
        "B.hand_health": len(pile.split()) - 1,
        "B.upper": "",
        "B.lower": "",
    }


@pytest.mark.parametrize(
    ("reading", "to_pile", "discard", "pile"),
    [
        ("full", 3, "AIC C1 C2 C3", "C4 BASTION"),
        ("minus_one", 2, "AIC C1 C2", "C3 C4 BASTION"),
        ("one", 1, "AIC C1", "C2 C3 C4 BASTION"),
    ],
)
def test_r8_9_reduction_per_attack_after_sprint_on_bloodlust_follow_ups_only_on_the_pile(
    reading, to_pile, discard, pile
):
    out = siege_with("r8_9_reduced_per_attack_after_sprint_and_bloodlust", solo={"ai_pile_damage": reading})
    assert attacks(out) == ["A.RUNNER upper -> B.AIC 3", f"A.RUNNER upper -> B.BASTION {to_pile}"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION X",
        "A.hand_health": 1,
        "A.upper": "RUNNER F0",
        "A.lower": "",
        "B.pile": pile,
        "B.discard": discard,
        "B.last_turn": "none",
        "B.hand_health": len(pile.split()) - 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r8_9_reading_one_is_exactly_one_even_for_a_zero_attack():
    text = (
        scenario_path("r8_9_pile_damage_readings")
        .read_text()
        .replace(
            '{ name = "ONE", kind = "creature", cost = 1, attack = 1, health = 3 }',
            '{ name = "ONE", kind = "creature", cost = 1, attack = 0, health = 3 }',
        )
    )
    out = siege_text(text + '\n[solo]\nai_pile_damage = "one"\n')
    assert attacks(out) == ["A.HIT upper -> B.BASTION 1", "A.ONE lower -> B.BASTION 1"]
    assert board(out)["B.discard"] == "C1 C2"


def test_r8_9_reduction_never_applies_to_the_ais_attacks():
    out = siege_with("r8_3a_ai_siege_hits_the_player", solo={"ai_pile_damage": "one"})
    assert attacks(out) == ["B.AI2 upper -> A.BASTION 2", "B.AI1 upper -> A.BASTION 1", "B.AI3 lower -> A.P 3"]
