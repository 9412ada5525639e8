"""R8 Solo mode, the whole game: setup (R8.1), the AI's mana (R8.2), reveals (R8.3), incantations
(R8.4), its discard and pile (R8.5–R8.7), losing (R8.8) and custom difficulty (R8.9).

The AI's summon phase plays itself at the start of its turn, and a scenario
whose active player is the AI starts in its siege; so the summon tests build
the position with the player active, hand the turn to the AI and call
:func:`clashkit.engine.turn.start_turn` — exactly what the game loop does.
"""

from __future__ import annotations

import re

import pytest
from helpers import board, kinds, parse, play_step, siege_text, turn_starts

from clashkit import DeckError, OptionError, Rules, SoloSettings
from clashkit.base.levels import (
    DEFAULT_LEVELS,
    LEVELS,
    POINTS,
    all_settings,
    check_level,
    level_settings,
    parse_level,
    points,
    solo_settings,
)
from clashkit.base.rng import Rng
from clashkit.base.vocab import KEEP
from clashkit.engine.actions import ATTACK, END_TURN
from clashkit.engine.solo_setup import deck_format, solo_setup, starter_pool
from clashkit.engine.state import GameState
from clashkit.policies import Policy, get_policy
from clashkit.show.render import event_dicts

CARDS = """
card = [
  { name = "C0",   kind = "creature", cost = 0, attack = 1, health = 1 },
  { name = "C1",   kind = "creature", cost = 1, attack = 1, health = 2 },
  { name = "C2",   kind = "creature", cost = 2, attack = 2, health = 2 },
  { name = "C3",   kind = "creature", cost = 3, attack = 3, health = 3 },
  { name = "C5",   kind = "creature", cost = 5, attack = 5, health = 5 },
  { name = "ZAP",  kind = "incantation", cost = 1, effect = "damage 2",  target = "enemy" },
  { name = "PUMP", kind = "incantation", cost = 2, effect = "empower 1", target = "ally" },
  { name = "SWAP", kind = "incantation", cost = 1, effect = "shift",     target = "any" },
  { name = "RUNNER", kind = "creature", cost = 1, attack = 2, health = 2, abilities = ["sprint", "bloodlust"] },
]
"""


def ai_turn(position: str, seed: int = 0) -> GameState:
    """The AI's turn from ``position`` (a solo scenario, player active): mana, summon (R8.2–R8.4).

    Returns the state in the AI's siege, before its first attack.
    """
    state = parse(CARDS + f'[game]\nmode = "solo"\nseed = {seed}\n' + position).state
    state.active, state.turn = 1, 2
    turn_starts(state)
    return state


def reveals(state: GameState) -> list[str]:
    """Every AI reveal as ``"CARD lane total-before"``."""
    events = event_dicts(state)
    return [f"{e['card']} {e['lane']} {e['amount']}" for e in events if e["kind"] == "ai_reveal"]


def finish_ai_turn(state: GameState) -> None:
    """Run the rest of the AI's siege and end its turn (it makes no choices)."""
    while state.active == 1 and not state.over:
        play_step(state, ATTACK if next_attack(state) else END_TURN)


def next_attack(state: GameState) -> bool:
    from clashkit.engine.siege import next_in_order

    return next_in_order(state) is not None


# --- R8.1 Setup --------------------------------------------------------------------


class PickLast(Policy):
    """Picks the last revealed card and remembers every offer."""

    name = "pick-last"

    def __init__(self) -> None:
        self.offers: list[list[int]] = []

    def pick(self, cards, offered, mine, rng):
        self.offers.append(list(offered))
        return offered[-1]


def test_r8_1_draft_reveals_four_player_picks_one_ai_gets_three():
    policy = PickLast()
    setup = solo_setup("draft", policy, seed=11)
    cards = setup.state.cards
    # The offers are the shuffled 32, four at a time, from the game's generator (R10.2).
    pool = starter_pool(cards)
    Rng(11).shuffle(pool)
    assert policy.offers == [pool[i : i + 4] for i in range(0, 32, 4)]
    assert setup.format == "draft"
    assert setup.player_deck == tuple(cards.names[o[-1]] for o in policy.offers)
    assert setup.ai_cards == tuple(cards.names[c] for o in policy.offers for c in o[:-1])
    assert len(setup.player_deck) == 8 and len(setup.ai_cards) == 24
    all_32 = sorted(cards.names[c] for c in starter_pool(cards))
    assert sorted(setup.player_deck + setup.ai_cards) == all_32


