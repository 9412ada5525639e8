"""The run-time estimates of studies (``clashkit.studies.design.jobs``): a probe's seconds of CPU,
turned into time by the machine's load, with the start of worker processes counted; said as
ordinary output in a notebook.  How close they come on a busy machine is a figure
(``benchmarks/estimates.py``), not a timed test."""

from __future__ import annotations

import pytest

from clashkit.base.cards import starter_set
from clashkit.studies import design
from clashkit.studies.design import jobs


@pytest.mark.parametrize(
    ("others", "processes", "share"),
    [(0.0, 1, 1.0), (0.0, 2, 1.0), (1.0, 2, 2 / 3), (2.0, 1, 2 / 3), (2.0, 2, 0.5), (4.0, 2, 1 / 3)],
)
def test_each_process_gets_its_share_of_the_cores_beside_the_others(others, processes, share):
    assert jobs.Load(2, others).share(processes) == pytest.approx(share)


def test_the_probe_s_share_of_a_core_tells_how_many_others_ran(monkeypatch):
    monkeypatch.setattr(jobs.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (0.5, 0.5, 0.5))
    assert jobs.Load.seen(cpu=0.5, wall=1.0) == jobs.Load(2, 3.0)  # half a core: three others beside it
    assert jobs.Load.seen(cpu=1.0, wall=1.0) == jobs.Load(2, 0.5)  # unhindered: the load average says more
    monkeypatch.setattr(jobs.os, "getloadavg", lambda: (4.0, 1.0, 1.0))
    assert jobs.Load.seen(cpu=0.5, wall=1.0) == jobs.Load(2, 4.0)


def _probed(monkeypatch, others: float) -> list[design.Job]:
    """Probes of 0.5 s for the first game, then 1 ms a game and 0.1 s a job, on a machine with
    ``others`` processes beside this one and 0.75 s to start a worker's Python."""
    monkeypatch.setattr(jobs, "_timed", lambda job: 0.5 if job.n == 1 else 0.1 + 0.001 * job.n)
    monkeypatch.setattr(jobs, "play_job", lambda job: None)
    monkeypatch.setattr(jobs, "_FIRST_GAME", {})
    monkeypatch.setattr(jobs, "_worker_imports", lambda: 0.75)
    monkeypatch.setattr(jobs.Load, "seen", classmethod(lambda cls, cpu, wall: cls(2, others)))
    return [design.Job(1, 2, k, 1000, starter_set(), design.Settings("expert")) for k in range(4)]


def test_in_this_process_the_games_take_the_probe_s_share_of_a_core(monkeypatch):
    work = _probed(monkeypatch, others=2.0)
    assert design.estimate_seconds(work, workers=1) == pytest.approx(4 * 1.1 / (2 / 3))


def test_workers_first_start_python_and_load_the_engine_then_share_the_machine(monkeypatch):
    """Two workers beside two other processes: each has half a core; each first imports (0.75 s)
    and loads the engine (the first game, 0.5 s), then plays half the jobs."""
    work = _probed(monkeypatch, others=2.0)
    assert design.estimate_seconds(work, workers=2) == pytest.approx((0.75 + 0.5 + 4 * 1.1 / 2) / 0.5)
    quiet = _probed(monkeypatch, others=0.0)
    assert design.estimate_seconds(quiet, workers=2) == pytest.approx(0.75 + 0.5 + 4 * 1.1 / 2)


def test_few_games_are_estimated_as_played_here(monkeypatch):
    work = [design.Job(1, 2, 0, 10, starter_set(), design.Settings("expert"))] * 3
    _probed(monkeypatch, others=0.0)
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
    monkeypatch.setattr(jobs.Load, "seen", classmethod(lambda cls, cpu, wall: cls(2, 0.0)))
    eight = design.FAST_PROBE_GAMES
    large = 4 * eight  # long enough to time (design.PROBE_SECONDS)
    assert design.estimate_seconds(work, workers=1) == pytest.approx(12 * (0.1 + 1000 * 0.0025))
    assert probed == [(1, 2, 1), (1, 2, eight), (1, 2, large), (2, 1, large), (3, 1, large), (4, 1, large)]
