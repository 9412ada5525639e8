"""Traces as polars frames: events, turns, games.

The schemas are declared once, in :mod:`clashkit.runs.schemas` (this module gives
them too).  Closed vocabularies are ``pl.Enum``;
card names are a ``pl.Enum`` of the card set's names plus the keep's
(``BASTION``, ``FORT``), so the events frame's card columns depend on its card
set — :func:`events_schema` takes it.

Frames are built from the engine's raw buffers, never from one Python object
per event: a game's ``state.log.buffer`` (``array('i')``, one
:data:`~clashkit.engine.events.FIELDS`-wide row per event) and ``state.turn_log`` (one
:data:`~clashkit.engine.turn.TURN_FIELDS`-wide row per turn) are read with
``numpy.frombuffer``, sliced into columns and handed to polars; integer codes
become ``pl.Enum`` values through their physical codes, ``-1`` becoming null.

One game::

    >>> from clashkit.runs.game import new_duel, play
    >>> from clashkit.base.cards import starter_decks
    >>> decks = starter_decks()
    >>> state = play(new_duel(decks[1], decks[2], seed=3), "random")
    >>> events, turns, games = game_frames(state, seed=3)
    >>> events.schema == events_schema(state.cards), turns.height == state.turn
    (True, True)

Many games: :class:`GameRecords` collects the raw buffers of each finished
game (cheaply, and picklable, so worker processes can send them back), and
:func:`build_trace` turns them into one :class:`Trace` at once;
:class:`TraceBuilder` does it chunk by chunk as records come, so that a run of
millions of games never holds its raw records and its frames together.

Events frame columns beyond the engine's fields: ``game`` (the game's number
in its batch) and ``step`` (the event's index within its game, from 0).
``target_card`` of an attack on a keep (R4.2) is the keep's name as it was
when the attack landed, ``BASTION`` or ``FORT``.

Dtypes are as narrow as the ranges of ``clashkit.base.limits`` allow (about 27
bytes an event row, 26 a turn row; ``docs/frames.md`` lists every column):
``step`` is ``UInt32`` and ``amount`` ``Int32`` (a long game or a cost-0
``empower`` played again and again has no small bound), ``turn`` is
``UInt16`` (``turn_limit`` ≤ 10,000), ``position``, ``mana_left`` and the
hand-healths are ``Int8`` (a player owns at most 50 cards), and each count of
a turn row is as narrow as its range in ``clashkit.base.limits.TURN_COUNTS``.  A
value outside a column's range would be refused with an error naming the
column rather than wrapped; the limits make that impossible for any input
the loaders accept, but for a turn's cards played and creatures destroyed,
which the engines stop at 16 bits.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from ..base.cards import CardSet
from ..base.rules import FRAMES_VERSION
from ..engine.events import EVENT_FIELDS, EVENT_KINDS, FIELDS, WIDTH
from ..engine.records import GameRecords
from ..engine.turn import TURN_FIELDS, TURN_WIDTH
from .schemas import (
    DEAL_COLUMNS,
    ENGINE,
    FORMAT,
    GAMES_SCHEMA,
    KEEP_SIDE,
    KIND,
    LANE,
    MODE,
    NUMPY_TYPES,
    PHASE,
    PLAYER,
    RAW_TURNS_SCHEMA,
    SEAT,
    TERMINATION,
    TURN_CONTEXT_SCHEMA,
    TURNS_SCHEMA,
    card_enum,
    events_schema,
    starter_numbers,
    turn_context,
)

_F = {name: i for i, name in enumerate(FIELDS)}
_T = {name: i for i, name in enumerate(TURN_FIELDS)}


# --- Codes to columns -------------------------------------------------------------------
#
# A buffer becomes a frame in three whole-column steps, with no Python loop over rows: the
# rows are transposed into one contiguous array per field (block by block), each field is
# checked against its column's range and narrowed with numpy, and one polars query makes
# every code column a ``pl.Enum`` and every ``-1`` of a nullable column a null.

#: Rows of a raw buffer transposed at a time (a block stays in the CPU's cache: numpy copies
#: a whole buffer's transpose at a third of the speed).
_BLOCK = 8192


def _transposed(rows: np.ndarray) -> np.ndarray:
    """``rows`` (one a step or a turn) as one contiguous array a field: shape ``(width, n)``."""
    out = np.empty((rows.shape[1], rows.shape[0]), dtype=rows.dtype)
    for start in range(0, rows.shape[0], _BLOCK):
        out[:, start : start + _BLOCK] = rows[start : start + _BLOCK].T
    return out


#: A column as it goes into polars and the expression that makes it the frame's column.
_Column = tuple[pl.Series, pl.Expr]


def _code_column(name: str, codes: np.ndarray, dtype: pl.Enum) -> _Column:
    """Integer codes (index into ``dtype``'s categories; negative = null) and their Enum column.

    The codes go in unsigned, as narrow as the categories allow (polars converts those three
    times faster than signed ones): a negative code wraps to the type's maximum, which is no
    category, and the non-strict conversion makes it null.
    """
    n = len(dtype.categories)
    unsigned = np.uint8 if n <= 0xFF else np.uint16 if n <= 0xFFFF else np.uint32
    return pl.Series(name, codes.astype(unsigned)), pl.col(name).cat.to(dtype, strict=False)


def _checked(name: str, values: np.ndarray, dtype, *, nullable: bool = False) -> np.ndarray:
    """``values`` in ``dtype``'s numpy type, refusing (not wrapping) values outside its range."""
    target = NUMPY_TYPES[dtype]
    if len(values):
        info = np.iinfo(target)
        low, high = int(values.min()), int(values.max())
        if high > info.max or low < (-1 if nullable else info.min):
            raise OverflowError(
                f"trace column {name!r} holds {high if high > info.max else low}, "
                f"outside its type {dtype} ({info.min}…{info.max})"
            )
    # A copy of its own: polars keeps the numpy buffer it is given, and ``values`` is often one
    # row of a block of all the columns, which would then live as long as this column.
    return values.astype(target)


def _int_column(name: str, values: np.ndarray, dtype, *, nullable: bool = False) -> _Column:
    """An integer column in ``dtype`` (:func:`_checked`); ``nullable``: ``-1`` is null."""
    column = pl.Series(name, _checked(name, values, dtype, nullable=nullable))
    return column, (pl.when(pl.col(name) >= 0).then(pl.col(name)).alias(name) if nullable else pl.col(name))


def _frame(columns: Sequence[_Column]) -> pl.DataFrame:
    """The frame of these columns, each decoded by its expression, in one polars query."""
    return pl.DataFrame([series for series, _ in columns]).select([expr for _, expr in columns])


def _enum(name: str, codes: np.ndarray, dtype: pl.Enum) -> pl.Series:
    """Integer codes (index into ``dtype``'s categories; negative = null) as an Enum column."""
    return _frame([_code_column(name, codes, dtype)]).to_series()


def _nulls_where(values: pl.Series, mask: np.ndarray) -> pl.Series:
    if not mask.any():
        return values
    expr = pl.when(pl.lit(pl.Series(mask))).then(None).otherwise(pl.lit(values))
    return pl.select(expr).to_series().alias(values.name)


def _int(name: str, values: np.ndarray, dtype) -> pl.Series:
    """An integer column in ``dtype``, refusing (not wrapping) values outside its range."""
    return pl.Series(name, _checked(name, values, dtype))


def _repeat_ids(ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return np.repeat(ids.astype(np.uint32, copy=False), counts)


def _steps(counts: np.ndarray, total: int) -> np.ndarray:
    """Each row's index within its game (``counts[i]`` rows a game, in order)."""
    starts = (np.cumsum(counts) - counts).astype(np.uint32)
    step = np.arange(total, dtype=np.uint32)
    step -= np.repeat(starts, counts)
    return step


def _counted(total: int, games, counts, what: str) -> tuple[np.ndarray, np.ndarray]:
    games = np.asarray(games, dtype=np.int64)
    counts = np.asarray([total] if counts is None else counts, dtype=np.int64)
    if counts.sum() != total or len(counts) != len(games):
        raise ValueError(f"{what} counts {counts.sum()} do not match the {total} rows of the buffer")
    return games, counts


#: Whether an event of each kind (by code) whose ``target_card = -1`` names a keep
#: (:data:`clashkit.engine.events.EVENT_FIELDS`), looked up for a whole column at once.
_KEEP_TARGET = np.array([EVENT_FIELDS[kind].keep_target for kind in EVENT_KINDS], dtype=bool)


def events_from_buffer(
    buffer: bytes | array | np.ndarray,
    cards: CardSet,
    *,
    games: Sequence[int] | np.ndarray = (0,),
    counts: Sequence[int] | np.ndarray | None = None,
) -> pl.DataFrame:
    """The events frame of raw event rows (``int32``, :data:`~clashkit.engine.events.FIELDS` wide).

    ``counts[i]`` rows belong to game ``games[i]``, in order; without
    ``counts`` every row belongs to the one game ``games[0]``.
    """
    rows = np.frombuffer(buffer, dtype=np.int32) if not isinstance(buffer, np.ndarray) else buffer
    rows = rows.reshape(-1, WIDTH)
    total = rows.shape[0]
    games, counts = _counted(total, games, counts, "event")
    cols = _transposed(rows)

    card_dtype = card_enum(cards)
    kind = cols[_F["kind"]]
    target_player = cols[_F["target_player"]]
    keep_a, keep_b = cols[_F["keep_a"]], cols[_F["keep_b"]]
    target_card = cols[_F["target_card"]]
    # R4.2: an attack on a keep names the keep, as it stood when the attack landed (the field
    # table's keep_target, as clashkit.engine.events.decode reads one row).
    on_keep = (target_card < 0) & _KEEP_TARGET[np.clip(kind, 0, len(_KEEP_TARGET) - 1)]
    if on_keep.any():
        keep_code = len(cards) + np.where(target_player == 1, keep_b, keep_a)
        target_card = np.where(on_keep, keep_code, target_card)

    return _frame(
        [
            (pl.Series("game", _repeat_ids(games, counts)), pl.col("game")),
            (pl.Series("step", _steps(counts, total)), pl.col("step")),
            _int_column("turn", cols[_F["turn"]], pl.UInt16),
            _code_column("player", cols[_F["player"]], PLAYER),
            _code_column("phase", cols[_F["phase"]], PHASE),
            _code_column("kind", kind, KIND),
            _code_column("card", cols[_F["card"]], card_dtype),
            _code_column("lane", cols[_F["lane"]], LANE),
            _int_column("position", cols[_F["position"]], pl.Int8, nullable=True),
            _code_column("target_player", target_player, PLAYER),
            _code_column("target_card", target_card, card_dtype),
            _int_column("amount", cols[_F["amount"]], pl.Int32),
            _int_column("mana_left", cols[_F["mana_left"]], pl.Int8),
            _int_column("hand_health_a", cols[_F["hand_health_a"]], pl.Int8),
            _int_column("hand_health_b", cols[_F["hand_health_b"]], pl.Int8),
            _code_column("keep_a", keep_a, KEEP_SIDE),
            _code_column("keep_b", keep_b, KEEP_SIDE),
        ]
    )


def turns_from_buffer(
    buffer: bytes | array | np.ndarray,
    *,
    games: Sequence[int] | np.ndarray = (0,),
    counts: Sequence[int] | np.ndarray | None = None,
) -> pl.DataFrame:
    """The turns frame's engine columns (:data:`RAW_TURNS_SCHEMA`) of raw turn rows (``int16``,
    :data:`~clashkit.engine.turn.TURN_FIELDS` wide); :func:`turn_context` adds the rest."""
    rows = np.frombuffer(buffer, dtype=np.int16) if not isinstance(buffer, np.ndarray) else buffer
    rows = rows.reshape(-1, TURN_WIDTH)
    games, counts = _counted(rows.shape[0], games, counts, "turn")
    cols = _transposed(rows)
    columns = [(pl.Series("game", _repeat_ids(games, counts)), pl.col("game"))]
    for name, dtype in list(RAW_TURNS_SCHEMA.items())[1:]:
        values = cols[_T[name]]
        if isinstance(dtype, pl.Enum):
            columns.append(_code_column(name, values, dtype))
        else:
            columns.append(_int_column(name, values, dtype))
    return _frame(columns)


# --- Collecting many games --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trace:
    """The three frames of one game or of a batch: ``events``, ``turns``, ``games``.

    Unpacks as ``events, turns, games = trace``.  ``events`` is empty (with
    its schema) when events were not recorded.
    """

    events: pl.DataFrame
    turns: pl.DataFrame
    games: pl.DataFrame

    def __iter__(self) -> Iterator[pl.DataFrame]:
        return iter((self.events, self.turns, self.games))

    def __repr__(self) -> str:
        return f"<Trace {self.games.height} games, {self.turns.height} turns, {self.events.height} events>"

    def summary(self):
        """Win rates with 95% Wilson intervals, mean turns, unfinished (``stats.summarize``)."""
        from ..base.stats import summarize

        return summarize(self.games)

    @classmethod
    def concat(cls, traces: Iterable[Trace]) -> Trace:
        """Traces of the same card set one after the other (game numbers are kept as they are).

        The frames' chunks are kept, not copied into one (``rechunk=False``).
        """
        traces = list(traces)
        if not traces:
            raise ValueError("no traces to concatenate")
        names = ("events", "turns", "games")
        return cls(*(pl.concat([getattr(t, name) for t in traces], rechunk=False) for name in names))

    def write_parquet(
        self, directory: str | os.PathLike, *, events: bool = True, run: dict | None = None, force: bool = False
    ) -> list[Path]:
        """Write the frames into ``directory`` as one run (:mod:`clashkit.runs.output`).

        ``games.parquet``, ``turns.parquet``, with ``events`` ``events.parquet``,
        and ``manifest.json`` last, naming ``run`` (default: the number of
        games) and every file with its rows and SHA-256.  Files of an earlier
        run that this one does not write are removed; an error leaves the
        folder as it was; a folder holding files of a run's names that no clashkit
        run wrote is refused unless ``force``.  Returns the data files written.
        """
        from .output import RunWriter

        frames = {"games": self.games, "turns": self.turns, "events": self.events}
        with RunWriter(directory, run or {"games": self.games.height}, events=events, force=force) as writer:
            return writer.commit(frames)

    @classmethod
    def read_parquet(cls, directory: str | os.PathLike, cards: CardSet | None = None, *, verify: bool = True) -> Trace:
        """Read a run folder that :meth:`write_parquet` or ``clashkit simulate`` wrote.

        The folder must match its ``manifest.json`` (files, rows and, with
        ``verify``, SHA-256): a mixed, partial or altered folder is refused
        with a :class:`~clashkit.base.errors.RunFolderError`.  Without
        ``events.parquet`` the events frame is empty, with the schema of
        ``cards`` (default: the shipped set).  A run of an older frames version
        reads with this version's columns (:mod:`clashkit.runs.reading`).
        """
        from .reading import read_frames

        return cls(*read_frames(directory, cards, verify=verify))


def build_trace(records: GameRecords, cards: CardSet) -> Trace:
    """The three frames of every game in ``records``, in the order they were added (both
    engines' records: the reference engine's and :mod:`clashkit.runs.fast_games`')."""
    games = np.asarray(records.game, dtype=np.int64)
    event_counts = np.asarray(records.event_counts, dtype=np.int64)
    turn_counts = np.asarray(records.turn_counts, dtype=np.int64)
    events = events_from_buffer(records.events, cards, games=games, counts=event_counts)
    games_frame = _games_frame(records, games, cards)
    turns = turns_from_buffer(records.turns, games=games, counts=turn_counts)
    return Trace(events, _with_context(turns, records, turn_counts, cards), games_frame)


def _with_context(turns: pl.DataFrame, records: GameRecords, counts: np.ndarray, cards: CardSet) -> pl.DataFrame:
    """:func:`turn_context` of freshly recorded turns, from the records' arrays rather than by a
    join with the games frame: each game's first player and each setup's decks' numbers
    spread over the turns with ``numpy.repeat`` (the same columns; tests compare the two)."""
    starter = starter_numbers(cards)

    def number(deck: tuple[str, ...]) -> int:
        return starter.get(tuple(sorted(deck)), -1)

    runs = np.asarray(records.setup_runs, dtype=np.int64)
    decks = np.array([[number(s.deck_a), number(s.deck_b)] for s in records.setups], np.int8).reshape(-1, 2)
    deck_of_game = np.repeat(decks, runs, axis=0)
    first_of_game = np.asarray(records.first_player, dtype=np.int8)
    first = np.repeat(first_of_game, counts)
    player = turns["player"].to_physical().to_numpy()
    turn = turns["turn"].to_numpy().astype(np.int32)
    is_first = player == first
    deck = np.repeat(deck_of_game, counts, axis=0)[np.arange(len(player)), player.astype(np.intp)]
    own_turn = np.where(is_first, (turn + 1) // 2, turn // 2).astype(np.uint16)
    return _frame(
        [
            *((turns[name], pl.col(name)) for name in RAW_TURNS_SCHEMA),
            (pl.Series("own_turn", own_turn), pl.col("own_turn")),
            _code_column("seat", (~is_first).astype(np.int8), SEAT),
            _int_column("deck", deck, pl.Int8, nullable=True),
        ]
    )


def _games_frame(records: GameRecords, games: np.ndarray, cards: CardSet) -> pl.DataFrame:
    winner = np.asarray(records.winner, dtype=np.int16)
    level = np.array(records.level, dtype=np.int8)  # copies: polars keeps the buffer it is given
    runs = np.asarray(records.setup_runs, dtype=np.int64)
    if runs.sum() != len(games):
        raise ValueError(f"setups cover {runs.sum()} games, not the {len(games)} recorded")
    # Each game's setup: the text columns are built once a setup, then gathered.
    setup_of = pl.Series(np.repeat(np.arange(len(runs), dtype=np.uint32), runs))
    setups = records.setups

    def shared(name: str, dtype) -> pl.Series:
        words = [getattr(setup, name) for setup in setups]
        if isinstance(dtype, pl.Enum):
            column = _codes_enum(name, words, dtype)
        else:
            column = pl.Series(name, [list(w) for w in words] if isinstance(dtype, pl.List) else words, dtype=dtype)
        return column.gather(setup_of)

    columns = [
        _int("game", games, pl.UInt32),
        pl.Series("seed", np.array(records.seed, dtype=np.uint64)),
        shared("mode", MODE),
        shared("format", FORMAT),
        shared("deck_a", pl.List(pl.String)),
        shared("deck_b", pl.List(pl.String)),
        *_dealt_columns(records, len(games), cards),
        shared("policy_a", pl.String),
        shared("policy_b", pl.String),
        _enum("first_player", np.asarray(records.first_player, dtype=np.int16), PLAYER),
        _enum("winner", winner, PLAYER),
        _int("turns", np.asarray(records.turns_played, dtype=np.int64), pl.UInt16),
        pl.Series("finished", winner >= 0),
        _enum("termination", np.asarray(records.termination, dtype=np.int16), TERMINATION),
        _int("rules_version", np.asarray(records.rules_version, dtype=np.int64), pl.UInt16),
        shared("rules", pl.String),
        _nulls_where(pl.Series("level", level), level < 0),
        shared("engine", ENGINE),
    ]
    return pl.DataFrame(columns)


def _dealt_columns(records: GameRecords, n: int, cards: CardSet) -> tuple[pl.Series, pl.Series]:
    """``hand_a`` and ``hand_b``: each game's deal (``state.dealt``) as card names.  Games whose
    deals have the same sizes one after another (a run's games, mostly) are made one block at a
    time, a reshape of their names; a game without a deal (a scenario's) has nulls."""
    sizes = np.frombuffer(records.dealt_sizes, dtype=np.int16).reshape(-1, 2).astype(np.int64)
    if len(sizes) != n:
        raise ValueError(f"deals recorded for {len(sizes)} games, not the {n} recorded")
    if not n:
        return tuple(pl.Series(column, [], dtype=pl.List(pl.String)) for column in DEAL_COLUMNS)  # type: ignore[return-value]
    ids = np.frombuffer(records.dealt, dtype=np.int16).astype(np.uint32)
    names = pl.Series(cards.names, dtype=pl.String)
    parts: dict[str, list[pl.Series]] = {column: [] for column in DEAL_COLUMNS}
    bounds = [0, *(np.flatnonzero((sizes[1:] != sizes[:-1]).any(axis=1)) + 1).tolist(), n]
    at = 0
    for low, high in zip(bounds[:-1], bounds[1:], strict=False):
        count = high - low
        width_a, width_b = (int(w) for w in sizes[low])
        if width_a < 0:
            for column in DEAL_COLUMNS:
                parts[column].append(pl.Series(column, [None] * count, dtype=pl.List(pl.String)))
            continue
        block = ids[at : at + count * (width_a + width_b)].reshape(count, width_a + width_b)
        at += block.size
        for column, cut in zip(DEAL_COLUMNS, (block[:, :width_a], block[:, width_a:]), strict=True):
            dealt = names.gather(cut.ravel()).reshape((count, cut.shape[1])).cast(pl.List(pl.String))
            parts[column].append(dealt.alias(column))
    hand_a, hand_b = (pl.concat(parts[column]) for column in DEAL_COLUMNS)
    return hand_a, hand_b


def _codes_enum(name: str, words: Sequence[str], dtype: pl.Enum) -> pl.Series:
    index = {word: i for i, word in enumerate(dtype.categories)}
    try:
        codes = np.fromiter((index[w] for w in words), dtype=np.int16, count=len(words))
    except KeyError as e:
        raise ValueError(f"{name}: {e.args[0]!r} is not one of {list(dtype.categories)}") from None
    return _enum(name, codes, dtype)


#: Games a chunk of the frames :class:`TraceBuilder` builds at once: a part of the fast engine
#: (``clashkit.runs.simulate.part_games``: 8,192 games with events, 65,536 without) is built as
#: it comes, without being copied; the reference engine's parts of 500 are gathered into 8,500.
CHUNK_GAMES = 1 << 13


class TraceBuilder:
    """One :class:`Trace` of records that come part by part, in game order, built as they come.

    The raw records of up to ``chunk_games`` games are held; then they become
    one chunk of each frame and are dropped.  :meth:`trace` puts the chunks
    one after the other without copying them (``pl.concat`` without
    rechunking), so a run's frames are never held twice and no game is ever
    a Python object: memory is the frames' own plus one chunk's records.
    """

    def __init__(self, cards: CardSet, *, chunk_games: int | None = None) -> None:
        self.cards = cards
        self.chunk_games = CHUNK_GAMES if chunk_games is None else chunk_games
        self.pending = GameRecords()
        self.chunks: list[Trace] = []

    def add(self, records: GameRecords) -> None:
        """The next games' records (they follow the games added before).

        The builder takes ``records`` over: the first records of a chunk are kept as they are,
        not copied, and those that follow are appended to them.
        """
        if len(self.pending):
            self.pending.extend(records)
        else:
            self.pending = records
        if len(self.pending) >= self.chunk_games:
            self._flush()

    def _flush(self) -> None:
        if len(self.pending) or not self.chunks:
            self.chunks.append(build_trace(self.pending, self.cards))
        self.pending = GameRecords()

    def trace(self) -> Trace:
        """Every game added, as one trace (its frames in chunks)."""
        if len(self.pending) or not self.chunks:
            self._flush()
        return Trace.concat(self.chunks)


def game_frames(
    state,
    *,
    game: int = 0,
    seed: int = 0,
    format: str = "custom",
    deck_a: Sequence[str] | None = None,
    deck_b: Sequence[str] | None = None,
    policy_a: str = "",
    policy_b: str = "",
    level: int | None = None,
) -> Trace:
    """The frames of one game; unpack as ``events, turns, games = game_frames(state)``.

    Without ``deck_a`` / ``deck_b`` the decks are read from the state: every
    card the player holds or has in play, in card-set order (duel only).
    """
    if deck_a is None or deck_b is None:
        read = [_cards_of(state, p) for p in (0, 1)]
        deck_a = read[0] if deck_a is None else deck_a
        deck_b = read[1] if deck_b is None else deck_b
    records = GameRecords()
    records.add(
        state,
        game=game,
        seed=seed,
        format=format,
        deck_a=deck_a,
        deck_b=deck_b,
        policy_a=policy_a,
        policy_b=policy_b,
        level=level,
    )
    return build_trace(records, state.cards)


def _cards_of(state, player: int) -> tuple[str, ...]:
    """The cards ``player`` owns now: hand (or AI pile and discard) and creatures in play."""
    if state.solo and player == 1:
        ids = [c for c in state.pile if c >= 0] + list(state.discard)
    else:
        ids = [c for c in state.hands[player] if c >= 0]
    ids += [creature.card for side in state.lanes[player] for creature in side]
    return tuple(state.cards.names[c] for c in sorted(ids))


__all__ = [
    "DEAL_COLUMNS",
    "ENGINE",
    "FORMAT",
    "FRAMES_VERSION",
    "GAMES_SCHEMA",
    "KEEP_SIDE",
    "KIND",
    "LANE",
    "MODE",
    "PHASE",
    "PLAYER",
    "RAW_TURNS_SCHEMA",
    "SEAT",
    "TURNS_SCHEMA",
    "TURN_CONTEXT_SCHEMA",
    "GameRecords",
    "CHUNK_GAMES",
    "Trace",
    "TraceBuilder",
    "build_trace",
    "card_enum",
    "starter_numbers",
    "events_from_buffer",
    "events_schema",
    "game_frames",
    "turn_context",
    "turns_from_buffer",
]