def test_r8_1_hand_keep_leftmost_pile_keep_at_bottom_player_starts_with_6():
    setup = solo_setup("draft", PickLast(), seed=3)
    state, cards = setup.state, setup.state.cards
    hand, pile = state.hands[0], state.pile
    assert hand[0] == KEEP and sorted(cards.names[c] for c in hand[1:]) == sorted(setup.player_deck)
    assert pile[-1] == KEEP and KEEP not in pile[:-1]
    assert sorted(cards.names[c] for c in pile[:-1]) == sorted(setup.ai_cards)
    assert state.discard == [] and state.forts == [False, False]
    assert (state.hand_health(0), state.hand_health(1)) == (8, 24)
    assert (state.active, state.turn, state.mana, state.first_player) == (0, 1, 6, 0)


def test_r8_1_preconstructed_player_deck_against_the_other_three():
    setup = solo_setup(3, seed=5)
    cards = setup.state.cards
    decks = cards.decks
    assert setup.format == "preconstructed"
    assert setup.player_deck == tuple(decks[3])
    assert setup.ai_cards == tuple(decks[1] + decks[2] + decks[4])
    assert solo_setup("3", seed=5).player_deck == tuple(decks[3])


def test_r8_1_named_deck_ai_gets_the_other_24():
    names = "BRUTE,OGRE,GNOME,GRRR,MARTYR,ZOMBIE,REPTILE,CYCLONE"
    setup = solo_setup(names, seed=1)
    assert setup.format == "custom"
    assert setup.player_deck == tuple(names.split(","))
    assert len(setup.ai_cards) == 24 and not set(setup.ai_cards) & set(names.split(","))
    assert solo_setup(names.split(","), seed=1).ai_cards == setup.ai_cards
    assert [deck_format(d) for d in (names, names.split(","), 3, "4", "draft")] == [
        "custom",
        "custom",
        "preconstructed",
        "preconstructed",
        "draft",
    ]


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (5, "deck 5: not a starter deck"),
        ("BRUTE,OGRE", "a hand has 8 cards (R8.1), got 2"),
        ("BRUTE,OGRE,GNOME,GRRR,MARTYR,ZOMBIE,REPTILE,NOBODY", "unknown card 'NOBODY'"),
    ],
)
def test_r8_1_bad_decks_are_refused(deck, message):
    with pytest.raises(DeckError, match=re.escape(message)):
        solo_setup(deck)


def test_r8_1_a_pick_outside_the_revealed_four_is_refused():
    class Cheat(Policy):
        name = "cheat"

        def pick(self, cards, offered, mine, rng):
            return cards.id("BARON") if cards.id("BARON") not in offered else cards.id("TROLL")

    with pytest.raises(DeckError, match="not one of the 4 revealed"):
        solo_setup("draft", Cheat(), seed=0)


def test_r8_1_same_seed_same_setup():
    a, b = solo_setup("draft", get_policy("random"), seed=9), solo_setup("draft", get_policy("random"), seed=9)
    assert (a.player_deck, a.ai_cards) == (b.player_deck, b.ai_cards)
    assert (a.state.hands, a.state.pile) == (b.state.hands, b.state.pile)
    assert solo_setup("draft", get_policy("random"), seed=10).state.pile != a.state.pile


def test_r8_1_ruling_ai_starts_follows_r8_2_then_player_follows_r3_1():
    rules = Rules(solo=SoloSettings(ai_first=True))
    state = solo_setup(1, rules=rules, seed=2).state
    events = event_dicts(state)
    first = [e for e in events if e["turn"] == 1]
    assert state.first_player == 1
    assert [e["amount"] for e in first if e["kind"] == "mana_gained"] == [6]  # 6 + 1 × 0 creatures
    assert "ai_reveal" in {e["kind"] for e in first}
    assert (state.active, state.turn) == (1, 1)  # the AI's siege is next
    finish_ai_turn(state)
    # The player's first turn: mana = cards in hand, keep included (R3.1), not 6.
    # (The AI's creatures are all new in its first turn: none could hit the player's keep.)
    assert (state.active, state.turn, state.mana, len(state.hands[0])) == (0, 2, 9, 9)


