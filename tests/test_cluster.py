"""``--cluster`` / ``cluster=``: games and studies on a Dask ``local:2`` cluster give the frames
``--jobs 1`` gives, in the same row order, through a killed worker and a resumed run; every
address is 127.0.0.1; every cluster a test starts is closed by its fixture, even on failure."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

import polars as pl
import pytest
from click.testing import CliRunner

import clashkit.runs.simulate as sim
from clashkit.base.errors import OptionError, OutputError
from clashkit.cli import main
from clashkit.runs.cluster import connect, parse_cluster
from clashkit.runs.output import RunWriter
from clashkit.runs.run_folder import read_manifest
from clashkit.runs.simulate import simulate, simulate_to
from clashkit.studies.design import sweep

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    """One ``local:2`` cluster for the module; closed when the module ends, however it ends."""
    with connect("local:2") as started:
        yield started
    assert started.status == "closed"


@pytest.fixture
def small_parts(monkeypatch):
    """Parts of 40 games, so a small run has several parts (cut on the driver only)."""
    monkeypatch.setattr(sim, "PART_GAMES", 40)


def frames(trace) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    return trace.games, trace.turns, trace.events


def assert_same(a, b) -> None:
    for x, y in zip(frames(a), frames(b), strict=True):
        assert x.equals(y)


# --- Addresses -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, workers, address",
    [
        ("local:2", 2, None),
        (" LOCAL:16 ", 16, None),
        ("tcp://10.0.0.5:8786", None, "tcp://10.0.0.5:8786"),
        ("tcp://sched-1.lab:8786", None, "tcp://sched-1.lab:8786"),
        ("tls://10.0.0.5:8786", None, "tls://10.0.0.5:8786"),
    ],
)
def test_cluster_addresses_read(text, workers, address):
    parsed = parse_cluster(text)
    assert (parsed.workers, parsed.address) == (workers, address)


@pytest.mark.parametrize(
    "text",
    [
        "local:0",
        "local:",
        "local:two",
        "local:-1",
        "local:513",
        "tcp://host",
        "http://h:80",
        "tcp://h:99999",
        "h:8786",
        "",
        "dask",
    ],
)
def test_bad_cluster_values_refused_in_one_line(text):
    with pytest.raises(OptionError, match="--cluster"):
        parse_cluster(text)
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "--cluster", text, "--no-progress"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("clashkit: error: --cluster")
    assert result.stdout == ""


def test_clashkit_imports_dask_only_for_a_cluster():
    probe = (
        "import sys, clashkit, clashkit.runs.simulate, clashkit.studies.design, clashkit.cli, clashkit.runs.cluster; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_bad_card_file_fails_before_a_cluster_starts(tmp_path):
    bad = tmp_path / "cards.csv"
    bad.write_text("name,kind\nX,bad\n", encoding="utf-8")
    # Dask made unimportable: a cluster started before the card file is read would say so.
    (tmp_path / "distributed.py").write_text("raise ImportError('no Dask here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "clashkit",
            "balance",
            "-n",
            "5",
            "--cluster",
            "local:2",
            "--cards",
            str(bad),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(f"clashkit: error: {bad}: header lacks") and result.stderr.count("\n") == 1


def test_the_cluster_listens_on_localhost_only(client):
    info = client.scheduler_info()
    assert info["address"].startswith("tls://127.0.0.1:")
    assert len(info["workers"]) == 2
    for address, worker in info["workers"].items():
        assert address.startswith("tls://127.0.0.1:")
        assert worker["host"] == "127.0.0.1"
        assert worker["nanny"].startswith("tls://127.0.0.1:")
    # Every socket the driver and the workers listen on is on 127.0.0.1 (no dashboard on 0.0.0.0).
    import psutil

    pids = [os.getpid(), *client.run(os.getpid).values()]
    listening = [
        c.laddr.ip
        for pid in pids
        for c in psutil.Process(pid).net_connections("inet")
        if c.status == psutil.CONN_LISTEN
    ]
    assert len(listening) >= 5  # scheduler, its HTTP server, two nannies, two workers
    assert set(listening) == {"127.0.0.1"}


def test_a_client_without_the_clusters_credentials_is_refused(client):
    import socket
    import ssl

    address = client.scheduler_info()["address"]
    # Not in plain TCP.
    with pytest.raises((OSError, TimeoutError)):
        distributed.Client(address.replace("tls://", "tcp://"), timeout=3, set_as_default=False).close()
    # Not in TLS without a client certificate: the scheduler ends the connection.
    host, port = address.removeprefix("tls://").rsplit(":", 1)
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        try:
            with context.wrap_socket(raw) as tls:
                tls.sendall(b"\0" * 16)
                answer = tls.recv(1)
        except OSError:  # ssl.SSLError: the handshake refused
            answer = b""
    assert answer == b""
    # Another run's certificate is refused too.
    other = distributed.security.Security.temporary()
    with pytest.raises((OSError, TimeoutError)):
        distributed.Client(address, timeout=3, security=other, set_as_default=False).close()


def test_a_local_cluster_that_cannot_start_is_one_line(tmp_path, monkeypatch):
    def nanny_failed(*args, **kwargs):
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(distributed, "LocalCluster", nanny_failed)
    result = CliRunner().invoke(
        main, ["simulate", "-n", "2", "--cluster", "local:2", "--no-progress", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        "clashkit: error: --cluster local:2: the local cluster did not start (RuntimeError: Nanny failed to start.)"
    ]
    assert not (tmp_path / "r" / "manifest.json").exists()


# --- The same frames as serial -------------------------------------------------------------------


def test_reference_engine_with_events_equals_serial(client, small_parts):
    serial = simulate(130, "1", "3", "greedy", "random", seed=11, jobs=1, progress=False)
    spread = simulate(130, "1", "3", "greedy", "random", seed=11, progress=False, cluster=client)
    assert spread.events.height > 0
    assert spread.games["game"].to_list() == list(range(130))
    assert_same(serial, spread)


def test_fast_engine_without_events_equals_serial(client, small_parts):
    kw = dict(seed=5, record_events=False, progress=False, engine="fast")
    serial = simulate(130, "2", "4", "greedy", jobs=1, **kw)
    spread = simulate(130, "2", "4", "greedy", cluster=client, **kw)
    assert_same(serial, spread)


def test_sweep_equals_serial(client):
    serial = sweep("BRUTE", {"attack": [4, 6]}, n=6, seed=2, jobs=1)
    spread = sweep("BRUTE", {"attack": [4, 6]}, n=6, seed=2, cluster=client)
    assert spread.rows.equals(serial.rows)
    assert spread.matchups.equals(serial.matchups)
    assert spread.rows["games"].to_list() == [36] * 8  # 4 decks × 6 pairings of a deck × n


def test_meta_equals_serial(client):
    """The meta study's generations wait on one another (a barrier in the task stream): the same
    decks searched and the same answers on the cluster as in one process."""
    from clashkit.studies.meta import meta

    sizes = dict(evaluations=40, n=2, value_games=1, top=3, search_games=2, seed=6)
    serial = meta("greedy", jobs=1, **sizes).to_dict()
    spread = meta("greedy", cluster=client, **sizes).to_dict()
    assert {k: v for k, v in spread.items() if k != "seconds"} == {k: v for k, v in serial.items() if k != "seconds"}


def test_cli_simulate_on_a_cluster_writes_the_serial_run(tmp_path):
    result = CliRunner().invoke(
        main, ["simulate", "-n", "60", "--seed", "4", "--cluster", "local:2", "--out", str(tmp_path), "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    serial = simulate(60, "1", "2", "greedy", seed=4, jobs=1, progress=False, record_events=False)  # the fast engine
    assert_same(serial, _read(tmp_path))
    assert read_manifest(tmp_path)["run"]["n"] == 60


# --- Faults ------------------------------------------------------------------------------------


class _Bar:
    """A progress bar that records what it is told and calls ``on_update`` once, at the first update."""

    def __init__(self, initial: int = 0, on_update=None) -> None:
        self.initial, self.updates, self.on_update = initial, [], on_update

    def update(self, games: int) -> None:
        self.updates.append(games)
        if self.on_update is not None:
            hook, self.on_update = self.on_update, None
            hook()


def _recording_progress(monkeypatch, bars: list, on_update=None) -> None:
    @contextlib.contextmanager
    def progress(n, shown, initial=0):
        bars.append(_Bar(initial, None if bars else on_update))  # the hook on the first run's bar only
        yield bars[-1]

    monkeypatch.setattr(sim, "_progress", progress)


def test_a_killed_worker_changes_nothing(client, small_parts, monkeypatch):
    before = client.run(os.getpid)
    victim = sorted(before.values())[0]
    bars: list[_Bar] = []
    _recording_progress(monkeypatch, bars, on_update=lambda: os.kill(victim, signal.SIGKILL))
    spread = simulate(200, "4", "1", "greedy", seed=9, cluster=client)
    assert sum(bars[0].updates) == 200  # every game once on the bar, the replayed chunk included
    serial = simulate(200, "4", "1", "greedy", seed=9, jobs=1, progress=False)
    assert_same(serial, spread)
    with contextlib.suppress(Exception):
        client.wait_for_workers(2, timeout=20)  # the nanny starts a new worker process
    assert victim not in client.run(os.getpid).values()


def test_resume_after_an_interrupted_cluster_run_equals_an_uninterrupted_one(
    client, small_parts, monkeypatch, tmp_path
):
    n, out = 150, tmp_path / "run"
    written = []
    real_write = RunWriter.write_part

    def write_one_part(self, index, parts):
        if written:
            raise OutputError("disk full")
        real_write(self, index, parts)
        written.append(index)

    monkeypatch.setattr(RunWriter, "write_part", write_one_part)
    with pytest.raises(OutputError):
        simulate_to(out, n, "1", "2", "greedy", seed=3, engine="reference", progress=False, cluster=client)
    assert not (out / "manifest.json").exists() and not (out / "games.parquet").exists()
    monkeypatch.setattr(RunWriter, "write_part", real_write)
    bars: list[_Bar] = []
    _recording_progress(monkeypatch, bars)
    simulate_to(out, n, "1", "2", "greedy", seed=3, engine="reference", cluster=client, resume=True)
    (part,) = written
    done = min(40, n - part * 40)
    assert (bars[0].initial, sum(bars[0].updates)) == (done, n - done)  # the finished part is not played again
    whole = tmp_path / "whole"
    simulate_to(whole, n, "1", "2", "greedy", seed=3, engine="reference", jobs=1, progress=False)
    assert_same(_read(whole), _read(out))
    assert read_manifest(out)["run"] == read_manifest(whole)["run"]


def _read(folder):
    from clashkit.runs.trace import Trace

    return Trace.read_parquet(folder)
