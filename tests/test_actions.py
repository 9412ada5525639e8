"""Actions: their text form round-trips, and every illegal one is refused naming its rule
(the rules tests cover R3.2–R3.11 and R5.1; here the turn's frame, the game's end, the AI)."""

# Inline TOML tables and exact messages: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import re

import pytest
from helpers import parse

from clashkit import IllegalActionError, InputError, Play, apply, legal_actions, parse_action
from clashkit.engine.actions import ATTACK, BEGIN_SIEGE, END_TURN

TEXT = """
card = [
  { name = "P",   kind = "creature", cost = 1, attack = 1, health = 1 },
  { name = "ZAP", kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
]
[game]
mana = 3
[A]
hand = ["ZAP", "BASTION", "P", "P"]
upper = ["P"]
[B]
hand = ["FORT", "P"]
upper = ["P"]
"""


def test_every_legal_action_reads_back_from_its_text():
    state = parse(TEXT).state
    actions = legal_actions(state)
    assert [str(a) for a in actions] == [
        "play ZAP@0 A.upper.0",
        "play ZAP@0 B.upper.0",
        "play P@2 upper",
        "play P@2 lower",
        "play P@3 upper",
        "play P@3 lower",
        "siege",
    ]
    assert [parse_action(str(a)) for a in actions] == actions


def test_the_index_may_be_left_out_against_a_state():
    state = parse(TEXT).state
    assert parse_action("play P lower", state) == Play("P", 2, lane=1)
    assert parse_action("play zap b.upper.0", state) == Play("ZAP", 0, target=(1, 0, 0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("cast ZAP", "'cast ZAP' is not an action"),
        ("play P@x upper", "'P@x': the index after @ must be a number"),
        ("play P upper", "'play P upper': name the hand index (play P@INDEX …) or give a state"),
        ("play P@2 middle", "'middle' is not a lane (upper, lower) nor a place (B.upper.0)"),
        ("play ZAP@0 B.upper.x", "'B.upper.x' is not a place like 'B.upper.0' (PLAYER.LANE.POSITION)"),
    ],
)
def test_malformed_action_text_is_an_input_error(text, message):
    with pytest.raises(InputError, match="^" + re.escape(message)):
        parse_action(text)


def test_r1_6_the_phases_come_in_order():
    state = parse(TEXT).state
    with pytest.raises(IllegalActionError, match=r"^R1\.6: begin the siege before attacking$"):
        apply(state, ATTACK)
    with pytest.raises(IllegalActionError, match=r"^R1\.6: the siege comes before the end of the turn$"):
        apply(state, END_TURN)
    apply(state, BEGIN_SIEGE)
    with pytest.raises(IllegalActionError, match=r"^R1\.6: the siege has begun already$") as err:
        apply(state, BEGIN_SIEGE)
    assert err.value.rule == "R1.6"


def test_r3_2_the_named_card_must_be_at_that_index():
    state = parse(TEXT).state
    with pytest.raises(IllegalActionError, match=r"^R3\.2: the card at index 2 is P, not ZAP$"):
        apply(state, Play("ZAP", 2, target=(1, 0, 0)))
    with pytest.raises(IllegalActionError, match=r"^R3\.2: there is no card at index 9 of A's hand$"):
        apply(state, Play("P", 9, lane=0))
    with pytest.raises(IllegalActionError, match=r"^R3\.2: ZAP is not in A's hand$"):
        apply(parse(TEXT.replace('"ZAP", "BASTION"', '"BASTION"')).state, "play ZAP B.upper.0")


def test_r4_9_nothing_after_the_game_is_over():
    state = parse(TEXT.replace('hand = ["FORT", "P"]\nupper = ["P"]', 'hand = ["P", "FORT", "P"]')).state
    apply(state, BEGIN_SIEGE)
    apply(state, ATTACK)  # B's upper side is empty: the Fort is hit and falls
    assert state.over and state.winner == 0
    assert legal_actions(state) == []
    for action in (END_TURN, BEGIN_SIEGE, Play("P", 2, lane=0)):
        with pytest.raises(IllegalActionError, match=r"^R4\.9: the game is over$"):
            apply(state, action)


def test_r8_3_the_ai_plays_no_cards():
    state = parse(
        """
        card = [{ name = "P", kind = "creature", cost = 1, attack = 1, health = 1 }]
        [game]
        mode = "solo"
        active = "B"
        [A]
        hand = ["BASTION", "P"]
        [B]
        pile = ["P", "BASTION"]
        """
    ).state
    assert legal_actions(state) == [END_TURN]
    with pytest.raises(IllegalActionError, match=r"^R8\.3: the AI has no hand; its summon phase plays itself$"):
        apply(state, Play("P", 0, lane=0))
