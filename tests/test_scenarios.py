"""Scenario files (``interfaces.md`` §2): what they may say, and every kind of bad input refused
with a message naming the file and the place in it."""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import re

import pytest
from helpers import board, parse, siege_text

from clashkit import IllegalActionError, ScenarioError, load_scenario, starter_set

CARDS = """
card = [
  { name = "P",   kind = "creature", cost = 1, attack = 1, health = 1 },
  { name = "BIG", kind = "creature", cost = 1, attack = 2, health = 4 },
  { name = "ZAP", kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
]
"""
DUEL_SIDES = """
[A]
hand = ["BASTION", "P"]
[B]
hand = ["BASTION", "P"]
"""


def refused(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match="^" + re.escape(f"<test>: {message}")):
        parse(text)


# --- What a scenario may say ------------------------------------------------------------------


def test_shipped_cards_may_be_named_and_inline_definitions_take_precedence():
    state = parse(
        """
        card = [{ name = "OGRE", kind = "creature", cost = 9, attack = 9, health = 9 }]
        [A]
        hand = ["BASTION", "GNOME", "OGRE"]
        [B]
        hand = ["BASTION", "TROLL"]
        """
    ).state
    shipped = starter_set()
    assert state.cards.card("GNOME") == shipped.card("GNOME")
    assert state.cards.card("TROLL") == shipped.card("TROLL")
    assert (state.cards.card("OGRE").attack, shipped.card("OGRE").attack) != (shipped.card("OGRE").attack,) * 2
    assert state.cards.card("OGRE").attack == 9


def test_duplicate_names_and_lane_entry_tables():
    state = parse(
        CARDS
        + """
        [game]
        mana = 2
        seed = 5
        [A]
        hand = ["P", "BASTION", "P", "P"]
        upper = ["BIG", { card = "BIG", damage = 3, new = true, protection_used = true }]
        [B]
        hand = ["FORT", "P"]
        """
    ).state
    second = state.lanes[0][0][1]
    assert (second.damage, second.new, second.protection_used) == (3, True, True)
    assert state.mana == 2 and state.hands[0].count(state.cards.id("P")) == 3


def test_index_picks_one_copy():
    out = siege_text(
        CARDS
        + """
        [game]
        mana = 1
        actions = [{ play = "P", lane = "upper", index = 2 }]
        [A]
        hand = ["P", "BASTION", "P", "P"]
        [B]
        hand = ["BASTION", "P"]
        """
    )
    assert board(out)["A.hand"] == "P BASTION P" and board(out)["A.hand_health"] == 1


def test_load_scenario_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(CARDS + '[A]\nhand = ["BASTION", "NOPE"]\n[B]\nhand = ["BASTION", "P"]\n')
    with pytest.raises(ScenarioError, match="^" + re.escape(f"{path}: [A] hand[1]: unknown card 'NOPE'")):
        load_scenario(path)
    with pytest.raises(ScenarioError, match="^" + re.escape(f"{tmp_path / 'nope.toml'}: cannot read (")):
        load_scenario(tmp_path / "nope.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('[A]\nhand = ["BASTION", "CAFÉ"]\n'.encode("latin-1"))
    with pytest.raises(ScenarioError, match="^" + re.escape(f"{latin}: not UTF-8 text") + "$"):
        load_scenario(latin)


# --- Refused -----------------------------------------------------------------------------------


def test_malformed_toml():
    refused('[A]\nhand = ["BASTION", "P"\n', "not valid TOML (")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DUEL_SIDES + "[extra]\nx = 1\n", "top level: unknown key 'extra' (known: A, B, card, game, rules, solo)"),
        ("[game]\nplayers = 2\n" + DUEL_SIDES, "[game]: unknown key 'players'"),
        ('[A]\nhand = ["BASTION", "P"]\nmiddle = []\n[B]\nhand = ["BASTION", "P"]\n', "[A]: unknown key 'middle'"),
        (
            '[A]\nhand = ["BASTION", "P"]\nupper = [{ card = "P", hurt = 1 }]\n[B]\nhand = ["BASTION", "P"]\n',
            "[A] upper[0]: unknown key 'hurt'",
        ),
        (
            '[game]\nactions = [{ play = "P", lane = "upper", when = 1 }]\n' + DUEL_SIDES,
            "[game] actions[0]: unknown key 'when'",
        ),
    ],
)
def test_unknown_keys(text, message):
    refused(CARDS + text, message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[A]\nhand = ["BASTION", "NOPE"]\n[B]\nhand = ["BASTION", "P"]\n',
            "[A] hand[1]: unknown card 'NOPE' (define it in a [[card]] table)",
        ),
        (
            '[A]\nhand = ["BASTION", "P"]\n[B]\nhand = ["BASTION", "P"]\nlower = ["P", "NOPE"]\n',
            "[B] lower[1]: unknown card 'NOPE'",
        ),
        (
            '[game]\nactions = [{ play = "NOPE", lane = "upper" }]\n' + DUEL_SIDES,
            "[game] actions[0] play: unknown card 'NOPE'",
        ),
        ('[A]\nhand = ["BASTION", 3]\n[B]\nhand = ["BASTION", "P"]\n', "[A] hand[1]: a card name must be text, not 3"),
    ],
)
def test_unknown_cards(text, message):
    refused(CARDS + text, message)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ('["P", "BASTION"]', "[A] hand: the keep cannot be the rightmost card: it would be destroyed (R1.5, R3.8)"),
        ('["BASTION"]', "[A] hand: the keep cannot be the rightmost card"),
        ('["BASTION", "P", "FORT", "P"]', "[A] hand: needs exactly one BASTION or FORT (R1.1), found 2"),
        ('["P", "P"]', "[A] hand: needs exactly one BASTION or FORT (R1.1), found 0"),
        ('"BASTION P"', "[A] hand: must be a list of card names"),
    ],
)
def test_impossible_hands(hand, message):
    refused(CARDS + f'[A]\nhand = {hand}\n[B]\nhand = ["BASTION", "P"]\n', message)


