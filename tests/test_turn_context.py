"""The turns frame's own_turn, seat and deck (R1.6, R2.3, R7.1): from the games frame, in both
engines, and computed for a run folder written before them."""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest

from clashkit.runs import trace as trace_module
from clashkit.runs.schemas import RAW_TURNS_SCHEMA, TURNS_SCHEMA, turn_context
from clashkit.runs.simulate import simulate
from clashkit.runs.trace import Trace, turns_from_buffer


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_own_turn_seat_and_deck_in_both_engines(engine):
    trace = simulate(8, "1", "3", "greedy", seed=5, engine=engine, record_events=False, progress=False)
    turns = trace.turns.join(trace.games.select("game", "first_player"), on="game")
    assert trace.turns.schema == TURNS_SCHEMA
    # Counted, not computed: the player's own turns in order.
    counted = pl.int_range(pl.len()).over("game", "player", order_by="turn") + 1
    assert (turns["own_turn"].cast(pl.Int64) == turns.select(counted).to_series()).all()
    first = turns["player"].cast(pl.String) == turns["first_player"].cast(pl.String)
    assert turns["seat"].cast(pl.String).to_list() == ["first" if f else "second" for f in first]
    assert set(zip(turns["player"].cast(pl.String), turns["deck"], strict=True)) == {("A", 1), ("B", 3)}


def test_in_a_game_b_starts_b_turn_1_and_a_turn_2_are_each_ones_first():
    trace = simulate(12, "2", "4", "random", seed=1, engine="reference", record_events=False, progress=False)
    b_first = trace.games.filter(pl.col("first_player") == "B")["game"][0]
    opening = trace.turns.filter(pl.col("game") == b_first).head(3)
    assert opening.select("turn", "player", "own_turn", "seat").rows() == [
        (1, "B", 1, "first"),
        (2, "A", 1, "second"),
        (3, "B", 2, "first"),
    ]
    assert opening["deck"].to_list() == [4, 2, 4]


def test_deck_names_a_starter_deck_in_any_format_and_is_null_for_other_cards():
    from array import array

    from clashkit.engine.turn import TURN_FIELDS

    rows = [[{"turn": t, "player": p}.get(name, 0) for name in TURN_FIELDS] for t, p in ((1, 0), (2, 1))]
    turns = turns_from_buffer(array("h", [v for row in rows for v in row]), games=[0], counts=[2])
    from clashkit.base.cards import starter_decks, starter_set

    deck = starter_decks()[1]
    games = pl.DataFrame(
        {"game": [0], "first_player": ["A"], "format": ["draft"], "deck_a": [deck], "deck_b": [deck]},
        schema_overrides={"game": pl.UInt32},
    )
    for fmt in ("draft", "custom", "preconstructed"):  # a draft that dealt deck 1's cards plays deck 1
        out = turn_context(turns, games.with_columns(pl.lit(fmt).alias("format")), starter_set())
        assert out["deck"].to_list() == [1, 1] and out["own_turn"].to_list() == [1, 1]
    other = [*deck[:7], starter_decks()[2][0]]
    mixed = turn_context(turns, games.with_columns(pl.Series("deck_b", [other])), starter_set())
    assert mixed["deck"].to_list() == [1, None]


def test_a_run_folder_from_before_the_columns_reads_with_them(tmp_path, monkeypatch):
    from clashkit.runs import output

    trace = simulate(6, "1", "2", "greedy", seed=2, engine="reference", record_events=False, progress=False)
    old = Trace(trace.events, trace.turns.select(list(RAW_TURNS_SCHEMA)), trace.games)
    monkeypatch.setattr(output, "FRAMES_VERSION", 3)  # as the clashkit before own_turn, seat and deck wrote it
    old.write_parquet(tmp_path, events=False)
    monkeypatch.undo()
    back = Trace.read_parquet(tmp_path)
    assert back.turns.equals(trace.turns)
    from clashkit.runs.reading import TURN_CONTEXT_VERSION

    assert TURN_CONTEXT_VERSION == 4 and trace_module.FRAMES_VERSION == 5


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_starter_deck_given_as_a_list_is_numbered_whatever_its_values(engine):
    """R7.1: deck 3 given as its eight names (format ``custom``), in a card set where one of its
    cards costs more, is still deck 3 in the turns frame; a list of other cards has no number."""
    from clashkit.base.cards import starter_decks, starter_set

    decks = starter_decks()
    cards = starter_set()
    first = cards[cards.id(decks[3][0])]
    dearer = cards.with_cards([dataclasses.replace(first, cost=first.cost + 1)])
    assert dearer.card(first.name).cost == first.cost + 1
    mixed = [*decks[1][:7], decks[2][0]]
    trace = simulate(
        6, list(reversed(decks[3])), mixed, "greedy", seed=4, engine=engine, cards=dearer, record_events=False
    )
    assert trace.games["format"].unique().to_list() == ["custom"]
    by_player = dict(trace.turns.group_by("player").agg(pl.col("deck").unique()).iter_rows())
    assert by_player == {"A": [3], "B": [None]}


@pytest.mark.parametrize(
    ("deck_a", "deck_b", "mode"), [("1", "3", "duel"), ("draft", "draft", "duel"), ("2", None, "solo")]
)
def test_the_columns_made_from_the_records_equal_turn_context_of_the_games_frame(deck_a, deck_b, mode):
    trace = simulate(
        40, deck_a, deck_b, "greedy", seed=2, engine="fast", mode=mode, record_events=False, progress=False
    )
    from clashkit.base.cards import starter_set

    raw = trace.turns.select(list(RAW_TURNS_SCHEMA))
    assert turn_context(raw, trace.games, starter_set()).equals(trace.turns)
