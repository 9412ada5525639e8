"""The turns frame: its narrow columns (``clashkit.base.limits.TURN_COUNTS``), the same for both engines,
and a big run built chunk by chunk equal to the same games built at once."""

from __future__ import annotations

from array import array

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clashkit.runs.simulate as sim
import clashkit.runs.trace as trace_module
from clashkit.base.cards import starter_set
from clashkit.base.limits import LIMITS, TURN_COUNTS
from clashkit.base.rules import POINTS
from clashkit.engine.records import GameRecords
from clashkit.engine.solo import PLAYER_FIRST_MANA
from clashkit.engine.turn import TURN_FIELDS, TURN_WIDTH
from clashkit.runs.schemas import TURNS_SCHEMA
from clashkit.runs.simulate import play_parts, seed_pool, simulate
from clashkit.runs.spec import Matchup
from clashkit.runs.trace import build_trace, turns_from_buffer

CARDS = starter_set()
COUNTS = [name for name in TURN_FIELDS if name in TURN_COUNTS]


# --- The schema, decided from the ranges ------------------------------------------------


def test_turns_columns_are_as_narrow_as_their_ranges():
    assert dict(TURNS_SCHEMA) == {
        "game": pl.UInt32,
        "turn": pl.UInt16,
        "player": trace_module.PLAYER,
        "mana_gained": pl.Int8,
        "mana_spent": pl.Int8,
        "cards_played": pl.Int16,
        "hand_size_start": pl.Int8,
        "hand_health_start": pl.Int8,
        "hand_size_end": pl.Int8,
        "hand_health_end": pl.Int8,
        "keep_end": trace_module.KEEP_SIDE,
        "creatures_a": pl.Int8,
        "creatures_b": pl.Int8,
        "keep_damage": pl.Int16,
        "creatures_destroyed": pl.Int16,
        "own_turn": pl.UInt16,
        "seat": trace_module.SEAT,
        "deck": pl.Int8,
    }
    assert TURNS_SCHEMA.names() == ["game", *TURN_FIELDS, "own_turn", "seat", "deck"]
    assert trace_module.RAW_TURNS_SCHEMA.names() == ["game", *TURN_FIELDS]


def test_the_mana_range_holds_every_way_to_gain_mana():
    owned = LIMITS["cards_owned"].high
    most = max(
        owned + 1,  # R3.1: a hand of every card owned and the keep
        LIMITS["first_turn_mana"].high,  # R2.3, R10.3
        PLAYER_FIRST_MANA,  # R8.1
        max(POINTS["ai_fixed_mana"]) + max(POINTS["ai_mana_per_creature"]) * owned,  # R8.2
    )
    assert TURN_COUNTS["mana_gained"].high == most == 110


# --- Values at the edges of the ranges ---------------------------------------------------


def _rows(values: dict[str, int], n: int = 1) -> array:
    row = [values.get(name, 0) for name in TURN_FIELDS]
    return array("h", row * n)


def test_every_count_at_the_top_of_its_range_survives():
    top = {name: TURN_COUNTS[name].high for name in COUNTS}
    turns = turns_from_buffer(_rows({**top, "turn": LIMITS["turn_limit"].high, "player": 1, "keep_end": 1}))
    assert turns.schema == trace_module.RAW_TURNS_SCHEMA
    assert turns.row(0, named=True) == {
        "game": 0,
        "turn": 10_000,
        "player": "B",
        **top,
        "keep_end": "fort",
    }
    assert top["mana_gained"] == 110 and top["creatures_destroyed"] == 32_767


@pytest.mark.parametrize("name, value", [("mana_gained", 128), ("hand_health_end", -129), ("creatures_a", 32767)])
def test_a_value_outside_its_column_is_refused_not_wrapped(name, value):
    with pytest.raises(OverflowError, match=f"trace column '{name}' holds {value}, outside its type"):
        turns_from_buffer(_rows({name: value}))


@settings(max_examples=50, deadline=None)  # a busy machine must not fail it on time
@given(st.lists(st.tuples(*(st.integers(-128, 127) for _ in range(TURN_WIDTH))), min_size=1, max_size=30))
def test_any_value_that_fits_its_column_reads_back_exactly(rows):
    rows = [(abs(r[0]), r[1] & 1, *r[2:9], r[9] & 1, *r[10:]) for r in rows]
    buffer = array("h", [v for row in rows for v in row])
    turns = turns_from_buffer(buffer, games=[0], counts=[len(rows)])
    raw = np.array(rows, np.int16)
    for name in COUNTS:
        assert turns[name].to_list() == raw[:, TURN_FIELDS.index(name)].tolist()


# --- Both engines, the same frames ------------------------------------------------------


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_both_engines_give_the_turns_frame_the_narrow_schema_and_the_engines_rows(engine):
    trace = simulate(40, "1", "2", "greedy", seed=5, engine=engine, record_events=False, progress=False)
    assert trace.turns.schema == TURNS_SCHEMA
    # The frame holds what the engine wrote: the raw rows of the same games, column for column.
    parts = list(play_parts(Matchup.build("1", "2", "greedy", record_events=False, engine=engine), seed_pool(5), 40, 1))
    raw = np.frombuffer(parts[0][1].turns, np.int16).reshape(-1, TURN_WIDTH)
    for name in COUNTS:
        assert trace.turns[name].to_list() == raw[:, TURN_FIELDS.index(name)].tolist()


