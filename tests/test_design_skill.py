"""Skill in every study: ``sweep``, ``card-stats`` and ``tune`` at several strengths on the same
seeds (R2.2, R2.3: the same deals and coin flips), the paired changes between strengths, and the
tuner that balances every strength at once (R7.1, R9.3)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from clashkit.base.cards import starter_set
from clashkit.base.errors import OptionError
from clashkit.cli import main
from clashkit.studies import design, expert_fit

#: Two strengths the fast engine plays quickly (expert is ``search``'s machinery, one turn deep).
WEAK, STRONG = "greedy", "expert"


def outcomes(rows: list[tuple[int, int, int, str | None]]) -> pl.DataFrame:
    """An outcomes frame (:func:`design.outcomes`) from (deck_a, deck_b, game, winner) rows."""
    return pl.DataFrame(
        {
            "deck_a": [r[0] for r in rows],
            "deck_b": [r[1] for r in rows],
            "game": [r[2] for r in rows],
            "first_player": ["A"] * len(rows),
            "winner": [r[3] for r in rows],
            "turns": [10] * len(rows),
        },
        schema={
            "deck_a": pl.Int8,
            "deck_b": pl.Int8,
            "game": pl.UInt32,
            "first_player": pl.String,
            "winner": pl.String,
            "turns": pl.Int32,
        },
    )


# --- The objective and the paired arithmetic, on hand-made frames -----------------------------


def test_r7_1_the_objective_is_the_largest_distance_of_any_deck_at_any_strength():
    # Decks 1 and 2, two games of each ordered pairing (R7.1: each deck in both seats).
    weak = outcomes([(1, 2, 0, "A"), (1, 2, 1, "B"), (2, 1, 0, "A"), (2, 1, 1, "B")])  # 50% each
    strong = outcomes([(1, 2, 0, "A"), (1, 2, 1, "A"), (2, 1, 0, "B"), (2, 1, 1, None)])
    # Under strong play deck 1 wins 3 of its 4 games (75%), deck 2 none of its 4 (an unfinished
    # game is no one's win, R10.1): the largest distance is 50 points, deck 2's.
    assert design.skill_distance({WEAK: weak}) == 0.0
    assert design.skill_distance({WEAK: weak, STRONG: strong}) == 0.5
    assert design.skill_distance({STRONG: strong}) == 0.5


def test_the_improvement_of_the_same_games_is_0_and_an_exact_improvement_is_measured():
    shipped = outcomes([(1, 2, 0, "A"), (1, 2, 1, "A"), (2, 1, 0, "B"), (2, 1, 1, "B")])  # deck 1: 100%
    tuned = outcomes([(1, 2, 0, "A"), (1, 2, 1, "B"), (2, 1, 0, "B"), (2, 1, 1, "A")])  # 50% each
    assert design.distance_improvement({WEAK: shipped}, {WEAK: shipped}, bootstrap=50) == (0.0, 0.0, 0.0)
    gain, low, high = design.distance_improvement({WEAK: shipped}, {WEAK: tuned}, bootstrap=200)
    assert gain == 0.5 and low is not None and high is not None and low <= gain <= high


def test_r7_1_with_a_pairing_weight_a_lopsided_pairing_counts_though_every_deck_is_at_50():
    # Three decks in a cycle: 1 beats 2, 2 beats 3, 3 beats 1, every game, whichever seat.
    cycle = outcomes([(1, 2, 0, "A"), (2, 1, 0, "B"), (2, 3, 0, "A"), (3, 2, 0, "B"), (3, 1, 0, "A"), (1, 3, 0, "B")])
    # Each deck wins 2 of its 4 games (50%); each ordered pairing is 100% or 0% for seat A.
    assert design.skill_distance({WEAK: cycle}) == 0.0
    assert design.skill_distance({WEAK: cycle}, design.Objective(pairing_weight=1 / 3)) == pytest.approx(0.5 / 3)
    balance = design.Balance(design.matchups(cycle), 1, 0)
    assert balance.distance == 0.0 and balance.pairing_distance == 0.5
    assert design.Objective(pairing_weight=0.2).of(balance) == pytest.approx(0.1)
    assert design.Objective().of(balance) == 0.0
    # Without the weight, taking the cycle away gains nothing (every deck was at 50% already);
    # with it, the whole pairing term: half the games of each pairing won by A (50% a pairing).
    half = outcomes(
        [(a, b, g, "A" if g == 0 else "B") for a, b in cycle.select("deck_a", "deck_b").rows() for g in (0, 1)]
    )
    doubled = pl.concat([cycle, cycle.with_columns(pl.lit(1, pl.UInt32).alias("game"))])
    assert design.distance_improvement({WEAK: doubled}, {WEAK: half}, bootstrap=0) == (0.0, None, None)
    gain, _, _ = design.distance_improvement(
        {WEAK: doubled}, {WEAK: half}, bootstrap=0, objective=design.Objective(pairing_weight=0.5)
    )
    assert gain == pytest.approx(0.25)


def test_r2_3_with_a_first_weight_the_first_players_edge_counts_though_every_deck_is_at_50():
    # Decks 1 and 2, each pairing twice; A moves first in every game (outcomes' first_player).
    seats = outcomes([(1, 2, 0, "A"), (1, 2, 1, "B"), (2, 1, 0, "A"), (2, 1, 1, "B")])  # first player 50%
    first = outcomes([(1, 2, 0, "A"), (1, 2, 1, "A"), (2, 1, 0, "A"), (2, 1, 1, "A")])  # first player 100%
    # Both decks win half their games either way (deck 1 wins as A, loses as B in `first`).
    assert design.skill_distance({WEAK: first}) == 0.0
    assert design.Balance(design.matchups(first), 2, 0).first_distance == 0.5
    assert design.skill_distance({WEAK: first}, design.Objective(first_weight=0.6)) == pytest.approx(0.3)
    gain, low, high = design.distance_improvement(
        {WEAK: first}, {WEAK: seats}, bootstrap=50, objective=design.Objective(first_weight=0.6)
    )
    # The seat term falls from 0.3 to 0; the pairing term is not weighed, so the gain is the
    # first player's alone.
    assert gain == pytest.approx(0.3) and low is not None and high is not None and low <= gain <= high


def test_tune_refuses_a_weight_outside_0_to_1():
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(OptionError, match=r"pairing weight: must be a number 0…1"):
            design.tune(n=1, max_changes=0, pairing_weight=bad)
        with pytest.raises(OptionError, match=r"first weight: must be a number 0…1"):
            design.tune(n=1, max_changes=0, first_weight=bad)
    words = design.Objective(0.33, 0.5).text()
    expected = "largest distance of a deck from 50%, or 0.33 × an ordered pairing's, or 0.5 × the first player's"
    assert words == expected + " where larger,"


def test_paired_contrast_is_paired_changes_and_a_difference_of_two_changes_is_exact():
    a = outcomes([(1, 2, 0, "A"), (1, 2, 1, "B"), (2, 1, 0, "A"), (2, 1, 1, "B")])
    b = outcomes([(1, 2, 0, "A"), (1, 2, 1, "A"), (2, 1, 0, "A"), (2, 1, 1, "B")])
    assert design.paired_contrast([(1.0, b), (-1.0, a)]).equals(design.paired_changes(a, b))
    # (b − a) − (b − a) is 0 in every game: the change does the same at both "strengths".
    same = design.paired_contrast([(1.0, b), (-1.0, a), (-1.0, b), (1.0, a)])
    assert same["change"].to_list() == [0.0, 0.0] and same["change_low"].to_list() == [0.0, 0.0]
    # Deck 1 gains one win in its 4 games: +25 points; deck 2 loses it.
    assert design.paired_changes(a, b)["change"].to_list() == [0.25, -0.25]


def test_a_paired_interval_stays_within_what_a_change_can_be():
    """On two games a change of +1 and 0 has a normal interval past +1 (a change of a rate is at most
    100 points); it is cut there.  A sum of two such changes may reach +2, and is cut there."""
    a = outcomes([(1, 2, 0, "B"), (1, 2, 1, "B")])
    b = outcomes([(1, 2, 0, "A"), (1, 2, 1, None)])  # a win, and an unfinished game (no one's win)
    deck_1 = design.paired_changes(a, b).filter(pl.col("deck") == 1).row(0, named=True)
    assert deck_1["change"] == 0.5 and deck_1["change_high"] == 1.0 and -1.0 < deck_1["change_low"] < 0
    both = design.paired_contrast([(1.0, b), (-1.0, a), (1.0, b), (-1.0, a)]).filter(pl.col("deck") == 1)
    assert both["change"].item() == 1.0 and both["change_high"].item() == 2.0


def test_skill_changes_between_the_same_games_are_0_and_none_for_one_strength():
    a = outcomes([(1, 2, 0, "A"), (1, 2, 1, "B"), (2, 1, 0, "A"), (2, 1, 1, "B")])
    changes = design.skill_changes({WEAK: a, STRONG: a})
    assert changes["from"].to_list() == [WEAK, WEAK] and changes["to"].to_list() == [STRONG, STRONG]
    assert changes["change"].to_list() == [0.0, 0.0]
    assert design.skill_changes({WEAK: a}).height == 0


# --- Studies at several strengths --------------------------------------------------------------


def test_a_list_of_one_strength_is_the_single_strength_study():
    """Also: the same seeds give the same tables (each study played twice, compared whole)."""
    one = design.sweep("OGRE", {"attack": [4, 6]}, 2, seed=1)
    listed = design.sweep("OGRE", {"attack": [4, 6]}, 2, seed=1, policies=[WEAK])
    assert listed.first.rows.equals(one.rows) and listed.to_dict() == one.to_dict() and str(listed) == str(one)
    table = design.card_stats(1, names=["GNOME"], seed=1)
    assert design.card_stats(1, names=["GNOME"], seed=1, policies=[WEAK]).tables[WEAK].equals(table)
    kw = dict(fields=["attack"], names=["ZOMBIE"], seed=1, bootstrap=20)
    single, listed_tune = design.tune(2, 1, **kw), design.tune(2, 1, policies=[WEAK], **kw)
    assert listed_tune.to_dict() == single.to_dict()


def test_a_sweep_at_two_strengths_is_the_same_on_the_same_seeds_and_its_change_is_paired():
    first = design.sweep("OGRE", {"attack": [4, 6]}, 3, seed=2, policies=[WEAK, STRONG])
    again = design.sweep("OGRE", {"attack": [4, 6]}, 3, seed=2, policies=f"{WEAK},{STRONG}")
    assert first.table().equals(again.table()) and first.changes.equals(again.changes)
    # Each strength is the single-strength sweep, and the change between strengths is paired on
    # the same games: its mean is the difference of the two rates.
    assert first.sweeps[STRONG].rows.equals(design.sweep("OGRE", {"attack": [4, 6]}, 3, seed=2, policy=STRONG).rows)
    table = first.table()
    gap = (table[f"rate {STRONG}"] - table[f"rate {WEAK}"] - table[f"{STRONG} − {WEAK}"]).abs().max()
    assert gap < 1e-12
    data = first.to_dict()
    assert list(data["policies"]) == [WEAK, STRONG] and data["card"] == "OGRE"
    assert set(data["changes"][0]) >= {"attack", "deck", "from", "to", "change", "change_low", "change_high"}


def test_every_strength_is_played_as_one_list_of_jobs():
    calls = []

    def runner(jobs):
        calls.append(sorted({job.settings.policy for job in jobs}))
        return [design.play_job(job) for job in jobs]

    design.sweep("OGRE", {"attack": [6]}, 1, policies=[WEAK, STRONG], runner=runner)
    assert calls == [[STRONG, WEAK]]  # one call, so one progress bar and one estimate for both


def test_card_stats_at_two_strengths_has_the_change_of_impact_between_them():
    result = design.card_stats(2, names=["GNOME"], seed=3, policies=[WEAK, STRONG])
    assert list(result.tables) == [WEAK, STRONG]
    (row,) = result.removed.iter_rows(named=True)
    removed = {p: t["removed_change"][0] for p, t in result.tables.items()}
    # A paired difference of two paired changes over the same games: the difference of the means.
    assert abs(row["change"] - (removed[STRONG] - removed[WEAK])) < 1e-12
    assert result.decks.height == 4 and set(result.to_dict()) >= {"policies", "decks", "removed"}


def test_a_bad_strength_is_refused_naming_the_bots():
    with pytest.raises(OptionError, match=r"policies: unknown policy 'nobody' \(one of random, greedy, search, expert"):
        design.sweep("OGRE", {"attack": [4]}, 1, policies=[WEAK, "nobody"])


# --- The tuner at several strengths --------------------------------------------------------------


def test_tune_at_two_strengths_gives_a_monotone_pareto_table_checked_on_fresh_seeds():
    # On the values before the retune (expert's fitting set) deck 1 is far below 50% under expert
    # (about 13%): more attack or health on its cards helps.
    before = expert_fit.fit_cards()
    names = before.deck(1)
    kw = dict(fields=["attack", "health"], names=names, seed=3, evaluations=12, bootstrap=50, cards=before)
    result = design.tune(8, 2, policies=[WEAK, STRONG], **kw)
    assert result.pareto, "deck 1 far below 50% under expert: one of its cards made stronger helps"
    searched = [result.search_distances[0], *(r.search for r in result.pareto)]
    assert searched == sorted(searched, reverse=True) and len(set(searched)) == len(searched)
    assert [r.limit for r in result.pareto] == list(range(1, len(result.pareto) + 1))
    for r in result.pareto:
        assert len(r.changes) <= r.limit and all(c.card in names and c.new > c.old for c in r.changes)
        assert r.before == result.check_distances[0] and r.low is not None and r.low <= r.improvement <= r.high
    assert set(result.at) == {WEAK, STRONG}
    data = result.to_dict()
    assert set(data["policies"][STRONG]) == {"before", "after"} and len(data["pareto"]) == len(result.pareto)


def test_tune_stops_at_the_evaluations_asked_for():
    result = design.tune(2, 2, fields=["attack"], seed=1, evaluations=3, bootstrap=10)
    assert result.candidates == 3 and result.stopped == "stopped at the evaluations asked for"


def test_candidates_of_larger_steps_stay_inside_the_card_file_rules():
    changes = design.candidates(starter_set(), ["cost", "health"], 1, sizes=[1, 2])
    keys = {(c.card, c.field, c.new) for c in changes}
    assert all(c.new >= 0 for c in changes if c.field == "cost")  # R1.3: a cost is at least 0
    assert all(c.new >= 1 for c in changes if c.field == "health")  # R1.3: health at least 1
    assert {abs(c.new - c.old) for c in changes} == {1, 2}
    assert ("DISCIPLE", "health", -1) not in keys and ("DISCIPLE", "cost", -1) not in keys


# --- The command line --------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def last_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_cli_sweep_side_by_side_and_one_strength_keeps_the_sweep_object():
    both = run("sweep", "--card", "OGRE", "--set", "attack=4", "--policies", f"{WEAK},{STRONG}", "-n", "1")
    assert both.exit_code == 0, both.output
    assert f"{STRONG} − {WEAK}" in both.stdout and "the same seeds for every value and strength" in both.stdout
    one = last_json(run("sweep", "--card", "OGRE", "--set", "attack=4", "--policies", WEAK, "-n", "1", "--json"))
    old = last_json(run("sweep", "--card", "OGRE", "--set", "attack=4", "--policy", WEAK, "-n", "1", "--json"))
    one.pop("seconds"), old.pop("seconds")
    assert one == old and "policies" not in one and set(one["rows"][0]) >= {"value", "change_low"}


def test_cli_sweep_at_two_strengths_writes_each_strength_and_the_changes(tmp_path):
    result = run("sweep", "--card", "OGRE", "--set", "attack=6", "--policies", f"{WEAK},{STRONG}", "-n", "1",
                 "--out", str(tmp_path / "s"))  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert files == ["changes.parquet", "manifest.json", "matchups.parquet", "sweep.parquet"]
    rows = pl.read_parquet(tmp_path / "s" / "sweep.parquet")
    assert rows.columns[0] == "policy" and rows["policy"].unique(maintain_order=True).to_list() == [WEAK, STRONG]
    assert pl.read_parquet(tmp_path / "s" / "changes.parquet")["to"].unique().to_list() == [STRONG]


def test_cli_card_stats_and_tune_at_two_strengths():
    data = last_json(run("card-stats", "--card", "GNOME", "--policies", f"{WEAK},{STRONG}", "-n", "1", "--json"))
    assert list(data["policies"]) == [WEAK, STRONG] and data["policies"][STRONG]["cards"][0]["card"] == "GNOME"
    tune = run(
        "tune", "--policies", f"{WEAK},{STRONG}", "-n", "1", "--max-changes", "1", "--card", "ZOMBIE",
        "--fields", "attack", "--evaluations", "2",
    )  # fmt: skip
    assert tune.exit_code == 0, tune.output
    assert "| at most | changes |" in tune.stdout and f"| deck | {WEAK} | {STRONG} |" in tune.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["sweep", "--card", "OGRE", "--set", "attack=4", "--policies", "greedy,nobody"],
            "clashkit: error: --policies: unknown policy 'nobody' "
            "(one of random, greedy, search, expert, deep, openspiel)",
        ),
        (
            ["card-stats", "--policies", "greedy,expret"],
            "clashkit: error: --policies: unknown policy 'expret' (one of random, greedy, search, expert, deep, "
            "openspiel); did you mean expert?",
        ),
        (
            ["tune", "--policy", "nobody"],
            "clashkit: error: --policy: unknown policy 'nobody' "
            "(one of random, greedy, search, expert, deep, openspiel)",
        ),
        (["tune", "--policies", "greedy,greedy"], "clashkit: error: --policies: a policy is named twice"),
    ],
)
def test_cli_a_bad_strength_names_the_option_and_the_bots(args, message):
    result = run(*args, "-n", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [message]


def test_compare_at_two_strengths_equals_each_strength_alone():
    before = starter_set()
    after = design.vary(before, "OGRE", attack=7)
    both = design.compare(before, after, 4, policies=[WEAK, STRONG], seed=3)
    assert isinstance(both, design.SkillComparison) and list(both.comparisons) == [WEAK, STRONG]
    for policy in (WEAK, STRONG):
        alone = design.compare(before, after, 4, policy=policy, seed=3)
        assert isinstance(alone, design.Comparison)
        assert alone.table().equals(both.comparisons[policy].table())
        assert alone.matrix().equals(both.comparisons[policy].matrix())
    assert both.table()["strength"].to_list() == [WEAK] * 4 + [STRONG] * 4
    assert both.half_width == max(c.half_width for c in both.comparisons.values())
