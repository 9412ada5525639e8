"""Trace frames (``interfaces.md`` §4), seeded simulation (R10.2) and the turn limit (R10.1)."""

from __future__ import annotations

from array import array

import numpy as np
import polars as pl
import pytest

from clashkit.base.cards import starter_set
from clashkit.base.errors import DeckError, OptionError, OutputError
from clashkit.base.rules import Rules
from clashkit.base.stats import summarize, wilson, win_rates
from clashkit.base.vocab import PLAYERS
from clashkit.engine.events import FIELDS, WIDTH
from clashkit.engine.records import GameRecords
from clashkit.policies import get_policy
from clashkit.runs.game import new_duel, new_game, play
from clashkit.runs.simulate import game_seeds, simulate
from clashkit.runs.trace import (
    GAMES_SCHEMA,
    TURNS_SCHEMA,
    Trace,
    build_trace,
    events_from_buffer,
    events_schema,
    game_frames,
)

CARDS = starter_set()


def one_game(seed: int = 3, **rules) -> tuple:
    decks = CARDS.decks
    state = new_duel(decks[1], decks[2], seed=seed, rules=Rules(**rules))
    play(state, "random")
    return state, game_frames(state, seed=seed, format="preconstructed")


@pytest.fixture(scope="module")
def batch() -> Trace:
    return simulate(24, "1", "3", "random", seed=11)


# --- Schemas ---------------------------------------------------------------------------


def test_one_game_frames_match_the_declared_schemas():
    _, (events, turns, games) = one_game()
    assert events.schema == events_schema(CARDS)
    assert turns.schema == TURNS_SCHEMA
    assert games.schema == GAMES_SCHEMA


def test_batch_frames_match_the_declared_schemas(batch):
    assert batch.events.schema == events_schema(CARDS)
    assert batch.turns.schema == TURNS_SCHEMA
    assert batch.games.schema == GAMES_SCHEMA


def test_frames_without_events_keep_their_schemas():
    trace = simulate(3, "2", "4", "random", seed=1, record_events=False)
    assert trace.events.height == 0
    assert trace.events.schema == events_schema(CARDS)
    assert trace.turns.schema == TURNS_SCHEMA and trace.turns.height > 0


def test_interfaces_columns_are_all_there(batch):
    required = {
        "game",
        "step",
        "turn",
        "player",
        "phase",
        "kind",
        "card",
        "lane",
        "position",
        "target_player",
        "target_card",
        "amount",
        "mana_left",
        "hand_health_a",
        "hand_health_b",
        "keep_a",
        "keep_b",
    }
    assert required <= set(batch.events.columns)
    assert {
        "game",
        "seed",
        "mode",
        "format",
        "deck_a",
        "deck_b",
        "policy_a",
        "policy_b",
        "first_player",
        "winner",
        "turns",
        "finished",
    } <= set(batch.games.columns)


# --- One game's frames agree with its state ------------------------------------------------


def test_last_event_shows_the_final_hand_health_and_keeps():
    state, (events, _, _) = one_game()
    last = events.row(-1, named=True)
    assert last["kind"] == "game_won"
    assert last["target_player"] == PLAYERS[state.winner]
    assert (last["hand_health_a"], last["hand_health_b"]) == (
        state.hand_health(0),
        state.hand_health(1),
    )
    assert (last["keep_a"], last["keep_b"]) == (state.keep(0).value, state.keep(1).value)


def test_events_are_the_engine_log_in_order():
    state, (events, _, _) = one_game()
    assert events.height == len(state.log)
    assert events["step"].to_list() == list(range(len(state.log)))
    raw = np.frombuffer(state.log.buffer, dtype=np.int32).reshape(-1, WIDTH)
    assert events["turn"].to_list() == raw[:, FIELDS.index("turn")].tolist()
    assert events["amount"].to_list() == raw[:, FIELDS.index("amount")].tolist()


def test_one_turn_row_per_turn_played():
    state, (_, turns, _) = one_game()
    assert turns.height == state.turn
    assert turns["turn"].to_list() == list(range(1, state.turn + 1))
    first = PLAYERS[state.first_player].value
    assert turns["player"][0] == first
    assert turns["mana_gained"][0] == 6  # R2.3


