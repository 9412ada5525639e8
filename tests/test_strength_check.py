"""The strength check's own rules, from constructed numbers: when two figures agree, the sentence
that says so, which figure speaks for a deck, and the paired difference of rates and changes."""

from __future__ import annotations

import polars as pl
import pytest

from clashkit.base.errors import OptionError
from clashkit.studies.design.check import (
    AGREE_POINTS,
    CHECK_GAMES_MAX,
    CHECK_POLICY,
    StrengthCheck,
    agrees,
    change_rows,
    check_games,
    rate_rows,
    sentence,
)


def test_the_arbiter_is_deep_and_two_points_is_the_floor():
    assert (CHECK_POLICY, AGREE_POINTS, CHECK_GAMES_MAX) == ("deep", 0.02, 500)


@pytest.mark.parametrize(
    ("difference", "low", "high", "agree"),
    [
        (0.0, 0.0, 0.0, True),  # the same games, the same outcomes
        (0.019, 0.018, 0.020, True),  # under 2 points, however narrow its interval
        (-0.019, -0.020, -0.018, True),  # … either way
        (0.02, 0.019, 0.021, False),  # 2 points is not less than 2 points
        (-0.021, -0.022, -0.020, False),
        (0.05, -0.011, 0.111, True),  # 5 points, but its interval is ±6.1: noise
        (-0.05, -0.111, 0.011, True),
        (0.05, 0.0, 0.10, False),  # 5 points against a half-width of 5: not less
        (-0.214, -0.247, -0.181, False),  # a clear gap
        (0.03, None, None, False),  # no interval (one game): 2 points alone
        (None, None, None, True),  # nothing to compare
    ],
)
def test_two_figures_agree_when_closer_than_two_points_or_the_noise_of_their_difference(difference, low, high, agree):
    assert agrees(difference, low, high) is agree


def row(**values):
    base = dict(study=0.326, rate=0.112, low=0.079, high=0.145, difference=-0.214)
    base |= dict(difference_low=-0.247, difference_high=-0.181, agree=False)
    return base | values


def test_a_disagreement_names_both_figures_and_the_arbiters_interval():
    assert (
        sentence("deck 3", "expert", "deep", "change", row())
        == "deck 3: expert +32.6, deep +11.2 [+7.9, +14.5]: they disagree; trust deep"
    )
    assert (
        sentence("deck 3", "expert", "deep", "rate", row())
        == "deck 3: expert 32.6%, deep 11.2% [7.9%, 14.5%]: they disagree; trust deep"
    )


def test_an_agreement_says_how_close_or_that_the_gap_is_noise():
    close = row(difference=-0.018, agree=True)
    assert sentence("deck 1", "expert", "deep", "change", close) == "deck 1: expert and deep agree within 1.8 points"
    noisy = row(difference=0.05, difference_low=-0.011, difference_high=0.111, agree=True)
    assert sentence("deck 2", "expert", "deep", "rate", noisy) == (
        "deck 2: expert and deep differ by 5.0 points, within the noise of the games (±6.1): they agree"
    )


def test_the_check_plays_a_quarter_of_the_games_at_most_500_and_never_more_than_the_study():
    assert [check_games(n) for n in (1, 3, 4, 5, 200, 2000, 10_000)] == [1, 1, 1, 2, 50, 500, 500]
    assert check_games(200, 200) == 200
    with pytest.raises(OptionError, match="--check-n 201 is more than -n 200"):
        check_games(200, 201)
    with pytest.raises(OptionError, match="whole number ≥ 1"):
        check_games(200, 0)


def games(winners: list[str | None], *, deck_a: int = 1, deck_b: int = 2) -> pl.DataFrame:
    """Outcomes of one pairing, game i won by ``winners[i]`` (``None``: unfinished)."""
    n = len(winners)
    return pl.DataFrame(
        {
            "deck_a": [deck_a] * n,
            "deck_b": [deck_b] * n,
            "game": list(range(n)),
            "first_player": ["A"] * n,
            "winner": winners,
            "turns": [9] * n,
        },
        schema_overrides={"deck_a": pl.Int8, "deck_b": pl.Int8, "winner": pl.String},
    )


def test_the_difference_of_rates_is_paired_game_by_game():
    study = games(["A", "A", "B", "B"])  # deck 1 wins 2 of 4
    arbiter = games(["A", "B", "B", "B"])  # deck 1 wins 1 of 4: game 1 flipped
    rows = {r["deck"]: r for r in rate_rows(study, arbiter).iter_rows(named=True)}
    assert (rows[1]["study"], rows[1]["rate"], rows[1]["difference"]) == (0.5, 0.25, -0.25)
    assert (rows[2]["study"], rows[2]["rate"], rows[2]["difference"]) == (0.5, 0.75, 0.25)
    # Per-game differences 0, -1, 0, 0: mean -0.25, sd 0.5, half-width 1.96 × 0.5 / 2 = 0.49.
    assert rows[1]["difference_high"] - rows[1]["difference_low"] == pytest.approx(2 * 1.959964 * 0.25, rel=1e-5)
    assert rows[1]["agree"] is True  # 25 points, but within ±49: four games tell nothing


def test_the_difference_of_changes_is_the_arbiters_change_minus_the_study_bots():
    before = games(["B"] * 8)
    study_after = games(["A"] * 8)  # the study bot: deck 1 goes from 0 to 8 wins (+100 points)
    arbiter_after = games(["B"] * 8)  # the arbiter: no change at all
    rows = {r["deck"]: r for r in change_rows((before, study_after), (before, arbiter_after)).iter_rows(named=True)}
    assert (rows[1]["study"], rows[1]["rate"], rows[1]["difference"]) == (1.0, 0.0, -1.0)
    assert (rows[1]["difference_low"], rows[1]["difference_high"], rows[1]["agree"]) == (-1.0, -1.0, False)
    assert (rows[2]["study"], rows[2]["difference"], rows[2]["agree"]) == (-1.0, 1.0, False)


def check_of(rows: list[dict]) -> StrengthCheck:
    return StrengthCheck("deep", "expert", "change", 50, 0, pl.DataFrame(rows))


def test_a_deck_with_several_figures_is_spoken_for_by_a_disagreement_first_then_the_largest_gap():
    rows = [
        {"value": v, "deck": d, **row(difference=diff, agree=agree)}
        for v, d, diff, agree in [(5, 1, 0.01, True), (6, 1, -0.05, False), (7, 1, 0.09, True), (5, 2, 0.015, True)]
    ]
    data = check_of(rows).to_dict()
    assert (data["decks"]["1"]["value"], data["decks"]["1"]["agree"]) == (6, False)
    assert data["decks"]["2"]["value"] == 5 and data["agree"] is False and len(data["rows"]) == 4
    assert check_of(rows).sentences()[0] == "deck 1, value 5: expert and deep agree within 1.0 points"


def test_one_figure_a_deck_has_no_rows_and_the_spec_fields():
    data = check_of([{"deck": 1, **row()}]).to_dict()
    assert "rows" not in data and data["policy"] == "deep" and data["figure"] == "change"
    assert {"rate", "low", "high", "difference", "agree"} <= set(data["decks"]["1"])
