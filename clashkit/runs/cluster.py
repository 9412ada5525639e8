"""Simulations and design studies on a Dask cluster: ``--cluster local:N | tcp://HOST:PORT``.

``local:N`` starts a ``distributed.LocalCluster`` of N worker processes (one
thread each) bound to 127.0.0.1, its dashboard off (every socket it opens listens
on 127.0.0.1 only), speaking TLS with a certificate made for this run alone
(``distributed.security.Security.temporary()``): another process on the machine
cannot join it or run code in its workers.  ``tcp://HOST:PORT`` connects to a
running ``dask scheduler``; ``tls://HOST:PORT`` to one secured with TLS, with the
certificates of Dask's configuration (``distributed.comm.tls``: ``ca-file`` and
``client.cert`` / ``client.key``, e.g. ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``;
see docs/guide/cluster.md).  Python code passes ``cluster=`` to
:func:`clashkit.runs.simulate.simulate`, :func:`~clashkit.runs.simulate.simulate_to` and
the :mod:`clashkit.studies.design` studies: such an address, or a
``distributed.Client`` of its own (which clashkit then neither starts nor
closes).  Every cluster and client clashkit starts is closed when the run
ends, however it ends.

The work is plain data: a chunk of games by index (with the master seed's
pool, so each game gets the seed it gets serially) or a study's job, with the
card set's *contents* and the checked rules inside it — never a path the
workers would have to read.  Everything is checked on this machine before any
work is spread; the workers are then asked their clashkit and rules versions,
and a cluster whose workers differ is refused in one line.  A chunk whose
worker dies is played again elsewhere with the same games (the scheduler
reschedules it; ``retries`` covers a chunk that fails).

Dask is imported only here, and only when a cluster is asked for
(``pip install clashkit[cluster]``).
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..base.errors import ClusterError, OptionError
from ..base.limits import LIMITS, shown, whole_number
from .barrier import BARRIER
from .startup import signals_blocked

#: Where a local cluster listens: this machine only.
LOCAL_HOST = "127.0.0.1"
#: Times a chunk that raised is tried again (a dead worker's chunk is rescheduled regardless).
RETRIES = 3
#: Chunks in flight per worker thread: enough to keep every worker busy, few enough that
#: finished results do not pile up (a run larger than memory streams through).
WINDOW_PER_WORKER = 4
#: Seconds to wait for a scheduler to answer and for its first worker.
CONNECT_TIMEOUT = 10
#: Seconds a local cluster's workers may take to start (a busy machine is slow to start Python).
START_TIMEOUT = 180
#: The most worker processes ``local:N`` starts.
MOST_LOCAL_WORKERS = LIMITS["workers"].high
#: The longest host name and host-name label (RFC 1035); a longer one cannot be looked up.
MAX_HOST = 253
MAX_LABEL = 63

_TCP = re.compile(r"(?P<scheme>tcp|tls)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})")


@dataclass(frozen=True, slots=True)
class ClusterAddress:
    """A parsed ``--cluster`` value: ``workers`` for ``local:N``, ``address`` for ``tcp://…``."""

    workers: int | None = None
    address: str | None = None

    def __str__(self) -> str:
        return f"local:{self.workers}" if self.workers is not None else str(self.address)


def parse_cluster(text: object, *, where: str = "--cluster") -> ClusterAddress:
    """``local:N`` (N worker processes on 127.0.0.1) or ``tcp://HOST:PORT`` (a running scheduler)."""
    usage = (
        "write local:N (N worker processes on this machine), tcp://HOST:PORT or tls://HOST:PORT "
        "(a running dask scheduler)"
    )
    value = str(text).strip()
    if value.lower().startswith("local:"):
        count = value[len("local:") :].strip()
        try:
            workers = whole_number(count, "workers", "N", OptionError)
        except OptionError:
            raise OptionError(
                f"{where} {shown(value)}: N must be a whole number from 1 to {MOST_LOCAL_WORKERS}; {usage}"
            ) from None
        return ClusterAddress(workers=workers)
    match = _TCP.fullmatch(value)
    if match is None:
        raise OptionError(f"{where} {shown(value)}: {usage}")
    if not 1 <= int(match["port"]) <= 65535:
        raise OptionError(f"{where} {shown(value)}: port {match['port']} is not from 1 to 65535")
    host = match["host"]
    if not host.startswith("["):
        labels = host.rstrip(".").split(".")
        if len(host) > MAX_HOST or any(not 1 <= len(label) <= MAX_LABEL for label in labels):
            raise OptionError(
                f"{where} {shown(value)}: not a host name (at most {MAX_HOST} characters, in parts of "
                f"1 to {MAX_LABEL} between dots)"
            )
    return ClusterAddress(address=value)


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'clashkit[cluster]' (dask[distributed])") from None
    return distributed


