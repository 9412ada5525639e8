"""Every value the loaders accept fits the frames; every bad input is one line, exit 2.

The ranges live in ``clashkit.base.limits``; these tests drive the extremes through
whole games and feed the loaders what a careless user or a hostile file would.
"""

from __future__ import annotations

import os
import re
from array import array

import polars as pl
import pytest
from click.testing import CliRunner
from command_line import cli, one_line_exit_2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clashkit.base.cards import load_cards, read_cards_csv, starter_set
from clashkit.base.errors import CardFileError, DeckError, OptionError, ScenarioError
from clashkit.base.limits import LIMITS
from clashkit.cli import main
from clashkit.engine.events import ATTACK, FIELDS, WIDTH, record
from clashkit.engine.formats import parse_deck
from clashkit.engine.scenario import load_scenario, parse_scenario
from clashkit.runs.game import new_game
from clashkit.runs.schemas import TURNS_SCHEMA, events_schema
from clashkit.runs.simulate import simulate
from clashkit.runs.trace import events_from_buffer, game_frames

HEADER = "name,deck,kind,cost,attack,health,abilities,aura,effect,target,notes\n"
ABILITIES = ["", "splash", "pierce", "rage", "protection", "indestructible", "bloodlust", "sprint"]
EFFECTS = ["damage", "weaken", "empower"]


# --- High 2: extreme legal values through a whole simulate --------------------------------------

extreme = st.sampled_from


@st.composite
def card_files(draw) -> str:
    """Two starter decks of 8 cards each at the edges of every range of clashkit.base.limits."""
    rows = []
    for deck in (1, 2):
        for i in range(8):
            cost = draw(extreme([LIMITS["cost"].low, LIMITS["cost"].high, 1]))
            if draw(st.integers(0, 3)) == 0:
                effect = draw(extreme(EFFECTS))
                amount = draw(extreme([LIMITS["amount"].low, LIMITS["amount"].high]))
                rows.append(f"I{deck}{i},{deck},incantation,{cost},,,,,{effect} {amount},any,")
            else:
                attack = draw(extreme([LIMITS["attack"].low, LIMITS["attack"].high]))
                health = draw(extreme([LIMITS["health"].low, LIMITS["health"].high]))
                ability = draw(extreme(ABILITIES))
                rows.append(f"C{deck}{i},{deck},creature,{cost},{attack},{health},{ability},,,,")
    return HEADER + "\n".join(rows) + "\n"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=card_files(), turn_limit=extreme([1, 2, LIMITS["turn_limit"].high]), seed=st.integers(0, 2**64 - 1))
def test_extreme_legal_values_play_whole_games_into_frames(text, turn_limit, seed):
    cards = starter_set().__class__(read_cards_csv(text))
    trace = simulate(2, "1", "2", "random", seed=seed, cards=cards, rules={"turn_limit": turn_limit})
    assert trace.events.schema == events_schema(cards) and trace.turns.schema == TURNS_SCHEMA
    assert trace.games["seed"].to_list() == trace.games["seed"].to_list()
    assert (trace.games["turns"] <= turn_limit).all()
    events = trace.events
    assert events["step"].to_list() == [
        s for g in trace.games["game"] for s in range(events.filter(pl.col("game") == g).height)
    ]
    assert events["hand_health_a"].max() <= LIMITS["cards_owned"].high
    assert events["mana_left"].min() >= 0


def test_the_event_packer_takes_any_amount_and_any_number_of_steps():
    state, _ = new_game("1", "2", "random", "random", seed=1)
    record(state, ATTACK, amount=5 * 99 * 1000)  # a cost-0 empower 99 played a thousand times
    events, _, _ = game_frames(state)
    assert events["amount"][-1] == 495_000
    rows = array("i", [0] * (WIDTH * 70_000))
    frame = events_from_buffer(rows, starter_set())
    assert frame["step"][-1] == 69_999 and frame["step"].dtype == pl.UInt32


def test_turn_limit_has_an_upper_bound(tmp_path):
    one_line_exit_2(
        cli("simulate", "-n", "1", "--rules", "turn_limit=10001", "--out", str(tmp_path / "x")),
        "turn_limit = 10001 must be a whole number 1…10000 (R10.1)",
    )
    assert not (tmp_path / "x").exists()


