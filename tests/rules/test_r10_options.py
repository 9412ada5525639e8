"""R10 Options: every named option of R10.3 and R10.4 is read from a scenario, honoured, and bad values are refused.

The options whose effect is a rule are tested with that rule too (R3.11,
R6.4, R6.6, R8.4, R8.7, R8.9); here each is shown once more, side by side
with its default.
"""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import json
import re

import pytest
from helpers import (
    attacks,
    board,
    kinds,
    parse,
    play_step,
    scenario_text,
    siege,
    siege_state,
    siege_text,
    siege_with,
    with_tables,
)

from clashkit import OptionError, Rules, ScenarioError, SoloSettings, apply, legal_actions, starter_decks
from clashkit.base.vocab import ABILITY_BITS, Ability
from clashkit.engine.abilities import abilities
from clashkit.engine.actions import END_TURN
from clashkit.engine.turn import TURN_FIELDS
from clashkit.runs.game import play

DUEL = """
card = [{ name = "X", kind = "creature", cost = 1, attack = 1, health = 1 }]
[A]
hand = ["BASTION", "X"]
[B]
hand = ["BASTION", "X"]
"""
SOLO = """
card = [{ name = "X", kind = "creature", cost = 1, attack = 1, health = 1 }]
[game]
mode = "solo"
[A]
hand = ["BASTION", "X"]
[B]
pile = ["X", "BASTION"]
"""


def test_r10_3_defaults_are_the_rulebooks():
    assert Rules().as_dict() == {
        "incantations_in_siege": True,
        "protection": "first_attack",
        "bloodlust_trigger": "primary",
        "ai_incantation_side": "declared",
        "ai_last_turn": "next",
        "first_player": "coin",
        "turn_limit": 200,
        "first_turn_mana": 6,
        "keep_distance": "damage",
        "aura": "adjacent",
        "siege_order": "live",
        "solo_player_first_mana": "hand",
        "ai_fixed_mana": 6,
        "ai_mana_per_creature": 1,
        "ai_first": False,
        "ai_starts_as_fort": False,
        "ai_pile_damage": "full",
        "ai_ability": None,
        "ai_reduced_scope": "pile",
    }
    assert parse(DUEL).state.rules == Rules()


RULES_VALUES = {
    "incantations_in_siege": False,
    "protection": "first_damage",
    "bloodlust_trigger": "any",
    "ai_incantation_side": "either",
    "ai_last_turn": "current",
    "first_player": "last_drafter",
    "turn_limit": 12,
    "first_turn_mana": 5,
    "keep_distance": "attack",
    "aura": "until_holder_moves",
    "siege_order": "fixed",
    "solo_player_first_mana": "six",
}
SOLO_VALUES = {
    "ai_fixed_mana": 9,
    "ai_mana_per_creature": 2,
    "ai_first": True,
    "ai_starts_as_fort": True,
    "ai_pile_damage": "minus_one",
    "ai_ability": "bloodlust",
    "ai_reduced_scope": "all",
}


@pytest.mark.parametrize(("key", "value"), RULES_VALUES.items())
def test_r10_3_every_rules_option_is_read_from_the_scenario(key, value):
    state = parse(DUEL + f"[rules]\n{key} = {json.dumps(value)}\n").state
    assert getattr(state.rules, key) == value
    assert state.rules == Rules(**{key: value})


@pytest.mark.parametrize(("key", "value"), SOLO_VALUES.items())
def test_r10_3_every_solo_setting_is_read_from_the_scenario(key, value):
    state = parse(SOLO + f"[solo]\n{key} = {json.dumps(value)}\n").state
    assert getattr(state.rules.solo, key) == value


def test_r10_3_ai_ability_none_is_the_word_none():
    assert parse(SOLO + '[solo]\nai_ability = "none"\n').state.rules.solo.ai_ability is None


# --- Honoured --------------------------------------------------------------------------------


def test_r10_3_incantations_in_siege_false_summon_only():
    with pytest.raises(Exception) as err:
        siege_with("r3_11_incantations_between_attacks", rules={"incantations_in_siege": False})
    assert getattr(err.value, "rule", None) == "R3.11"


