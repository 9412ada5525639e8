"""R2.3 as a table: each deck's rate moving first and moving second (``balance``, its JSON's
``"first"`` and ``"second"``, ``balance --policies``, notebook 05), and the first player's rate
before and after ``tune``'s proposal."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from clashkit.base.cards import starter_set
from clashkit.base.stats import wilson
from clashkit.cli import main
from clashkit.runs.simulate import simulate
from clashkit.studies.analysis import pairing_counts, seat_rates
from clashkit.studies.design import tune
from clashkit.studies.design.study import pairings
from clashkit.studies.skill import balance_by_skill


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def last_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


#: Six games counted by hand: deck 1 moves first in games 1, 2 and 6 and wins game 1 only;
#: it moves second in games 3, 4 and 5 and wins none (game 4 is unfinished, R10.1).
GAMES = pl.DataFrame(
    {
        "deck_a": [1, 1, 1, 1, 2, 2],
        "deck_b": [2, 2, 2, 2, 1, 1],
        "first_player": ["A", "A", "B", "B", "A", "B"],
        "winner": ["A", "B", "B", None, "A", "A"],
        "turns": [9, 9, 9, 200, 9, 9],
    }
)


def test_r2_3_seat_rates_of_games_counted_by_hand():
    rates = seat_rates(pairing_counts(GAMES))
    assert rates.select("deck", pl.col("seat").cast(pl.String), "wins", "games").rows() == [
        (1, "first", 1, 3),
        (1, "second", 0, 3),
        (2, "first", 2, 3),
        (2, "second", 2, 3),
    ]
    assert rates["rate"].to_list() == pytest.approx([1 / 3, 0.0, 2 / 3, 2 / 3])
    for wins, games, low, high in rates.select("wins", "games", "low", "high").iter_rows():
        assert (low, high) == pytest.approx(wilson(wins, games), abs=1e-12)


def test_r2_3_a_mirror_counts_once_for_each_side():
    mirror = pl.DataFrame(
        {"deck_a": [3, 3, 3], "deck_b": [3, 3, 3], "first_player": ["A", "B", "B"], "winner": ["A", "A", None]}
    ).with_columns(turns=pl.lit(5))
    rates = seat_rates(pairing_counts(mirror))
    # The first player won game 1 only; the second player won game 2.
    assert rates.select(pl.col("seat").cast(pl.String), "wins", "games").rows() == [("first", 1, 3), ("second", 1, 3)]


def _seats_counted(n: int, seed: int) -> dict[tuple[int, str], list[int]]:
    """Each deck's [wins, games] moving first and second, counted game by game from the games
    frames of the balance's own pairings and seeds (pairing k plays seed + k)."""
    counted: dict[tuple[int, str], list[int]] = {}
    for k, (a, b) in enumerate(pairings(starter_set())):
        games = simulate(n, str(a), str(b), "greedy", "greedy", seed=seed + k, record_events=False).games
        for first, winner in games.select("first_player", "winner").iter_rows():
            for deck, seat in ((a, "A"), (b, "B")):
                count = counted.setdefault((deck, "first" if first == seat else "second"), [0, 0])
                count[0] += winner == seat
                count[1] += 1
    return counted


def test_r2_3_balance_json_gives_each_deck_moving_first_and_second():
    data = last_json(run("balance", "-n", "3", "--seed", "4", "--json"))
    counted = _seats_counted(3, 4)
    for deck, one in data["decks"].items():
        assert {"rate", "low", "high", "games", "wins"} <= set(one)  # the fields before R2.3's table
        for seat in ("first", "second"):
            wins, games = counted[int(deck), seat]
            assert set(one[seat]) == {"rate", "low", "high", "games"}
            assert one[seat]["games"] == games
            assert one[seat]["rate"] == pytest.approx(wins / games)
            assert one[seat]["low"] <= one[seat]["rate"] <= one[seat]["high"]
        assert one["first"]["games"] + one["second"]["games"] == one["games"] == 18
    first_wins = sum(d["first"]["rate"] * d["first"]["games"] for d in data["decks"].values())
    assert first_wins == pytest.approx(data["first_player"]["rate"] * data["games"])


def test_r2_3_balance_text_has_the_seat_table():
    result = run("balance", "-n", "2", "--seed", "4")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    start = lines.index("| deck | moving first | moving second |")
    rows = lines[start + 2 : start + 6]
    assert [row.split(" | ")[0] for row in rows] == ["| deck 1", "| deck 2", "| deck 3", "| deck 4"]
    data = last_json(run("balance", "-n", "2", "--seed", "4", "--json"))
    one = data["decks"]["1"]["first"]
    assert f"of {one['games']:,}" in rows[0].split(" | ")[1]


def test_r2_3_balance_by_skill_gives_the_seats_at_every_strength():
    result = run("balance", "--policies", "random,greedy", "-n", "2", "--seed", "2", "--json")
    data = last_json(result)
    for one in data["policies"].values():
        for deck in one["decks"].values():
            assert deck["first"]["games"] + deck["second"]["games"] == deck["games"]
    text = run("balance", "--policies", "random,greedy", "-n", "2", "--seed", "2").stdout
    assert text.count("| deck | moving first | moving second |") == 2
    skill = balance_by_skill(["random", "greedy"], 2, seed=2)
    table = skill.seat_table()
    assert table.columns == ["deck", "random first", "random second", "greedy first", "greedy second"]
    assert table["deck"].to_list() == ["deck 1", "deck 2", "deck 3", "deck 4"]
    first = data["policies"]["greedy"]["decks"]["2"]["first"]
    assert table["greedy first"][1].endswith(f"of {first['games']:,}")


def test_r2_3_tune_prints_the_first_players_rate_before_and_after():
    from clashkit.studies.analysis import first_player
    from clashkit.studies.design.matrix import rate_text

    result = tune(4, 1, names=["ZOMBIE"], fields=["attack"], first_weight=1.0)
    before, after = (rate_text(*first_player(b.matchups)) for b in (result.before, result.after))
    assert f"The first player's rate (R2.3), shipped → proposed: {before} → {after} under greedy." in str(result)
