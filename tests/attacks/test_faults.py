"""Attacks by faults on accepted input: each ends in one line and exit 2, never a traceback.

A worker process killed mid-run, ``--cluster`` addresses that cannot be used (``tls://``
without TLS settings, a host name too long to look up, a scheduler that does not answer), a
search budget of ``inf``, a fit without a finished game, a calibration of one game per row, a
deck file that is not UTF-8, an ``--out`` that cannot be written checked before a long fit.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import polars as pl
import pytest
from command_line import cli, one_line_exit_2
from run_processes import simulate_command

from clashkit.base.cards import load_cards
from clashkit.base.errors import InputError, OptionError
from clashkit.runs.run_folder import STAGING
from clashkit.runs.trace import Trace

HEADER = "name,deck,kind,cost,attack,health,abilities,aura,effect,target,notes\n"


# --- A worker killed mid-run ----------------------------------------------------------------------


def _parent_of(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("PPid:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _workers_of(run: int) -> list[int]:
    """The worker processes of the run ``run``: grandchildren by way of its fork server."""
    pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    children = {pid for pid in pids if _parent_of(pid) == run}
    return sorted(pid for pid in pids if _parent_of(pid) in children)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_a_worker_killed_by_sigkill_ends_the_run_in_one_line_and_resume_finishes_it(tmp_path):
    out = tmp_path / "run"
    process = subprocess.Popen(
        simulate_command(out, 6000, "--seed", "41", "--jobs", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 300
        workers: list[int] = []
        while time.monotonic() < deadline and process.poll() is None:
            workers = _workers_of(process.pid)
            if len(workers) >= 2 and list((out / STAGING).glob("part-*.games.parquet")):
                break
            time.sleep(0.05)
        assert process.poll() is None and len(workers) >= 2, f"no part and workers seen: {process.poll()}"
        victim = workers[0]
        os.kill(victim, signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 2, stderr
    assert stdout == ""
    (line,) = stderr.strip().splitlines()
    assert re.fullmatch(
        rf"clashkit: error: worker {victim} was killed \(signal 9\); the run stopped; --resume goes on", line
    ), line
    assert list((out / STAGING).glob("part-*.games.parquet")) and not (out / ".clashkit.lock").exists()
    # Nothing lost: --resume finishes the run, and it is the run a single uninterrupted one writes.
    resumed = subprocess.run(
        simulate_command(out, 6000, "--seed", "41", "--jobs", "2", "--resume"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole"
    fresh = subprocess.run(
        simulate_command(whole, 6000, "--seed", "41", "--jobs", "2"), capture_output=True, text=True, timeout=600
    )
    assert fresh.returncode == 0, fresh.stderr
    a, b = Trace.read_parquet(out), Trace.read_parquet(whole)
    assert a.games.height == 6000 and a.games["game"].to_list() == list(range(6000))
    assert a.games.equals(b.games) and a.turns.equals(b.turns)


def test_a_dead_worker_is_named_by_run_tasks_for_every_caller():
    """``run_tasks`` itself turns the broken pool into :class:`WorkerError` (one place), here for
    a worker that ends itself with SIGKILL while running a task."""
    from clashkit.base.errors import WorkerError
    from clashkit.runs.workers import run_tasks

    with pytest.raises(WorkerError, match=r"^worker \d+ was killed \(signal 9\); the run stopped$"):
        list(run_tasks(signal.raise_signal, [(0, (signal.SIGKILL,))], jobs=2))


# --- --cluster that cannot be used ------------------------------------------------------------------

#: The six commands that take --cluster, each with what it needs besides.
CLUSTER_COMMANDS = {
    "simulate": ["simulate", "-n", "2", "--no-progress"],
    "balance": ["balance", "-n", "2", "--no-progress"],
    "sweep": ["sweep", "-n", "2", "--no-progress", "--card", "OGRE", "--set", "attack=1,2"],
    "card-stats": ["card-stats", "-n", "2", "--no-progress"],
    "tune": ["tune", "-n", "2", "--no-progress"],
    "ladder": ["ladder", "-n", "2", "--no-progress", "--policies", "random,greedy"],
}


@pytest.fixture
def no_dask_tls(monkeypatch):
    pytest.importorskip("distributed")
    for name in list(os.environ):
        if name.startswith("DASK_DISTRIBUTED__COMM__TLS"):
            monkeypatch.delenv(name)


@pytest.mark.parametrize("command", list(CLUSTER_COMMANDS))
def test_tls_without_tls_settings_is_one_line_in_every_command(tmp_path, no_dask_tls, command):
    out = tmp_path / "out"
    one_line_exit_2(
        cli(*CLUSTER_COMMANDS[command], "--cluster", "tls://127.0.0.1:1", "--out", str(out)),
        "--cluster tls://127.0.0.1:1: tls:// needs Dask's TLS settings: distributed.comm.tls.ca-file",
    )
    assert not out.exists()


@pytest.mark.parametrize("command", list(CLUSTER_COMMANDS))
@pytest.mark.parametrize(
    "host",
    ["a" * 300, "a" * 64 + ".example", "a..b", ".".join(["abc"] * 70)],
    ids=["300 characters", "a 64-character label", "an empty label", "254 characters"],
)
def test_a_host_name_that_cannot_be_looked_up_is_one_line_in_every_command(tmp_path, command, host):
    out = tmp_path / "out"
    one_line_exit_2(
        cli(*CLUSTER_COMMANDS[command], "--cluster", f"tcp://{host}:8786", "--out", str(out)),
        "not a host name (at most 253 characters, in parts of 1 to 63 between dots)",
    )
    assert not out.exists()


def test_an_unreachable_scheduler_leaves_no_out_folder(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from clashkit.runs import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    out = tmp_path / "new" / "run"
    one_line_exit_2(
        cli(*CLUSTER_COMMANDS["simulate"], "--cluster", "tcp://127.0.0.1:1", "--out", str(out)),
        "--cluster tcp://127.0.0.1:1: no dask scheduler answers there",
    )
    assert not out.exists() and not out.parent.exists()


# --- Numbers out of range that once overflowed or divided by zero -----------------------------------


@pytest.mark.parametrize("budget", ["inf", "1e308", "nan", "0", "-1", "604801", "1_000"])
def test_a_search_budget_out_of_range_is_one_line(tmp_path, budget):
    one_line_exit_2(
        cli("tune", "-n", "2", "--no-progress", "--budget-seconds", budget, "--out", str(tmp_path / "t")),
        "--budget-seconds: must be a number 0.001…604800 (tune, meta: seconds a search may take, at most a week)",
    )
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("budget", [float("inf"), 1e308, float("nan"), 0, -1.0])
def test_a_search_budget_out_of_range_is_refused_by_the_api(budget):
    from clashkit.studies.design import tune

    with pytest.raises(OptionError, match="^budget_seconds: must be a number 0.001…604800"):
        tune(n=2, budget_seconds=budget)


def _calibration_of_one_game(wins: int) -> pl.DataFrame:
    from clashkit.studies.calibration import CALIBRATION_SCHEMA

    rows = [("quick", "quick game", "-", 0, 0)]
    rows += [("single", f"ai_fixed_mana={m}", f"ai_fixed_mana={m}", m - 6, 0) for m in (7, 8, 9, 10)]
    return pl.DataFrame(
        [
            {"group": g, "label": label, "settings": s, "points": p, "level": lv, "games": 1, "wins": wins}
            | {"unfinished": 0, "win_rate": float(wins), "ci_low": 0.0, "ci_high": 1.0, "mean_turns": 9.0}
            for g, label, s, p, lv in rows
        ],
        schema=CALIBRATION_SCHEMA,
    )


@pytest.mark.parametrize("wins", [0, 1])
def test_a_calibration_whose_fixed_mana_rows_do_not_move_measures_nothing_instead_of_dividing_by_0(wins):
    from clashkit.studies.calibration import markdown_table, measured_points

    frame = _calibration_of_one_game(wins)
    assert measured_points(frame).to_list() == [None] * 5
    assert markdown_table(frame).splitlines()[2].split("|")[6].strip() == ""


def _no_attack_cards(path: Path) -> Path:
    """Four decks of eight creatures of attack 0 and no incantation: no game can be won."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    rows = [f"ZERO{letters[i // 26]}{letters[i % 26]},{i // 8 + 1},creature,1,0,3,,,,,\n" for i in range(32)]
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    return path


def test_a_fit_on_cards_that_cannot_win_is_one_line(tmp_path):
    cards = _no_attack_cards(tmp_path / "zero.csv")
    load_cards(cards)  # a card file clashkit accepts
    out = tmp_path / "w.json"
    one_line_exit_2(
        cli("expert-train", "--games", "4", "--rounds", "1", "--cards", str(cards), "--out", str(out)),
        "round 1: none of the 4 games had a winner (R10.1: each reached the turn limit)",
    )
    assert not out.exists()


def test_a_fit_without_positions_is_an_input_error_from_the_api(tmp_path):
    from clashkit.studies.expert_fit import fit

    with pytest.raises(InputError, match="^round 1: none of the 2 games had a winner"):
        fit(2, 1, 1, cards=load_cards(_no_attack_cards(tmp_path / "zero.csv")))


# --- expert-train checks --out before the fit -----------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / ("x" * 300 + ".json"), "bytes, more than the 255 a file name may have"),
        (lambda d: _fifo(d / "pipe.json"), "not a regular file"),
        (lambda d: d / "missing" / "w.json", "--out: no directory for"),
        (lambda d: _file(d / "file") / "w.json", "--out: no directory for"),
    ],
    ids=["a name too long", "a FIFO", "no folder", "a file as the folder"],
)
def test_expert_train_refuses_an_out_it_cannot_write_before_the_fit(tmp_path, monkeypatch, make, message):
    from clashkit.studies import expert_fit

    def fit(*args, **kwargs):
        raise AssertionError("the fit ran before --out was checked")

    monkeypatch.setattr(expert_fit, "fit", fit)
    one_line_exit_2(cli("expert-train", "--games", "1", "--rounds", "1", "--out", str(make(tmp_path))), message)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _file(path: Path) -> Path:
    path.write_text("x")
    return path


# --- A deck file that is not UTF-8 ---------------------------------------------------------------------


def test_a_solo_deck_file_that_is_not_utf8_is_one_line_naming_it(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"OGRE\xff\n")
    line = one_line_exit_2(
        cli("simulate", "--mode", "solo", "-n", "1", "--no-progress", "--a", str(deck), "--out", str(tmp_path / "r")),
        "not UTF-8 text",
    )
    assert str(deck) in line


def test_a_solo_deck_file_that_is_not_utf8_is_a_deck_error_from_the_api(tmp_path):
    from clashkit.base.cards import starter_set
    from clashkit.base.errors import DeckError
    from clashkit.base.rng import Rng
    from clashkit.engine.solo_setup import split_cards
    from clashkit.policies import get_policy

    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"\xfe\xfeOGRE\n")
    with pytest.raises(DeckError, match=f"^player deck: {re.escape(str(deck))}: not UTF-8 text$"):
        split_cards(str(deck), get_policy("random"), starter_set(), Rng(1))
