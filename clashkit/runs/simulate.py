"""Many seeded games, on every core: the engine of ``clashkit simulate`` (R10.1, R10.2).

:func:`simulate` plays ``n`` games of one matchup — two decks (or, in solo
mode, the player's deck against the AI) and two policies — and returns their
:class:`~clashkit.runs.trace.Trace`::

    >>> from clashkit.runs.simulate import simulate
    >>> trace = simulate(20, "1", "2", "random", "random", seed=7)
    >>> trace.games.height, trace.games["finished"].all()
    (20, True)

Game ``i`` is played with its own seed, ``game_seeds(seed, n)[i]``, drawn
from ``numpy.random.SeedSequence(seed)``: it depends on the master seed and
on ``i`` only, never on ``n``, on the number of worker processes or on the
order in which games finish.  The games frame records it, so any one game can
be replayed alone (``new_game(..., seed=games["seed"][i])``).  With
``jobs > 1`` the games are cut into chunks that worker processes play;
each sends back its raw buffers (:class:`~clashkit.engine.records.GameRecords`),
and the parent puts them back in game order and builds the frames of them —
so ``jobs=1`` and ``jobs=2`` give equal frames.  The frames are built
chunk by chunk as the games come (:class:`~clashkit.runs.trace.TraceBuilder`):
memory holds the frames, never the whole run's raw records as well.

:func:`simulate_to` streams a run of any size into a folder: the games are
cut into parts of :func:`part_games` (fixed for each engine and events, so the files do
not depend on ``jobs``), each part's seeds are made when it is played, each finished part
is written as Parquet (:class:`~clashkit.runs.output.RunWriter`) and forgotten,
and the parts are assembled at the end (the fast engine plays the next part in a thread
while one is written).  Memory stays bounded whatever
``n``; an interrupted run (Ctrl-C, SIGTERM, a full disk) keeps its finished
parts and ``resume=True`` continues it.  SIGTERM is handled like Ctrl-C:
the worker processes are stopped and nothing of the run is left running.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..base.errors import OptionError, WorkerError
from ..base.limits import check, shown
from ..base.vocab import Mode
from ..engine.records import GameRecords
from ..engine.solo_setup import solo_setup
from ..engine.state import GameState
from ..policies import Policy, get_policy
from .game import new_game, play
from .spec import Matchup, choose_engine
from .workers import Terminated, check_main_guard, run_tasks, sigterm_as_interrupt

#: Games in one part of a reference-engine run: the unit written, resumed and assembled (and
#: the most one worker task plays before it reports back).  Fixed, so that the files do not
#: depend on jobs.
PART_GAMES = 500
MAX_CHUNK = PART_GAMES
#: The fast engine's parts without events: about a second of its games (some 650,000 turn
#: rows), so that writing a part (two files, each synced to disk) costs little beside playing it.
FAST_PART_GAMES = 1 << 16
#: With events, whose rows are some twenty times the turns': about 1.8 million event rows a part.
FAST_EVENTS_PART_GAMES = 1 << 13
#: The most games one worker task of the fast engine plays with events before it reports back:
#: about 220,000 event rows, so that the tasks in flight (:data:`~clashkit.runs.workers.WINDOW_PER_JOB`
#: a worker) hold a part's worth of rows at most, whatever the run's size.
FAST_EVENTS_TASK_GAMES = 1 << 10


def part_games(engine: str, events: bool = False) -> int:
    """Games in one part of a run played by ``engine`` (``reference`` or ``fast``), with or without events."""
    if engine != "fast":
        return PART_GAMES
    return FAST_EVENTS_PART_GAMES if events else FAST_PART_GAMES


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


def play_game(matchup: Matchup, game: int, seed: int, records: GameRecords) -> None:
    """Set up game ``game`` of ``matchup`` with ``seed``, play it to its end, record it."""
    state, fmt, deck_a, deck_b = setup_game(matchup, seed)
    policy_a, policy_b = get_policy(matchup.policy_a), get_policy(matchup.policy_b)
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


def setup_game(matchup: Matchup, seed: int) -> tuple[GameState, str, tuple[str, ...], tuple[str, ...]]:
    """A game of ``matchup`` set up with ``seed`` in the reference engine (R2, R7, R8.1): its state
    in the first turn, its format and the two decks as the games frame lists them."""
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
        return (
            state,
            fmt,
            cards.sorted_names(cards.ids(setup.player_deck)),
            cards.sorted_names(cards.ids(setup.ai_cards)),
        )
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
    return state, fmt, cards.sorted_names(state.hands[0]), cards.sorted_names(state.hands[1])


# --- One chunk of games, in whichever process plays it ------------------------------------


def _play_chunk(matchup: Matchup, pool: tuple[int, ...], first: int, count: int) -> GameRecords:
    """Play games ``first … first+count-1``, their seeds made here from the master seed's pool."""
    if matchup.engine == "fast":
        from .fast_games import play_games

        return play_games(matchup, first, pool_seed_array(pool, first, first + count))
    records = GameRecords()
    for i, seed in enumerate(pool_seeds(pool, first, first + count)):
        play_game(matchup, first + i, seed, records)
    return records


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
    progress: bool | None = None,
    cluster: Any = None,
    **options: Any,
):
    """Play ``n`` games and return their :class:`~clashkit.runs.trace.Trace`.

    Decks are what ``--a`` / ``--b`` take (:func:`clashkit.engine.formats.parse_deck`:
    ``1``–``4``, ``draft``, ``constructed``, 8 names, a file).  ``policy_b``
    defaults to ``policy_a``.  ``jobs``: worker processes (``None`` or ``0``:
    one per core; ``1``: this process).  ``record_events=False`` leaves the
    events frame empty (turns and games are always recorded).

    ``engine``: ``"reference"`` (the readable engine) or ``"fast"``
    (:mod:`clashkit.fast`: the same games and the same events, compiled, for the
    policies it has).  ``None`` picks ``fast`` when both policies exist there,
    else ``reference`` (:func:`~clashkit.runs.spec.choose_engine`);
    ``record_events=None`` (no preference) records events when the reference
    engine plays and not when the fast one does.  The games frame's ``engine`` column says which played.

    Solo mode (``mode="solo"``): the player is A and plays ``deck_a`` (R8.1);
    ``deck_b`` must be ``None``; the AI's settings come from ``level`` and
    ``settings`` (:func:`clashkit.base.levels.solo_settings`, ``free_settings``
    allowing settings whose points differ from the level).

    ``progress`` shows a bar counted by finished games (``tqdm.auto``, so a
    notebook gets a widget); ``None`` shows it in a notebook or when stderr is a
    terminal.

    ``cluster`` plays the games on Dask instead of ``jobs`` processes
    (:mod:`clashkit.runs.cluster`): ``"local:N"``, ``"tcp://HOST:PORT"`` or a
    ``distributed.Client``; the frames are the same.
    """
    if cluster is None and isinstance(jobs, int) and jobs > 1:
        check_main_guard(jobs, "simulate")  # before anything starts
    matchup = Matchup.build(deck_a, deck_b, policy_a, policy_b, **options)
    return play_matchup(matchup, n, seed=seed, jobs=jobs, progress=progress, cluster=cluster)


