"""``clashkit compare``: a new card file against the base on the same seeds (R7.1, R9.3), and
``--check-strength`` on the study commands: JSON on the last line, Parquet, one line and exit 2
for bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import polars as pl
import pytest
from click.testing import CliRunner

from clashkit.base.cards import CardSet, starter_set
from clashkit.cli import main
from clashkit.studies.design import balance, vary

#: A cheap stand-in for the arbiter: the checks' plumbing, not its verdicts, is under test.
CHECK = ("--check-strength", "--check-policy", "expert:budget=2")


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def last_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clashkit: error:"), lines
    return lines[0]


@pytest.fixture
def same(tmp_path) -> str:
    """The shipped set, written to a new file."""
    return str(starter_set().to_csv(tmp_path / "same.csv"))


@pytest.fixture
def strong_gnome(tmp_path) -> str:
    """The shipped set with deck 3's GNOME a 9/9 for 1, in its place."""
    return str(vary(starter_set(), "GNOME", attack=9, health=9).to_csv(tmp_path / "gnome.csv"))


def deck_3_rate(cards: str | None) -> float:
    """Deck 3's overall rate under ``clashkit balance -n 4`` (seed 0) of ``cards`` (default: shipped)."""
    return balance(4, cards=cards).decks.filter(pl.col("deck") == 3)["rate"].item()


def test_a_file_identical_to_the_base_changes_nothing_to_the_last_game(same, tmp_path):
    data = last_json(run("compare", "--cards", same, "-n", "3", "--json", "--out", str(tmp_path / "out")))
    (policy,) = data["policies"]
    assert policy == "greedy"
    decks, matrix = data["policies"]["greedy"]["decks"], data["policies"]["greedy"]["matrix"]
    assert sorted(decks) == ["1", "2", "3", "4"]
    for deck in decks.values():
        assert {"before", "after", "change", "change_low", "change_high", "games"} <= set(deck)
        assert deck["before"] == deck["after"] and deck["games"] == 18
        assert (deck["change"], deck["change_low"], deck["change_high"]) == (0.0, 0.0, 0.0)
    assert [(m["a"], m["b"]) for m in matrix] == [(a, b) for a in range(1, 5) for b in range(1, 5) if a != b]
    for m in matrix:
        assert {"a", "b", "before", "after", "change", "change_low", "change_high"} <= set(m)
        assert m["before"] == m["after"] and (m["change"], m["change_low"], m["change_high"]) == (0.0, 0.0, 0.0)
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == ["cells.parquet", "decks.parquet", "manifest.json", "matrix.parquet"]
    assert pl.read_parquet(tmp_path / "out" / "matrix.parquet").height == 12


def test_a_stronger_card_in_deck_3_raises_deck_3_and_lowers_the_others(strong_gnome):
    data = last_json(run("compare", "--cards", strong_gnome, "-n", "4", "--json"))
    decks = data["policies"]["greedy"]["decks"]
    # The same seeds as `clashkit balance -n 4`, of each set: deck 3's rate in each, and its change.
    before, after = (deck_3_rate(cards) for cards in (None, strong_gnome))
    assert (decks["3"]["before"], decks["3"]["after"]) == (before, after)
    assert decks["3"]["change"] == pytest.approx(after - before) and decks["3"]["change_low"] > 0
    assert after - before > 0.25  # a 9/9 for 1 mana wins most of deck 3's games
    assert all(decks[d]["change_high"] < 0 for d in ("1", "2", "4"))
    # Every pairing deck 3 plays in seat A gains; the pairings without it are the same games.
    matrix = {(m["a"], m["b"]): m for m in data["policies"]["greedy"]["matrix"]}
    assert all(matrix[3, b]["change"] > 0 for b in (1, 2, 4))
    assert matrix[1, 2]["change"] == matrix[1, 2]["change_low"] == matrix[1, 2]["change_high"] == 0.0


def test_the_text_report_says_each_change_and_when_no_game_changed(strong_gnome):
    result = run("compare", "--cards", strong_gnome, "-n", "4")
    assert result.exit_code == 0, result.output
    before, after = (deck_3_rate(cards) for cards in (None, strong_gnome))
    assert f"     3    {before:.1%}    {after:.1%}  +{100 * (after - before):.1f} [+" in result.stdout
    assert "1 vs 2" in result.stdout and "±0 (no game changed)" in result.stdout


def test_with_policies_each_strength_is_under_its_name(same):
    data = last_json(run("compare", "--cards", same, "-n", "1", "--policies", "random,greedy", "--json"))
    assert list(data["policies"]) == ["random", "greedy"]


def swapped(a: str, b: str) -> CardSet:
    """The shipped set with cards ``a`` and ``b`` trading decks."""
    cards = starter_set()
    da, db = cards.card(a).deck, cards.card(b).deck
    return CardSet([replace(c, deck=db if c.name == a else da if c.name == b else c.deck) for c in cards])