def is_client(value: object) -> bool:
    """Whether ``value`` is a ``distributed.Client`` (without importing Dask for anything else)."""
    module = sys.modules.get("distributed")
    return module is not None and isinstance(value, module.Client)


@contextlib.contextmanager
def connect(cluster: Any, *, quiet: bool = True) -> Iterator[Any]:
    """A ``distributed.Client`` for ``cluster`` (an address or a client), its workers checked.

    A client given is yielded as it is and left open; a cluster or client
    started here is closed on leaving, even on an error.  ``quiet`` keeps a
    local cluster's log lines (a worker restarting) off stderr.
    """
    if is_client(cluster):
        check_workers(cluster)
        yield cluster
        return
    if not isinstance(cluster, str | ClusterAddress):
        raise OptionError(f"cluster={cluster!r}: give local:N, tcp://HOST:PORT or a distributed.Client")
    spec = cluster if isinstance(cluster, ClusterAddress) else parse_cluster(cluster, where="cluster")
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if spec.workers is not None:
            security = _temporary_security(distributed)
            try:
                # Started with Ctrl-C and SIGTERM blocked: the workers (and the thread that starts
                # them) keep them blocked, so a signal at any moment reaches this process alone,
                # which closes the cluster; one that came meanwhile is raised once it has started.
                with signals_blocked():
                    local = distributed.LocalCluster(
                        n_workers=spec.workers,
                        threads_per_worker=1,
                        processes=True,
                        host=LOCAL_HOST,
                        protocol="tls://",
                        security=security,
                        scheduler_port=0,
                        dashboard_address=None,
                        # The scheduler's HTTP server (health checks; no dashboard) on this machine only too.
                        scheduler_kwargs={"dashboard": False, "dashboard_address": f"{LOCAL_HOST}:0"},
                        silence_logs=logging.CRITICAL if quiet else logging.WARNING,
                    )
                    stack.enter_context(local)  # closed however it ends, an interrupt at unblocking too
                client = stack.enter_context(distributed.Client(local, security=security, set_as_default=False))
                client.wait_for_workers(spec.workers, timeout=START_TIMEOUT)
            except (KeyboardInterrupt, ClusterError):
                raise
            except Exception as e:  # a worker killed or refused while the cluster starts
                raise ClusterError(
                    f"--cluster {spec}: the local cluster did not start ({type(e).__name__}: {_reason(e)})"
                ) from None
        else:
            extra = {"security": _tls_security(distributed, spec)} if (spec.address or "").startswith("tls://") else {}
            try:
                client = distributed.Client(spec.address, timeout=CONNECT_TIMEOUT, set_as_default=False, **extra)
            except (OSError, TimeoutError) as e:
                raise ClusterError(f"--cluster {spec}: no dask scheduler answers there ({_reason(e)})") from None
            except (KeyboardInterrupt, ClusterError):
                raise
            except Exception as e:  # a TLS setting Dask cannot use, an address it cannot look up
                raise ClusterError(f"--cluster {spec}: cannot connect ({type(e).__name__}: {_reason(e)})") from None
            stack.enter_context(client)
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError):
                raise ClusterError(
                    f"--cluster {spec}: the scheduler has no worker after {CONNECT_TIMEOUT} s; "
                    f"start `dask worker {spec}`"
                ) from None
        check_workers(client)
        yield client


def _temporary_security(distributed):
    """TLS credentials made for one local cluster (its scheduler, workers and client only)."""
    try:
        return distributed.security.Security.temporary()
    except ImportError:
        raise ClusterError(
            "--cluster local:N secures its cluster with TLS, which needs the cryptography package: "
            "pip install 'clashkit[cluster]'"
        ) from None


def _tls_security(distributed, spec: ClusterAddress):
    """The TLS credentials of Dask's configuration for ``tls://…``; without a CA file and a client
    certificate there is nothing to connect with, so say which settings to give."""
    security = distributed.security.Security()
    if not (security.tls_ca_file and security.tls_client_cert):
        raise ClusterError(
            f"--cluster {spec}: tls:// needs Dask's TLS settings: distributed.comm.tls.ca-file and "
            "distributed.comm.tls.client.cert (and .key), e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE; "
            "see docs/guide/cluster.md"
        )
    return security


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:200] or type(error).__name__


def _identity() -> tuple[str, int]:
    """This process's clashkit version and rules version (what a worker must share with the driver)."""
    from .._version import __version__
    from ..base.rules import RULES_VERSION

    return __version__, RULES_VERSION


