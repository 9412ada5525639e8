"""``expert``: fair (R1.7), read by attributes, reproducibly fitted.

The information test is fair search's (:mod:`test_fair_search`): a copy of a
position with the hidden slots permuted gets the same decision and the same
draws from the game's generator.  Renaming every card changes no game.  The
shipped weights are what ``clashkit expert-train`` writes (their hash is
recorded here; ``make expert`` makes them again), and a short fit gives the
same bytes twice.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from helpers import cli
from test_fair_search import decision_points, permuted

from clashkit.base.cards import CardSet, starter_set
from clashkit.base.errors import OptionError
from clashkit.base.shipped import shipped_file
from clashkit.base.vocab import KEEP
from clashkit.engine.legality import legal_actions
from clashkit.engine.loop import run
from clashkit.engine.setup import new_solo
from clashkit.policies import ExpertPolicy, GreedyPolicy, get_policy
from clashkit.policies.expert import FEATURES, SHIPPED, WIN, features, shipped_weights, value
from clashkit.policies.sight import hidden_row, hidden_slots
from clashkit.runs.game import new_game
from clashkit.studies import expert_fit

CARDS = starter_set()
#: sha256 of ``data/expert.json`` as ``make expert`` writes it.
SHIPPED_SHA256 = "53e7cabb36e0252700fba315a7ed029234e32bbb2d03bad75723623e4b655a38"


def expert(seen=None, state=None, player=0) -> ExpertPolicy:
    policy = ExpertPolicy()
    if seen is not None:
        policy.sightings.of(state, player).update(seen)
    return policy


def same_decision(state, player: int, seen: set[int]) -> bool:
    slots = hidden_slots(state, player, seen)
    if len(slots) < 2:
        return False
    one, two = state.clone(record=False), permuted(state, player, slots)
    assert hidden_row(two, player) != hidden_row(one, player)
    before = [h[:] for h in one.hands], [h[:] for h in two.hands], one.pile[:], two.pile[:]
    a = expert(seen, one, player).decide(one)
    b = expert(seen, two, player).decide(two)
    assert a == b
    assert one.rng.random() == two.rng.random()  # the same draws from the game's generator
    assert before == ([h[:] for h in one.hands], [h[:] for h in two.hands], one.pile, two.pile)
    return True


@pytest.mark.parametrize("seed", [3, 11])
def test_duel_decisions_ignore_the_opponents_hidden_order(seed):
    state, _ = new_game("2", "4", seed=seed, record=False)
    policy = ExpertPolicy()
    players = (policy, GreedyPolicy())
    checked = 0
    for point in decision_points(state, players, 0, every=1):
        checked += same_decision(point, 0, set(policy.sightings.of(point, 0)))
        if checked >= 6:
            break
    assert checked >= 3


def test_solo_decisions_ignore_the_ai_pile_order():
    decks = CARDS.decks
    state = new_solo(decks[1], [name for d in (2, 3, 4) for name in decks[d]], seed=5, record=False)
    players = (ExpertPolicy(), GreedyPolicy())
    checked = 0
    for point in decision_points(state, players, 0, every=2):
        checked += same_decision(point, 0, set())
        if checked >= 3:
            break
    assert checked >= 3


def test_features_read_only_what_both_players_see():
    """Permuting the opponent's hand changes no feature of either view."""
    state, _ = new_game("1", "3", seed=4, record=False)
    run(state, GreedyPolicy(), GreedyPolicy(), until_turn=7)
    other = state.clone(record=False)
    keep_at = state.hands[1].index(KEEP)
    rest = [c for c in state.hands[1] if c != KEEP][::-1]
    other.hands[1] = [*rest[:keep_at], KEEP, *rest[keep_at:]]
    assert other.hands[1] != state.hands[1]
    assert features(other, 0) == features(state, 0) and features(other, 1) == features(state, 1)
    assert len(features(state, 0)) == len(FEATURES)