def test_both_engines_give_equal_turns_frames():
    fast, reference = (
        simulate(60, "3", "4", "random", seed=9, engine=engine, record_events=False, progress=False)
        for engine in ("fast", "reference")
    )
    assert fast.turns.equals(reference.turns)
    assert fast.games.drop("engine").equals(reference.games.drop("engine"))


# --- Streaming --------------------------------------------------------------------------


def test_a_big_run_streamed_in_chunks_equals_the_same_games_built_at_once(monkeypatch):
    n = 30_000
    monkeypatch.setattr(sim, "FAST_PART_GAMES", 1_000)
    monkeypatch.setattr(trace_module, "CHUNK_GAMES", 4_096)
    streamed = simulate(n, "1", "2", "greedy", seed=3, engine="fast", record_events=False, progress=False)
    whole = GameRecords()
    for _, records in play_parts(
        Matchup.build("1", "2", "greedy", record_events=False, engine="fast"), seed_pool(3), n, 1
    ):
        whole.extend(records)
    at_once = build_trace(whole, CARDS)
    # Parts of 1,000 games, a chunk built once 4,096 are held: 6 chunks of 5,000, kept as chunks.
    assert streamed.turns.n_chunks() == streamed.games.n_chunks() == 6
    assert at_once.turns.n_chunks() == 1
    assert streamed.turns.equals(at_once.turns) and streamed.games.equals(at_once.games)
    assert streamed.games["game"].to_list() == list(range(n))
    # The raw records of a fixed-deck run hold one setup for all its games, no Python object a game.
    assert len(whole.setups) == 1 and whole.setup_runs.tolist() == [n]


def test_parts_out_of_order_are_built_in_game_order(monkeypatch):
    monkeypatch.setattr(sim, "FAST_PART_GAMES", 10)
    monkeypatch.setattr(trace_module, "CHUNK_GAMES", 25)
    real = sim.play_parts

    def backwards(*args, **kwargs):
        yield from reversed(list(real(*args, **kwargs)))

    monkeypatch.setattr(sim, "play_parts", backwards)
    out_of_order = simulate(95, "2", "3", "random", seed=4, engine="fast", record_events=False, progress=False)
    monkeypatch.setattr(sim, "play_parts", real)
    in_order = simulate(95, "2", "3", "random", seed=4, engine="fast", record_events=False, progress=False)
    assert out_of_order.games["game"].to_list() == list(range(95))
    assert out_of_order.turns.equals(in_order.turns) and out_of_order.games.equals(in_order.games)


def test_the_fast_engine_plays_the_next_part_while_one_is_handed_on_and_stops_with_its_caller(monkeypatch):
    """One part ahead in a thread (``_fast_parts``): the parts come in order, each the games a
    plain loop plays, and closing the stream early leaves no thread playing."""
    import threading
    import time

    from clashkit.runs.fast_games import Engine

    monkeypatch.setattr(sim, "FAST_EVENTS_PART_GAMES", 50)
    matchup = Matchup.build("1", "2", "greedy", record_events=True, engine="fast")
    pool = seed_pool(8)
    played = []
    real_play = Engine.play

    def counted(self, first, seeds):
        played.append(first)
        return real_play(self, first, seeds)

    monkeypatch.setattr(Engine, "play", counted)
    stream = play_parts(matchup, pool, 500, 1)
    part, records = next(stream)
    assert part == 0 and len(records) == 50
    # The next part was asked for before the first was handed on (its thread may start late).
    deadline = time.monotonic() + 120
    while played != [0, 50] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert played == [0, 50]
    stream.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("clashkit-fast")]
    assert played == [0, 50]  # nothing more was started after the close
    alone = real_play(Engine(matchup), 0, sim.pool_seed_array(pool, 0, 50))
    assert bytes(records.events) == bytes(alone.events) and bytes(records.turns) == bytes(alone.turns)


def test_a_fast_run_is_written_in_parts_of_its_own_size_and_equals_simulate(tmp_path, monkeypatch):
    from clashkit.runs.output import RunWriter
    from clashkit.runs.run_folder import STAGING
    from clashkit.runs.trace import Trace

    monkeypatch.setattr(sim, "FAST_PART_GAMES", 400)
    written = []
    original = RunWriter.write_part
    monkeypatch.setattr(
        RunWriter,
        "write_part",
        lambda self, i, frames: (written.append((i, frames["games"].height)), original(self, i, frames)),
    )
    sim.simulate_to(tmp_path, 1_000, "1", "2", "greedy", seed=2, engine="fast", record_events=False, progress=False)
    assert written == [(0, 400), (1, 400), (2, 200)] and not (tmp_path / STAGING).exists()
    back = Trace.read_parquet(tmp_path)
    expected = simulate(1_000, "1", "2", "greedy", seed=2, engine="fast", record_events=False, progress=False)
    assert back.turns.equals(expected.turns) and back.games.equals(expected.games)