def test_games_row_describes_the_game():
    state, (_, _, games) = one_game(seed=5)
    row = games.row(0, named=True)
    assert row["seed"] == 5
    assert row["winner"] == PLAYERS[state.winner].value
    assert row["first_player"] == PLAYERS[state.first_player].value
    assert row["turns"] == state.turn
    assert row["finished"] is True
    assert row["mode"] == "duel" and row["format"] == "preconstructed"
    assert sorted(row["deck_a"]) == sorted(CARDS.deck(1))


def test_attack_on_a_keep_names_the_keep():
    _, (events, _, _) = one_game()
    on_keep = events.filter(pl.col("kind") == "attack", pl.col("target_card").is_in(["BASTION", "FORT"]))
    assert on_keep.height > 0
    follow = events.filter(pl.col("kind") == "keep_moved")
    assert follow.height == on_keep.height


def test_batch_games_are_numbered_and_steps_restart_per_game(batch):
    assert batch.games["game"].to_list() == list(range(24))
    firsts = batch.events.group_by("game", maintain_order=True).agg(pl.col("step").first(), pl.len())
    assert firsts["step"].to_list() == [0] * 24
    last_steps = batch.events.group_by("game", maintain_order=True).agg(pl.col("step").last())
    assert (last_steps["step"] + 1).to_list() == firsts["len"].to_list()
    turns = batch.turns.group_by("game", maintain_order=True).len()
    assert turns["len"].to_list() == batch.games["turns"].cast(pl.UInt32).to_list()


def test_out_of_range_values_are_refused_not_wrapped():
    row = array("i", [0] * WIDTH)
    row[FIELDS.index("hand_health_a")] = 300
    with pytest.raises(OverflowError, match="hand_health_a"):
        events_from_buffer(row, CARDS)


# --- Determinism (R10.2) --------------------------------------------------------------------


def frames_equal(x: Trace, y: Trace) -> bool:
    return all(a.equals(b) for a, b in zip(x, y, strict=True))


def test_same_seed_same_frames(batch):
    assert frames_equal(batch, simulate(24, "1", "3", "random", seed=11))


def test_other_seed_other_games(batch):
    assert not batch.games.equals(simulate(24, "1", "3", "random", seed=12).games)


def test_one_job_and_two_jobs_give_equal_frames():
    serial = simulate(30, "draft", "draft", "random", seed=4, jobs=1)
    parallel = simulate(30, "draft", "draft", "random", seed=4, jobs=2)
    assert frames_equal(serial, parallel)


@pytest.mark.parametrize("policy", ["greedy", "search:budget=2,horizon=4"])
def test_bots_are_deterministic_across_jobs(policy):
    from clashkit.policies import POLICIES

    if policy.partition(":")[0] not in POLICIES:
        pytest.skip(f"no {policy} policy")
    serial = simulate(6, "3", "4", policy, seed=21, jobs=1)
    assert frames_equal(serial, simulate(6, "3", "4", policy, seed=21, jobs=2))


def test_game_seeds_do_not_depend_on_the_batch_size():
    assert game_seeds(9, 50)[:10] == game_seeds(9, 10)
    assert len(set(game_seeds(9, 1000))) == 1000


def test_a_game_of_a_batch_replays_alone_from_its_seed(batch):
    row = batch.games.row(7, named=True)
    state, _ = new_game("1", "3", "random", "random", seed=row["seed"])
    state.turn_log = array("h")
    play(state, "random")
    events, _, _ = game_frames(state)
    expected = batch.events.filter(pl.col("game") == 7).drop("game")
    assert events.drop("game").equals(expected)


def test_recording_events_changes_no_game():
    with_events = simulate(10, "2", "3", "random", seed=2)
    # Without events the fast engine plays (the engine column says so); the games are the same.
    without = simulate(10, "2", "3", "random", seed=2, record_events=False)
    assert without.games["engine"].to_list() == ["fast"] * 10
    assert with_events.games.drop("engine").equals(without.games.drop("engine"))
    assert with_events.turns.equals(without.turns)


# --- Parquet -----------------------------------------------------------------------------