def test_a_won_game_outscores_any_position():
    state, _ = new_game("1", "2", seed=1, record=False)
    run(state, ExpertPolicy(), GreedyPolicy())
    assert state.winner is not None
    policy = ExpertPolicy()
    assert policy.score(state, state.winner) == WIN
    assert policy.score(state, 1 - state.winner) == -WIN


def test_names_are_never_read():
    """Every card renamed (and so every deck list): the same games."""
    renamed = CardSet([replace(c, name=f"CARD{i}") for i, c in enumerate(CARDS)])
    for seed in (1, 2):
        games = []
        for cards in (CARDS, renamed):
            state, _ = new_game("1", "4", "expert", "greedy", cards=cards, seed=seed, record=False)
            run(state, ExpertPolicy(), GreedyPolicy())
            games.append((state.winner, state.turn, [len(h) for h in state.hands]))
        assert games[0] == games[1]


def test_every_candidate_is_tried_once():
    state, _ = new_game("3", "2", seed=6, record=False)
    policy = ExpertPolicy()
    run(state, policy, GreedyPolicy(), until_turn=5)
    assert 0 < policy.rollouts
    limited = ExpertPolicy(budget=2)
    state, _ = new_game("3", "2", seed=6, record=False)
    while state.turn < 5 and len(legal_actions(state)) < 3:
        run(state, GreedyPolicy(), GreedyPolicy(), max_steps=1)
    limited.decide(state)
    assert limited.rollouts == 2


def test_options():
    assert get_policy("expert").name == "expert"
    assert get_policy("expert:budget=8").name == "expert:budget=8"
    assert get_policy("expert").fair and get_policy("expert").horizon == 1
    with pytest.raises(OptionError):
        get_policy("expert:horizon=3")
    with pytest.raises(OptionError):
        ExpertPolicy(weights=[1.0])
    assert value(new_game("1", "2", seed=1)[0], 0, [0.0] * len(FEATURES)) == 0.0


def test_the_shipped_weights_are_what_the_command_writes():
    text = shipped_file(SHIPPED).read_text()
    assert hashlib.sha256(text.encode()).hexdigest() == SHIPPED_SHA256
    assert len(shipped_weights()) == len(FEATURES)


def test_fitting_is_reproducible():
    one = expert_fit.dumps(expert_fit.fit(games=6, rounds=2, seed=3))
    two = expert_fit.dumps(expert_fit.fit(games=6, rounds=2, seed=3))
    assert one == two
    assert expert_fit.dumps(expert_fit.fit(games=6, rounds=1, seed=4)) != one