def test_r10_3_protection_first_attack_versus_first_damage():
    base = siege("r6_4_secondary_hit_not_prevented_nor_used")
    other = siege_with("r6_4_secondary_hit_not_prevented_nor_used", rules={"protection": "first_damage"})
    assert (board(base)["B.upper"], board(other)["B.upper"]) == ("SHIELD(2)", "SHIELD(3)")


def test_r10_3_bloodlust_trigger_primary_versus_any():
    base = siege("r6_6_splash_kill_earns_no_bloodlust")
    other = siege_with("r6_6_splash_kill_earns_no_bloodlust", rules={"bloodlust_trigger": "any"})
    assert (len(attacks(base)), len(attacks(other))) == (1, 2)


def test_r10_3_ai_incantation_side_and_ai_last_turn():
    # Both are shown at length in test_r8_solo_siege; here: the options reach the AI.
    state = siege_state(with_tables("r8_7_reveal_flips_and_reveals_on", rules={"ai_last_turn": "current"}))
    play_step(state, END_TURN)
    assert board(state)["B.last_turn"] == "under_way"


def test_r10_1_turn_limit_stops_the_game_unfinished():
    state = parse(DUEL + "[rules]\nturn_limit = 3\n").state
    state.turn = 2
    apply(state, "siege")
    play_step(state, END_TURN)
    assert (state.turn, state.over) == (3, False)
    apply(state, "siege")
    play_step(state, END_TURN)
    assert state.over and state.winner is None and state.turn == 3
    assert board(state)["winner"] is None
    assert kinds(state)[-1] == "game_unfinished"


def test_r10_3_first_player_coin_versus_last_drafter():
    from clashkit.runs.game import new_game

    coin = {new_game("draft", "draft", "random", "random", seed=s)[0].first_player for s in range(12)}
    assert coin == {0, 1}
    rules = Rules(first_player="last_drafter")
    # R7.2: B leads the 4th round of the draft and takes its last card.
    drafted = {new_game("draft", "draft", "random", "random", rules=rules, seed=s)[0].first_player for s in range(12)}
    assert drafted == {1}


@pytest.mark.parametrize(("fixed", "per", "expected"), [(6, 1, 8), (7, 1, 9), (10, 2, 14)])
def test_r8_2_r10_3_ai_mana_fixed_plus_per_player_creature(fixed, per, expected):
    text = with_tables(
        "r8_4_ai_incantations", solo={"ai_fixed_mana": fixed, "ai_mana_per_creature": per}
    )  # the player has 2 creatures
    state = siege_state(text)
    play_step(state, END_TURN)
    assert state.mana_gained == expected


def test_r10_3_ai_first_and_ai_starts_as_fort():
    from clashkit.runs.game import new_solo

    decks = starter_decks()
    ai_cards = decks[2] + decks[3] + decks[4]
    plain = new_solo(decks[1], ai_cards, seed=3)
    assert (plain.active, plain.mana, plain.forts[1]) == (0, 6, False)
    custom = new_solo(decks[1], ai_cards, rules=Rules(solo=SoloSettings(ai_first=True, ai_starts_as_fort=True)), seed=3)
    assert custom.active == 1 and custom.forts[1] and board(custom)["B.pile"].endswith("FORT")
    assert custom.mana_gained == 6  # R8.1 Ruling: R8.2 unchanged (6 + 0 player creatures)


@pytest.mark.parametrize("ability", ["splash", "pierce", "rage", "protection", "bloodlust"])
def test_r8_9_ai_ability_on_every_ai_creature_only(ability):
    text = """
        card = [{ name = "C", kind = "creature", cost = 1, attack = 1, health = 3 }]
        [game]
        mode = "solo"
        [A]
        hand = ["BASTION", "C"]
        upper = ["C"]
        [B]
        pile = ["C", "BASTION"]
        upper = ["C", "C"]
        lower = ["C"]
    """
    state = parse(text + f'[solo]\nai_ability = "{ability}"\n').state
    bit = ABILITY_BITS[Ability(ability)]
    assert [abilities(state, 1, lane, pos) for lane, pos in ((0, 0), (0, 1), (1, 0))] == [bit, bit, bit]
    assert abilities(state, 0, 0, 0) == 0