def test_a_scenario_hand_or_mana_the_frames_cannot_hold_is_refused():
    card = '[[card]]\nname = "P"\nkind = "creature"\ncost = 1\nattack = 1\nhealth = 2\n'
    sides = '[B]\nhand = ["BASTION", "P"]\n'
    with pytest.raises(ScenarioError, match=r"\[game\] mana: must be a whole number 0…99 .*not 200"):
        parse_scenario(card + '[game]\nmana = 200\n[A]\nhand = ["BASTION", "P"]\n' + sides)
    hand = ", ".join(['"BASTION"'] + ['"P"'] * 300)
    with pytest.raises(ScenarioError, match=r"\[A\] hand: 300 cards, more than the 50 a player may own"):
        parse_scenario(card + f"[A]\nhand = [{hand}]\n" + sides)


def test_card_values_above_the_range_are_refused_with_the_rule():
    with pytest.raises(CardFileError, match=r"row 2, column effect: empower amount must be at most 99, not 9999"):
        read_cards_csv(HEADER + "PUMP,,incantation,0,,,,,empower 9999,ally,\n", source="c.csv")


# --- Medium 4, 7 -------------------------------------------------------------------------------------


def test_a_numbered_deck_must_hold_8_different_cards(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + "".join(f"X{i},5,creature,1,1,1,,,,,\n" for i in range(1)) + _shipped_rows())
    message = rf"^starter deck 5 of {re.escape(str(path))} holds 1 card \(X0\); .*8 different cards \(R7.1\)"
    with pytest.raises(DeckError, match=message):
        parse_deck("5", load_cards(path))
    one_line_exit_2(cli("simulate", "-n", "1", "--cards", str(path), "--a", "5", "--out", str(tmp_path / "o")), "R7.1")


def test_balance_names_the_starter_deck_and_its_file_not_a_seat(tmp_path):
    """R7.1: a starter deck of 9 cards is the card file's fault, whichever seat deals it first."""
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + _shipped_rows() + "WARG,3,creature,3,3,4,rage;protection,,,,\n", encoding="utf-8")
    done = cli("balance", "--cards", str(path), "-n", "1", "--no-progress")
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == (
        f"clashkit: error: starter deck 3 of {path} holds 9 cards (BRIGAND, DISCIPLE, GNOME, GRRR, MARTYR, "
        "METEORITE, PARASITE, VORTEX, WARG); a starter deck holds 8 different cards (R7.1)\n"
    )


def _shipped_rows() -> str:
    from clashkit.base.cards import shipped_cards_path

    return shipped_cards_path().read_text(encoding="utf-8").split("\n", 1)[1]


def test_files_with_a_byte_order_mark_load(tmp_path):
    cards = tmp_path / "cards.csv"
    cards.write_bytes(b"\xef\xbb\xbf" + (HEADER + _shipped_rows()).encode())
    assert len(load_cards(cards)) == 32
    deck = tmp_path / "my.deck"
    deck.write_bytes(b"\xef\xbb\xbf" + ",".join(starter_set().deck(1)).encode())
    assert parse_deck(str(deck)).names == tuple(starter_set().deck(1))
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(
        b"\xef\xbb\xbf" + b'[A]\nhand = ["BASTION", "OGRE"]\n[B]\nhand = ["FORT", "RAT"]\n'.replace(b"RAT", b"TROLL")
    )
    assert load_scenario(scenario).state.hands[0][0] == -1
    result = cli(
        "simulate",
        "-n",
        "2",
        "--mode",
        "solo",
        "--a",
        str(deck),
        "--policy-a",
        "random",
        "--no-progress",
        "--out",
        str(tmp_path / "solo"),
    )
    assert result.exit_code == 0, result.output


# --- Low: each one line, exit 2 ---------------------------------------------------------------------


def test_a_huge_csv_cell_is_one_line(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + "OGRE,,creature,1,1,1,,,,," + "x" * 200_000 + "\n")
    one_line_exit_2(cli("play", "--cards", str(path)), "row 2: a cell longer than 131,072 characters")


def test_an_unterminated_quote_is_reported_at_its_row(tmp_path):
    path = tmp_path / "cards.csv"
    rows = ["OGRE,,creature,1,1,1,,,,,", 'TROLL,,creature,1,1,1,,,,,"oops', "RAT,,creature,1,1,1,,,,,"]
    path.write_text(HEADER + "\n".join(rows) + "\n")
    one_line_exit_2(cli("play", "--cards", str(path)), 'row 3: a quote (") opened on this row is never closed')