def test_r8_1_custom_ai_keep_starts_as_fort():
    state = solo_setup(2, rules=Rules(solo=SoloSettings(ai_starts_as_fort=True)), seed=0).state
    assert state.forts == [False, True]


# --- R8.2 AI mana ------------------------------------------------------------------


@pytest.mark.parametrize("per_creature", [1, 2])
@pytest.mark.parametrize("fixed", [6, 7, 8, 9, 10])
def test_r8_2_fixed_plus_variable_per_player_creature(fixed, per_creature):
    state = ai_turn(
        f"""
        [solo]
        ai_fixed_mana = {fixed}
        ai_mana_per_creature = {per_creature}
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C1", "C1"]
        lower = ["C1"]
        [B]
        pile = ["C5", "C5", "C5", "C5", "C5", "BASTION"]
        """
    )
    mana = fixed + per_creature * 3
    assert [e["amount"] for e in event_dicts(state) if e["kind"] == "mana_gained"] == [mana]
    # Reveals of cost 5 until the total reaches the mana.
    count = -(-mana // 5)
    assert len(reveals(state)) == count
    assert state.hand_health(1) == 5 - count
    assert state.mana == 0  # the revealed total reached the mana


def test_r8_2_quick_game_with_no_player_creature_is_6():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C2", "C2", "C2", "C2", "BASTION"]
        """
    )
    assert state.mana_gained == 6
    assert reveals(state) == ["C2 upper 0", "C2 lower 2", "C2 upper 4"]


# --- R8.3 AI summon ----------------------------------------------------------------


def test_r8_3_reveals_until_total_reaches_mana_lanes_alternate():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C2", "C3", "C1", "C2", "C5", "BASTION"]
        upper = ["C0"]
        """
    )
    assert reveals(state) == ["C2 upper 0", "C3 lower 2", "C1 upper 5"]
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION C1",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "C2 C5 BASTION",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 2,
        "B.upper": "C0 C2 C1",
        "B.lower": "C3",
    }
    # The revealed creatures are new: they do not attack this turn (R3.10).
    assert [c.new for c in state.lanes[1][0]] == [False, True, True]


def test_r8_3_the_last_reveal_may_exceed_the_mana():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C5", "C3", "C1", "BASTION"]
        """
    )
    assert reveals(state) == ["C5 upper 0", "C3 lower 5"]
    assert board(state)["B.pile"] == "C1 BASTION"
    assert state.mana == 0


def test_r8_3_zero_cost_cards_count_nothing():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C0", "C0", "C5", "C1", "C0", "BASTION"]
        """
    )
    assert reveals(state) == ["C0 upper 0", "C0 lower 0", "C5 upper 0", "C1 lower 5"]
    assert (board(state)["B.upper"], board(state)["B.lower"]) == ("C0 C5", "C0 C1")


def test_r8_3_r8_7_bastion_alone_mid_summon_flips_and_reveals_go_on_with_the_total():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C2", "C3", "BASTION"]
        discard = ["C3", "C3", "C3"]
        [solo]
        ai_fixed_mana = 8
        """
    )
    # C2 + C3 = 5 < 8; the Bastion is alone: flip, the discard becomes the new pile,
    # and one more C3 brings the carried total to 8.
    assert reveals(state) == ["C2 upper 0", "C3 lower 2", "C3 upper 5"]
    assert kinds(event_dicts_state(state), "ai_reveal", "keep_flipped", "ai_reshuffle") == [
        "ai_reveal",
        "ai_reveal",
        "keep_flipped",
        "ai_reshuffle",
        "ai_reveal",
    ]
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION C1",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "C3 C3 FORT",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 2,
        "B.upper": "C2 C3",
        "B.lower": "C3",
    }


def test_r8_3_r8_7_flip_comes_before_the_revealed_incantation_resolves():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C2"]
        [B]
        pile = ["ZAP", "BASTION"]
        discard = ["C1"]
        """
    )
    # ZAP leaves the Bastion alone: it flips at once and the discard (C1) is the new
    # pile; then ZAP destroys the player's C2 and goes to the (new, empty) discard;
    # C1 is revealed into the lower lane and the Fort is alone: the summon stops.
    assert reveals(state) == ["ZAP upper 0", "C1 lower 1"]
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION C1 C2",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.pile": "FORT",
        "B.discard": "ZAP",
        "B.last_turn": "pending",
        "B.hand_health": 0,
        "B.upper": "",
        "B.lower": "C1",
    }
    assert state.mana_gained == 7  # 6 + 1 player creature at the mana phase
    assert state.mana == 5


