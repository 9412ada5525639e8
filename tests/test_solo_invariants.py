"""Random solo playthroughs (R8): invariants checked at every step of thousands of games.

The player plays at random over the legal actions (every other game an
eager random player who plays a card whenever it can), under random AI
settings (R8.9) and options (R10.3), from a random deck spec.  After every
action: each card is in exactly one place (the player's 8 in hand or on the
player's side, the AI's 24 in its pile, its discard or on its side), the
keeps are where the rules put them, hand-health is what the events say, no
creature survives damage ≥ health, mana is never negative — and every change
of the AI pile and discard is accounted for by an event (reveal, mill,
discard, reshuffle), so the AI's steps are all in the trace.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from clashkit import Rules, apply, legal_actions
from clashkit.base.levels import all_settings
from clashkit.base.vocab import KEEP
from clashkit.engine.events import (
    AI_MILL,
    AI_RESHUFFLE,
    AI_REVEAL,
    CARD_DISCARDED,
    FIELDS,
    MANA_GAINED,
)
from clashkit.engine.solo_setup import solo_setup
from clashkit.engine.state import LAST_TURN_PENDING, LAST_TURN_UNDER_WAY, NO_LAST_TURN, GameState
from clashkit.engine.turn import TURN_FIELDS, TURN_WIDTH
from clashkit.policies import get_policy

GAMES = 1200
KIND, TARGET_CARD, AMOUNT, HEALTH_A, HEALTH_B, KEEP_A, KEEP_B = (
    FIELDS.index(f) for f in ("kind", "target_card", "amount", "hand_health_a", "hand_health_b", "keep_a", "keep_b")
)


class Ledger:
    """The AI pile and discard sizes as the events tell them."""

    def __init__(self, state: GameState) -> None:
        self.pile = len(state.pile)
        self.discard = len(state.discard)
        self.read = len(state.log)
        self.reveals = 0
        self.ai_turns = 0
        self.reveal_due = False

    def catch_up(self, state: GameState) -> None:
        for row in state.log.rows(self.read):
            kind = row[KIND]
            # R8.3: an AI turn with cards above its keep reveals right after its mana phase.
            assert not self.reveal_due or kind == AI_REVEAL, "the AI's summon did not reveal"
            self.reveal_due = False
            if kind == AI_REVEAL:
                self.pile -= 1
                self.reveals += 1
            elif kind == AI_MILL:
                self.pile -= 1
                self.discard += 1
            elif kind == CARD_DISCARDED and row[FIELDS.index("target_player")] == 1:
                self.discard += 1
            elif kind == AI_RESHUFFLE:
                self.pile += row[AMOUNT]
                self.discard -= row[AMOUNT]
            elif kind == MANA_GAINED and row[FIELDS.index("player")] == 1:
                self.ai_turns += 1
                self.reveal_due = row[HEALTH_B] > 0
        self.read = len(state.log)


def check(state: GameState, mine: Counter, theirs: Counter, ledger: Ledger) -> None:
    # Each card in exactly one place.
    hand = state.hands[0]
    assert hand.count(KEEP) == 1 and state.pile.count(KEEP) == 1 and state.pile[-1] == KEEP
    assert KEEP not in state.discard and state.hands[1] == []
    player_side = [c.card for lane in state.lanes[0] for c in lane]
    ai_side = [c.card for lane in state.lanes[1] for c in lane]
    assert Counter(c for c in hand if c != KEEP) + Counter(player_side) == mine
    assert Counter(state.pile[:-1]) + Counter(state.discard) + Counter(ai_side) == theirs
    # Hand-health (R1.5, R8.6) and the keeps (R3.8, R8.7).
    assert state.hand_health(0) == len(hand) - 1 - hand.index(KEEP)
    assert state.hand_health(1) == len(state.pile) - 1
    if not state.over:
        assert state.hand_health(0) >= 1, "the player's keep is rightmost in a running game"
    if len(state.pile) == 1:
        assert state.forts[1] and state.ai_last_turn in (LAST_TURN_PENDING, LAST_TURN_UNDER_WAY)
    else:
        assert state.ai_last_turn == NO_LAST_TURN
    # No creature survives its health (R4.3); mana never negative.
    for _, _, _, creature in state.in_play():
        assert creature.damage < creature.health
    assert state.mana >= 0
    # The events account for every AI step, and their last row shows the table as it is.
    ledger.catch_up(state)
    assert (ledger.pile, ledger.discard) == (len(state.pile), len(state.discard))
    last = state.log.rows(len(state.log) - 1)[0]
    assert (last[HEALTH_A], last[HEALTH_B]) == (state.hand_health(0), state.hand_health(1))
    assert (last[KEEP_A], last[KEEP_B]) == tuple(int(f) for f in state.forts)


def choose(state: GameState, legal: list, eager: bool):
    """Uniform over the legal actions; an eager player plays a card when it can (3 times in 4)."""
    if eager and len(legal) > 1 and state.rng.random() < 0.75:
        return legal[state.rng.randrange(len(legal) - 1)]  # the last action only moves the turn on
    return legal[state.rng.randrange(len(legal))]


def random_game(seed: int, settings_pool) -> tuple[GameState, Ledger]:
    rng = random.Random(seed)
    rules = Rules(
        ai_incantation_side=rng.choice(["declared", "either"]),
        ai_last_turn=rng.choice(["next", "current"]),
        solo=dataclasses.replace(rng.choice(settings_pool), ai_reduced_scope=rng.choice(["pile", "all"])),
        aura=rng.choice(["adjacent", "until_holder_moves"]),
        siege_order=rng.choice(["live", "fixed"]),
        keep_distance=rng.choice(["damage", "attack"]),
        solo_player_first_mana=rng.choice(["hand", "six"]),
    )
    deck = rng.choice([1, 2, 3, 4, "draft", "draft"])
    setup = solo_setup(deck, get_policy("random"), rules=rules, seed=seed)
    state = setup.state
    cards = state.cards
    mine = Counter(cards.id(n) for n in setup.player_deck)
    theirs = Counter(cards.id(n) for n in setup.ai_cards)
    ledger = Ledger(state)
    ledger.pile, ledger.discard, ledger.read = 25, 0, 0  # from the setup on
    check(state, mine, theirs, ledger)
    rows = 0
    while not state.over:
        legal = legal_actions(state)
        turn, creatures = state.turn, state.creatures(0)
        apply(state, choose(state, legal, eager=seed % 2 == 1))
        check(state, mine, theirs, ledger)
        if state.turn != turn and state.active == 1:
            # R8.2: fixed + variable mana per player creature at the AI's mana phase.
            solo = rules.solo
            assert state.mana_gained == solo.ai_fixed_mana + solo.ai_mana_per_creature * creatures
        # The turns frame: the AI's hand size is its pile, its hand-health the cards above its keep.
        if len(state.turn_log) // TURN_WIDTH > rows:
            rows = len(state.turn_log) // TURN_WIDTH
            row = dict(zip(TURN_FIELDS, state.turn_log[-TURN_WIDTH:], strict=True))
            if row["player"] == 1:
                ai_end = (row["hand_size_end"], row["hand_health_end"])
                assert ai_end == (len(state.pile), state.hand_health(1))
    return state, ledger


def test_random_solo_games_keep_every_invariant():
    pool = all_settings()
    outcomes = Counter()
    reveals = ai_turns = 0
    for seed in range(GAMES):
        state, ledger = random_game(seed, pool)
        outcomes[state.winner] += 1
        reveals += ledger.reveals
        ai_turns += ledger.ai_turns
    assert set(outcomes) <= {0, 1, None}
    assert outcomes[1] > 0 and outcomes[0] > 0  # both ways to end a solo game happen
    assert ai_turns > GAMES and reveals > ai_turns