def test_the_fit_plays_on_its_own_card_set_not_the_shipped_one(tmp_path):
    """Retuning data/cards.csv leaves expert as it is: the fit reads expert_fit.FIT_CARDS, and
    ``--cards`` fits on another set (a different file of weights)."""
    fit_set = expert_fit.fit_cards()
    assert [c.name for c in fit_set] == [c.name for c in CARDS]
    x, _ = expert_fit.positions("greedy", 4, seed=5)
    assert x.shape[1] == len(FEATURES)
    assert (x == expert_fit.positions("greedy", 4, seed=5, cards=fit_set)[0]).all()
    bigger = CardSet([replace(c, attack=c.attack + 2) if c.is_creature else c for c in fit_set])
    moved, _ = expert_fit.positions("greedy", 4, seed=5, cards=bigger)
    assert moved.shape != x.shape or not (moved == x).all()
    cards_file = bigger.to_csv(tmp_path / "bigger.csv")
    out = tmp_path / "w.json"
    sizes = ("--games", "4", "--rounds", "2", "--seed", "1")
    done = cli("expert-train", *sizes, "--cards", str(cards_file), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["weights"] == expert_fit.fit(4, 2, 1, cards=bigger)["weights"]


def test_expert_train_refuses_an_out_it_cannot_write_before_fitting(tmp_path):
    done = cli("expert-train", "--games", "4", "--out", str(tmp_path / "no" / "w.json"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"clashkit: error: --out: no directory for {tmp_path / 'no' / 'w.json'}"
    ]
    assert not (tmp_path / "no").exists()


def test_expert_train_never_writes_the_shipped_weights_unasked():
    before = shipped_file(SHIPPED).read_bytes()
    done = cli("expert-train", "--games", "4")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["clashkit: error: Missing option '--out'."]
    assert shipped_file(SHIPPED).read_bytes() == before


def test_a_fit_across_card_sets_plays_every_set_and_records_its_seeds():
    """Sets drawn with generator seeds 1 … sets (clashkit.studies.card_sets): the fitting set, then
    each kind seed by seed; game g plays pairing g mod 13 on set g div 13; the file names the seeds."""
    sets = expert_fit.fitting_sets(2)
    assert len(sets) == 1 + 3 * 2 and sets[0] is expert_fit.fit_cards()
    lap = len(expert_fit.PAIRINGS)
    x, y = expert_fit.positions("greedy", 2 * lap, seed=5, cards=sets)
    first, _ = expert_fit.positions("greedy", lap, seed=5, cards=sets[:1])
    second, _ = expert_fit.positions("greedy", lap, seed=5 + lap, cards=sets[1:2])
    assert (x == np.concatenate([first, second])).all() and len(y) == len(x)
    data = expert_fit.fit(games=8, rounds=1, seed=3, sets=2)
    assert data["card_sets"] == {
        "from": "data/expert-fit-cards.csv",
        "kinds": ["fit", "moved", "random", "designer"],
        "seeds": [1, 2],
    }
    assert expert_fit.fit_seeds(data) == {1, 2}
    assert expert_fit.fit(games=8, rounds=1, seed=3, sets=0)["card_sets"]["seeds"] == []
    assert expert_fit.dumps(data) == expert_fit.dumps(expert_fit.fit(games=8, rounds=1, seed=3, sets=2))
    assert expert_fit.fit(games=16, rounds=1, seed=3, sets=2)["weights"] != expert_fit.fit(16, 1, 3)["weights"]


def test_the_shipped_weights_name_the_seeds_of_their_card_sets():
    data = json.loads(shipped_file(SHIPPED).read_text())
    assert expert_fit.fit_seeds(data) == set(range(1, data["card_sets"]["seeds"][-1] + 1))
    assert data["card_sets"]["kinds"] == ["fit", "moved", "random", "designer"]


def test_expert_train_refuses_a_negative_number_of_sets(tmp_path):
    done = cli("expert-train", "--sets=-1", "--out", str(tmp_path / "w.json"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "clashkit: error: Invalid value for '--sets': must be a whole number 0…100000 "
        "(expert-train: generator seeds of the card sets fitted on), not -1"
    ]
    assert not (tmp_path / "w.json").exists()


def test_a_weights_file_for_the_agreement_check_reaches_every_bot_that_reads_the_weights(tmp_path, monkeypatch):
    """``benchmarks/agreement.py --weights FILE`` checks the bots as shipping FILE would make them:
    ``expert`` and ``deep`` (its leaf and its model of the opponent) both read FILE, not the
    shipped weights; the seeds to avoid are FILE's."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import agreement

    from clashkit.policies import deep as deep_module
    from clashkit.policies import expert as expert_module

    for module in (expert_module, deep_module):  # restored after the test
        monkeypatch.setattr(module, "shipped_weights", module.shipped_weights)
    weights = [0.5 + i for i in range(len(FEATURES))]
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"features": list(FEATURES), "weights": weights, "card_sets": {"seeds": [7, 9]}}))
    assert agreement.use_weights(path) == {7, 9}
    deep = get_policy("deep")
    assert get_policy("expert").weights == deep.weights == deep.opponent().weights == tuple(weights)