# --- The format page -----------------------------------------------------------------------


def _page() -> str:
    from helpers import ROOT

    return (ROOT / "docs" / "frames.md").read_text(encoding="utf-8")


def _documented(section: str) -> list[tuple[str, str, str]]:
    """The rows ``(column, type, what)`` of the table under the heading of ``section`` in docs/frames.md."""
    table = _page().split(f"## `{section}`", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in table.splitlines() if line.startswith("| `")]
    return [(name.strip().strip("`"), kind.strip().strip("`"), what.strip()) for name, kind, what in rows]


@pytest.mark.parametrize("section", ["turns", "games", "events"])
def test_the_format_page_lists_every_column_with_its_type(section):
    from clashkit.runs.schemas import GAMES_SCHEMA, events_schema

    schema = {"turns": TURNS_SCHEMA, "games": GAMES_SCHEMA, "events": events_schema(CARDS)}[section]
    rows = _documented(section)
    assert [name for name, _, _ in rows] == schema.names()
    for name, kind, what in rows:
        dtype = schema[name]
        assert kind == ("Enum" if isinstance(dtype, pl.Enum) else str(dtype)), name
        if isinstance(dtype, pl.Enum) and len(dtype.categories) <= 6:
            assert all(f"`{value}`" in what for value in dtype.categories), name
        if section == "turns" and name in TURN_COUNTS:
            assert what.endswith(f": {TURN_COUNTS[name].low}–{TURN_COUNTS[name].high}"), name


def test_the_format_page_gives_the_bytes_of_a_turns_row():
    turns = simulate(50, "1", "2", "greedy", seed=1, engine="fast", record_events=False, progress=False).turns
    assert turns.estimated_size() == 26 * turns.height
    assert "## `turns`: one row a turn, 26 bytes a row in memory" in _page()


# --- A count beyond the row's 16 bits (R5.3: a cost-0 card played again and again) -------------


def test_a_count_beyond_sixteen_bits_stops_either_engine_instead_of_wrapping():
    from clashkit.engine.turn import record_turn
    from clashkit.fast import from_state
    from clashkit.fast import turn as fast_turn
    from clashkit.fast.state import ERR_FULL, G_ERROR, G_TURNS_LOGGED
    from clashkit.runs.game import new_game

    state, _ = new_game("1", "2", seed=1)
    state.turn_log = array("h")
    state.counters.cards_played = TURN_COUNTS["cards_played"].high
    record_turn(state)  # the top of the range fits
    assert state.turn_log[TURN_FIELDS.index("cards_played")] == 32_767
    state.counters.creatures_destroyed = 32_768
    with pytest.raises(OverflowError, match="more than a turn row's 16 bits hold"):
        record_turn(state)
    assert len(state.turn_log) == TURN_WIDTH  # nothing of the turn written
    fast = from_state(state)
    logged = fast.g[G_TURNS_LOGGED]
    fast_turn.record_turn(fast)
    assert fast.g[G_ERROR] == ERR_FULL and fast.g[G_TURNS_LOGGED] == logged


def test_an_interrupted_run_of_the_old_turns_schema_is_not_resumed_into_the_new(tmp_path, monkeypatch):
    import json

    from clashkit.base.errors import OutputError
    from clashkit.runs.output import RunWriter
    from clashkit.runs.run_folder import STAGING

    monkeypatch.setattr(sim, "FAST_PART_GAMES", 50)
    original = RunWriter.write_part

    def interrupted(self, index, frames):
        if index == 1:
            raise KeyboardInterrupt
        original(self, index, frames)

    monkeypatch.setattr(RunWriter, "write_part", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sim.simulate_to(tmp_path, 120, "1", "2", "greedy", engine="fast", record_events=False, progress=False)
    monkeypatch.setattr(RunWriter, "write_part", original)
    record = tmp_path / STAGING / "run.json"
    run = json.loads(record.read_text())
    assert run["frames_version"] == trace_module.FRAMES_VERSION
    del run["frames_version"]  # as a clashkit whose turns counts were all Int16 wrote it
    record.write_text(json.dumps(run))
    with pytest.raises(OutputError, match="plays something else.*frames_version"):
        sim.simulate_to(
            tmp_path, 120, "1", "2", "greedy", engine="fast", record_events=False, progress=False, resume=True
        )


def test_the_turns_frame_keeps_no_buffer_of_all_the_rows_alive():
    import gc
    import tracemalloc

    n = 200_000
    rows = np.zeros((n, TURN_WIDTH), np.int16)
    rows[:, TURN_FIELDS.index("turn")] = 1
    turns_from_buffer(rows[:10], games=[0], counts=[10])  # whatever it imports, imported before
    gc.collect()
    tracemalloc.start()
    try:
        turns = turns_from_buffer(rows, games=[0], counts=[n])
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # numpy buffers polars holds: game 4, turn 2, eight Int8 counts 8, three Int16 counts 6 and the two
    # Enums' codes 2 bytes a row; a column that kept the block of all the rows alive would add 28.
    assert turns.height == n and 22 * n <= held < 23 * n