def test_r8_3_bastion_alone_with_empty_discard_is_the_fort_alone_and_reveals_stop():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["C1", "BASTION"]
        """
    )
    assert reveals(state) == ["C1 upper 0"]
    assert board(state)["B.pile"] == "FORT" and board(state)["B.last_turn"] == "pending"
    assert kinds(event_dicts_state(state), "keep_flipped", "ai_reshuffle", "ai_last_turn") == [
        "keep_flipped",
        "ai_reshuffle",
        "ai_last_turn",
    ]


def test_r8_3_no_reveal_with_the_fort_alone():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["FORT"]
        upper = ["C3"]
        last_turn = "pending"
        """
    )
    assert reveals(state) == []
    assert board(state)["B.last_turn"] == "under_way"


def event_dicts_state(state: GameState) -> dict:
    return {"events": event_dicts(state)}


# --- R8.4 AI incantations ----------------------------------------------------------


def test_r8_4_enemy_incantation_hits_player_creature_nearest_bridge_in_its_lane():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        lower = ["C2", "C3"]
        [B]
        pile = ["C1", "ZAP", "C5", "C5", "C5", "BASTION"]
        """
    )
    # 6 + 3 player creatures = 9 mana.  C1 takes the upper slot; ZAP the lower one: it
    # destroys the player's C2 at lower.0 (not the C3 in the upper lane, nor the C3
    # behind), which returns to the player's hand.
    assert state.mana_gained == 9
    assert reveals(state) == ["C1 upper 0", "ZAP lower 1", "C5 upper 2", "C5 lower 7"]
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION C1 C2",
        "A.hand_health": 2,
        "A.upper": "C3",
        "A.lower": "C3",
        "B.pile": "C5 BASTION",
        "B.discard": "ZAP",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "C1 C5",
        "B.lower": "C5",
    }


def test_r8_4_ally_incantation_helps_the_ai_creature_nearest_bridge_in_its_lane():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        [B]
        pile = ["PUMP", "C5", "C5", "BASTION"]
        upper = ["C1", "C2"]
        """
    )
    assert reveals(state) == ["PUMP upper 0", "C5 lower 2"]
    assert [c.attack_mod for c in state.lanes[1][0]] == [1, 0]
    assert [c.attack_mod for c in state.lanes[0][0]] == [0]
    assert board(state)["B.discard"] == "PUMP"


def test_r8_4_any_incantation_aims_at_the_player():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C1", "C2"]
        [B]
        pile = ["SWAP", "C5", "C5", "C5", "BASTION"]
        upper = ["C3"]
        """
    )
    # SWAP (shift) moves the player's C1 to the back of the player's lower lane.
    out = board(state)
    assert reveals(state) == ["SWAP upper 0", "C5 lower 1", "C5 upper 6"]
    seen = (out["A.upper"], out["A.lower"], out["B.upper"], out["B.discard"])
    assert seen == ("C2", "C1", "C3 C5", "SWAP")


def test_r8_4_no_target_discarded_without_counting_and_its_lane_slot_is_used():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        lower = ["C3"]
        [B]
        pile = ["ZAP", "C3", "C3", "C1", "BASTION"]
        """
    )
    # ZAP has no player creature in the upper lane: no effect, 0 toward the total.
    assert reveals(state) == ["ZAP upper 0", "C3 lower 0", "C3 upper 3", "C1 lower 6"]
    wanted = ("incantation_resolved", "card_discarded")
    assert kinds(event_dicts_state(state), *wanted) == ["card_discarded"]
    assert state.mana_gained == 7
    # C1 leaves the Bastion alone: it flips, the discard (ZAP) is the new pile.
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION C1",
        "A.hand_health": 1,
        "A.upper": "",
        "A.lower": "C3",
        "B.pile": "ZAP FORT",
        "B.discard": "",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "C3",
        "B.lower": "C3 C1",
    }


