"""Many seeded games, on every core: the engine of ``clashkit simulate`` (R10.1, R10.2).

:func:`simulate` plays ``n`` games of one matchup — two decks (or, in solo
mode, the player's deck against the AI) and two policies — and returns their
:class:`~clashkit.trace.Trace`::

    >>> from clashkit.simulate import simulate
    >>> trace = simulate(20, "1", "2", "random", "random", seed=7)
    >>> trace.games.height, trace.games["finished"].all()
    (20, True)

Game ``i`` is played with its own seed, ``game_seeds(seed, n)[i]``, drawn
from ``numpy.random.SeedSequence(seed)``: it depends on the master seed and
on ``i`` only, never on ``n``, on the number of worker processes or on the
order in which games finish.  The games frame records it, so any one game can
be replayed alone (``new_game(..., seed=games["seed"][i])``).  With
``jobs > 1`` the games are cut into chunks that worker processes play;
each sends back its raw buffers (:class:`~clashkit.records.GameRecords`),
and the parent puts them back in game order and builds the frames of them —
so ``jobs=1`` and ``jobs=2`` give equal frames.  The frames are built
chunk by chunk as the games come (:class:`~clashkit.trace.TraceBuilder`):
memory holds the frames, never the whole run's raw records as well.

:func:`simulate_to` streams a run of any size into a folder: the games are
cut into parts of :func:`part_games` (fixed for each engine, so the files do
not depend on ``jobs``), each part's seeds are made when it is played, each finished part
is written as Parquet (:class:`~clashkit.output.RunWriter`) and forgotten,
and the parts are assembled at the end.  Memory stays bounded whatever
``n``; an interrupted run (Ctrl-C, SIGTERM, a full disk) keeps its finished
parts and ``resume=True`` continues it.  SIGTERM is handled like Ctrl-C:
the worker processes are stopped and nothing of the run is left running.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import multiprocessing
import os
import signal
import sys
import threading
from array import array
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import formats
from .cards import CardSet, load_cards, starter_set
from .errors import DeckError, OptionError, WorkerStartError
from .game import new_game, play
from .levels import parse_level, points, solo_settings
from .limits import LIMITS, check, shown
from .policies import Policy, get_policy
from .records import GameRecords
from .rng import Rng
from .rules import Rules
from .solo_setup import solo_setup, split_cards
from .vocab import Mode

#: Games in one part of a reference-engine run: the unit written, resumed and assembled (and
#: the most one worker task plays before it reports back).  Fixed, so that the files do not
#: depend on jobs.
PART_GAMES = 500
MAX_CHUNK = PART_GAMES
#: The fast engine's parts: about a tenth of a second of its games, so that writing a part
#: costs little beside playing it (a part of 500 would be written every few milliseconds).
FAST_PART_GAMES = 8192


def part_games(engine: str) -> int:
    """Games in one part of a run played by ``engine`` (``reference`` or ``fast``)."""
    return FAST_PART_GAMES if engine == "fast" else PART_GAMES

# numpy's SeedSequence.generate_state: word k mixes pool word k % 4 with the k-th power
# of its hash multiplier, so any stretch of words can be made without the ones before.
_INIT_B, _MULT_B, _MASK = 0x8B51F9DD, 0x58F38DED, 0xFFFFFFFF


def seed_pool(seed: int) -> tuple[int, ...]:
    """The entropy pool of ``numpy.random.SeedSequence(seed)`` (checked: a whole number in range)."""
    import numpy as np  # here, so that worker processes never import it

    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise OptionError(f"seed {shown(seed)} must be a whole number (R10.2)")
    check("seed", int(seed), "seed", OptionError)
    return tuple(int(w) for w in np.random.SeedSequence(int(seed)).pool)


def pool_seeds(pool: Sequence[int], start: int, stop: int) -> list[int]:
    """Games ``start … stop-1``'s seeds from a :func:`seed_pool`, in plain Python.

    Equal to ``SeedSequence(seed).generate_state(stop, dtype=uint64)[start:]``
    (a test checks it) at a cost proportional to ``stop - start``.
    """
    size = len(pool)
    hash_const = _INIT_B * pow(_MULT_B, 2 * start, 1 << 32) & _MASK
    seeds = []
    for i in range(2 * start, 2 * stop, 2):
        words = []
        for k in (i, i + 1):
            value = (pool[k % size] ^ hash_const) & _MASK
            hash_const = hash_const * _MULT_B & _MASK
            value = value * hash_const & _MASK
            words.append(value ^ (value >> 16))
        seeds.append(words[0] | words[1] << 32)
    return seeds


def pool_seed_array(pool: Sequence[int], start: int, stop: int):
    """:func:`pool_seeds` as a ``numpy`` ``uint64`` array, made without a Python loop (the fast engine's)."""
    import numpy as np

    count = 2 * (stop - start)
    # The hash constant of word k is INIT_B * MULT_B**k (mod 2**32); word k needs k's and k+1's.
    powers = np.full(count + 1, _MULT_B, dtype=np.uint32)
    powers[0] = _INIT_B * pow(_MULT_B, 2 * start, 1 << 32) & _MASK
    hashes = np.cumprod(powers, dtype=np.uint32)
    k = np.arange(2 * start, 2 * stop, dtype=np.int64)
    entropy = np.asarray(pool, dtype=np.uint32)[k % len(pool)]
    value = (entropy ^ hashes[:-1]) * hashes[1:]
    words = (value ^ (value >> np.uint32(16))).astype(np.uint64)
    return words[0::2] | words[1::2] << np.uint64(32)


def game_seeds(seed: int, n: int, start: int = 0) -> list[int]:
    """The seeds of games ``start … n-1`` of a simulation with master ``seed`` (R10.2).

    Words of ``numpy.random.SeedSequence(seed)``: game ``i``'s seed is the
    same whatever ``n`` is.
    """
    return pool_seeds(seed_pool(seed), start, n)


@dataclass(frozen=True, slots=True)
class Matchup:
    """What every game of a simulation shares: mode, decks, policies, cards and rules.

    ``deck_a`` / ``deck_b`` are :class:`~clashkit.formats.DeckSpec` in a duel;
    in solo mode ``deck_a`` is the player's deck argument and ``deck_b`` is
    ``None`` (the AI gets the rest, R8.1).  ``cards`` is ``None`` for the
    shipped set, so worker processes load it themselves.
    """

    mode: str
    deck_a: Any
    deck_b: Any
    policy_a: str | Policy
    policy_b: str | Policy
    cards: CardSet | None
    rules: Rules
    record_events: bool
    level: int | None
    mirror: bool = False
    #: ``reference`` or ``fast`` (:mod:`clashkit.fast`).
    engine: str = "reference"

    @property
    def card_set(self) -> CardSet:
        return self.cards if self.cards is not None else starter_set()

    @property
    def labels(self) -> tuple[str, str]:
        """The policies as the games frame names them (``ai`` for the solo AI)."""
        label_b = "ai" if self.mode == Mode.SOLO else _label(self.policy_b)
        return _label(self.policy_a), label_b


def _label(spec: str | Policy) -> str:
    return spec.name if isinstance(spec, Policy) else str(spec).strip()


def play_game(matchup: Matchup, game: int, seed: int, records: GameRecords) -> None:
    """Set up game ``game`` of ``matchup`` with ``seed``, play it to its end, record it."""
    cards = matchup.card_set
    policy_a, policy_b = get_policy(matchup.policy_a), get_policy(matchup.policy_b)
    record = matchup.record_events
    if matchup.mode == Mode.SOLO:
        setup = solo_setup(
            matchup.deck_a,
            policy_a,
            rules=matchup.rules,
            cards=matchup.cards,
            seed=seed,
            record=record,
        )
        state, fmt = setup.state, setup.format
        deck_a = cards.sorted_names(cards.ids(setup.player_deck))
        deck_b = cards.sorted_names(cards.ids(setup.ai_cards))
    else:
        state, fmt = new_game(
            matchup.deck_a,
            matchup.deck_b,
            policy_a,
            policy_b,
            cards=matchup.cards,
            rules=matchup.rules,
            seed=seed,
            record=record,
            mirror=matchup.mirror,
        )
        # The dealt hands (a draft's picks vary by game).
        deck_a, deck_b = cards.sorted_names(state.hands[0]), cards.sorted_names(state.hands[1])
    if state.turn_log is None:  # the turns frame is kept even without events
        state.turn_log = array("h")
    play(state, policy_a, policy_b)
    label_a, label_b = matchup.labels
    records.add(
        state,
        game=game,
        seed=seed,
        format=fmt,
        deck_a=deck_a,
        deck_b=deck_b,
        policy_a=label_a,
        policy_b=label_b,
        level=matchup.level,
    )


# --- Worker processes --------------------------------------------------------------------

_WORKER_MATCHUP: Matchup | None = None


def _init_worker(matchup: Matchup, parent: int | None = None) -> None:
    global _WORKER_MATCHUP
    _WORKER_MATCHUP = matchup
    # Ctrl-C reaches the whole process group: the parent stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        end_with_parent(parent)


def end_with_parent(parent: int) -> None:
    """End this worker process as soon as process ``parent`` (the run's) dies, even by SIGKILL.

    On Linux the kernel kills the worker when its own parent dies
    (``PR_SET_PDEATHSIG``; a ``forkserver`` worker's parent is the fork server,
    which ends with the run); a watchdog thread also waits on ``parent`` itself
    (a ``pidfd``, else a check every half second), so no worker outlives the
    run and holds its output open.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    watch = threading.Thread(target=_watch_parent, args=(parent,), name="clashkit-parent-watch", daemon=True)
    watch.start()


def _watch_parent(parent: int) -> None:
    import select

    try:
        fd = os.pidfd_open(parent)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])  # readable once the process has ended
        os._exit(1)
    while True:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except OSError:
            pass
        threading.Event().wait(0.5)


def _play_chunk(pool: tuple[int, ...], first: int, count: int, matchup: Matchup | None = None) -> GameRecords:
    """Play games ``first … first+count-1``, their seeds made here from the master seed's pool."""
    matchup = matchup if matchup is not None else _WORKER_MATCHUP
    if matchup.engine == "fast":
        from .fast.simulate import play_games

        return play_games(matchup, first, pool_seed_array(pool, first, first + count))
    records = GameRecords()
    for i, seed in enumerate(pool_seeds(pool, first, first + count)):
        play_game(matchup, first + i, seed, records)
    return records


def _check_main_guard(jobs: int) -> None:
    """Refuse ``simulate(jobs>1)`` called at the top level of a script outside its ``__main__`` guard.

    Worker processes (``forkserver``, ``spawn``) import the main script again
    to start; without ``if __name__ == "__main__":`` each would run the
    call again and fail in its bootstrapping, so say it in one line first.
    """
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and (spec.name == "__main__" or spec.name.endswith(".__main__")):
        return  # a package's __main__ (python -m clashkit) is not run again
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return  # an interactive session or a notebook: nothing is run again
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None or _under_main_guard(path, frame.f_lineno):
        return
    raise WorkerStartError(
        f"{path}, line {frame.f_lineno}: simulate(jobs={jobs}) starts worker processes that import this script "
        'again; put the call under `if __name__ == "__main__":` (or use jobs=1)'
    )


def _under_main_guard(path: str, line: int) -> bool:
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return True  # cannot tell: let the workers start
    return any(
        isinstance(node, ast.If) and _is_main_test(node.test) and node.lineno < line <= (node.body[-1].end_lineno or 0)
        for node in ast.walk(tree)
    )


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def _pool_context():
    """Worker processes that do not inherit the parent's threads (polars', a notebook's).

    ``forkserver`` forks each worker from a small server that has imported
    this module, which needs neither numpy nor polars.
    """
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


# --- The public entry point ----------------------------------------------------------------


def simulate(
    n: int,
    deck_a: str | int | Sequence[str] = "1",
    deck_b: str | int | Sequence[str] | None = "2",
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    seed: int = 0,
    jobs: int | None = 1,
    record_events: bool | None = True,
    engine: str | None = None,
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
    progress: bool | None = None,
    cluster: Any = None,
):
    """Play ``n`` games and return their :class:`~clashkit.trace.Trace`.

    Decks are what ``--a`` / ``--b`` take (:func:`clashkit.formats.parse_deck`:
    ``1``–``4``, ``draft``, ``constructed``, 8 names, a file).  ``policy_b``
    defaults to ``policy_a``.  ``jobs``: worker processes (``None`` or ``0``:
    one per core; ``1``: this process).  ``record_events=False`` leaves the
    events frame empty (turns and games are always recorded).

    ``engine``: ``"reference"`` (the readable engine, the only one that records
    events) or ``"fast"`` (:mod:`clashkit.fast`: the same games, no events, for
    the policies it has).  ``None`` picks ``fast`` when both policies exist there
    and events are not asked for (``record_events`` false, or ``None``: no
    preference), else ``reference``; ``record_events=None`` records events
    whenever the reference engine plays.  The games frame's ``engine`` column says which played.

    Solo mode (``mode="solo"``): the player is A and plays ``deck_a`` (R8.1);
    ``deck_b`` must be ``None``; the AI's settings come from ``level`` and
    ``settings`` (:func:`clashkit.levels.solo_settings`, ``free_settings``
    allowing settings whose points differ from the level).

    ``progress`` shows a bar counted by finished games (``tqdm.auto``, so a
    notebook gets a widget); ``None`` shows it in a notebook or when stderr is a
    terminal.

    ``cluster`` plays the games on Dask instead of ``jobs`` processes
    (:mod:`clashkit.cluster`): ``"local:N"``, ``"tcp://HOST:PORT"`` or a
    ``distributed.Client``; the frames are the same.
    """
    matchup = make_matchup(
        deck_a,
        deck_b,
        policy_a,
        policy_b,
        record_events=record_events,
        engine=engine,
        mode=mode,
        level=level,
        settings=settings,
        free_settings=free_settings,
        cards=cards,
        rules=rules,
        mirror=mirror,
    )
    n = check_games(n)
    jobs = usable_jobs(jobs)
    pool = seed_pool(seed)
    from .trace import TraceBuilder  # polars, here: worker processes never import it

    # Parts are built into the frames in game order as soon as they can be (one that finishes
    # early waits for those before it), so only the frames and a few parts' records are held.
    builder = TraceBuilder(matchup.card_set)
    waiting: dict[int, GameRecords] = {}
    following = 0
    with _progress(n, progress) as bar, sigterm_as_interrupt(), _connected(cluster) as client:
        for part, records in play_parts(matchup, pool, n, jobs, bar=bar, cluster=client):
            waiting[part] = records
            while following in waiting:
                builder.add(waiting.pop(following))
                following += 1
    return builder.trace()


def check_games(n: object) -> int:
    """``n`` as a number of games within ``clashkit.limits`` (the ``game`` column is UInt32)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise OptionError(f"n = {shown(n)}: the number of games must be a whole number")
    return check("games", n, "n (the number of games)", OptionError)


def usable_jobs(jobs: int | None, *, warn=None) -> int:
    """Worker processes for ``jobs`` (``None``/0: one per core), capped at the core count.

    ``warn`` (default: :func:`warnings.warn`) is told when the cap applies.
    """
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs = {shown(jobs)} must be a whole number ≥ 1 (0: one per core)")
    if jobs > cores:
        message = f"{jobs} jobs asked, this machine has {cores} cores: using {cores}"
        if warn is None:
            import warnings

            warnings.warn(message, stacklevel=3)
        else:
            warn(message)
        return cores
    return jobs


@contextlib.contextmanager
def _progress(n: int, progress: bool | None, initial: int = 0):
    if progress is None:  # a terminal or a notebook shows it; a pipe or a log does not
        progress = sys.stderr.isatty() or "ipykernel" in sys.modules
    from tqdm.auto import tqdm

    bar = tqdm(total=n, initial=initial, unit="game", desc="simulate", disable=not progress, file=sys.stderr)
    try:
        yield bar
    finally:
        bar.close()


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's ``KeyboardInterrupt`` so that a run cleans up the same way."""


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises :class:`Terminated` (main thread only; restored after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise Terminated(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _tasks(n: int, jobs: int, skip: set[int], part_size: int) -> Iterator[tuple[int, int, int]]:
    """``(part, first game, count)``: each part of ``part_size`` games cut into worker tasks."""
    size = max(1, min(part_size, -(-n // (jobs * 8))))
    for part in range(-(-n // part_size)):
        if part in skip:
            continue
        end = min(n, (part + 1) * part_size)
        for first in range(part * part_size, end, size):
            yield part, first, min(size, end - first)


class _Parts:
    """Chunks of games put back together into whole parts, in game order."""

    def __init__(self, n: int, size: int) -> None:
        self.expected = {part: min(size, n - part * size) for part in range(-(-n // size))}
        self.partial: dict[int, list[tuple[int, GameRecords]]] = {}

    def add(self, part: int, first: int, records: GameRecords) -> GameRecords | None:
        """Part ``part``'s records once this chunk completes it, else ``None``."""
        pieces = self.partial.setdefault(part, [])
        pieces.append((first, records))
        if sum(len(r) for _, r in pieces) != self.expected[part]:
            return None
        del self.partial[part]
        whole = GameRecords()
        for _, piece in sorted(pieces, key=lambda p: p[0]):
            whole.extend(piece)
        return whole


def _connected(cluster: Any):
    """A client for ``cluster`` (:func:`clashkit.cluster.connect`), or ``None`` without one."""
    if cluster is None:
        return contextlib.nullcontext()
    from .cluster import connect

    return connect(cluster)


def play_parts(
    matchup: Matchup,
    pool: tuple[int, ...],
    n: int,
    jobs: int,
    *,
    skip: set[int] = frozenset(),
    bar=None,
    cluster: Any = None,
) -> Iterator[tuple[int, GameRecords]]:
    """Play every part of a run not in ``skip``; yield ``(part, records)`` as each one finishes.

    Parts come in the order they finish (in game order with one job).  With
    ``jobs > 1`` a bounded number of tasks is in flight, so memory does not
    grow with ``n``; on any exception (Ctrl-C, SIGTERM) the workers are
    stopped before it goes on.  ``cluster`` (a ``distributed.Client``) plays
    the same chunks on Dask instead of ``jobs`` processes.
    """
    size = part_games(matchup.engine)
    parts = _Parts(n, size)
    expected = parts.expected
    if cluster is not None:
        from .cluster import stream, worker_threads

        tasks = (((part, first), (pool, first, count, matchup))
                 for part, first, count in _tasks(n, worker_threads(cluster), skip, size))  # fmt: skip
        for (part, first), records in stream(cluster, _play_chunk, tasks, bar=bar):
            whole = parts.add(part, first, records)
            if whole is not None:
                yield part, whole
        return
    if jobs == 1 or n <= 1:
        fast = None
        if matchup.engine == "fast":
            from .fast.simulate import Engine

            fast = Engine(matchup)
        for part, count in expected.items():
            if part in skip:
                continue
            first = part * size
            if fast is not None:
                records = fast.play(first, pool_seed_array(pool, first, first + count))
                if bar is not None:
                    bar.update(count)
            else:
                records = GameRecords()
                for i, seed in enumerate(pool_seeds(pool, first, first + count)):
                    play_game(matchup, first + i, seed, records)
                    if bar is not None:
                        bar.update(1)
            yield part, records
        return
    _check_main_guard(jobs)
    tasks = _tasks(n, jobs, skip, size)
    executor = None
    try:
        with _signals_noted() as noted:
            # A signal is raised here, between steps, never inside the executor's own code (an
            # interrupt there can leave its locks held, and the run deaf to the next one).
            executor = ProcessPoolExecutor(jobs, _pool_context(), initializer=_init_worker,
                                           initargs=(matchup, os.getpid()))  # fmt: skip
            yield from _play_in_pool(executor, tasks, pool, jobs, parts, bar, noted)
            executor.shutdown(wait=True)
            _raise_noted(noted)
    except BaseException:
        if executor is not None:
            _stop_workers(executor)
        raise


@contextlib.contextmanager
def _signals_noted() -> Iterator[list[int]]:
    """Within the block SIGINT and SIGTERM are noted, not raised; the caller raises them
    (:func:`_raise_noted`) where it is safe.  Main thread only; handlers restored after."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    held = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, lambda signum, frame: noted.append(signum)) for signum in held}
    try:
        yield noted
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_noted(noted: list[int]) -> None:
    if signal.SIGTERM in noted:
        raise Terminated(signal.SIGTERM)
    if noted:
        raise KeyboardInterrupt


def _play_in_pool(executor, tasks, pool, jobs: int, parts: _Parts, bar, noted: list[int]):
    """The tasks on ``executor``, a bounded number in flight; ``(part, records)`` as parts complete."""
    _raise_noted(noted)
    pending: dict = {}
    window = jobs * 4
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < window:
            task = next(tasks, None)
            if task is None:
                exhausted = True
                break
            part, first, count = task
            pending[executor.submit(_play_chunk, pool, first, count)] = (part, first)
        if not pending:
            break
        finished, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
        _raise_noted(noted)
        for future in finished:
            part, first = pending.pop(future)
            records = future.result()
            if bar is not None:
                bar.update(len(records))
            whole = parts.add(part, first, records)
            if whole is not None:
                yield part, whole
                _raise_noted(noted)


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    """Kill the worker processes now (a task of hundreds of games is not waited for)."""
    processes = list(getattr(executor, "_processes", None) or {})
    workers = dict(getattr(executor, "_processes", None) or {})
    for pid in processes:
        with contextlib.suppress(Exception):
            workers[pid].terminate()
    executor.shutdown(wait=True, cancel_futures=True)
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.join(timeout=5)


def run_description(
    n: int,
    seed: int,
    matchup: Matchup,
    *,
    deck_a: object,
    deck_b: object,
    settings: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What a run plays, as its manifest and ``resume`` record it."""
    from .rules import RULES_VERSION
    from .trace import FRAMES_VERSION

    fingerprint = hashlib.sha256(repr(matchup.card_set.cards).encode()).hexdigest()
    return {
        "engine": matchup.engine,
        "n": n,
        "seed": seed,
        "mode": matchup.mode,
        "deck_a": str(deck_a),
        "deck_b": None if deck_b is None else str(deck_b),
        "policy_a": matchup.labels[0],
        "policy_b": matchup.labels[1],
        "level": matchup.level,
        "settings": None if settings is None else {k: settings[k] for k in sorted(settings)},
        "rules": matchup.rules.as_dict(),
        "rules_version": RULES_VERSION,
        "mirror": matchup.mirror,
        "events": matchup.record_events,
        "cards_sha256": fingerprint,
        "part_games": part_games(matchup.engine),
        "frames_version": FRAMES_VERSION,
    }


def simulate_to(
    out: str | os.PathLike,
    n: int,
    deck_a: str | int | Sequence[str] = "1",
    deck_b: str | int | Sequence[str] | None = "2",
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    seed: int = 0,
    jobs: int | None = 1,
    record_events: bool | None = True,
    engine: str | None = None,
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
    progress: bool | None = None,
    resume: bool = False,
    warn=None,
    cluster: Any = None,
) -> list[Path]:
    """Play ``n`` games like :func:`simulate`, streaming them into the run folder ``out``.

    Everything is checked — the options and that ``out`` can be written —
    before the first game.  Finished parts are written as they come; at the
    end they are assembled into ``games.parquet``, ``turns.parquet`` and
    (with events) ``events.parquet`` and ``manifest.json`` is written last
    (:mod:`clashkit.output`).  ``resume=True`` continues an interrupted run
    of the same games without replaying its finished parts.  Returns the
    data files written; the frames equal :func:`simulate`'s, with ``jobs``
    or on a ``cluster`` alike, and ``resume`` continues a run on either.
    """
    from .output import RunWriter
    from .trace import GAMES_SCHEMA, TURNS_SCHEMA, build_trace, events_schema

    matchup = make_matchup(
        deck_a,
        deck_b,
        policy_a,
        policy_b,
        record_events=record_events,
        engine=engine,
        mode=mode,
        level=level,
        settings=settings,
        free_settings=free_settings,
        cards=cards,
        rules=rules,
        mirror=mirror,
    )
    record_events = matchup.record_events
    n = check_games(n)
    jobs = usable_jobs(jobs, warn=warn)
    pool = seed_pool(seed)
    run = run_description(n, seed, matchup, deck_a=deck_a, deck_b=deck_b, settings=settings)
    card_set = matchup.card_set
    if resume and _finished_already(out, run):
        names = ("events", "turns", "games") if record_events else ("turns", "games")
        return [Path(out) / f"{name}.parquet" for name in names]
    with RunWriter(out, run, events=record_events, resume=resume) as writer:
        skip = writer.done_parts()
        size = part_games(matchup.engine)
        finished = sum(min(size, n - p * size) for p in skip)
        with _progress(n, progress, initial=finished) as bar, sigterm_as_interrupt(), _connected(cluster) as client:
            for part, records in play_parts(matchup, pool, n, jobs, skip=skip, bar=bar, cluster=client):
                trace = build_trace(records, card_set)
                writer.write_part(part, {"games": trace.games, "turns": trace.turns, "events": trace.events})
                del trace, records
            empty = {
                "games": GAMES_SCHEMA,
                "turns": TURNS_SCHEMA,
                "events": events_schema(card_set),
            }
            import polars as pl

            return writer.commit(empty={k: pl.DataFrame(schema=v) for k, v in empty.items()})


def make_matchup(
    deck_a,
    deck_b,
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    record_events: bool | None = True,
    engine: str | None = "reference",
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
) -> Matchup:
    """Check every option of a simulation once, before any game is played."""
    matchup = _make_matchup(
        deck_a, deck_b, policy_a, policy_b, record_events=bool(record_events), mode=mode, level=level,
        settings=settings, free_settings=free_settings, cards=cards, rules=rules, mirror=mirror,
    )
    solo = matchup.mode == Mode.SOLO  # the AI plays itself: policy B is not played
    engine, record_events = choose_engine(
        engine, record_events, matchup.policy_a, matchup.policy_a if solo else matchup.policy_b
    )
    return dataclasses.replace(matchup, engine=engine, record_events=record_events)


def choose_engine(engine: str | None, record_events: bool | None, policy_a, policy_b) -> tuple[str, bool]:
    """The engine that plays and whether events are recorded (see :func:`simulate`); one clear line if refused."""
    from .fast.convert import FAST_POLICIES, policy_code

    if engine is not None and engine not in ("fast", "reference"):
        raise OptionError(f"engine {engine!r} is not an engine (fast, reference)")
    if engine is None:
        # A policy by name, options aside (``search:budget=4``); policy objects play in the reference engine.
        names = [str(p).partition(":")[0].strip().lower() for p in (policy_a, policy_b)]
        plain = all(isinstance(p, str) for p in (policy_a, policy_b))
        fast_ok = plain and all(name in FAST_POLICIES for name in names)
        engine = "fast" if fast_ok and record_events is not True else "reference"
    if engine == "fast":
        if record_events:
            raise OptionError(
                "the fast engine records no events: leave events out (--no-events) or use engine reference"
            )
        for spec in (policy_a, policy_b):
            policy_code(spec)
        return "fast", False
    return "reference", record_events is not False


def _make_matchup(
    deck_a,
    deck_b,
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    record_events: bool = True,
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
) -> Matchup:
    if cards is not None and not isinstance(cards, CardSet):
        cards = load_cards(cards)
    card_set = cards if cards is not None else starter_set()
    rules = Rules.coerce(rules)
    try:
        mode = Mode(str(mode).lower())
    except ValueError:
        raise OptionError(f"mode {mode!r} is not a mode (duel, solo)") from None
    policy_b = policy_a if policy_b is None else policy_b
    for spec in (policy_a, policy_b):
        get_policy(spec)  # refuse an unknown policy now, not in a worker
    if isinstance(deck_a, int) and not isinstance(deck_a, bool):
        deck_a = str(deck_a)
    if isinstance(deck_b, int) and not isinstance(deck_b, bool):
        deck_b = str(deck_b)
    if mode is Mode.SOLO:
        if deck_b is not None:
            raise DeckError(
                "deck B: in solo mode the AI gets the cards the player does not (R8.1); "
                "give no deck B"
            )
        if settings is not None or level is not None:
            rules = rules.replace(solo=solo_settings(level, settings, free=free_settings))
        recorded_level = parse_level(level) if level is not None else points(rules.solo)
        formats.check_first_player(rules, "", solo=True)
        deck_a = _solo_deck(deck_a, card_set)
        _, _, ai_cards = split_cards(deck_a, policy_a, card_set, Rng(0))  # refuse a bad deck now
        most = LIMITS["cards_owned"]
        if len(ai_cards) > most.high:
            raise DeckError(
                f"deck A: the AI would own {len(ai_cards)} cards, more than {most.high} ({most.why})"
            )
        return Matchup(
            mode.value,
            deck_a,
            None,
            policy_a,
            policy_b,
            cards,
            rules,
            record_events,
            recorded_level,
            mirror,
        )
    if level is not None or settings is not None:
        raise OptionError("level and settings are for solo mode (R8.9); add mode solo")
    if deck_b is None:
        raise DeckError("deck B: a duel needs two decks (R2.1)")
    spec_a = formats.parse_deck(deck_a, card_set, side="A")
    spec_b = formats.parse_deck(deck_b, card_set, side="B")
    formats.check_first_player(rules, formats.format_of(spec_a, spec_b, mirror=mirror))
    return Matchup(
        mode.value, spec_a, spec_b, policy_a, policy_b, cards, rules, record_events, None, mirror
    )


def _finished_already(out: str | os.PathLike, run: Mapping[str, Any]) -> bool:
    """Whether ``out`` already holds this very run, complete (``resume`` then has nothing to do)."""
    from .errors import RunFolderError
    from .output import STAGING, read_manifest

    if (Path(out) / STAGING).exists():
        return False
    try:
        return read_manifest(out)["run"] == json_plain(run)
    except RunFolderError:
        return False


def json_plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, keys text)."""
    import json

    return json.loads(json.dumps(value))


def _solo_deck(deck: object, cards: CardSet) -> object:
    """The player's deck argument in solo mode, read as a duel deck is (R8.1): ``draft``, a
    starter deck number, or 8 names from a list or a file (a byte-order mark and all)."""
    if isinstance(deck, str) and deck.strip().lower() == "draft":
        return "draft"
    if deck is None:
        raise DeckError("deck A: solo mode needs the player's deck (1–4, draft, 8 names or a file)")
    spec = formats.parse_deck(deck, cards, side="A")
    if spec.format == formats.CONSTRUCTED:
        raise DeckError(
            "deck A: solo has no constructed format (R7.3 is a duel format); give draft, 1–4 or 8 names (R8.1)"
        )
    return str(spec.number) if spec.number is not None else list(spec.names)


__all__ = [
    "FAST_PART_GAMES",
    "MAX_CHUNK",
    "PART_GAMES",
    "Matchup",
    "Terminated",
    "choose_engine",
    "game_seeds",
    "make_matchup",
    "part_games",
    "play_game",
    "play_parts",
    "pool_seed_array",
    "pool_seeds",
    "seed_pool",
    "sigterm_as_interrupt",
    "simulate",
    "simulate_to",
]
