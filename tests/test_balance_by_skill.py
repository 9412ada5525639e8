"""Balance by skill level: ``balance --policies``, the rank correlation and the paired changes."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from clashkit.base.stats import kendall, spearman
from clashkit.cli import main
from clashkit.studies.skill import balance_by_skill

WEAK, STRONG = "greedy", "search:budget=1,horizon=2,fair"


def run(*args):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def test_balance_policies_json_shape():
    result = run("balance", "--policies", f"{WEAK},{STRONG}", "-n", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert list(data["policies"]) == [WEAK, STRONG]
    for one in data["policies"].values():  # each the one-policy balance object
        assert set(one["decks"]) == {"1", "2", "3", "4"}
        assert len(one["matrix"]) == 12 and one["games"] == 24
        assert set(one["matrix"][0]) >= {"a", "b", "games", "rate_a", "low", "high"}
    r = data["rank_correlation"]
    assert r["weak"] == WEAK and r["strong"] == STRONG and r["decks"] == [1, 2, 3, 4]
    assert -1 <= r["spearman"] <= 1 and r["low"] <= r["high"]
    assert [c["deck"] for c in data["changes"]] == [1, 2, 3, 4]
    for c in data["changes"]:
        weak = data["policies"][WEAK]["decks"][str(c["deck"])]["rate"]
        strong = data["policies"][STRONG]["decks"][str(c["deck"])]["rate"]
        assert math.isclose(c["change"], strong - weak)


def test_balance_policies_bad_input_is_one_line():
    for policies, message in [
        (
            "greedy,nobody",
            "clashkit: error: --policies: unknown policy 'nobody' "
            "(one of random, greedy, search, expert, deep, openspiel)",
        ),
        (
            "greedy",
            "clashkit: error: --policies: name at least 2 policies for balance by skill (e.g. greedy,search:fair)",
        ),
        (
            "greedy,search:depth=2",
            "clashkit: error: --policies: policy 'search' has no option 'depth' "
            "(its options are budget, horizon, noise, fair)",
        ),
    ]:
        result = run("balance", "--policies", policies, "-n", "1", "--json")
        assert result.exit_code == 2
        assert result.output.strip().splitlines() == [message]


def test_the_same_policy_twice_over_the_same_seeds_changes_nothing():
    result = balance_by_skill(["greedy", "search:budget=1,horizon=1,noise=0"], 1, seed=4, bootstrap=20)
    again = balance_by_skill(["greedy", "search:budget=1,horizon=1,noise=0"], 1, seed=4, bootstrap=20)
    assert result.to_dict() == again.to_dict()
    assert result.table()["deck"].to_list() == [1, 2, 3, 4]


def test_rank_correlations():
    assert spearman([0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]) == -1.0
    assert kendall([0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.3, 0.4]) == 4 / 6
    assert math.isnan(spearman([0.5] * 4, [0.1, 0.2, 0.3, 0.4]))


def test_balance_policies_is_the_same_on_both_engines():
    """``balance --policies greedy,search:fair`` gives identical results on the fast and the reference engine."""
    outputs = []
    for engine in ("fast", "reference"):
        result = run(
            "balance", "--policies", "greedy,search:fair", "-n", "1", "--seed", "6", "--engine", engine, "--json"
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.output.strip().splitlines()[-1])
        data.pop("seconds")
        outputs.append(data)
    assert outputs[0] == outputs[1]
    assert outputs[0]["policies"]["search:fair"]["games"] == 12


def test_the_run_time_estimate_times_the_engine_that_will_play(monkeypatch):
    """A search study's estimate probes the fast engine (after an untimed game that loads it,
    two sizes, growing until they take long enough to time, so that a job's own cost is told from
    a game's), with events too
    (``card-stats``: the fast engine records them), and the reference engine when it is asked for."""
    import dataclasses

    from clashkit.base.cards import starter_set
    from clashkit.studies import design

    played = []
    monkeypatch.setattr(design.jobs, "play_job", lambda job: played.append((job.n, job.events)))
    job = design.Job(1, 2, 0, 50, starter_set(), design.Settings("search:fair"))
    # Games that take no time: the probes grow fourfold up to the largest.
    sizes = [1, *(design.FAST_PROBE_GAMES * 4**k for k in range(5))]
    assert sizes[-1] == design.FAST_PROBE_GAMES_LARGE
    assert design.estimate_seconds([job]) >= 0
    assert played == [(n, False) for n in sizes]
    played.clear()
    design.estimate_seconds([dataclasses.replace(job, events=True)])
    assert played == [(n, True) for n in sizes]
    played.clear()
    design.estimate_seconds([dataclasses.replace(job, settings=design.Settings("search:fair", engine="reference"))])
    assert played == [(1, False)]


def test_the_estimate_tells_a_jobs_own_cost_from_its_games(monkeypatch):
    """Probes of 8 and 32 games taking 0.108 s and 0.132 s: 1 ms a game and 0.1 s a job, so
    two jobs of 1,000 games are estimated at 2 × (0.1 + 1.0) s, not 2 × 1,000 × 13.5 ms."""
    from clashkit.base.cards import starter_set
    from clashkit.studies import design

    seconds = {1: 0.5, design.FAST_PROBE_GAMES: 0.108, 4 * design.FAST_PROBE_GAMES: 0.132}
    monkeypatch.setattr(design.jobs, "_timed", lambda job: seconds[job.n])
    monkeypatch.setattr(design.jobs, "play_job", lambda job: None)
    monkeypatch.setattr(design.jobs, "_share", lambda cpu, wall: 1.0)  # a quiet machine
    jobs = [design.Job(1, 2, k, 1000, starter_set(), design.Settings("expert")) for k in range(2)]
    assert design.estimate_seconds(jobs) == pytest.approx(2 * (0.1 + 1.0))


def test_a_rank_correlation_whose_interval_is_one_point_is_given_without_it():
    """Four decks: when every bootstrap replicate ranks them alike the 'interval' is the point itself
    (+0.40 to +0.40); the sentence gives the coefficient and says why there is no interval."""
    from types import SimpleNamespace

    from clashkit.studies.skill import SkillBalance

    def sentence(**correlation) -> str:
        r = {"spearman": 0.4, "low": 0.4, "high": 0.4, "kendall": 1 / 3, "bootstrap": 1000, "decks": [1, 2, 3, 4]}
        r |= {"kendall_low": -1 / 3, "kendall_high": 1.0} | correlation
        return SkillBalance.correlation_text(SimpleNamespace(correlation=r, weak="greedy", strong="expert"))

    assert sentence() == (
        "Rank correlation of the decks' rates, greedy vs expert: Spearman +0.40, Kendall +0.33 (95% -0.33 to +1.00); "
        "no interval for Spearman: all 1000 bootstrap replicates rank the 4 decks alike, and 4 ranks leave no value "
        "between."
    )
    assert sentence(low=0.2, high=0.8) == (
        "Rank correlation of the decks' rates, greedy vs expert: Spearman +0.40 (95% +0.20 to +0.80), "
        "Kendall +0.33 (95% -0.33 to +1.00); 1000 bootstrap replicates."
    )
