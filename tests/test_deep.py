"""``deep``: fair (R1.7), through the opponent's next turn, scored by its leaf.

The information test is fair search's: a copy of a position with the hidden
slots permuted gets the same decision and the same draws from the game's
generator.  A look-ahead stops where the player's next turn begins (the
opponent's whole turn played by its model), and its score is the leaf's:
expert's value of that position from the opponent's view, negated, or the
plain share of the life left.  ``leaf=plain,model=greedy`` reads no weight.
"""

from __future__ import annotations

import math

import pytest
from test_fair_search import decision_points, permuted

from clashkit.base.errors import OptionError
from clashkit.engine.legality import legal_actions
from clashkit.engine.loop import run
from clashkit.policies import DeepPolicy, ExpertPolicy, GreedyPolicy, get_policy, parse_policies
from clashkit.policies.deep import HORIZON
from clashkit.policies.expert import FEATURES, WIN, shipped_weights, value
from clashkit.policies.search import evaluate
from clashkit.policies.sight import hidden_row, hidden_slots
from clashkit.runs.game import new_game


def test_options_and_names():
    assert get_policy("deep").name == "deep"
    assert get_policy("deep:budget=2").name == "deep" and get_policy("deep").budget == 2
    assert get_policy("deep:budget=4").name == "deep:budget=4"
    assert get_policy("deep:leaf=plain,model=greedy").name == "deep:leaf=plain,model=greedy"
    deep = get_policy("deep:budget=3,leaf=PLAIN")
    assert (deep.budget, deep.leaf, deep.model, deep.fair, deep.horizon) == (3, "plain", "expert", True, 2)
    assert parse_policies("greedy,deep:budget=2,leaf=plain,expert") == ["greedy", "deep:budget=2,leaf=plain", "expert"]
    for bad, words in [
        ("deep:leaf=deeper", "deep: leaf: one of expert, plain, not 'deeper'"),
        ("deep:model=random", "deep: model: one of expert, greedy, not 'random'"),
        ("deep:budget=0", "deep: budget"),
        ("deep:budget=1001", "deep: budget"),
        ("deep:horizon=3", "policy 'deep' has no option 'horizon'"),
        ("deep:weights=1", "policy 'deep' has no option 'weights'"),
    ]:
        with pytest.raises(OptionError, match=words.replace("(", r"\(")):
            get_policy(bad)


def test_the_model_of_the_opponent():
    assert isinstance(DeepPolicy().opponent(), ExpertPolicy)
    model = DeepPolicy().opponent()
    assert not model.fair and model.horizon == 1 and model.weights == shipped_weights()
    assert type(DeepPolicy(model="greedy").opponent()) is GreedyPolicy


def test_a_look_ahead_stops_where_the_players_next_turn_begins():
    state, _ = new_game("2", "3", seed=5, record=False)
    run(state, GreedyPolicy(), GreedyPolicy(), until_turn=4)
    deep = DeepPolicy()
    seen = []
    deep.score = lambda sim, player: seen.append((sim.turn, sim.active, sim.over, player)) or 0.0
    action = legal_actions(state)[-1]
    deep.look_ahead(state, action, state.turn + HORIZON)
    assert len(seen) == 1
    turn, active, over, player = seen[0]
    assert player == state.active
    assert over or (turn, active) == (state.turn + 2, state.active)


def test_the_leaf_scores():
    state, _ = new_game("1", "4", seed=2, record=False)
    run(state, GreedyPolicy(), GreedyPolicy(), until_turn=6)
    assert not state.over
    deep, plain = DeepPolicy(), DeepPolicy(leaf="plain")
    for p in (0, 1):
        assert deep.score(state, p) == -value(state, 1 - p, shipped_weights())
        assert plain.score(state, p) == evaluate(state, p)
    finished, _ = new_game("1", "2", seed=1, record=False)
    run(finished, GreedyPolicy(), GreedyPolicy())
    w = finished.winner
    assert w is not None
    assert (deep.score(finished, w), deep.score(finished, 1 - w)) == (WIN, -WIN)
    assert (plain.score(finished, w), plain.score(finished, 1 - w)) == (1.0, 0.0)


def same_decision(policy, state, player: int, seen: set[int]) -> bool:
    slots = hidden_slots(state, player, seen)
    if len(slots) < 2:
        return False
    one, two = state.clone(record=False), permuted(state, player, slots)
    assert hidden_row(two, player) != hidden_row(one, player)
    before = [h[:] for h in one.hands], [h[:] for h in two.hands]
    decisions = []
    for position in (one, two):
        fresh = get_policy(policy)
        fresh.sightings.of(position, player).update(seen)
        decisions.append(fresh.decide(position))
    assert decisions[0] == decisions[1]
    assert one.rng.random() == two.rng.random()  # the same draws from the game's generator
    assert before == ([h[:] for h in one.hands], [h[:] for h in two.hands])
    return True


@pytest.mark.parametrize("policy", ["deep", "deep:leaf=plain,model=greedy"])
def test_decisions_ignore_the_opponents_hidden_order(policy):
    state, _ = new_game("3", "1", seed=9, record=False)
    watcher = get_policy(policy)
    players = (watcher, GreedyPolicy())
    checked = 0
    for point in decision_points(state, players, 0, every=2):
        checked += same_decision(policy, point, 0, set(watcher.sightings.of(point, 0)))
        if checked >= 3:
            break
    assert checked >= 3


def test_weight_free_when_plain_against_greedy():
    """``leaf=plain,model=greedy`` plays the same game whatever the weights (none is read); the
    default deep does not."""
    games = []
    for weights in (shipped_weights(), [math.nan] * len(FEATURES)):
        state, _ = new_game("1", "2", seed=4, record=False)
        deep = DeepPolicy(budget=1, leaf="plain", model="greedy", weights=weights)
        run(state, deep, GreedyPolicy(), until_turn=6)
        games.append((state.turn, [h[:] for h in state.hands], deep.rollouts))
    assert games[0] == games[1] and games[0][2] > 0
    state, _ = new_game("1", "2", seed=4, record=False)
    deep = DeepPolicy(budget=1, weights=[0.0] * len(FEATURES))
    run(state, deep, GreedyPolicy(), until_turn=6)
    flat = (state.turn, [h[:] for h in state.hands], deep.rollouts)
    state, _ = new_game("1", "2", seed=4, record=False)
    deep = DeepPolicy(budget=1)
    run(state, deep, GreedyPolicy(), until_turn=6)
    assert (state.turn, [h[:] for h in state.hands], deep.rollouts) != flat


def test_every_candidate_is_played_from_every_guess():
    state, _ = new_game("4", "2", seed=3, record=False)
    while len(legal_actions(state)) < 3:
        run(state, GreedyPolicy(), GreedyPolicy(), max_steps=1)
    deep = DeepPolicy(budget=3)
    candidates = deep.candidates(state, legal_actions(state))
    deep.decide(state)
    assert deep.rollouts == 3 * len(candidates)