def test_r8_4_declared_side_ignores_the_other_side():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["ZAP", "C5", "C5", "C5", "BASTION"]
        upper = ["C2"]
        """
    )
    # The enemy ZAP finds no player creature in the upper lane: it does nothing to the AI's C2.
    assert reveals(state) == ["ZAP upper 0", "C5 lower 0", "C5 upper 5"]
    assert board(state)["B.upper"] == "C2 C5" and state.lanes[1][0][0].damage == 0
    assert board(state)["B.discard"] == "ZAP"


def test_r8_4_option_either_takes_the_other_side_when_the_declared_one_is_empty():
    state = ai_turn(
        """
        [rules]
        ai_incantation_side = "either"
        [A]
        hand = ["BASTION", "C1"]
        [B]
        pile = ["ZAP", "C5", "C5", "BASTION"]
        upper = ["C2", "C1"]
        """
    )
    # The enemy ZAP finds no player creature in the upper lane, so it takes the AI's own
    # C2 (nearest the bridge), destroying it: C2 goes to the AI discard; ZAP counts.
    assert reveals(state) == ["ZAP upper 0", "C5 lower 1"]
    out = board(state)
    seen = (out["B.pile"], out["B.upper"], out["B.lower"], out["B.discard"])
    assert seen == ("C5 BASTION", "C1", "C5", "C2 ZAP")


def test_r8_4_option_either_the_declared_side_breaks_the_tie():
    state = ai_turn(
        """
        [rules]
        ai_incantation_side = "either"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        [B]
        pile = ["PUMP", "C5", "C5", "BASTION"]
        upper = ["C1"]
        """
    )
    # Both sides have a creature at position 0 of the upper lane: PUMP (ally) takes the AI's.
    assert [c.attack_mod for c in state.lanes[1][0]][:1] == [1]
    assert [c.attack_mod for c in state.lanes[0][0]] == [0]


def test_r8_4_option_either_ally_incantation_may_help_the_player():
    state = ai_turn(
        """
        [rules]
        ai_incantation_side = "either"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        [B]
        pile = ["PUMP", "C5", "C5", "BASTION"]
        """
    )
    assert [c.attack_mod for c in state.lanes[0][0]] == [1]
    assert board(state)["B.discard"] == "PUMP"


# --- R8.5–R8.8 The AI's discard, pile, keep and the end ------------------------------


def test_r8_5_r8_6_player_siege_mills_top_first_and_destroyed_ai_creatures_go_to_discard():
    out = siege_text(
        CARDS
        + """
        [game]
        mode = "solo"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        lower = ["C2"]
        [B]
        pile = ["C2", "C1", "C0", "C5", "BASTION"]
        lower = ["C2"]
        """
    )
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION C1",
        "A.hand_health": 1,
        "A.upper": "C3",
        "A.lower": "C2",
        "B.pile": "C5 BASTION",
        "B.discard": "C2 C1 C0 C2",
        "B.last_turn": "none",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }
    assert kinds(out, "ai_mill", "card_discarded") == ["ai_mill"] * 3 + ["card_discarded"]


def test_r8_6_r8_7_excess_is_lost_and_the_lone_bastion_flips_mid_siege():
    out = siege_text(
        CARDS
        + """
        [game]
        mode = "solo"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        lower = ["C2"]
        [B]
        pile = ["C1", "C1", "BASTION"]
        discard = ["C0"]
        """
    )
    # C3 mills 2 (the third point is lost): the Bastion is alone, flips, and the discard
    # C0 C1 C1, shuffled by the game's generator (seed 0, its first draw), becomes the new
    # pile on the Fort; C2 then mills its top 2.
    new_pile = ["C0", "C1", "C1"]
    Rng(0).shuffle(new_pile)
    out_board = board(out)
    seen = (out_board["B.pile"], out_board["B.discard"])
    assert seen == (f"{new_pile[2]} FORT", " ".join(new_pile[:2]))
    assert out_board["B.hand_health"] == 1
    assert [e["amount"] for e in out["events"] if e["kind"] == "attack"] == [3, 2]
    assert kinds(out, "ai_mill", "keep_flipped", "ai_reshuffle") == [
        "ai_mill",
        "ai_mill",
        "keep_flipped",
        "ai_reshuffle",
        "ai_mill",
        "ai_mill",
    ]


def test_r8_7_fort_alone_next_ai_turn_is_last_and_player_wins_at_its_end():
    state = ai_turn(
        """
        [A]
        hand = ["BASTION", "C1", "C1", "C1"]
        [B]
        pile = ["FORT"]
        upper = ["C1"]
        last_turn = "pending"
        """
    )
    finish_ai_turn(state)
    # C1 hits the player's keep once (hand-health 3 → 2); the player has not lost: the player wins.
    assert state.winner == 0
    assert board(state)["A.hand"] == "C1 BASTION C1 C1"
    ends = kinds(event_dicts_state(state), "ai_last_turn", "game_won")
    assert ends == ["ai_last_turn", "game_won"]


def test_r8_7_fort_exposed_in_the_ai_turn_ruling_next_and_option_current():
    position = """
        [A]
        hand = ["BASTION", "C1", "C1", "C1"]
        [B]
        pile = ["C1", "BASTION"]
        """
    state = ai_turn(position)
    finish_ai_turn(state)
    assert state.winner is None and state.active == 0 and state.ai_last_turn == 1  # pending
    state = ai_turn('[rules]\nai_last_turn = "current"\n' + position)
    assert board(state)["B.last_turn"] == "under_way"
    finish_ai_turn(state)
    assert state.winner == 0


def test_r8_8_ai_wins_when_the_player_fort_reaches_the_rightmost_place():
    out = siege_text(
        CARDS
        + """
        [game]
        mode = "solo"
        active = "B"
        [A]
        hand = ["C1", "FORT", "C1"]
        [B]
        pile = ["C1", "C1", "BASTION"]
        upper = ["C1"]
        lower = ["C3"]
        """
    )
    assert board(out)["winner"] == "B"
    assert board(out)["A.hand"] == "C1 C1 FORT"
    assert kinds(out, "attack", "game_won") == ["attack", "game_won"]


def test_r8_8_ai_can_still_win_in_its_last_turn():
    state = ai_turn(
        """
        [A]
        hand = ["C1", "FORT", "C1"]
        [B]
        pile = ["FORT"]
        upper = ["C1"]
        last_turn = "pending"
        """
    )
    finish_ai_turn(state)
    assert state.winner == 1


# --- R8.9 Custom games: difficulty ---------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "value", "worth"),
    [(name, value, worth) for name, choices in POINTS.items() for value, worth in choices.items()],
)
def test_r8_9_points_table(setting, value, worth):
    settings = SoloSettings.from_mapping({setting: value})
    assert points(settings) == settings.points == worth


def test_r8_9_points_add_up_over_every_combination():
    combos = all_settings()
    assert len(combos) == 2 * 5 * 2 * 2 * 3 * 6
    assert all(points(s) == s.points for s in combos)
    assert (
        points(
            {
                "ai_mana_per_creature": 2,
                "ai_fixed_mana": 10,
                "ai_first": True,
                "ai_pile_damage": "one",
                "ai_ability": "rage",
            }
        )
        == 10
    )
    assert points({"ai_starts_as_fort": True}) == -1


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_r8_9_each_level_default_is_worth_the_level(level):
    assert points(level_settings(level)) == level
    expected = SoloSettings(**DEFAULT_LEVELS[level])
    assert solo_settings(level=level) == level_settings(level) == expected


def test_r8_9_settings_must_add_up_to_the_level():
    assert solo_settings(3, {"ai_fixed_mana": 9}) == SoloSettings(ai_fixed_mana=9)
    assert solo_settings(2, {"ai_fixed_mana": 9, "ai_starts_as_fort": True}).points == 2
    message = "worth 3 difficulty points (ai_fixed_mana=9 +3), but level 2 (Medium) needs 2"
    with pytest.raises(OptionError, match=re.escape(message)):
        solo_settings(2, {"ai_fixed_mana": 9})
    with pytest.raises(OptionError, match="worth 0 difficulty points"):
        check_level({}, "hard")
    # Free-form settings skip the check.
    assert solo_settings(1, {"ai_fixed_mana": 10, "ai_first": True}, free=True).points == 5
    assert solo_settings(None, {"ai_pile_damage": "one"}).points == 2


def test_r8_9_levels_by_number_or_name():
    names = (1, "2", "hard", "Heroic", "mythic", "LEGENDARY", "quick")
    assert [parse_level(x) for x in names] == [1, 2, 3, 4, 5, 5, 0]
    for bad in (6, -1, "impossible", True):
        with pytest.raises(OptionError, match="is not a level"):
            parse_level(bad)


def test_r8_9_unknown_or_out_of_range_settings_are_refused():
    with pytest.raises(OptionError, match="ai_fixed_mana = 11"):
        solo_settings(None, {"ai_fixed_mana": 11})
    with pytest.raises(OptionError, match="unknown option 'ai_speed'"):
        solo_settings(None, {"ai_speed": 3})
    with pytest.raises(OptionError, match="ai_pile_damage = 'reduced'"):
        solo_settings(None, {"ai_pile_damage": "reduced"})


PILE_HIT = """
[game]
mode = "solo"
[A]
hand = ["BASTION", "C1"]
upper = [{{ card = "{card}" }}]
[B]
pile = ["C1", "C1", "C1", "C1", "C1", "C1", "BASTION"]
[solo]
ai_pile_damage = "{reading}"
"""


@pytest.mark.parametrize(
    ("card", "reading", "milled"),
    [
        ("C3", "full", 3),
        ("C3", "minus_one", 2),
        ("C3", "one", 1),
        ("C1", "full", 1),
        ("C1", "minus_one", 0),
        ("C1", "one", 1),
        ("C5", "minus_one", 4),
        ("C5", "one", 1),
    ],
)
def test_r8_9_both_readings_of_reduced_damage_to_the_ai_pile(card, reading, milled):
    out = siege_text(CARDS + PILE_HIT.format(card=card, reading=reading))
    assert board(out)["B.hand_health"] == 6 - milled
    assert [e["amount"] for e in out["events"] if e["kind"] == "attack"] == [milled]
    assert len(board(out)["B.discard"].split()) == milled


@pytest.mark.parametrize("reading", ["minus_one", "one"])
def test_r8_9_reduced_damage_never_applies_to_ai_creatures(reading):
    out = siege_text(
        CARDS
        + f"""
        [game]
        mode = "solo"
        [solo]
        ai_pile_damage = "{reading}"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3"]
        [B]
        pile = ["C1", "C1", "BASTION"]
        upper = ["C3"]
        """
    )
    assert board(out)["B.upper"] == "" and board(out)["B.discard"] == "C3"


def test_r8_9_reduced_damage_applies_per_attack_after_sprint_bonus_and_to_bloodlust_follow_ups():
    out = siege_text(
        CARDS
        + """
        [game]
        mode = "solo"
        [solo]
        ai_pile_damage = "minus_one"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C1", "C1", "RUNNER"]
        [B]
        pile = ["C1", "C1", "C1", "C1", "C1", "C1", "C1", "C1", "C1", "C1", "BASTION"]
        upper = ["C2"]
        """
    )
    # RUNNER sprints past two (2 + 2 = 4), destroys C2, and its Bloodlust attack hits the pile:
    # 4 - 1 = 3 cards; then each C1 (attack 1) mills 1 - 1 = 0.
    assert [e["amount"] for e in out["events"] if e["kind"] == "attack"] == [4, 3, 0, 0]
    assert board(out)["B.hand_health"] == 7


@pytest.mark.parametrize("ability", ["splash", "pierce", "rage", "protection", "bloodlust"])
def test_r8_9_every_ai_creature_has_the_given_ability(ability):
    from clashkit.base.vocab import Ability
    from clashkit.engine.abilities import abilities

    state = ai_turn(
        f"""
        [solo]
        ai_ability = "{ability}"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C1"]
        [B]
        pile = ["C5", "C5", "BASTION"]
        upper = ["C2"]
        """
    )
    bit = Ability(ability).bit
    ai_places = [(lane, pos) for player, lane, pos, _ in state.in_play() if player == 1]
    assert len(ai_places) == 3
    assert all(abilities(state, 1, lane, pos) & bit for lane, pos in ai_places)
    assert not abilities(state, 0, 0, 0) & bit


def test_r8_9_protection_for_the_ai_stops_the_player_first_attack():
    out = siege_text(
        CARDS
        + """
        [game]
        mode = "solo"
        [solo]
        ai_ability = "protection"
        [A]
        hand = ["BASTION", "C1"]
        upper = ["C3", "C5"]
        [B]
        pile = ["C1", "BASTION"]
        upper = ["C3"]
        """
    )
    # C5 attacks first (farthest from the bridge): stopped; C3's attack destroys the C3.
    assert [e["amount"] for e in out["events"] if e["kind"] == "damage"] == [0, 3]
    assert board(out)["B.discard"] == "C3"