def test_missing_hand():
    refused(
        CARDS + '[A]\nupper = ["P"]\n[B]\nhand = ["BASTION", "P"]\n',
        "[A] hand: missing: list the hand left to right with its keep",
    )


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('{ card = "BIG", damage = 4 }', "[B] upper[0]: BIG has 4 damage but health 4: it would be destroyed (R4.3)"),
        ('{ card = "BIG", damage = 9 }', "[B] upper[0]: BIG has 9 damage but health 4"),
        ('{ card = "BIG", damage = -1 }', "[B] upper[0] damage: must be a whole number ≥ 0, not -1"),
        ('{ card = "BIG", new = "yes" }', "[B] upper[0] new: must be true or false, not 'yes'"),
        ("{ damage = 1 }", "[B] upper[0]: a lane entry table needs 'card'"),
        ('"ZAP"', "[B] upper[0]: ZAP is an incantation; only creatures are in play (R1.3)"),
    ],
)
def test_impossible_creatures(entry, message):
    refused(CARDS + f'[A]\nhand = ["BASTION", "P"]\n[B]\nhand = ["BASTION", "P"]\nupper = [{entry}]\n', message)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ('mode = "team"', "[game] mode: 'team' is not one of 'duel', 'solo'"),
        ('active = "C"', "[game] active: 'C' is not one of 'A', 'B'"),
        ("mana = -1", "[game] mana: must be a whole number 0…99 (R3.1: mana left in a turn), not -1"),
        ('mana = "3"', "[game] mana: must be a whole number 0…99, not '3'"),
        ("mana = 40000", "[game] mana: must be a whole number 0…99 (R3.1: mana left in a turn), not 40000"),
        ("mana = 200", "[game] mana: must be a whole number 0…99 (R3.1: mana left in a turn), not 200"),
        ("turn = 10001", "[game] turn: must be a whole number 1…10000 (R10.1: a turn number), not 10001"),
        ("seed = 1.5", "[game] seed: must be a whole number 0…18446744073709551615, not 1.5"),
        ("seed = -1", "[game] seed: must be a whole number 0…18446744073709551615 (R10.2"),
    ],
)
def test_bad_game_values(game, message):
    refused(CARDS + f"[game]\n{game}\n" + DUEL_SIDES, message)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (
            '{ play = "ZAP", target = "B.middle.0" }',
            "[game] actions[0] target: 'B.middle.0' is not a place like 'B.upper.0' (PLAYER.LANE.POSITION)",
        ),
        (
            '{ play = "ZAP", target = "C.upper.0" }',
            "[game] actions[0] target: 'C.upper.0' is not a place like 'B.upper.0'",
        ),
        ('{ play = "ZAP", target = "B.upper.-1" }', "[game] actions[0] target: 'B.upper.-1' is not a place"),
        ('{ play = "ZAP", target = "B.upper" }', "[game] actions[0] target: 'B.upper' is not a place"),
        (
            '{ play = "ZAP", lane = "upper" }',
            "[game] actions[0]: ZAP is an incantation: give 'target' like \"B.upper.0\" (R5.1)",
        ),
        (
            '{ play = "P", target = "B.upper.0" }',
            "[game] actions[0]: P is a creature: give 'lane' (upper or lower) (R3.5)",
        ),
        ('{ play = "P" }', "[game] actions[0]: P is a creature: give 'lane'"),
        ('{ play = "P", lane = "middle" }', "[game] actions[0] lane: 'middle' is not one of 'upper', 'lower'"),
        ('{ lane = "upper" }', "[game] actions[0]: needs 'play' (the card's name)"),
        (
            '{ play = "P", lane = "upper", siege = -1 }',
            "[game] actions[0] siege: must be a whole number 0…1000 (R3.9: a turn of the siege order), not -1",
        ),
        (
            '{ play = "P", lane = "upper", index = "first" }',
            "[game] actions[0] index: must be a whole number 0…50, not 'first'",
        ),
        ('"play P upper"', '[game] actions[0]: must be a table like { play = "OGRE", lane = "upper" }'),
    ],
)
def test_bad_actions(action, message):
    refused(CARDS + f"[game]\nactions = [{action}]\n" + DUEL_SIDES, message)


