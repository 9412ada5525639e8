"""Balance over playing strength: each policy's Elo from a ladder's ratings file
(``clashkit ladder --write-ratings``, the bots' ladder in ``data/ladder.json``) on the strength
axis of ``clashkit balance --policies`` (text and JSON)."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from clashkit.base.errors import InputError
from clashkit.base.points import percent_text
from clashkit.cli import main
from clashkit.studies.ladder import RATINGS_FILE, ladder, read_ratings
from clashkit.studies.skill import balance_by_skill

WEAK, MIDDLE, STRONG = "random", "greedy", "search:budget=1,horizon=1,noise=0"

#: A ratings file as ``clashkit ladder --write-ratings`` writes it; the search is not in it.
RATINGS = {
    "command": "clashkit ladder --policies random,greedy,expert -n 3 --seed 0 --bootstrap 400",
    "commit": "abc1234",
    "date": "2026-12-06",
    "n": 3,
    "seed": 0,
    "games": 216,
    "bootstrap": 400,
    "ratings": [
        {"policy": "expert", "rating": 1890.5, "low": 1850.25, "high": 1930.0, "games": 144, "score": 0.9},
        {"policy": "greedy", "rating": 1450.0, "low": 1420.0, "high": 1480.75, "games": 144, "score": 0.45},
        {"policy": "random", "rating": 1159.5, "low": 1100.0, "high": 1200.0, "games": 144, "score": 0.05},
    ],
}


def run(*args):
    return CliRunner().invoke(main, [*args, "--no-progress"])


@pytest.fixture(scope="module")
def ratings_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("ladder") / "ladder.json"
    path.write_text(json.dumps(RATINGS), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def curve(ratings_file):
    return balance_by_skill([WEAK, MIDDLE, STRONG], 2, seed=3, bootstrap=20, ratings=ratings_file)


def test_each_policy_carries_its_elo_from_the_file_and_an_unrated_one_none(curve):
    assert curve.strength() == {
        WEAK: {"elo": 1159.5, "low": 1100.0, "high": 1200.0},
        MIDDLE: {"elo": 1450.0, "low": 1420.0, "high": 1480.75},
        STRONG: None,
    }


def test_the_json_adds_strength_and_its_source_and_keeps_the_other_keys(curve, ratings_file):
    data = curve.to_dict()
    assert list(data) == ["policies", "rank_correlation", "strength", "strength_source", "changes", "last_step"]
    assert list(data["policies"]) == [WEAK, MIDDLE, STRONG]  # the order given
    assert data["strength"] == curve.strength()
    assert data["strength_source"] == {
        "file": str(ratings_file),
        "command": RATINGS["command"],
        "commit": "abc1234",
        "date": "2026-12-06",
    }


def test_the_text_table_has_a_row_per_deck_and_a_column_per_strength_labelled_in_elo(curve, ratings_file):
    lines = str(curve).splitlines()
    assert lines[0] == (
        f"| deck | {WEAK} (Elo 1160) | {MIDDLE} (Elo 1450) | {STRONG} (no Elo) "
        f"| change {WEAK} → {STRONG} (points, paired 95%) | change {MIDDLE} → {STRONG} (points, paired 95%) |"
    )
    assert lines[1] == "| --- | ---: | ---: | ---: | --- | --- |"
    rows = lines[2:6]
    assert [r.split(" | ")[0] for r in rows] == ["| deck 1", "| deck 2", "| deck 3", "| deck 4"]
    for row, deck in zip(rows, (1, 2, 3, 4), strict=True):
        cells = row.strip("|").split(" | ")
        assert len(cells) == 1 + 3 + 2
        for cell, policy in zip(cells[1:4], (WEAK, MIDDLE, STRONG), strict=True):
            d = curve.balances[policy].decks.filter(deck=deck).row(0, named=True)
            rate = f"{percent_text(d['rate'])} ({percent_text(d['low'], 1, '')}–{percent_text(d['high'], 1, '')})"
            assert cell.strip() == rate
    assert lines[6] == ""
    assert lines[7] == (
        f"Strength: Elo on the ladder of {ratings_file} (`{RATINGS['command']}`, measured at commit abc1234 on "
        f"2026-12-06). 95% intervals: {WEAK} 1100–1200, {MIDDLE} 1420–1481. "
        f"Not rated there, shown without Elo in the order given: {STRONG}."
    )


def test_a_list_the_ladder_contradicts_says_so(ratings_file):
    result = balance_by_skill([MIDDLE, WEAK], 1, seed=3, bootstrap=5, ratings=ratings_file)
    assert result.strength_text().endswith(
        f"Listed weakest first, but the ladder rates {MIDDLE} (1450) above {WEAK} (1160)."
    )


def test_balance_policies_reads_the_bots_ladder(tmp_path):
    """The command line's Elo is the shipped ladder's, read from the file the ladder figure writes."""
    shipped = read_ratings()
    rated = shipped.ratings["policy"].to_list()
    assert MIDDLE in rated and STRONG not in rated
    result = run("balance", "--policies", f"{MIDDLE},{STRONG}", "-n", "1", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["strength"] == {MIDDLE: shipped.elo(MIDDLE), STRONG: None}
    assert data["strength_source"] == {
        "file": RATINGS_FILE,
        "command": shipped.command,
        "commit": shipped.commit,
        "date": shipped.date,
    }
    text = run("balance", "--policies", f"{MIDDLE},{STRONG}", "-n", "1", "--seed", "2").output
    elo = round(shipped.elo(MIDDLE)["elo"])
    assert f"| deck | {MIDDLE} (Elo {elo}) | {STRONG} (no Elo) |" in text


def test_the_shipped_ratings_are_the_ladder_figures():
    """``data/ladder.json`` was written by the ladder figure's own command (``benchmarks/figures.py``):
    the same policies, games and seed, so the Elo the guide shows is the Elo the curve uses."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import figures

    command = list(figures.FIGURES["ladder"].command)
    assert command[command.index("--write-ratings") + 1] == RATINGS_FILE
    written = shlex.split(read_ratings().command)
    for option in ("--policies", "-n"):
        assert written[written.index(option) + 1] == command[command.index(option) + 1]
    assert "--seed" not in command and written[written.index("--seed") + 1] == "0"