def test_r8_9_ai_ability_protection_cancels_the_players_first_attack():
    out = siege_text(
        """
        card = [
          { name = "HIT", kind = "creature", cost = 1, attack = 2, health = 3 },
          { name = "C", kind = "creature", cost = 1, attack = 1, health = 3 },
        ]
        [game]
        mode = "solo"
        [solo]
        ai_ability = "protection"
        [A]
        hand = ["BASTION", "C"]
        upper = ["HIT", "HIT"]
        [B]
        pile = ["C", "BASTION"]
        upper = ["C"]
        """
    )
    assert board(out)["B.upper"] == "C(2)"


# --- Refused -----------------------------------------------------------------------------------

BAD_RULES = [
    ("incantations_in_siege", '"yes"'),
    ("incantations_in_siege", "1"),
    ("protection", '"always"'),
    ("protection", '"first-attack"'),
    ("bloodlust_trigger", '"primary_only"'),
    ("ai_incantation_side", '"enemy"'),
    ("ai_last_turn", '"previous"'),
    ("first_player", '"A"'),
    ("turn_limit", "0"),
    ("turn_limit", "true"),
    ("turn_limit", '"200"'),
    ("first_turn_mana", "13"),
    ("first_turn_mana", "-1"),
    ("first_turn_mana", '"x"'),
    ("first_turn_mana", "6.0"),
    ("first_turn_mana", "true"),
]
BAD_SOLO = [
    ("ai_fixed_mana", "5"),
    ("ai_fixed_mana", "11"),
    ("ai_fixed_mana", "6.0"),
    ("ai_mana_per_creature", "3"),
    ("ai_mana_per_creature", "true"),
    ("ai_first", '"no"'),
    ("ai_first", "1"),
    ("ai_starts_as_fort", "0"),
    ("ai_pile_damage", '"half"'),
    ("ai_pile_damage", '"minus-one"'),
    ("ai_ability", '"sprint"'),
    ("ai_ability", '"indestructible"'),
    ("ai_ability", '"SPLASH"'),
]


@pytest.mark.parametrize(("key", "value"), BAD_RULES)
def test_r10_3_bad_rules_values_are_refused(key, value):
    with pytest.raises(ScenarioError, match=rf"^<test>: \[rules\]: {key} = .*\((R2\.3, )?R10\.[13]"):
        parse(DUEL + f"[rules]\n{key} = {value}\n")


@pytest.mark.parametrize(("key", "value"), BAD_SOLO)
def test_r10_3_bad_solo_values_are_refused(key, value):
    with pytest.raises(ScenarioError, match=rf"^<test>: \[solo\]: {key} = .* is not allowed \(R10\.3"):
        parse(SOLO + f"[solo]\n{key} = {value}\n")


def test_r10_3_unknown_options_are_refused():
    with pytest.raises(
        ScenarioError, match=re.escape("<test>: [rules]: unknown option 'reach' (known: incantations_in_siege,")
    ):
        parse(DUEL + "[rules]\nreach = 2\n")
    with pytest.raises(
        ScenarioError, match=re.escape("<test>: [solo]: unknown option 'ai_mana' (known: ai_fixed_mana,")
    ):
        parse(SOLO + "[solo]\nai_mana = 8\n")


def test_r10_3_solo_settings_in_a_duel_are_refused():
    with pytest.raises(
        ScenarioError, match=re.escape("<test>: [solo]: settings for solo mode, but [game] mode is 'duel'")
    ):
        parse(DUEL + "[solo]\nai_fixed_mana = 8\n")


def test_r10_3_the_configuration_objects_refuse_bad_values_too():
    with pytest.raises(
        OptionError,
        match=r"^protection = 'never' is not allowed \(R10\.3, R10\.4: 'first_attack' \| 'first_damage' \| 'first_hit'\)$",
    ):
        Rules(protection="never")
    with pytest.raises(OptionError, match=r"^ai_first = 1 is not allowed"):
        SoloSettings(ai_first=1)
    with pytest.raises(OptionError, match=r"turn_limit = -5 must be a whole number"):
        Rules(turn_limit=-5)