def test_bad_inline_cards():
    refused(
        'card = [{ name = "OGRE", kind = "creature", cost = -1, attack = 1, health = 1 }]\n'
        + DUEL_SIDES.replace('"P"', '"OGRE"'),
        "card[0] (OGRE): column cost: cost must be at least 0, not -1",
    )
    refused(
        'card = [{ name = "OGRE", kind = "creature", cost = 1, attack = 1 }]\n' + DUEL_SIDES,
        "card[0] (OGRE): column health: is empty",
    )
    refused(
        'card = [{ name = "OGRE", kind = "creature", cost = 1, attack = 1, health = 1, abilities = ["flying"] }]\n'
        + DUEL_SIDES,
        "card[0] (OGRE): column abilities: unknown ability 'flying'",
    )
    refused(
        'card = [{ name = "OGRE", kind = "creature", cost = 1, attack = 1, health = 1, colour = "red" }]\n'
        + DUEL_SIDES,
        "card[0]: unknown key 'colour'",
    )
    refused(CARDS.replace('{ name = "BIG"', '{ name = "P"') + DUEL_SIDES, "[[card]]: card 'P' is defined twice")


SOLO = """
[game]
mode = "solo"
[A]
hand = ["BASTION", "P"]
"""


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ('pile = ["BASTION"]', "[B] pile: a Bastion alone in the AI pile cannot arise: it flips at once (R8.7)"),
        ('pile = ["BASTION", "P"]', "[B] pile: the AI keep must be the last (bottom) card of the pile (R8.1)"),
        ('pile = ["P", "P"]', "[B] pile: needs exactly one BASTION or FORT (R1.1), found 0"),
        ('upper = ["P"]', "[B] pile: the solo AI needs a pile, top first, its keep last (R8.1)"),
        (
            'hand = ["BASTION", "P"]\npile = ["P", "BASTION"]',
            "[B] hand: the solo AI has no hand; give its pile and discard (R8.5)",
        ),
        ('pile = ["P", "BASTION"]\ndiscard = ["NOPE"]', "[B] discard[0]: unknown card 'NOPE'"),
        (
            'pile = ["P", "FORT"]\nlast_turn = "pending"',
            "[B] last_turn: the AI's last turn comes only when the Fort is alone (R8.7)",
        ),
        ('pile = ["FORT"]\nlast_turn = "soon"', "[B] last_turn: 'soon' is not one of 'none', 'pending', 'under_way'"),
    ],
)
def test_impossible_ai_piles(side, message):
    refused(CARDS + SOLO + f"[B]\n{side}\n", message)


def test_a_duel_player_has_no_pile():
    refused(
        CARDS + '[A]\nhand = ["BASTION", "P"]\npile = ["P", "BASTION"]\n[B]\nhand = ["BASTION", "P"]\n',
        "[A] pile: only the solo AI (B in solo mode) has a pile",
    )


