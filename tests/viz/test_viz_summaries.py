"""The polars summaries behind the charts: hand-made frames with known answers."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from clashkit.base.cards import load_cards
from clashkit.base.stats import wilson
from clashkit.viz import summaries as s

#: The values these tests were written against, frozen (the shipped ones are tuned for balance).
FROZEN = load_cards(Path(__file__).resolve().parent.parent / "golden" / "cards.csv")


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return frame.select(columns).rows()


def test_mana_curve_counts_each_deck_by_cost_and_kind():
    curve = s.mana_curve(s.cards_frame(FROZEN))
    deck1 = curve.filter(pl.col("deck") == "deck 1")
    assert deck1["cards"].sum() == 8
    # Deck 1: PARTISAN and BOOM! cost 1, CARAPACE and REVENANT 2, BARON and ANNIHILATION 5.
    assert rows(deck1.filter(pl.col("cost") == 2), "kind", "cards", "names") == [("creature", 2, "CARAPACE, REVENANT")]
    assert sorted(rows(deck1.filter(pl.col("cost") == 5), "kind", "cards")) == [
        ("creature", 1),
        ("incantation", 1),
    ]
    assert curve.group_by("deck").agg(pl.col("cards").sum())["cards"].to_list() == [8, 8, 8, 8]


def test_decks_frame_names_any_deck_and_refuses_unknown_cards():
    frame = s.decks_frame({"mine": ["OGRE", "GNOME"]}, FROZEN)
    assert rows(frame, "deck", "name", "cost") == [("mine", "OGRE", 4), ("mine", "GNOME", 0)]
    with pytest.raises(KeyError, match="NOBODY"):
        s.decks_frame({"mine": ["NOBODY"]})


def test_label_decks_recognises_starter_decks_in_any_order(games):
    labelled = s.label_decks(games)
    assert rows(labelled, "label_a", "label_b")[:3] == [
        ("deck 1", "deck 2"),
        ("deck 1", "deck 2"),
        ("deck 2", "deck 1"),
    ]
    other = s.label_decks(games, {"only": ["OGRE"]})  # no deck matches: each is labelled by its cards
    assert other["label_a"].to_list() == [", ".join(d) for d in games["deck_a"].to_list()]
    assert set(s.label_decks(games, {"only": ["OGRE"]}, other="other")["label_a"]) == {"other"}


def test_the_per_deck_views_label_a_custom_list_by_its_cards_a_draft_by_its_format_never_other(turns, games):
    """R7: a starter deck's turns are ``deck N``; a custom list's are its names, a drafted hand's
    ``draft`` and the solo AI's ``AI pile``; the turns frame alone cannot name them."""
    custom = ["BARON", "GNOME", "OGRE", "RAT", "WISP", "IMP", "BAT", "GUARD"]
    g = games.with_columns(
        pl.when(pl.col("game") == 0).then(pl.lit(custom)).otherwise(pl.col("deck_b")).alias("deck_b"),
        pl.when(pl.col("game") == 1)
        .then(pl.lit("draft"))
        .otherwise(pl.col("format"))
        .cast(games["format"].dtype)
        .alias("format"),
    )
    t = turns.with_columns(
        pl.when((pl.col("game") == 0) & (pl.col("player") == "B")).then(None).otherwise(pl.col("deck")).alias("deck")
    )
    groups = set(s.mana_per_turn(t, games=g, by="deck")["group"])
    assert groups == {"deck 1", "deck 2", ", ".join(custom)}
    solo = g.with_columns(pl.lit("solo").cast(games["mode"].dtype).alias("mode"))
    labels = s.label_decks(solo.filter(pl.col("game") == 1), {})
    assert labels.select("label_a", "label_b").row(0) == ("draft", "AI pile")
    with pytest.raises(ValueError, match="pass games="):
        s.mana_per_turn(t, by="deck")


def test_matchups_count_both_seats_and_unfinished_games_as_no_win(games):
    m = s.matchups(games)
    assert rows(m, "deck", "opponent", "games", "wins", "unfinished") == [
        ("deck 1", "deck 2", 4, 1, 1),
        ("deck 2", "deck 1", 4, 2, 1),
    ]
    low, high = wilson(1, 4)
    row = m.row(0, named=True)
    assert row["win_rate"] == 0.25
    assert row["low"] == pytest.approx(low) and row["high"] == pytest.approx(high)


def test_first_player_advantage_by_pairing_and_overall(games):
    fp = s.first_player_advantage(games)
    # First player wins games 0, 1 and 2; game 3 is unfinished.
    assert rows(fp, "group", "games", "wins", "win_rate") == [
        ("deck 1 vs deck 2", 4, 3, 0.75),
        ("all", 4, 3, 0.75),
    ]
    assert rows(s.first_player_advantage(games, by=None), "group", "wins") == [("all", 3)]
    by_deck = s.first_player_advantage(games, by="deck")
    assert rows(by_deck, "group", "games", "wins")[:2] == [("deck 1", 2, 1), ("deck 2", 2, 2)]