# --- R10.4 Variant readings: each differs from its default, as its rule text says ----------------


def test_r10_4_protection_three_readings_of_one_position():
    def shield(**rules):
        out = siege_with("r10_4_protection_readings", rules=rules) if rules else siege("r10_4_protection_readings")
        return board(out)["B.upper"], board(out)["B.hand"]

    assert shield() == ("SHIELD(3)", "BASTION P FRONT")
    assert shield(protection="first_damage") == ("", "BASTION P FRONT SHIELD")
    assert shield(protection="first_hit") == ("SHIELD(4)", "BASTION P FRONT")


def test_r10_4_protection_first_hit_ignores_an_attack_of_zero():
    # r4_1's WEAK deals 0 to SHIELD first: first_attack spends Protection on it, first_hit does not.
    default = siege("r4_1_zero_damage_attack_is_still_an_attack")
    first_hit = siege_with("r4_1_zero_damage_attack_is_still_an_attack", rules={"protection": "first_hit"})
    assert (board(default)["B.upper"], board(first_hit)["B.upper"]) == ("SHIELD(2)", "SHIELD")


def test_r10_4_keep_distance_attack_leaves_sprints_bonus_out():
    default = siege("r4_7_keep_moves_sprint_bonus_included")
    attack = siege_with("r4_7_keep_moves_sprint_bonus_included", rules={"keep_distance": "attack"})
    assert (board(default)["B.hand_health"], board(attack)["B.hand_health"]) == (2, 4)
    assert board(attack)["B.hand"] == "PAWN BASTION PAWN PAWN PAWN PAWN"


def test_r10_4_keep_distance_attack_counts_weaken_and_empower():
    text = """
        card = [
          { name = "HITTER", kind = "creature", cost = 1, attack = 1, health = 3 },
          { name = "PUMP", kind = "incantation", cost = 0, effect = "empower 2", target = "ally" },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [game]
        actions = [{ play = "PUMP", target = "A.upper.0" }]
        [rules]
        keep_distance = "attack"
        [A]
        hand = ["PUMP", "BASTION", "P"]
        upper = ["HITTER"]
        [B]
        hand = ["BASTION", "P", "P", "P", "P", "P"]
    """
    assert board(siege_text(text))["B.hand_health"] == 2  # 1 + 2 = 3 places


def test_r10_4_keep_distance_attack_mills_the_ai_pile_by_the_damage():
    # R8.6 is unchanged: the sprinting attack mills 1 + 2 = 3 cards either way.
    text = """
        card = [
          { name = "RUNNER", kind = "creature", cost = 1, attack = 1, health = 1, abilities = ["sprint"] },
          { name = "F", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [game]
        mode = "solo"
        [A]
        hand = ["BASTION", "F"]
        upper = [{ card = "F", new = true }, { card = "F", new = true }, "RUNNER"]
        [B]
        pile = ["F", "F", "F", "F", "F", "BASTION"]
    """
    for distance in ("damage", "attack"):
        out = siege_text(text + f'[rules]\nkeep_distance = "{distance}"\n')
        assert board(out)["B.pile"] == "F F BASTION"


def test_r10_4_ai_reduced_scope_all_reduces_attacks_on_ai_creatures():
    default = siege_with("r10_4_ai_reduced_scope_all", solo={"ai_pile_damage": "minus_one"})
    assert (board(default)["B.upper"], board(default)["B.lower"]) == ("", "")
    assert board(default)["B.discard"] == "GOB GOB2"
    everything = siege_with(
        "r10_4_ai_reduced_scope_all", solo={"ai_pile_damage": "minus_one", "ai_reduced_scope": "all"}
    )
    assert (board(everything)["B.upper"], board(everything)["B.lower"]) == ("GOB(1)", "GOB2(1)")


def test_r10_4_ai_reduced_scope_all_with_one_makes_an_attack_of_zero_deal_one():
    text = scenario_text("r10_4_ai_reduced_scope_all").replace(
        'attack = 2, health = 3, abilities = ["splash"]', "attack = 0, health = 3"
    )
    text += '[solo]\nai_pile_damage = "one"\nai_reduced_scope = "all"\n'
    assert board(siege_text(text))["B.upper"] == "GOB(1)"