def test_parquet_round_trip_keeps_schema_and_values(batch, tmp_path):
    written = batch.write_parquet(tmp_path)
    assert sorted(p.name for p in written) == ["events.parquet", "games.parquet", "turns.parquet"]
    back = Trace.read_parquet(tmp_path)
    assert back.events.schema == events_schema(CARDS)
    assert back.games.schema == GAMES_SCHEMA and back.turns.schema == TURNS_SCHEMA
    assert frames_equal(batch, back)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_failed_write_leaves_nothing(batch, tmp_path, monkeypatch):
    original = pl.DataFrame.write_parquet
    calls = []

    def failing(self, path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 2:
            raise OSError("disk full")
        return original(self, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", failing)
    with pytest.raises(OutputError, match="disk full"):
        batch.write_parquet(tmp_path)
    assert list(tmp_path.iterdir()) == []


# --- The turn limit (R10.1) ------------------------------------------------------------------


def test_turn_limit_stops_the_game_unfinished():
    state, (events, turns, games) = one_game(turn_limit=3)
    assert state.winner is None and state.over
    row = games.row(0, named=True)
    assert row["finished"] is False and row["winner"] is None and row["turns"] == 3
    assert turns.height == 3
    assert events["kind"][-1] == "game_unfinished"
    assert events.filter(pl.col("kind") == "game_won").height == 0


def test_turn_limit_in_a_batch_is_never_a_win():
    trace = simulate(8, "1", "2", "random", seed=3, rules={"turn_limit": 3})
    assert trace.games["finished"].sum() == 0
    assert trace.games["winner"].null_count() == 8
    summary = summarize(trace.games)
    assert summary.unfinished == 8 and summary.rate("A")[0] == 0.0


# --- Solo mode and options ---------------------------------------------------------------------


def test_solo_batch_records_mode_level_and_the_ai():
    trace = simulate(6, "2", None, "random", seed=1, mode="solo", level=1)
    games = trace.games
    assert games["mode"].to_list() == ["solo"] * 6
    assert games["policy_b"].to_list() == ["ai"] * 6
    assert games["level"].to_list() == [1] * 6
    assert games["format"][0] == "preconstructed"
    assert games["deck_b"].list.len().to_list() == [24] * 6
    assert trace.events.schema == events_schema(CARDS)


def test_solo_game_frames_agree_with_the_state():
    from clashkit.engine.solo_setup import solo_setup

    setup = solo_setup("4", get_policy("random"), seed=6)
    state = play(setup.state, "random")
    events, turns, games = game_frames(state, deck_a=setup.player_deck, deck_b=setup.ai_cards)
    last = events.row(-1, named=True)
    assert last["hand_health_a"] == state.hand_health(0)
    assert last["hand_health_b"] == state.hand_health(1)  # the AI pile above its keep
    assert turns.height == state.turn and games["mode"][0] == "solo"
    assert events.schema == events_schema(CARDS)


def test_records_merged_in_order_build_the_same_frames():
    seeds = game_seeds(3, 6)
    whole, first, second = GameRecords(), GameRecords(), GameRecords()
    for i, seed in enumerate(seeds):
        state, _ = new_game("2", "4", "random", "random", seed=seed)
        play(state, "random")
        whole.add(state, game=i, seed=seed)
        (first if i < 3 else second).add(state, game=i, seed=seed)
    first.extend(second)
    assert frames_equal(build_trace(whole, CARDS), build_trace(first, CARDS))
    halves = Trace.concat([build_trace(first, CARDS), build_trace(GameRecords(), CARDS)])
    assert frames_equal(halves, build_trace(whole, CARDS))


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(deck_a="9"), DeckError),
        (dict(deck_a="1", deck_b="1"), DeckError),
        (dict(policy_a="nobody"), OptionError),
        (dict(rules={"turn_limit": 0}), OptionError),
        (dict(level=2), OptionError),
        (dict(mode="solo"), DeckError),  # deck B given in solo mode
        (dict(mode="chess"), OptionError),
    ],
)
def test_bad_options_are_refused_before_any_game(kwargs, error):
    args = dict(deck_a="1", deck_b="2", policy_a="random")
    args.update(kwargs)
    with pytest.raises(error):
        simulate(2, args.pop("deck_a"), args.pop("deck_b"), args.pop("policy_a"), **args)


# --- Statistics ---------------------------------------------------------------------------------


def test_wilson_interval_known_values():
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0


def test_trace_summary_prints_intervals(batch):
    text = str(batch.summary())
    assert "A (random) wins" in text and "95% CI [" in text and "first-player advantage" in text


def test_win_rates_add_up_with_the_unfinished(batch):
    rates = win_rates(batch.games)
    a, b = (rates.filter(pl.col("outcome") == side)["wins"][0] for side in ("A", "B"))
    assert a + b + summarize(batch.games).unfinished == batch.games.height
    first, second = (rates.filter(pl.col("outcome") == o)["wins"][0] for o in ("first player", "second player"))
    assert first + second == a + b
