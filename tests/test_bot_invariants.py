"""Whole duels between the bots: the invariants hold after every action of thousands of games.

Every action a bot chooses goes through ``clashkit.apply``, which checks it
against the rules first.  After each one: every card of each player is in
exactly one place (their hand or their side of the lanes) and the keep once in
the hand; hand-health is the number of cards right of the keep and the keep is
never the rightmost card of a running game (R1.5, R3.8, R4.8); no creature in
play has damage at least its health (R4.3); mana is never negative; a game
ends with a winner or at the turn limit (R4.9, R10.1).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from clashkit import Rules, apply, legal_actions
from clashkit.base.vocab import KEEP
from clashkit.engine.state import OVER, GameState
from clashkit.policies import get_policy
from clashkit.runs.game import new_game


def check(state: GameState, decks: tuple[Counter, Counter]) -> None:
    for player in (0, 1):
        hand = state.hands[player]
        assert hand.count(KEEP) == 1
        held = Counter(c for c in hand if c != KEEP)
        for side in state.lanes[player]:
            held.update(c.card for c in side)
        assert held == decks[player]
        at = hand.index(KEEP)
        assert state.hand_health(player) == sum(1 for _ in hand[at + 1 :])
        if state.phase != OVER:
            assert at < len(hand) - 1, "the keep is the rightmost card of a running game"
        for side in state.lanes[player]:
            for creature in side:
                assert creature.damage < creature.health
    assert state.mana >= 0
    assert (state.winner is not None) <= (state.phase == OVER)


def play_checked(state: GameState, policy_a: str, policy_b: str) -> GameState:
    policies = (get_policy(policy_a), get_policy(policy_b))

    def order_returns(s, owner, cards):
        return policies[owner].order_returns(s, owner, cards)

    decks = tuple(Counter(c for c in state.hands[p] if c != KEEP) for p in (0, 1))
    check(state, decks)
    while not state.over:
        legal = legal_actions(state)
        action = legal[0] if len(legal) == 1 else policies[state.active].decide(state)
        apply(state, action, order_returns)
        check(state, decks)
    assert state.winner is not None or state.turn == state.rules.turn_limit
    return state


def random_setup(rng: random.Random, policy_a: str, policy_b: str) -> GameState:
    fmt = rng.choice(["1", "2", "3", "4", "1", "2", "3", "4", "draft", "constructed"])
    rules = Rules(
        incantations_in_siege=rng.random() < 0.8,
        protection=rng.choice(["first_attack", "first_damage", "first_hit"]),
        bloodlust_trigger=rng.choice(["primary", "any", "per_creature"]),
        first_player=rng.choice(["coin", "last_drafter"]),
        turn_limit=rng.choice([200, 200, 200, 30]),
        keep_distance=rng.choice(["damage", "attack"]),
        aura=rng.choice(["adjacent", "until_holder_moves"]),
        siege_order=rng.choice(["live", "fixed"]),
    )
    fmt = rng.choice(["1", "2", "3", "4", "1", "2", "3", "4", "draft", "constructed"])
    if fmt != "draft":  # R2.3: the last drafter exists only in a draft
        rules = rules.replace(first_player="coin")
    if fmt in ("draft", "constructed"):
        deck_a = deck_b = fmt
    else:
        deck_a, deck_b = fmt, rng.choice([d for d in "1234" if d != fmt])
    if fmt != "draft":  # R2.3: the last drafter starts only after a draft
        rules = rules.replace(first_player="coin")
    state, _ = new_game(deck_a, deck_b, policy_a, policy_b, rules=rules, seed=rng.randrange(2**32), record=False)
    return state


@pytest.mark.parametrize(
    ("policy_a", "policy_b", "games"),
    [
        ("random", "random", 1200),
        ("greedy", "greedy", 1200),
        ("greedy", "random", 1000),
        ("search:budget=3", "greedy", 12),
        ("random", "search:budget=2", 12),
    ],
)
def test_invariants_hold_through_whole_games(policy_a, policy_b, games):
    rng = random.Random(f"{policy_a} {policy_b}")
    results = Counter()
    for _ in range(games):
        state = play_checked(random_setup(rng, policy_a, policy_b), policy_a, policy_b)
        results[state.winner] += 1
    assert results[0] + results[1] > 0.9 * games