def test_deep_toml_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 900 + "]" * 900 + "\n")
    one_line_exit_2(cli("siege", str(path)), "nested too deeply")


@pytest.mark.parametrize("args", [["--a", "²"], ["--a", "1" * 5000]])
def test_odd_deck_numbers_are_one_short_line(args):
    line = one_line_exit_2(cli("play", *args), "deck A")
    assert len(line) < 200


def test_too_many_games_is_one_line():
    one_line_exit_2(cli("simulate", "-n", "10^30"), "-n")
    one_line_exit_2(cli("simulate", "-n", str(10**30)), "-n", "4294967295")
    with pytest.raises(OptionError, match=r"n \(the number of games\): must be a whole number 0…4294967295"):
        simulate(10**30)


def test_devices_and_fifos_are_refused_unread(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    one_line_exit_2(cli("play", "--cards", str(fifo)), "not a regular file")
    one_line_exit_2(cli("siege", str(fifo)), "not a regular file")
    one_line_exit_2(cli("play", "--cards", "/dev/zero"), "/dev/zero: not a regular file")


def test_more_cards_than_the_limit_are_refused(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + "".join(f"C{i},,creature,1,1,1,,,,,\n" for i in range(LIMITS["cards"].high + 1)))
    one_line_exit_2(cli("play", "--cards", str(path)), "more than 10,000 cards")


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("search:foo=1", "policy 'search' has no option 'foo' (its options are budget, horizon, noise, fair)"),
        ("greedy:x=1", "policy 'greedy' has no option 'x' (it takes no options)"),
        # weights are the fitting's, a tuple from code: not an option of the policy's name
        ("expert:weights=1", "policy 'expert' has no option 'weights' (its options are budget)"),
        ("expert:budget=0", "expert: budget: must be a whole number 1…100000 (expert: candidates tried per decision)"),
    ],
)
def test_unknown_policy_options_name_the_options(policy, message):
    line = one_line_exit_2(cli("play", "--policy-a", policy), message)
    assert "unexpected keyword" not in line


def test_the_api_refuses_what_simulate_refuses():
    assert simulate(2, "1", "2", "random", rules="turn_limit=5").games["turns"].max() <= 5
    with pytest.raises(DeckError, match="deck A: None is not a deck"):
        new_game(None, "2")
    with pytest.raises(OptionError, match=re.escape("seed: must be a whole number 0…18446744073709551615 (R10.2")):
        new_game("1", "2", seed=-1)
    with pytest.raises(OptionError, match="seed 'x' must be a whole number"):
        new_game("1", "2", seed="x")
    with pytest.raises(OptionError, match="rules: 5 is not a mapping"):
        new_game("1", "2", rules=5)
    one_line_exit_2(cli("play", "--seed", "-1"), "--seed")


def test_a_long_number_is_not_echoed_in_full(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(HEADER + "OGRE,,creature," + "7" * 5000 + ",1,1,,,,,\n")
    line = one_line_exit_2(cli("play", "--cards", str(path)), "column cost: cost must be at most 99")
    assert len(line) < 150 + len(str(path))
    line = one_line_exit_2(cli("play", "--rules", "turn_limit=" + "9" * 5000), "turn_limit")
    assert len(line) < 200


def test_more_jobs_than_cores_are_capped_with_a_note(tmp_path):
    result = CliRunner().invoke(
        main, ["simulate", "-n", "3", "--jobs", "5000", "--policy-a", "random", "--no-progress", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    cores = os.cpu_count() or 1
    assert f"clashkit: note: --jobs: 5000 jobs asked, this machine has {cores} cores: using {cores}" in result.stderr


@pytest.mark.parametrize("name", ["BIG OGRE", "OGRE,JR", "OGRE#2", "OGRE@1"])
def test_names_that_cannot_be_written_back_are_refused(name):
    text = HEADER + f'"{name}",,creature,1,1,1,,,,,\n'
    with pytest.raises(CardFileError, match=r"row 2, column name: .* may not hold spaces or any of , # @"):
        read_cards_csv(text, source="c.csv")


def test_solo_levels_out_needs_calibrate(tmp_path):
    one_line_exit_2(cli("solo-levels", "--out", str(tmp_path / "x.parquet")), "--out writes the calibration frame")
    assert not (tmp_path / "x.parquet").exists()


def test_the_events_buffer_is_as_wide_as_its_fields():
    assert len(FIELDS) == WIDTH and array("i").itemsize == 4
