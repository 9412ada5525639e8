"""The card designer's paired comparison, its game-count rule, card-stats and saving (R9.3)."""

from __future__ import annotations

import polars as pl
import pytest
from helpers import buttons

from clashkit.base.cards import load_cards, starter_set
from clashkit.base.errors import InputError
from clashkit.base.points import interval_text, points_text
from clashkit.studies.design import HALF_WIDTH, games_for_half_width
from clashkit.viz import widgets as views
from clashkit.viz.controllers import CardDesigner


def test_edits_and_additions_keep_every_deck_in_its_order():
    d = CardDesigner()
    d.edit("GNOME", attack=2)
    d.add({"name": "wisp", "kind": "creature", "cost": 1, "attack": 1, "health": 1}, deck=1, replaces="BRUTE")
    shipped = starter_set()
    assert len(d.cards) == len(shipped)
    assert d.cards.deck(3) == shipped.deck(3) and d.cards.card("GNOME").attack == 2
    assert d.cards.deck(1) == ["WISP" if n == "BRUTE" else n for n in shipped.deck(1)]


def test_the_change_comes_with_its_paired_interval_and_both_matrices_at_each_strength():
    d = CardDesigner(games_per_pairing=3, seed=2)
    assert d.policies == ("greedy", "expert")
    d.edit("OGRE", attack=9)
    d.run(progress=False)
    table = d.change_table()
    assert table["strength"].to_list() == ["greedy"] * 4 + ["expert"] * 4
    assert table["deck"].to_list() == ["deck 1", "deck 2", "deck 3", "deck 4"] * 2
    assert table["games"].to_list() == [18] * 8
    assert ((table["change_low"] <= table["change"]) & (table["change"] <= table["change_high"])).all()
    assert (table["after"] - table["before"] - table["change"]).abs().max() < 1e-12
    matrices = d.matrices()
    assert matrices["strength"].to_list() == ["greedy"] * 8 + ["expert"] * 8
    assert matrices["version"].to_list() == (["before"] * 4 + ["after"] * 4) * 2
    assert d.paired_matrix()["strength"].to_list() == ["greedy"] * 12 + ["expert"] * 12
    # Each strength alone plays the same games as the two side by side (the same seeds).
    alone = CardDesigner(games_per_pairing=3, seed=2, policy="expert")
    alone.edit("OGRE", attack=9)
    alone.run(progress=False)
    assert alone.change_table().equals(table.filter(pl.col("strength") == "expert"))
    assert d.result is d.results["greedy"] and d.before is d.results["greedy"].before


def test_one_line_a_deck_says_its_change_at_each_strength():
    d = CardDesigner(games_per_pairing=3, seed=2)
    d.edit("OGRE", attack=9)
    d.run(progress=False)
    lines = d.change_lines()
    assert [line.split(":")[0] for line in lines] == ["deck 1", "deck 2", "deck 3", "deck 4"]
    row = d.change_table().filter(pl.col("deck") == "deck 2").rows(named=True)
    greedy, expert = row
    assert lines[1] == (
        f"deck 2: {points_text(greedy['change'])} points under greedy "
        f"{interval_text(greedy['change_low'], greedy['change_high'])}, "
        f"{points_text(expert['change'])} under expert {interval_text(expert['change_low'], expert['change_high'])}"
    )


def test_the_game_count_follows_the_rule_of_one_and_a_half_points_at_every_strength():
    d = CardDesigner(seed=1)
    d.MIN_GAMES, d.MAX_GAMES = 4, 10
    d.run(progress=False)  # no change: the first games' interval is ±0 and they are kept
    assert [int(c.after.matchups["games"].max()) for c in d.results.values()] == [4, 4]
    d.edit("OGRE", attack=9)
    d.run(progress=False)  # a change: more games than MIN_GAMES, capped at MAX_GAMES
    assert [int(c.after.matchups["games"].max()) for c in d.results.values()] == [10, 10]


def test_the_default_count_is_at_least_2000_and_its_cap_meets_one_and_a_half_points():
    # A per-game difference is -1, 0 or 1, so its spread is at most 1: the cap always suffices.
    assert CardDesigner.MIN_GAMES >= 2000
    assert games_for_half_width(1.0, HALF_WIDTH) <= CardDesigner.MAX_GAMES
    assert CardDesigner(policy="greedy").engine_used == "fast"
    assert CardDesigner().policies == ("greedy", "expert") and CardDesigner().engine_used == "fast"
    assert CardDesigner(policy="random").policies == ("random",)
    assert CardDesigner(policies=["greedy", "search:fair"], engine="reference").engine_used == "reference"
    assert CardDesigner(policy="random", engine="reference").engine_used == "reference"
    assert CardDesigner(policy="search").engine_used == "fast"
    assert CardDesigner(policy="search:budget=4,fair").engine_used == "fast"
    assert CardDesigner(policy="search:fair", engine="reference").engine_used == "reference"