def test_r10_4_aura_until_holder_moves_loses_the_grant_of_a_slide():
    default = siege("r10_4_aura_until_holder_moves")
    moved = siege_with("r10_4_aura_until_holder_moves", rules={"aura": "until_holder_moves"})
    assert (board(default)["A.upper"], board(moved)["A.upper"]) == ("GUARDED HOLDER", "GUARDED(3) HOLDER")


def test_r10_4_aura_until_holder_moves_a_shifted_receiver_keeps_the_loss():
    """R5.5 shift out from in front of the holder: the gap closes, the holder moves, and the shifted
    receiver loses the grant although it is out of play for that instant (R10.4); back beside
    the holder in the other lane it stays lost (tests/fast/test_scenarios_both_engines.py plays
    this scenario in both engines)."""
    lost = siege("r10_4_aura_lost_by_a_shifted_receiver")
    text = scenario_text("r10_4_aura_lost_by_a_shifted_receiver").replace('"until_holder_moves"', '"adjacent"')
    adjacent = siege_text(text)
    assert (board(lost)["A.lower"], board(lost)["B.upper"], board(lost)["B.lower"]) == ("R", "WU(1)", "WL(2)")
    assert (board(adjacent)["B.upper"], board(adjacent)["B.lower"]) == ("WU(3)", "WL(2)")


def test_r10_4_aura_until_holder_moves_new_neighbour_gains_and_next_turn_restores():
    from clashkit.engine.destruction import destroy
    from clashkit.engine.turn import regenerate

    text = """
        card = [
          { name = "D", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "H", kind = "creature", cost = 1, attack = 1, health = 5, aura = "splash@side+behind" },
          { name = "C", kind = "creature", cost = 1, attack = 1, health = 5 },
        ]
        [rules]
        aura = "until_holder_moves"
        [A]
        hand = ["BASTION", "C"]
        upper = ["D", "H", "C"]
        lower = ["C", "C"]
        [B]
        hand = ["BASTION", "C"]
    """
    state = parse(text).state
    splash = ABILITY_BITS[Ability.SPLASH]
    held = [(0, 2), (1, 1)]  # H grants its behind neighbour and its side neighbour (position 1)
    assert [abilities(state, 0, lane, pos) for lane, pos in held] == [splash, splash]
    destroy(state, 0, [state.lanes[0][0][0]])  # D leaves: H and its behind neighbour slide forward
    # The behind neighbour, granted before the move, lost it though adjacent again; the lower
    # creature at position 0 is H's side neighbour only now and gains it; the one at 1 is no longer adjacent.
    assert [abilities(state, 0, 0, 1), abilities(state, 0, 1, 0), abilities(state, 0, 1, 1)] == [0, splash, 0]
    regenerate(state)  # R3.12: from the next turn adjacency decides anew
    assert [abilities(state, 0, 0, 1), abilities(state, 0, 1, 0)] == [splash, splash]


def test_r10_4_siege_order_fixed_attacks_in_the_slots_taken_at_the_start():
    live = siege("r10_4_siege_order_fixed")
    fixed = siege_with("r10_4_siege_order_fixed", rules={"siege_order": "fixed"})
    assert attacks(live) == ["A.L upper -> B.WU 2", "A.U upper -> B.WU 1"]
    assert attacks(fixed) == ["A.U upper -> B.WU 1", "A.L upper -> B.WU 2"]


