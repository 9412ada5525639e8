"""Random playthroughs: thousands of games of uniformly random legal actions, with the rules'
invariants checked after every step (duel and solo).

- every card is in exactly one place: the multiset of both hands, the lanes, and the AI pile
  and discard, is the one dealt;
- each hand holds exactly one keep, never rightmost while the game goes on (R1.5, R3.8), and
  ``hand_health`` is the number of cards right of it; the AI keep is the bottom of its pile;
- no creature in play has damage ≥ health (R4.3), every lane entry is a creature;
- mana is never negative nor above what the turn gained; the phase is summon, siege or over;
- a Fort never flips back; a game won is won by the player whose opponent's Fort fell (R4.9)
  or, in solo, by the player at the end of the AI's last turn (R8.7);
- the event log's last row shows the state's hand-health, keeps and mana;
- every legal action passes the engine's own check, and a clone replays identically.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import deal_duel, deal_solo

from clashkit.base.vocab import KEEP
from clashkit.engine import apply, check, legal_actions
from clashkit.engine.events import FIELDS
from clashkit.engine.state import LAST_TURN_UNDER_WAY, OVER, SIEGE, SUMMON, Creature, GameState
from clashkit.show.render import state_dict

DUEL_GAMES = 3000
SOLO_GAMES = 1500
STEP_CAP = 3000  # random games end in about 100 steps; the cap only guards against a hang

HH_A, HH_B, KEEP_A, KEEP_B, MANA_LEFT = (
    FIELDS.index(name) for name in ("hand_health_a", "hand_health_b", "keep_a", "keep_b", "mana_left")
)


def cards_everywhere(state: GameState) -> Counter:
    """Every card id on the table, wherever it is (the keeps left out)."""
    found = Counter(c for hand in state.hands for c in hand if c != KEEP)
    found.update(c.card for _, _, _, c in state.in_play())
    found.update(c for c in state.pile if c != KEEP)
    found.update(state.discard)
    return found


def check_invariants(state: GameState, dealt: Counter, forts: list[bool]) -> None:
    assert cards_everywhere(state) == dealt
    # The keeps and hand-health (R1.5); the AI's keep is the bottom of its pile (R8.1).
    players = (0,) if state.solo else (0, 1)
    for p in players:
        hand = state.hands[p]
        assert hand.count(KEEP) == 1
        keep_at = hand.index(KEEP)
        assert state.hand_health(p) == len(hand) - 1 - keep_at
        if not state.over:
            assert keep_at < len(hand) - 1, "the keep is rightmost but was not destroyed (R3.8)"
    if state.solo:
        assert state.hands[1] == [] and state.pile.count(KEEP) == 1 and state.pile[-1] == KEEP
        assert state.hand_health(1) == len(state.pile) - 1
        assert state.ai_last_turn == 0 or (len(state.pile) == 1 and state.forts[1])
    # Creatures in play (R4.3, R4.5).
    for lanes in state.lanes:
        for side in lanes:
            for creature in side:
                assert type(creature) is Creature
                assert 0 <= creature.damage < creature.health
    # Mana and phase.
    assert 0 <= state.mana <= max(state.mana_gained, 0)
    assert state.phase in (SUMMON, SIEGE, OVER)
    # A Fort never flips back.
    for p in (0, 1):
        assert state.forts[p] or not forts[p]
        forts[p] = state.forts[p]
    # The event log shows the state after the step.
    last = state.log.rows(len(state.log) - 1)[0]
    assert (last[HH_A], last[HH_B]) == (state.hand_health(0), state.hand_health(1))
    assert (last[KEEP_A], last[KEEP_B]) == (int(state.forts[0]), int(state.forts[1]))
    assert last[MANA_LEFT] == state.mana


def check_ending(state: GameState) -> None:
    assert legal_actions(state) == []
    if state.winner is None:  # R10.1: unfinished at the turn limit
        assert state.turn == state.rules.turn_limit
        return
    loser = 1 - state.winner
    if state.solo and state.winner == 0:  # R8.7: the AI's last turn ended
        assert state.ai_last_turn == LAST_TURN_UNDER_WAY and state.forts[1]
    else:  # R4.9, R8.8: the loser's Fort reached the rightmost place
        assert state.forts[loser] and state.hands[loser][-1] == KEEP


def playthrough(state: GameState, seed: int) -> GameState:
    rng = random.Random(seed)
    dealt = cards_everywhere(state)
    forts = state.forts[:]
    check_invariants(state, dealt, forts)
    for step in range(STEP_CAP):
        if state.over:
            break
        legal = legal_actions(state)
        assert legal, "a game that is not over always has a legal action"
        action = legal[rng.randrange(len(legal))]
        if step % 17 == 0:
            for other in legal:
                check(state, other)  # legal_actions and check agree
        if step % 97 == 0:
            twin = state.clone()
            apply(twin, action)
            apply(state, action)
            assert state_dict(twin) == state_dict(state)
        else:
            apply(state, action)
        check_invariants(state, dealt, forts)
    assert state.over, f"game {seed} did not end in {STEP_CAP} steps"
    check_ending(state)
    return state


@pytest.mark.parametrize("block", range(4))
def test_random_duels_keep_every_invariant(block):
    per_block = DUEL_GAMES // 4
    endings = Counter()
    for seed in range(block * per_block, (block + 1) * per_block):
        state = playthrough(deal_duel(seed), seed)
        endings[state.winner] += 1
    assert endings[0] and endings[1]  # both players win some


@pytest.mark.parametrize("block", range(2))
def test_random_solo_games_keep_every_invariant(block):
    per_block = SOLO_GAMES // 2
    endings = Counter()
    for seed in range(block * per_block, (block + 1) * per_block):
        state = playthrough(deal_solo(seed), seed)
        endings[state.winner] += 1
    assert endings[0] and endings[1]


def test_random_games_under_every_non_default_option():
    from clashkit import Rules, SoloSettings

    rules = Rules(
        incantations_in_siege=False,
        protection="first_damage",
        bloodlust_trigger="any",
        ai_incantation_side="either",
        ai_last_turn="current",
        turn_limit=12,
        keep_distance="attack",
        aura="until_holder_moves",
        siege_order="fixed",
        solo_player_first_mana="six",
        solo=SoloSettings(
            ai_fixed_mana=8,
            ai_mana_per_creature=2,
            ai_pile_damage="one",
            ai_ability="bloodlust",
            ai_reduced_scope="all",
        ),
    )
    variants = (rules, rules.replace(protection="first_hit", bloodlust_trigger="per_creature"))
    for seed in range(300):
        playthrough(deal_duel(seed, rules=variants[seed % 2]), seed)
        playthrough(deal_solo(seed, rules=variants[seed % 2]), seed)


def test_same_seed_same_game():
    def events(seed):
        state = playthrough(deal_solo(seed), seed)
        return state.log.rows()

    assert events(11) == events(11)
    assert events(11) != events(12)