def test_mana_per_turn_averages_each_own_turn(turns):
    m = s.mana_per_turn(turns)
    got = {(r["own_turn"], r["measure"]): (r["mana"], r["turns"]) for r in m.iter_rows(named=True)}
    assert got[(1, "gained")] == (7.5, 4)
    assert got[(1, "spent")] == (6.5, 4)
    assert got[(2, "gained")] == (7.0, 3)
    assert got[(2, "spent")] == pytest.approx((13 / 3, 3))


def test_mana_per_turn_by_seat_and_deck_from_the_turns_frame_alone(turns, games):
    # The turns frame's seat and deck columns: no games frame needed, the same numbers.
    assert s.mana_per_turn(turns, by="seat").equals(s.mana_per_turn(turns, games=games, by="seat"))
    assert set(s.mana_per_turn(turns, by="deck")["group"]) == {"deck 1", "deck 2"}
    with pytest.raises(ValueError, match="needs the games frame"):
        s.mana_per_turn(turns, by="deck", decks={"mine": ["OGRE"]})
    m = s.mana_per_turn(turns, games=games, by="seat").filter(
        (pl.col("own_turn") == 1) & (pl.col("measure") == "gained")
    )
    assert rows(m, "group", "mana") == [("first player", 6.0), ("second player", 9.0)]
    by_player = s.mana_per_turn(turns, by="player")
    assert set(by_player["group"]) == {"player A", "player B"}


def test_hand_health_median_band_and_share_by_keep(turns):
    h = s.hand_health_over_turns(turns)
    first = h.filter(pl.col("own_turn") == 1).row(0, named=True)
    assert (
        first["keep"],
        first["median"],
        first["low"],
        first["high"],
        first["turns"],
        first["share"],
    ) == ("bastion", 5.5, 4.75, 6.25, 4, 1.0)
    second = {r["keep"]: r for r in h.filter(pl.col("own_turn") == 2).iter_rows(named=True)}
    assert second["bastion"]["median"] == 2.5 and second["bastion"]["turns"] == 2
    assert second["fort"]["median"] == 6.0
    assert second["fort"]["share"] == pytest.approx(1 / 3)


def test_card_numbers(events, games):
    c = {r["card"]: r for r in s.card_numbers(events, games).iter_rows(named=True)}
    brute, meteorite = c["BRUTE"], c["METEORITE"]
    assert (brute["played_in"], brute["wins"], brute["win_rate"]) == (2, 1, 0.5)
    assert (brute["creature_damage"], brute["keep_damage"]) == (3.0, 1.5)
    assert (brute["destroyed"], brute["destroyed_per_game"]) == (1, 0.5)
    assert (meteorite["played_in"], meteorite["win_rate"], meteorite["creature_damage"]) == (
        1,
        1.0,
        3.0,
    )
    assert meteorite["destroyed"] == 0
    assert set(c) == {"BRUTE", "METEORITE"}


def test_compare_win_rates_stacks_versions(games):
    cmp = s.compare_win_rates({"before": games, "after": games.head(2)})
    assert rows(cmp, "version", "deck", "games", "wins") == [
        ("before", "deck 1", 4, 1),
        ("before", "deck 2", 4, 2),
        ("after", "deck 1", 2, 1),
        ("after", "deck 2", 2, 1),
    ]


def test_summaries_of_a_real_batch_add_up(batch):
    events, turns, games = batch
    m = s.matchups(games)
    assert m.height == 12
    assert m["games"].to_list() == [6] * 12  # 3 games in each seat
    # Both sides of a pairing account for every finished game once.
    pair = m.filter(pl.col("deck").is_in(["deck 1", "deck 2"]) & pl.col("opponent").is_in(["deck 1", "deck 2"]))
    finished = 6 - pair["unfinished"][0]
    assert pair["wins"].sum() == finished
    numbers = s.card_numbers(events, games)
    assert numbers["played_in"].max() <= 2 * games.height
    assert numbers.height <= 32


def test_readable_tables_in_points_without_always_equal_columns(games, turns):
    m = s.matchups_readable(games)
    assert m.columns == ["deck", "against", "win rate", "95% interval", "games", "unfinished"]
    assert m.row(0) == ("deck 1", "deck 2", "25.0%", "4.6–69.9%", 4, 1)
    h = s.hand_health_readable(turns, games=games, by="deck", max_turn=2)
    assert h.columns == [
        "deck",
        "the player's turn",
        "keep",
        "median hand-health",
        "25–75% band",
        "share of games",
        "games",
    ]
    assert "turns" not in h.columns and h["share of games"][0].endswith("%")