def test_r10_4_siege_order_fixed_also_in_the_ai_siege_a_scenario_starts_in():
    """The fixed order is taken whenever a siege begins: also the solo AI's, which a scenario with
    the AI active starts in (R8.3a); both engines play it."""
    import numpy as np

    from clashkit.fast import play_out

    fixed = siege("r10_4_siege_order_fixed_in_the_ai_siege")
    assert attacks(fixed) == ["B.G upper -> A.BASTION 2"]
    assert board(fixed)["A.hand"] == "P P BASTION P"
    for order in ("live", "fixed"):
        text = scenario_text("r10_4_siege_order_fixed_in_the_ai_siege").replace('"fixed"', f'"{order}"')
        assert board(siege_text(text))["A.hand"] == "P P BASTION P", order
        # The fast engine from the same position: the AI's turn row moves A's keep 2 places, as the reference.
        state = parse(text).state
        ref = play(state.clone(), "greedy")
        fast = play_out(state, "greedy")
        rows = np.frombuffer(ref.turn_log, dtype=np.int16).reshape(-1, fast.tl.shape[1])
        assert fast.tl[0, TURN_FIELDS.index("keep_damage")] == rows[0, TURN_FIELDS.index("keep_damage")] == 2, order
        assert np.array_equal(fast.tl[: len(rows)], rows), order


def test_r10_4_siege_order_fixed_keeps_the_slot_of_a_creature_moved_up_and_back():
    # The R3.9 position whose live order takes X's turn away: with a fixed order X attacks in its slot.
    live = siege("r3_9_lost_turn_stays_lost_after_moving_back")
    fixed = siege_with("r3_9_lost_turn_stays_lost_after_moving_back", rules={"siege_order": "fixed"})
    assert (board(live)["B.lower"], board(fixed)["B.lower"]) == ("Z(1)", "Z(2)")
    assert attacks(fixed) == ["A.Y lower -> B.Z 1", "A.X lower -> B.Z 1"]


def test_r10_4_bloodlust_per_creature_one_extra_attack_for_each_destroyed():
    readings = {
        trigger: siege_with("r10_4_bloodlust_per_creature", rules={"bloodlust_trigger": trigger})
        for trigger in ("primary", "any", "per_creature")
    }
    assert {t: board(out)["B.upper"] for t, out in readings.items()} == {
        "primary": "BIG(4)",
        "any": "BIG(4)",
        "per_creature": "BIG(6)",
    }
    assert attacks(readings["per_creature"]) == [
        "A.BL upper -> B.P1 2",
        "A.BL upper -> B.BIG 2",
        "A.BL upper -> B.BIG 2",
    ]


def test_r10_4_bloodlust_per_creature_pending_attacks_are_lost_at_the_keep():
    # Three destroyed by the first attack, three extra attacks earned: the first goes to the
    # empty lane's keep and the chain ends there (R6.6), the other two are lost.
    text = """
        card = [
          { name = "BL", kind = "creature", cost = 1, attack = 1, health = 5, abilities = ["bloodlust", "splash", "pierce"] },
          { name = "P", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [rules]
        bloodlust_trigger = "per_creature"
        [A]
        hand = ["BASTION", "P"]
        upper = ["BL"]
        [B]
        hand = ["BASTION", "P", "P", "P", "P", "P", "P"]
        upper = ["P", "P"]
        lower = ["P"]
    """
    out = siege_text(text)
    assert attacks(out) == ["A.BL upper -> B.P 1", "A.BL upper -> B.BASTION 1"]
    assert board(out)["B.hand_health"] == 8


def test_r10_4_solo_player_first_mana_when_the_ai_starts():
    from clashkit.runs.game import new_solo

    decks = starter_decks()
    ai_cards = decks[2] + decks[3] + decks[4]
    gained = {}
    for reading in ("hand", "six"):
        rules = Rules(solo_player_first_mana=reading, solo=SoloSettings(ai_first=True))
        state = new_solo(decks[1], ai_cards, rules=rules, seed=3)
        while state.active == 1 and not state.over:
            apply(state, legal_actions(state)[-1])
        gained[reading] = (state.turn, state.mana_gained, len(state.hands[0]))
    assert gained["hand"] == (2, 9, 9)  # R3.1: the keep and 8 cards
    assert gained["six"] == (2, 6, 9)


# --- Recorded with the game, refused where it means nothing ------------------------------------


