"""The card designer's strength check: the change at the strongest bot played again by an arbiter
on the same seeds, one sentence a deck, with the same function as ``--check-strength``."""

from __future__ import annotations

from helpers import buttons

from clashkit.base.cards import starter_set
from clashkit.studies.design import CHECK_POLICY, check_strength
from clashkit.viz import widgets as views
from clashkit.viz.controllers import CardDesigner


def test_the_arbiter_is_deep_unless_named_and_the_check_is_off_by_default():
    d = CardDesigner(games_per_pairing=2, policy="random")
    assert (d.check_strength, d.check_policy) == (False, CHECK_POLICY)
    d.edit("GNOME", attack=3)
    d.run(progress=False)
    assert d.check is None and d.check_lines() == []


def test_the_check_is_the_commands_check_of_the_change():
    d = CardDesigner(games_per_pairing=4, policies=("random", "greedy"), check_strength=True, check_policy="random")
    d.edit("GNOME", attack=9, health=9)
    d.run(progress=False)
    # The strongest bot (the last) against the arbiter, on a quarter of the games, the same seeds.
    assert (d.check.against, d.check.policy, d.check.figure, d.check.n, d.check.seed) == (
        "greedy",
        "random",
        "change",
        1,
        0,
    )
    same = check_strength([starter_set(), d.cards], 1, against="greedy", policy="random")
    assert d.check.rows.equals(same.rows)
    assert d.check_lines() == same.sentences() and len(d.check_lines()) == 4


def test_a_check_against_the_same_bot_agrees_exactly():
    d = CardDesigner(games_per_pairing=4, policy="greedy", check_strength=True, check_policy="greedy")
    d.edit("GNOME", attack=9, health=9)
    d.run(progress=False)
    assert d.check_lines() == [f"deck {k}: greedy and greedy agree within 0.0 points" for k in range(1, 5)]
    d.clear_result()
    assert d.check is None


def test_the_view_has_a_check_strength_box_that_shows_the_sentences():
    view = views.card_designer(CardDesigner(games_per_pairing=4, policy="greedy", check_policy="greedy"))
    assert view.check.description == "check strength" and view.check.value is False
    b = buttons(view.widget)
    view.which.value = "GNOME"
    view.attack.value = 3
    b["ck-apply"].click()
    assert view.check_summary.value == ""
    view.check.value = True
    b["ck-simulate"].click()
    lines = view.designer.check_lines()
    assert len(lines) == 4 and all(line in view.check_summary.value for line in lines)
    assert "Strength check" in view.check_summary.value and "same 1 game a pairing" in view.check_summary.value
    b["ck-undo"].click()
    assert view.check_summary.value == ""