def test_a_file_that_changes_two_decks_is_refused_naming_them(tmp_path):
    path = swapped("BRUTE", "OGRE").to_csv(tmp_path / "two.csv")
    line = one_line_error(run("compare", "--cards", str(path), "-n", "1"))
    assert "keeps 2 of the base's 4 starter decks identical; compare needs at least 3 (R7.1)" in line
    assert "deck 1 (without BRUTE, with OGRE); deck 2 (without OGRE, with BRUTE)" in line


def test_a_base_file_is_compared_against_and_checked_the_same_way(same, tmp_path):
    path = swapped("BRUTE", "GNOME").to_csv(tmp_path / "two.csv")
    line = one_line_error(run("compare", "--cards", same, "--base", str(path), "-n", "1"))
    assert "deck 1 (without GNOME, with BRUTE); deck 3 (without BRUTE, with GNOME)" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "compare: name the new card file with --cards NEW.csv"),
        (["--cards", "/no/such/cards.csv"], "cannot read"),
        (["--cards", "{same}", "--base", "/no/such/base.csv"], "cannot read"),
        (["--cards", "{same}", "--policy", "nope"], "unknown policy 'nope'"),
        (["--cards", "{same}", "--check-policy", "greedy"], "--check-policy is an option of the strength check"),
        (["--cards", "{same}", "--check-n", "1"], "--check-n is an option of the strength check"),
        (["--cards", "{same}", *CHECK, "--check-n", "2"], "--check-n 2 is more than -n 1"),
        (["--cards", "{same}", "--check-strength", "--check-policy", "nope"], "unknown policy 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, same):
    line = one_line_error(run("compare", *(a.format(same=same) for a in args), "-n", "1"))
    assert message in line


def test_the_check_of_compare_plays_the_change_again_with_the_arbiter(same):
    data = last_json(run("compare", "--cards", same, "-n", "4", "--json", *CHECK))
    check = data["check"]
    assert (check["policy"], check["against"], check["figure"], check["n"], check["seed"]) == (
        "expert:budget=2",
        "greedy",
        "change",
        1,  # a quarter of -n 4
        0,
    )
    assert sorted(check["decks"]) == ["1", "2", "3", "4"]
    for deck in check["decks"].values():
        assert {"rate", "low", "high", "difference", "agree"} <= set(deck)
        # No card changed: no change under either bot, so they agree exactly.
        assert (deck["rate"], deck["low"], deck["high"], deck["difference"], deck["agree"]) == (0, 0, 0, 0, True)


def test_the_check_of_balance_compares_the_rates_on_the_same_games():
    data = last_json(run("balance", "-n", "2", "--check-n", "2", "--json", *CHECK))
    check = data["check"]
    assert (check["figure"], check["n"], check["against"]) == ("rate", 2, "greedy")
    for deck, row in check["decks"].items():
        # -n 2 with --check-n 2: the check replays exactly the study's games at greedy.
        assert row["study"] == data["decks"][deck]["rate"]
        assert row["difference"] == pytest.approx(row["rate"] - row["study"])
        assert row["agree"] == (
            abs(row["difference"]) < max(0.02, (row["difference_high"] - row["difference_low"]) / 2)
        )


def test_the_check_against_itself_agrees_exactly_and_says_so():
    result = run("balance", "-n", "2", "--check-strength", "--check-policy", "greedy")
    assert result.exit_code == 0, result.output
    for deck in range(1, 5):
        assert f"deck {deck}: greedy and greedy agree within 0.0 points" in result.stdout


def test_the_check_of_a_sweep_checks_every_value_and_keeps_each_decks_widest():
    data = last_json(run("sweep", "--card", "GNOME", "--set", "attack=1,9", "-n", "4", "--json", *CHECK))
    check = data["check"]
    assert check["figure"] == "change" and len(check["rows"]) == 8
    assert {r["attack"] for r in check["rows"]} == {1, 9}
    # attack 1 is GNOME as shipped: no change under either bot.
    assert all(r["rate"] == r["difference"] == 0 for r in check["rows"] if r["attack"] == 1)


def test_with_policies_the_strongest_is_checked():
    data = last_json(run("balance", "--policies", "random,greedy", "-n", "2", "--json", *CHECK))
    assert (data["check"]["against"], data["check"]["figure"]) == ("greedy", "rate")
    assert list(data["policies"]) == ["random", "greedy"]


def test_the_check_of_tune_checks_its_proposal_on_the_proposals_fresh_seeds():
    args = ("tune", "-n", "4", "--max-changes", "1", "--card", "ZOMBIE", "--fields", "attack", "--json", *CHECK)
    data = last_json(run(*args))
    check = data["check"]
    assert (check["figure"], check["seed"], check["n"]) == ("change", data["check_seed"], 1)
    if not data["changes"]:  # no proposal: the set as shipped against itself
        assert all(d["rate"] == d["difference"] == 0 for d in check["decks"].values())


def test_the_check_of_card_stats_checks_each_decks_rate():
    data = last_json(run("card-stats", "--card", "GNOME", "--no-impact", "-n", "4", "--json", *CHECK))
    assert (data["check"]["figure"], sorted(data["check"]["decks"])) == ("rate", ["1", "2", "3", "4"])