def test_r10_4_the_games_frame_says_which_reading_produced_each_game():
    from clashkit.base.rules import RULES_VERSION
    from clashkit.runs.simulate import simulate

    rules = {"siege_order": "fixed", "protection": "first_hit"}
    games = simulate(3, "1", "2", "greedy", rules=rules, record_events=False).games
    assert games["rules"].to_list() == ["protection=first_hit,siege_order=fixed"] * 3
    assert games["rules_version"].to_list() == [RULES_VERSION] * 3
    solo = simulate(2, "1", None, mode="solo", settings={"ai_reduced_scope": "all"}, record_events=False).games
    assert solo["rules"].to_list() == ["ai_reduced_scope=all"] * 2
    assert simulate(1, "1", "2", record_events=False).games["rules"].to_list() == [""]


def test_r10_4_rules_changes_text_reads_back_as_the_same_options():
    from clashkit.base.rules import parse_settings

    rules = Rules(
        keep_distance="attack", aura="until_holder_moves", solo=SoloSettings(ai_first=True, ai_ability="rage")
    )
    text = rules.changes()
    assert text == "keep_distance=attack,aura=until_holder_moves,ai_first=true,ai_ability=rage"
    values = parse_settings(text)
    solo_keys = set(SoloSettings.__dataclass_fields__)
    back = Rules.from_mapping({k: v for k, v in values.items() if k not in solo_keys}).replace(
        solo=SoloSettings.from_mapping({k: v for k, v in values.items() if k in solo_keys})
    )
    assert back == rules


def test_r10_3_last_drafter_is_refused_outside_a_draft():
    from clashkit.runs.game import new_game
    from clashkit.runs.simulate import simulate

    with pytest.raises(
        OptionError,
        match=r"^first_player = 'last_drafter' needs a draft \(R2\.3, R7\.2\); this game's format is preconstructed",
    ):
        simulate(2, "1", "2", rules={"first_player": "last_drafter"})
    with pytest.raises(OptionError, match=r"^first_player = 'last_drafter' is a duel option \(R2\.3\)"):
        simulate(2, "1", None, mode="solo", rules={"first_player": "last_drafter"})
    with pytest.raises(OptionError, match="this game's format is constructed"):
        new_game("constructed", "constructed", "random", "random", rules=Rules(first_player="last_drafter"))


@pytest.mark.parametrize("value", ["13", "-1", "x"])
def test_r2_3_r10_3_first_turn_mana_out_of_range_is_one_line(value):
    from helpers import cli

    done = cli("simulate", "-n", "1", "--rules", f"first_turn_mana={value}", "--out", "/tmp/never-written")
    assert done.returncode == 2 and done.stdout == ""
    shown = repr(value) if value == "x" else value
    assert done.stderr == (
        f"clashkit: error: --rules: first_turn_mana = {shown} must be a whole number 0…12 (R2.3, R10.3)\n"
    )


def test_r2_3_first_turn_mana_is_refused_in_solo():
    """Solo's first turn is R8.1's (or R10.4's ``solo_player_first_mana``), never the duel option."""
    from helpers import deal_solo

    from clashkit.runs.simulate import simulate

    with pytest.raises(OptionError, match=r"^first_turn_mana = 5 is a duel option \(R2\.3, R10\.3\); in solo the"):
        simulate(1, "1", None, mode="solo", rules={"first_turn_mana": 5})
    assert deal_solo(seed=2).mana == 6  # R8.1


def test_r7_3_solo_has_no_constructed_format():
    from clashkit import DeckError
    from clashkit.runs.simulate import simulate

    with pytest.raises(DeckError, match=r"^deck A: solo has no constructed format \(R7\.3 is a duel format\)"):
        simulate(1, "constructed", None, mode="solo")


@pytest.mark.parametrize("flag", ["--rules", "--settings"])
def test_r10_unknown_option_messages_name_every_known_option(flag):
    from helpers import cli

    extra = ["--mode", "solo", "--a", "1"] if flag == "--settings" else []
    done = cli("simulate", "-n", "1", *extra, flag, "nonsense=1", "--no-events", "--out", "/tmp/never-written")
    assert done.returncode == 2 and done.stdout == ""
    fields = Rules.__dataclass_fields__ if flag == "--rules" else SoloSettings.__dataclass_fields__
    known = [name for name in fields if name != "solo"]
    assert done.stderr.strip().endswith(f"(known: {', '.join(known)})")