def check_workers(client: Any) -> None:
    """Refuse, in one line, workers that cannot run clashkit or run another version of it."""
    try:
        answers = client.run(_identity)
    except Exception as e:  # the workers cannot import clashkit, or unpickle this function
        raise ClusterError(
            f"the cluster's workers cannot run clashkit ({type(e).__name__}: {_reason(e)}); "
            "install this clashkit on every worker"
        ) from None
    if not answers:
        raise ClusterError("the cluster has no worker")
    mine = _identity()
    for worker, theirs in sorted(answers.items()):
        if tuple(theirs) != mine:
            raise ClusterError(
                f"worker {worker} runs clashkit {theirs[0]} (rules {theirs[1]}), this machine clashkit "
                f"{mine[0]} (rules {mine[1]}); install the same version on every worker"
            )


def worker_threads(client: Any) -> int:
    """How many chunks the cluster plays at once (its workers' threads)."""
    return max(1, sum(client.nthreads().values()))


def stream(
    client: Any,
    function: Callable[..., Any],
    tasks: Iterable[tuple[Any, tuple]],
    *,
    bar=None,
    size: Callable[[Any], int] = len,
) -> Iterator[tuple[Any, Any]]:
    """Run ``function(*args)`` for each ``(label, args)`` of ``tasks`` on the cluster; yield
    ``(label, result)`` as each finishes; ``tasks`` may hold :data:`~clashkit.runs.barrier.BARRIER`.

    At most :data:`WINDOW_PER_WORKER` tasks per worker thread are in flight,
    so results stream through rather than pile up.  ``bar`` (a tqdm bar) is
    moved on by ``size(result)`` games per finished task.  On any exception
    (Ctrl-C, a failed task) the tasks still pending are cancelled.
    """
    distributed = _distributed()
    run = uuid.uuid4().hex[:12]
    window = worker_threads(client) * WINDOW_PER_WORKER
    tasks = iter(tasks)
    pending: dict[Any, Any] = {}
    finished = distributed.as_completed(loop=client.loop)
    count = 0
    waiting = False

    def submit() -> bool:
        nonlocal count, waiting
        task = None if waiting else next(tasks, None)
        if task is None:
            return False
        if task is BARRIER:  # the tasks after it wait for every result before it
            waiting = True
            return False
        label, args = task
        name = getattr(function, "__name__", "task").strip("_")
        future = client.submit(function, *args, key=f"clashkit-{name}-{run}-{count}", pure=False, retries=RETRIES)
        count += 1
        pending[future] = label
        finished.add(future)
        return True

    def fill() -> None:
        while len(pending) < window and submit():
            pass

    try:
        while True:
            fill()
            if not pending:
                if waiting:  # every result before the barrier has been yielded
                    waiting = False
                    continue
                break
            for future in finished:
                label = pending.pop(future)
                result = future.result()
                future.release()
                if bar is not None:
                    bar.update(size(result))
                submit()
                yield label, result
                if not pending:
                    break
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(pending))
        raise


class Runner:
    """A :mod:`clashkit.studies.design` ``runner=`` that plays a list of jobs on a cluster.

    The cluster is connected on the first call (so a study's options are all
    checked before anything starts) and closed when the ``with`` block ends.
    """

    def __init__(
        self,
        cluster: Any,
        function: Callable[[Any], Any],
        *,
        weight: Callable[[Any], int],
        progress: bool = False,
        desc: str = "games",
    ) -> None:
        self.cluster = cluster
        self.function = function
        self.weight = weight
        self.progress = progress
        self.desc = desc
        self._stack = contextlib.ExitStack()
        self._client: Any = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()
        self._client = None

    def __call__(self, jobs: Sequence[Any]) -> list[Any]:
        from tqdm.auto import tqdm

        if self._client is None:
            self._client = self._stack.enter_context(connect(self.cluster))
        results: list[Any] = [None] * len(jobs)
        total = sum(self.weight(job) for job in jobs)
        with tqdm(total=total, unit="game", desc=self.desc, disable=not self.progress, file=sys.stderr) as bar:
            tasks = ((i, (job,)) for i, job in enumerate(jobs))
            for i, result in stream(self._client, self.function, tasks):
                results[i] = result
                bar.update(self.weight(jobs[i]))
        return results


__all__ = [
    "LOCAL_HOST",
    "RETRIES",
    "ClusterAddress",
    "Runner",
    "check_workers",
    "connect",
    "is_client",
    "parse_cluster",
    "stream",
    "worker_threads",
]
