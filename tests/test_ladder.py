"""The rated ladder: a balanced round robin, Bradley–Terry ratings, the same seed the same ratings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from clashkit.base.cards import starter_set
from clashkit.base.errors import OptionError
from clashkit.cli import main
from clashkit.studies.ladder import fit, ladder, parse_policies, round_robin

POLICIES = ["random", "greedy", "search:budget=1,horizon=2"]


def test_the_round_robin_balances_seats_and_decks():
    jobs = round_robin(["random", "greedy"], 3, starter_set(), seed=5)
    assert len(jobs) == 24  # 12 ordered deck pairings (R7.1), both seats
    seats = {(j.settings.policy, j.settings.opponent, j.deck_a, j.deck_b): j.seed for j in jobs}
    for (a, b, da, db), seed in seats.items():
        assert seats[(b, a, da, db)] == seed  # the same deals with the policies swapped
    assert sorted({j.seed for j in jobs}) == list(range(5, 17))


def test_the_same_seed_gives_the_same_ratings():
    one = ladder(POLICIES, 1, seed=3, bootstrap=30)
    two = ladder(POLICIES, 1, seed=3, bootstrap=30)
    assert one.ratings.equals(two.ratings)
    assert one.games.height == 3 * 24
    assert one.ratings["games"].to_list() == [48, 48, 48]
    assert abs(one.ratings["rating"].mean() - 1500) < 1e-6
    assert one.ratings["policy"][-1] == "random"
    assert (one.ratings["low"] <= one.ratings["rating"]).all() and (one.ratings["rating"] <= one.ratings["high"]).all()


def test_bradley_terry_recovers_a_known_edge():
    # i beats j 76 times in 100: log10 odds 0.5006, 200 Elo points apart.
    scores = np.array([[0.0, 760.0], [240.0, 0.0]])
    games = np.array([[0.0, 1000.0], [1000.0, 0.0]])
    logs = fit(scores, games, prior=0.0)
    assert round(400 * (logs[0] - logs[1])) == 200
    # A clean sweep stays finite with the virtual drawn game.
    assert np.isfinite(fit(np.array([[0.0, 10.0], [0.0, 0.0]]), np.array([[0.0, 10.0], [10.0, 0.0]]))).all()


def test_policy_lists_keep_their_options_together():
    parsed = parse_policies("greedy,search:budget=4,fair,search:fair")
    assert parsed == ["greedy", "search:budget=4,fair", "search:fair"]
    with pytest.raises(OptionError, match="--policies: unknown policy 'nobody'"):
        parse_policies("greedy,nobody")
    with pytest.raises(OptionError, match="named twice"):
        parse_policies("greedy,greedy")


def test_ladder_json_shape_and_bad_input():
    runner = CliRunner()
    result = runner.invoke(
        main, ["ladder", "--policies", "random,greedy", "-n", "1", "--bootstrap", "10", "--json", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert [r["policy"] for r in data["ratings"]] == ["greedy", "random"]
    assert set(data["ratings"][0]) == {"policy", "rating", "low", "high", "games", "score"}
    assert data["ratings"][0]["games"] == 24
    bad = runner.invoke(main, ["ladder", "--policies", "greedy,nobody", "-n", "1"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == [
        "clashkit: error: --policies: unknown policy 'nobody' (one of random, greedy, search, expert, deep, openspiel)"
    ]