def test_card_stats_play_numbers_come_from_fewer_games_than_the_impact():
    d = CardDesigner(games_per_pairing=20, seed=4)
    d.STATS_GAMES = 3
    d.edit("GNOME", health=4)
    d.run(progress=False)
    stats = d.card_stats("GNOME")
    assert stats["games"].to_list() == [6 * 3] and stats["removed_games"].to_list() == [6 * 20]


def test_card_stats_of_the_edited_card_and_saving(tmp_path):
    d = CardDesigner(games_per_pairing=2)
    d.edit("GNOME", health=4)
    stats = d.card_stats("GNOME")
    assert stats["card"].to_list() == ["GNOME"] and stats["games"].to_list() == [12]
    path = d.save(tmp_path / "mine.csv")
    assert load_cards(path).card("GNOME").health == 4


def test_the_view_shows_the_paired_change_and_saves(tmp_path):
    view = views.card_designer(CardDesigner(games_per_pairing=2, policy="random"))
    b = buttons(view.widget)
    view.which.value = "GNOME"
    view.attack.value = 3
    b["ck-apply"].click()  # the fast engine plays random: applying plays the change at once
    assert "paired 95% interval" in view.table.value and "2 games a pairing on the fast engine" in view.matrix.value
    assert "removal impact from 2 games a pairing, on the fast engine" in view.stats.value
    view.attack.value = 4
    b["ck-apply"].click()
    assert "<td" in view.table.value and view.designer.cards.card("GNOME").attack == 4
    view.attack.value = 3
    b["ck-apply"].click()
    view.games.value = 2
    b["ck-simulate"].click()
    assert "paired 95% interval" in view.table.value and "change (points)" in view.table.value
    assert "before" in view.matrix.value and "card-stats of GNOME" in view.stats.value
    view.save_path.value = str(tmp_path / "edited.csv")
    b["ck-save"].click()
    assert "wrote" in view.saved.value
    assert load_cards(tmp_path / "edited.csv").card("GNOME").attack == 3
    assert isinstance(view.designer.comparison(), pl.DataFrame)


def test_the_view_shows_the_change_at_both_strengths_and_offers_every_bot():
    from clashkit.policies import POLICIES

    view = views.card_designer(CardDesigner(games_per_pairing=2, seed=1))
    assert set(POLICIES) <= set(view.bots.options) and "search:fair" in view.bots.options
    assert view.bots.value == ("greedy", "expert")
    b = buttons(view.widget)
    view.which.value = "GNOME"
    view.attack.value = 3
    b["ck-apply"].click()
    lines = view.designer.change_lines()
    assert len(lines) == 4 and all(line in view.summary.value for line in lines)
    assert "under greedy" in view.summary.value and "under expert" in view.summary.value
    assert view.matrix.value.count('class="ck-paired-matrix"') == 2
    assert "Under greedy: the change of each matchup" in view.matrix.value
    assert "Under expert: the change of each matchup" in view.matrix.value
    assert "<th" in view.table.value and ">strength<" in view.table.value
    assert [c["title"]["text"] for c in view.last_chart.to_dict()["hconcat"]] == [
        "Paired change of each deck's win rate under greedy",
        "Paired change of each deck's win rate under expert",
    ]
    assert "card-stats of GNOME as edited, under greedy" in view.stats.value
    view.bots.value = ("random",)  # one strength: one matrix
    b["ck-simulate"].click()
    assert view.designer.policies == ("random",) and view.matrix.value.count('class="ck-paired-matrix"') == 1
    assert "under random" in view.summary.value and "under greedy" not in view.summary.value


def test_edit_refuses_a_card_or_a_field_that_does_not_exist_with_the_close_names():
    """A typo is an error, never a silent no-op: ``atack=2`` once changed nothing and said nothing,
    and an unknown card answered about an empty column."""
    designer = CardDesigner()
    with pytest.raises(
        InputError,
        match=r"edit: a card has no field 'atack' \(its fields: kind, cost, attack, .*\); did you mean attack\?",
    ):
        designer.edit("GNOME", atack=2)
    with pytest.raises(
        InputError, match=r"edit: no card 'GNOM' in the set; did you mean GNOME\? \(add\(\) puts a new card"
    ):
        designer.edit("GNOM", attack=2)
    assert designer.changes == {}
    assert designer.edit("GNOME", attack=2).attack == 2
