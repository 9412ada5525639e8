"""R1 Components and words (the hand, hand-health, positions) and R2 Setup (the start of a duel)."""

from __future__ import annotations

import polars as pl
import pytest
from helpers import board, deal_duel, parse, play_step, siege_text
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit import Rules, starter_set
from clashkit.base.cards import Card, CardSet
from clashkit.base.vocab import KEEP, Kind
from clashkit.engine.actions import BEGIN_SIEGE, END_TURN
from clashkit.engine.hand import damage_keep
from clashkit.engine.legality import legal_cards
from clashkit.engine.state import GameState
from clashkit.runs.simulate import simulate
from clashkit.show.render import event_dicts

CARDS = 'card = [{ name = "P", kind = "creature", cost = 1, attack = 1, health = 1 }]\n'


# --- R1.4, R1.5 The hand and hand-health -------------------------------------------------


def test_r1_5_hand_health_is_the_cards_right_of_the_keep():
    state = parse(
        CARDS
        + """
        [A]
        hand = ["P", "P", "BASTION", "P"]
        [B]
        hand = ["FORT", "P", "P", "P", "P"]
        """
    ).state
    assert (state.hand_health(0), state.hand_health(1)) == (1, 4)
    assert (state.keep(0).value, state.keep(1).value) == ("bastion", "fort")


def test_r1_4_the_hand_keeps_its_order_left_to_right():
    out = siege_text(
        """
        card = [
          { name = "ANT", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "BEE", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "COW", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [A]
        hand = ["COW", "ANT", "BASTION", "BEE", "ANT"]
        [B]
        hand = ["BEE", "FORT", "COW", "ANT"]
        """
    )
    assert (board(out)["A.hand"], board(out)["B.hand"]) == (
        "COW ANT BASTION BEE ANT",
        "BEE FORT COW ANT",
    )


def test_r1_2_positions_are_counted_from_the_bridge():
    out = siege_text(
        """
        card = [
          { name = "NEAR", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "FAR", kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "NEW", kind = "creature", cost = 1, attack = 1, health = 1 },
        ]
        [game]
        mana = 1
        actions = [{ play = "NEW", lane = "upper" }]
        [A]
        hand = ["BASTION", "NEW", "FAR"]
        upper = [{ card = "NEAR", new = true }, { card = "FAR", new = true }]
        [B]
        hand = ["BASTION", "NEAR"]
        """
    )
    assert [c["card"] for c in out["A"]["upper"]] == ["NEAR", "FAR", "NEW"]


# R4.7–R4.9 on every hand shape: the keep slides right past the cards, the
# others keep their order; reaching the rightmost place destroys the Bastion
# (Fort leftmost, excess lost) or loses the game with the Fort.
@settings(max_examples=400, deadline=None)
@given(
    left=st.integers(0, 6),
    right=st.integers(1, 10),
    amount=st.integers(0, 14),
    fort=st.booleans(),
)
def test_r1_5_r4_7_keep_damage_on_any_hand(left, right, amount, fort):
    state = GameState(starter_set())
    others = list(range(left + right))
    state.hands = [others[:left] + [KEEP] + others[left:], [KEEP, 0]]
    state.forts[0] = fort
    damage_keep(state, 0, amount)
    hand = state.hands[0]
    assert [c for c in hand if c != KEEP] == others
    moved = min(amount, right)
    assert [e["amount"] for e in event_dicts(state) if e["kind"] == "keep_moved"] == [moved]
    if amount < right:
        assert hand.index(KEEP) == left + amount
        assert (state.hand_health(0), state.forts[0], state.winner) == (right - amount, fort, None)
    elif not fort:
        assert hand.index(KEEP) == 0 and state.forts[0]
        assert (state.hand_health(0), state.winner) == (left + right, None)
    else:
        assert hand[-1] == KEEP and state.winner == 1 and state.over


# --- R2 Setup ------------------------------------------------------------------------------


def test_r2_2_hands_of_8_keep_leftmost_hand_health_8():
    state = deal_duel(seed=4)
    for player in (0, 1):
        assert len(state.hands[player]) == 9 and state.hands[player][0] == KEEP
        assert state.hand_health(player) == 8 and not state.forts[player]


def test_r2_3_first_turn_6_mana_then_r3_1():
    for seed in range(6):
        state = deal_duel(seed=seed)
        first = state.first_player
        assert (state.active, state.turn, state.mana) == (first, 1, 6)
        play_step(state, BEGIN_SIEGE)
        play_step(state, END_TURN)
        # The other player's first turn follows R3.1: 8 cards and the keep.
        assert (state.active, state.turn, state.mana) == (1 - first, 2, 9)
        play_step(state, BEGIN_SIEGE)
        play_step(state, END_TURN)
        assert (state.active, state.turn, state.mana) == (first, 3, 9)


@pytest.mark.parametrize("mana", [0, 5, 6, 12])
def test_r2_3_r10_3_first_turn_mana_is_the_first_turns_only(mana):
    for seed in range(4):
        state = deal_duel(seed=seed, rules=Rules(first_turn_mana=mana))
        first = state.first_player
        assert (state.active, state.turn, state.mana, len(state.hands[first])) == (first, 1, mana, 9)
        # R3.3: a play needs its cost; with 0 mana only a cost-0 card could be played.
        costs = {state.cards.cost[card] for _, card in legal_cards(state)}
        assert all(cost <= mana for cost in costs)
        play_step(state, BEGIN_SIEGE)
        play_step(state, END_TURN)
        assert (state.active, state.turn, state.mana) == (1 - first, 2, 9)  # R3.1: 8 cards and the keep


#: Sixteen creatures of cost 3: what a first turn can play depends on its mana alone.
THREES = CardSet([Card(f"C{i}", Kind.CREATURE, 3, 1, 1) for i in range(16)])


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_r2_3_r10_3_first_turn_mana_in_both_engines(engine):
    """Greedy plays every creature it can pay for (R3.3): with cost-3 creatures only, the first
    turn's mana decides the plays and the hand left, the same in both engines; the second
    player's first turn gains R3.1's 9 whatever the option."""
    a, b = [f"C{i}" for i in range(8)], [f"C{i}" for i in range(8, 16)]
    seen = {}
    for mana in (0, 5, 6, 12):
        games = simulate(
            4,
            a,
            b,
            "greedy",
            "greedy",
            seed=5,
            cards=THREES,
            engine=engine,
            record_events=False,
            rules={"first_turn_mana": mana},
        )
        turns = games.turns.filter(pl.col("turn") <= 2).sort("game", "turn")
        first, second = turns.filter(pl.col("turn") == 1), turns.filter(pl.col("turn") == 2)
        assert first["mana_gained"].to_list() == [mana] * 4
        assert second["mana_gained"].to_list() == [9] * 4
        assert games.games["rules"].to_list() == ["" if mana == 6 else f"first_turn_mana={mana}"] * 4
        seen[mana] = set(first.select("cards_played", "mana_spent", "hand_size_end").rows())
    assert seen == {0: {(0, 0, 9)}, 5: {(1, 3, 8)}, 6: {(2, 6, 7)}, 12: {(4, 12, 5)}}


def test_r2_3_the_coin_picks_either_player():
    assert {deal_duel(seed=s).first_player for s in range(20)} == {0, 1}