def test_no_actions_while_the_solo_ai_is_active():
    text = (
        CARDS
        + SOLO.replace('mode = "solo"', 'mode = "solo"\nactive = "B"\nactions = [{ play = "P", lane = "upper" }]')
        + '[B]\npile = ["P", "BASTION"]\n'
    )
    refused(text, "[game] actions: the solo AI is active: it takes no actions, only its siege runs (R8.3)")


# --- Illegal actions in a scenario ------------------------------------------------------------


def test_an_illegal_action_names_its_entry_and_the_rule():
    text = (
        CARDS
        + """
        [game]
        mana = 2
        actions = [
          { play = "P", lane = "upper" },
          { play = "ZAP", target = "B.upper.0", siege = 0 },
        ]
        [A]
        hand = ["BASTION", "P", "ZAP"]
        [B]
        hand = ["BASTION", "P"]
        upper = ["BIG"]
    """
    )
    ok = siege_text(text)
    assert board(ok)["B.upper"] == "BIG(2)"
    bad = text.replace('hand = ["BASTION", "P", "ZAP"]', 'hand = ["BASTION", "P"]')
    with pytest.raises(
        IllegalActionError,
        match=r"^<test>: \[game\] actions\[0\] \(play P upper\): R3\.4: cannot play the last card besides the keep$",
    ) as err:
        siege_text(bad)
    assert err.value.rule == "R3.4"
    # The siege action, entry 1, is played after the summon-phase one and named as entry 1.
    poor = text.replace("mana = 2", "mana = 1")
    with pytest.raises(
        IllegalActionError,
        match=r"^<test>: \[game\] actions\[1\] \(play ZAP B\.upper\.0\): R3\.3: ZAP costs 1 mana, only 0 left$",
    ):
        siege_text(poor)


@pytest.mark.parametrize(
    ("actions", "first"),
    [
        ('{ play = "ZAP", target = "B.upper.0", siege = 0 }, { play = "P", lane = "upper" }', 1),
        (
            '{ play = "P", lane = "upper" }, { play = "ZAP", target = "B.upper.0", siege = 1 }, { play = "ZAP", target = "B.upper.0", siege = 0 }',
            2,
        ),
        (
            '{ play = "ZAP", target = "B.upper.0", siege = 2 }, { play = "ZAP", target = "B.upper.0", siege = 2 }, { play = "ZAP", target = "B.upper.0", siege = 1 }',
            2,
        ),
    ],
)
def test_actions_out_of_order_are_refused_naming_the_first_out_of_place(actions, first):
    refused(
        CARDS + f"[game]\nactions = [{actions}]\n" + DUEL_SIDES,
        f"[game] actions[{first}]: siege actions come after the summon actions, by increasing siege",
    )


def test_actions_in_order_with_equal_windows_are_played_in_list_order():
    out = siege_text(
        CARDS
        + """
        [game]
        mana = 3
        actions = [{ play = "P", lane = "lower" }, { play = "ZAP", target = "B.upper.0", siege = 0 }, { play = "ZAP", target = "B.upper.0", siege = 0 }]
        [A]
        hand = ["BASTION", "ZAP", "P", "P"]
        [B]
        hand = ["BASTION", "P"]
        upper = ["BIG"]
    """
    )
    assert board(out)["B.upper"] == "" and board(out)["A.lower"] == "P"


def test_an_action_naming_a_card_not_in_hand():
    with pytest.raises(
        IllegalActionError, match=r"^<test>: \[game\] actions\[0\] \(play BIG upper\): R3\.2: BIG is not in A's hand$"
    ):
        siege_text(CARDS + '[game]\nmana = 1\nactions = [{ play = "BIG", lane = "upper" }]\n' + DUEL_SIDES)


def test_an_index_that_is_not_that_card():
    with pytest.raises(
        IllegalActionError, match=r"R3\.2: the card at index 0 is BASTION|R3\.2: the keep is never played"
    ):
        siege_text(CARDS + '[game]\nmana = 1\nactions = [{ play = "P", lane = "upper", index = 0 }]\n' + DUEL_SIDES)
    with pytest.raises(IllegalActionError, match=r"R3\.2: there is no card at index 7 of A's hand$"):
        siege_text(CARDS + '[game]\nmana = 1\nactions = [{ play = "P", lane = "upper", index = 7 }]\n' + DUEL_SIDES)