def play_matchup(
    matchup: Matchup, n: int, *, seed: int = 0, jobs: int | None = 1, progress: bool | None = None, cluster: Any = None
):
    """:func:`simulate` of a run specification built already (:meth:`Matchup.build`): its
    :class:`~clashkit.runs.trace.Trace`."""
    n = check_games(n)
    jobs = usable_jobs(jobs)
    if jobs > 1 and cluster is None:
        check_main_guard(jobs, "simulate")  # before anything starts
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
    """``n`` as a number of games within ``clashkit.base.limits`` (the ``game`` column is UInt32)."""
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


def task_games(engine: str, events: bool = False) -> int:
    """The most games one worker task plays: a part, or with the fast engine's events a fraction of one."""
    return FAST_EVENTS_TASK_GAMES if engine == "fast" and events else part_games(engine, events)


def _tasks(n: int, jobs: int, skip: Set[int], part_size: int, most: int) -> Iterator[tuple[int, int, int]]:
    """``(part, first game, count)``: each part of ``part_size`` games cut into worker tasks of at
    most ``most`` games (fewer on a small run, so that every worker has some)."""
    size = max(1, min(part_size, most, -(-n // (jobs * 8))))
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
    """A client for ``cluster`` (:func:`clashkit.runs.cluster.connect`), or ``None`` without one."""
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
    skip: Set[int] = frozenset(),
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
    size = part_games(matchup.engine, matchup.record_events)
    parts = _Parts(n, size)
    expected = parts.expected
    if cluster is not None or (jobs > 1 and n > 1):
        if cluster is not None:
            from .cluster import worker_threads

            jobs = worker_threads(cluster)
        most = task_games(matchup.engine, matchup.record_events)
        tasks = (((part, first), (pool, first, count)) for part, first, count in _tasks(n, jobs, skip, size, most))
        chunks = run_tasks(_play_chunk, tasks, jobs=jobs, shared=matchup, cluster=cluster, call="simulate")
        for (part, first), records in chunks:
            if bar is not None:
                bar.update(len(records))
            whole = parts.add(part, first, records)
            if whole is not None:
                yield part, whole
        return
    todo = [(part, count) for part, count in expected.items() if part not in skip]
    if matchup.engine == "fast":
        yield from _fast_parts(matchup, pool, size, todo, bar)
        return
    for part, count in todo:
        first = part * size
        records = GameRecords()
        for i, seed in enumerate(pool_seeds(pool, first, first + count)):
            play_game(matchup, first + i, seed, records)
            if bar is not None:
                bar.update(1)
        yield part, records


def _fast_parts(
    matchup: Matchup, pool: tuple[int, ...], size: int, todo: list[tuple[int, int]], bar
) -> Iterator[tuple[int, GameRecords]]:
    """The fast engine's parts in this process, each played while the one before it is handed on.

    The compiled batch lets go of the GIL (``nogil``), so a thread plays part ``i + 1``
    on the second core while the caller builds and writes part ``i`` (polars and numpy let
    go of it too).  One part ahead at most: memory holds two parts' records, whatever
    ``n``.  The parts are played one at a time, in order, from their own seeds, so the
    games are the ones a plain loop plays.  On an exception or an early close, the part
    still playing is waited for (a compiled batch cannot be stopped halfway; a part is
    about a second of games) and nothing is left running.
    """
    from .fast_games import Engine

    fast = Engine(matchup)

    def play(part: int, count: int) -> GameRecords:
        first = part * size
        return fast.play(first, pool_seed_array(pool, first, first + count))

    with ThreadPoolExecutor(1, thread_name_prefix="clashkit-fast") as ahead:
        coming = [ahead.submit(play, part, count) for part, count in todo[:1]]
        try:
            for index, (part, count) in enumerate(todo):
                records = coming.pop().result()
                coming = [ahead.submit(play, *following) for following in todo[index + 1 : index + 2]]
                if bar is not None:
                    bar.update(count)
                yield part, records
        finally:
            for future in coming:
                future.cancel()  # not started yet; the one playing is waited for as the pool closes


def run_description(n: int, seed: int, matchup: Matchup) -> dict[str, Any]:
    """What a run plays, as its manifest and ``resume`` record it."""
    from ..base.rules import FRAMES_VERSION, RULES_VERSION

    fingerprint = hashlib.sha256(repr(matchup.card_set.cards).encode()).hexdigest()
    deck_a, deck_b, settings = matchup.asked
    return {
        "engine": matchup.engine,
        "n": n,
        "seed": seed,
        "mode": matchup.mode,
        "deck_a": deck_a,
        "deck_b": deck_b,
        "policy_a": matchup.labels[0],
        "policy_b": matchup.labels[1],
        "level": matchup.level,
        "settings": None if settings is None else dict(settings),
        "rules": matchup.rules.as_dict(),
        "rules_version": RULES_VERSION,
        "mirror": matchup.mirror,
        "events": matchup.record_events,
        "cards_sha256": fingerprint,
        "part_games": part_games(matchup.engine, matchup.record_events),
        "frames_version": FRAMES_VERSION,
    }


#: The folder under which ``clashkit simulate`` without ``--out`` makes its run's own
#: (:func:`default_out`), relative to the current folder.
DEFAULT_RUNS = Path("runs")


def default_out(n: int, seed: int, matchup: Matchup) -> Path:
    """The folder ``clashkit simulate`` writes into without ``--out``: ``runs/simulate-sSEED-nN-DIGEST``.

    ``DIGEST`` is the first 8 hex digits of the SHA-256 of the run's description
    (:func:`run_description`: decks, policies, rules, engine, seed, n, versions), so
    the same command names the same folder (``--resume`` finds it again, and a
    repeat writes the same run over its own) while two different runs never share
    one.  Never the current folder itself, whose files are the user's.
    """
    import json

    description = json.dumps(run_description(n, seed, matchup), sort_keys=True, default=str)
    digest = hashlib.sha256(description.encode()).hexdigest()[:8]
    return DEFAULT_RUNS / f"simulate-s{seed}-n{n}-{digest}"


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
    progress: bool | None = None,
    resume: bool = False,
    force: bool = False,
    warn=None,
    cluster: Any = None,
    **options: Any,
) -> list[Path]:
    """Play ``n`` games like :func:`simulate`, streaming them into the run folder ``out``.

    Everything is checked — the options and that ``out`` can be written —
    before the first game.  Finished parts are written as they come; at the
    end they are assembled into ``games.parquet``, ``turns.parquet`` and
    (with events) ``events.parquet`` and ``manifest.json`` is written last
    (:mod:`clashkit.runs.output`).  ``resume=True`` continues an interrupted run
    of the same games without replaying its finished parts; a folder holding
    files of a run's names that no clashkit run wrote is refused unless
    ``force=True``.  Returns the
    data files written; the frames equal :func:`simulate`'s, with ``jobs``
    or on a ``cluster`` alike, and ``resume`` continues a run on either.
    """

    matchup = Matchup.build(deck_a, deck_b, policy_a, policy_b, **options)
    return play_matchup_to(
        out,
        matchup,
        n,
        seed=seed,
        jobs=jobs,
        progress=progress,
        resume=resume,
        force=force,
        warn=warn,
        cluster=cluster,
    )


def play_matchup_to(
    out: str | os.PathLike,
    matchup: Matchup,
    n: int,
    *,
    seed: int = 0,
    jobs: int | None = 1,
    progress: bool | None = None,
    resume: bool = False,
    force: bool = False,
    warn=None,
    cluster: Any = None,
) -> list[Path]:
    """:func:`simulate_to` of a run specification built already (:meth:`Matchup.build`)."""
    n = check_games(n)
    jobs = usable_jobs(jobs, warn=warn)
    pool = seed_pool(seed)
    run = run_description(n, seed, matchup)
    if resume and _finished_already(out, run):
        names = ("events", "turns", "games") if matchup.record_events else ("turns", "games")
        return [Path(out) / f"{name}.parquet" for name in names]
    try:
        return _played_to(out, matchup, n, run, pool, jobs, progress, resume, force, cluster)
    except WorkerError as e:  # the parts finished are kept (RunWriter), so the run can go on
        raise WorkerError(f"{e}; --resume goes on") from None


def _played_to(
    out, matchup: Matchup, n: int, run, pool, jobs: int, progress, resume: bool, force: bool, cluster
) -> list[Path]:
    """The body of :func:`play_matchup_to`: the games played part by part into ``out``."""
    from .output import RunWriter
    from .schemas import GAMES_SCHEMA, TURNS_SCHEMA, events_schema
    from .trace import build_trace

    record_events = matchup.record_events
    card_set = matchup.card_set
    # SIGTERM is an interrupt from before the folder is opened: its lock is always let go.  The
    # cluster is reached first: one that cannot be used leaves no folder behind.
    with (
        sigterm_as_interrupt(),
        _connected(cluster) as client,
        RunWriter(out, run, events=record_events, resume=resume, force=force) as writer,
    ):
        skip = writer.done_parts()
        size = part_games(matchup.engine, matchup.record_events)
        finished = sum(min(size, n - p * size) for p in skip)
        with _progress(n, progress, initial=finished) as bar:
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


def _finished_already(out: str | os.PathLike, run: Mapping[str, Any]) -> bool:
    """Whether ``out`` already holds this very run, complete (``resume`` then has nothing to do)."""
    from ..base.errors import RunFolderError
    from .run_folder import STAGING, read_manifest

    if os.path.lexists(Path(out) / STAGING):
        return False
    try:
        return read_manifest(out)["run"] == json_plain(run)
    except RunFolderError:
        return False


def json_plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, keys text)."""
    import json

    return json.loads(json.dumps(value))


__all__ = [
    "FAST_EVENTS_PART_GAMES",
    "FAST_EVENTS_TASK_GAMES",
    "FAST_PART_GAMES",
    "MAX_CHUNK",
    "PART_GAMES",
    "Matchup",
    "Terminated",
    "DEFAULT_RUNS",
    "choose_engine",
    "default_out",
    "game_seeds",
    "part_games",
    "task_games",
    "play_game",
    "play_matchup",
    "play_matchup_to",
    "play_parts",
    "pool_seed_array",
    "pool_seeds",
    "seed_pool",
    "sigterm_as_interrupt",
    "simulate",
    "simulate_to",
]