def test_ladder_writes_ratings_that_read_back(tmp_path):
    path = tmp_path / "ratings.json"
    result = run("ladder", "--policies", "random,greedy", "-n", "1", "--seed", "4", "--write-ratings", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(f"Ratings written to {path}.")
    back = read_ratings(path)
    played = ladder(["random", "greedy"], 1, seed=4)
    assert back.command == "clashkit ladder --policies random,greedy -n 1 --seed 4 --bootstrap 400"
    assert back.ratings["policy"].to_list() == played.ratings["policy"].to_list()
    for policy in ("random", "greedy"):
        expected = played.ratings.filter(policy=policy).row(0, named=True)
        assert back.elo(policy) == {
            k: round(expected[v], 2) for k, v in (("elo", "rating"), ("low", "low"), ("high", "high"))
        }
    assert back.commit  # the checkout's commit, or "unknown" outside one
    assert back.file == str(path)


def test_bad_ratings_files_are_one_line(tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(InputError, match=f"^{missing}: cannot read the ladder's ratings"):
        read_ratings(missing)
    broken = tmp_path / "broken.json"
    broken.write_text('{"ratings": [{"policy": "greedy"}]}', encoding="utf-8")
    with pytest.raises(InputError, match=f"^{broken}: not a ratings file of clashkit ladder --write-ratings"):
        read_ratings(broken)
    result = run("ladder", "--policies", "random,greedy", "-n", "1", "--write-ratings", str(tmp_path / "no" / "x.json"))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"clashkit: error: --write-ratings: no directory for {tmp_path / 'no' / 'x.json'}"
    ]


def test_the_last_step_is_the_paired_change_between_the_two_strongest(curve):
    """Where the curve may have flattened: each deck's change from the second strongest to the
    strongest, paired game by game (the same seeds), in the JSON, the table and one sentence."""
    data = curve.to_dict()["last_step"]
    assert [(r["deck"], r["weak"], r["strong"]) for r in data] == [(d, MIDDLE, STRONG) for d in (1, 2, 3, 4)]
    for r in data:
        middle = curve.balances[MIDDLE].decks.filter(deck=r["deck"])["rate"].item()
        strong = curve.balances[STRONG].decks.filter(deck=r["deck"])["rate"].item()
        assert r["change"] == pytest.approx(strong - middle)
        assert r["change_low"] <= r["change"] <= r["change_high"]
        assert r["clear"] == (r["change_low"] > 0 or r["change_high"] < 0)
    # The sentence's wording is checked on constructed rows below; here, that it speaks of these
    # rows: each deck once, in the clause its ``clear`` says.
    text = curve.last_step_text()
    assert text.startswith(f"Last step, {MIDDLE} → {STRONG}: ") and text.endswith(".")
    clauses = text.split(": ", 1)[1].split("; ")
    moved = next((c for c in clauses if "still moved" in c), "")
    for r in data:
        deck = f"deck {r['deck']}"
        assert text.count(deck) == 1
        assert (deck in moved) == r["clear"]
    assert curve.last_step_text() in str(curve).splitlines()
    two = balance_by_skill([WEAK, MIDDLE], 1, seed=3, bootstrap=5, ratings=curve.ladder)
    assert two.last_step is None and two.to_dict()["last_step"] is None and two.last_step_text() == ""


def test_the_last_step_sentence_names_the_decks_it_still_moves(curve):
    step = pl.DataFrame({"deck": [2, 1, 3, 4], "clear": [False, True, False, True]})
    assert dataclasses.replace(curve, last_step=step).last_step_text() == (
        f"Last step, {MIDDLE} → {STRONG}: no change told from 0 for deck 2, deck 3 (the curve may have "
        "flattened there); deck 1, deck 4 still moved (more strength may move them further)."
    )
    one = pl.DataFrame({"deck": [1, 2, 3, 4], "clear": [False, False, True, False]})
    assert (
        dataclasses.replace(curve, last_step=one)
        .last_step_text()
        .endswith("; deck 3 still moved (more strength may move it further).")
    )
