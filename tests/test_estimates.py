"""The run-time estimates of studies (``clashkit.studies.design.jobs``): a probe's seconds of CPU,
turned into time by the share of a core the probe had, and with workers by a second probe that
starts them and sees the share each then has; said as
ordinary output in a notebook.  How close they come on a busy machine is a figure
(``benchmarks/estimates.py``), not a timed test."""

from __future__ import annotations

import dataclasses

import pytest

from clashkit.base.cards import starter_set
from clashkit.studies import design
from clashkit.studies.design import jobs


def test_a_share_of_a_core_is_cpu_over_wall_at_most_one():
    assert (jobs._share(0.5, 1.0), jobs._share(1.0, 1.0), jobs._share(2.0, 1.0), jobs._share(0.0, 0.0)) == (
        0.5,
        1.0,
        1.0,
        1.0,
    )


def _probed(monkeypatch, share: float, workers: tuple[float, float] = (1.25, 1.0)) -> list[design.Job]:
    """Probes of 0.5 s for the first game, then 1 ms a game and 0.1 s a job, this process having
    ``share`` of a core meanwhile; ``workers``: what the parallel probe finds (the seconds their start
    takes, the share of a core each then has)."""
    monkeypatch.setattr(jobs, "_timed", lambda job: 0.5 if job.n == 1 else 0.1 + 0.001 * job.n)
    monkeypatch.setattr(jobs, "_share", lambda cpu, wall: share)
    monkeypatch.setattr(jobs, "_parallel_probe", lambda probes, n: workers)
    return [design.Job(1, 2, k, 1000, starter_set(), design.Settings("expert")) for k in range(4)]


def test_in_this_process_the_games_take_the_probe_s_share_of_a_core(monkeypatch):
    work = _probed(monkeypatch, share=2 / 3)
    assert design.estimate_seconds(work, workers=1) == pytest.approx(4 * 1.1 / (2 / 3))


def test_workers_first_start_as_the_probe_found_then_play_at_their_share(monkeypatch):
    """Two workers that took 1.25 s to start and load the engine, each with half a core: half the
    jobs each, at half speed."""
    work = _probed(monkeypatch, share=1.0, workers=(1.25, 0.5))
    assert design.estimate_seconds(work, workers=2) == pytest.approx(1.25 + 4 * 1.1 / 2 / 0.5)


def test_the_workers_probe_plays_one_game_of_each_policy_as_the_jobs_play_it(monkeypatch):
    seen = []
    work = _probed(monkeypatch, share=1.0)
    monkeypatch.setattr(jobs, "_parallel_probe", lambda probes, n: seen.append((probes, n)) or (0.0, 1.0))
    mixed = [dataclasses.replace(work[0], settings=design.Settings("greedy", opponent="expert"))] * 2
    design.estimate_seconds(mixed, workers=2)
    ((probes, n),) = seen
    assert n == 2 and [(p.n, p.settings.policy, p.settings.opponent) for p in probes] == [
        (1, "greedy", None),
        (1, "expert", None),
    ]


def test_a_worker_of_the_probe_loads_the_engine_waits_for_the_others_then_is_busy(monkeypatch):
    """Its share is one busy thread's, measured only once every worker has loaded (a worker that
    measured while another still loaded would see the machine emptier than the run will)."""
    happened = []

    class Barrier:
        def wait(self, timeout):
            happened.append("all loaded")

    monkeypatch.setattr(jobs, "play_job", lambda job: happened.append(job))
    monkeypatch.setattr(jobs, "PARALLEL_PROBE_SECONDS", 0.05)
    probe = design.Job(1, 2, 0, 1, starter_set(), design.Settings("expert"))
    assert 0.0 < jobs._worker_probe(Barrier(), [probe]) <= 1.0
    assert happened == [probe, "all loaded"]


def test_few_games_are_estimated_as_played_here(monkeypatch):
    work = [design.Job(1, 2, 0, 10, starter_set(), design.Settings("expert"))] * 3
    _probed(monkeypatch, share=1.0)
    monkeypatch.setattr(jobs, "_parallel_probe", lambda probes, n: pytest.fail("no workers for 30 games"))
    assert design.estimate_seconds(work, workers=2) == pytest.approx(3 * (0.1 + 10 * 0.001))


def test_an_estimate_is_ordinary_output_in_a_notebook_and_on_stderr_in_a_terminal(capsys):
    """In JupyterLab stderr shows as a warning's pink box: the estimate is not one."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    jobs.notice("games: 12 games, about 1 s")
    assert capsys.readouterr() == ("", "games: 12 games, about 1 s\n")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            "from clashkit.studies.design.jobs import notice\nnotice('games: 12 games, about 1 s')"
        )
    ]
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=600).execute()
    assert [(o["name"], o["text"]) for o in notebook.cells[0].outputs] == [("stdout", "games: 12 games, about 1 s\n")]


def test_a_game_s_cost_is_the_mean_over_several_deck_pairings(monkeypatch):
    """Games of decks 1 and 2 cost 1 ms here, of the other pairings probed 3 ms: twelve pairings,
    four of them probed (the first and three spread over the rest), a game costs 2.5 ms."""
    work = [
        design.Job(a, b, 0, 1000, starter_set(), design.Settings("expert"))
        for a in range(1, 5)
        for b in range(1, 5)
        if a != b
    ]
    probed = []

    def timed(job):
        probed.append((job.deck_a, job.deck_b, job.n))
        per_game = 0.001 if (job.deck_a, job.deck_b) == (1, 2) else 0.003
        return 0.1 + per_game * job.n

    monkeypatch.setattr(jobs, "_timed", timed)
    monkeypatch.setattr(jobs, "_share", lambda cpu, wall: 1.0)
    eight = design.FAST_PROBE_GAMES
    large = 4 * eight  # long enough to time (design.PROBE_SECONDS)
    assert design.estimate_seconds(work, workers=1) == pytest.approx(12 * (0.1 + 1000 * 0.0025))
    assert probed == [(1, 2, 1), (1, 2, eight), (1, 2, large), (2, 1, large), (3, 1, large), (4, 1, large)]


def test_the_workers_probe_starts_real_workers_and_sees_their_share():
    """Real worker processes of the run's own kind start, load, meet at the barrier (shared with
    them as a run's workers share their setting) and come back with a share of a core each."""
    probe = design.Job(1, 2, 0, 1, starter_set(), design.Settings("greedy", engine="reference"))
    start, share = jobs._parallel_probe([probe], 2)
    assert start >= 0.0 and 0.0 < share <= 1.0
