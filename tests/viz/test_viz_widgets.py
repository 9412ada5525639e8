"""The ipywidgets views, without a browser: set widget values, click buttons, read the HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import buttons

from clashkit.base.cards import load_cards
from clashkit.viz import widgets as views
from clashkit.viz.controllers import CardDesigner, HandBuilder

#: The values these tests were written against, frozen (the shipped ones are tuned for balance).
FROZEN = load_cards(Path(__file__).resolve().parent.parent / "golden" / "cards.csv")


@pytest.fixture
def lab():
    return views.siege_lab(chart=False)


def test_siege_lab_next_redraws_and_back_restores(lab):
    b = buttons(lab.widget)
    start = lab.board.value
    assert 'data-place="A.upper.1"' in start and "attacks next" in start
    assert b["ck-back"].disabled and not b["ck-next"].disabled
    b["ck-next"].click()
    assert lab.lab.steps == 1 and lab.board.value != start
    assert "SCRIBE" in lab.events.value and "R6.4" in lab.events.value
    assert "next: <b>OGRE</b>" in lab.status.value
    b["ck-back"].click()
    assert lab.board.value == start and lab.lab.steps == 0
    b["ck-run"].click()
    assert lab.lab.done and b["ck-next"].disabled and b["ck-run"].disabled
    assert 'data-keep="fort"' in lab.board.value
    b["ck-reset"].click()
    assert lab.board.value == start


def test_siege_lab_setup_widgets_change_the_position(lab):
    b = buttons(lab.widget)
    lab.player.value, lab.lane.value, lab.card.value, lab.damage.value = "B", "lower", "TROLL", 2
    b["ck-add"].click()
    assert 'data-place="B.lower.1" data-damage="2"' in lab.board.value
    lab.damage.value = 6  # TROLL's health: this position cannot arise
    b["ck-remove"].click()
    b["ck-add"].click()
    assert "would be destroyed" in lab.message.value
    assert b["ck-next"].disabled
    b["ck-clear"].click()
    assert lab.message.value == "" and 'data-place="B.lower.0"' not in lab.board.value
    lab.hand_b.value = "MARTYR, BASTION, BRUTE"
    lab.active.value = "B"
    b["ck-apply"].click()
    assert lab.lab.state.active == 1
    b["ck-example"].click()
    assert 'data-place="A.upper.1"' in lab.board.value and lab.active.value == "A"


def test_siege_lab_cast_between_attacks(lab):
    b = buttons(lab.widget)
    choices = [value for _label, value in lab.spell.options]
    assert "play METEORITE@2 B.upper.1" in choices
    lab.spell.value = "play METEORITE@2 B.upper.1"
    b["ck-cast"].click()
    assert lab.lab.state.mana == 0 and b["ck-cast"].disabled
    assert [(a.card, a.target, a.siege) for a in lab.lab.plan] == [("METEORITE", "B.upper.1", 0)]


def test_siege_lab_spell_menu_preselects_an_enemy_r5_5(lab):
    """R5.5: METEORITE is meant for enemies; the menu offers B's creatures first and the
    preselected choice hits one; A's own creatures come last, labelled as such."""
    labels = [label for label, _value in lab.spell.options]
    targets = [value.rsplit(" ", 1)[1] for _label, value in lab.spell.options]
    assert targets == ["B.upper.0", "B.upper.1", "B.lower.0", "A.upper.0", "A.upper.1", "A.lower.0", "A.lower.1"]
    assert lab.spell.value == "play METEORITE@2 B.upper.0"
    assert labels[0] == "METEORITE (damage 3) → B's CARAPACE at B.upper.0 · 2 mana"
    assert labels[3].endswith("· meant for enemies (R5.5)") and "your OGRE" in labels[3]
    buttons(lab.widget)["ck-cast"].click()
    assert "CARAPACE" in lab.events.value and lab.lab.state.mana == 0


def test_siege_lab_chart_follows_the_steps():
    view = views.siege_lab()
    first = view.last_chart.to_dict()
    buttons(view.widget)["ck-run"].click()
    last = view.last_chart.to_dict()

    def last_step(spec):
        return max(r["step"] for values in spec["datasets"].values() for r in values)

    assert last_step(first) == 0 and last_step(last) > 0


def test_rules_stepper_view():
    view = views.rules_stepper()
    b = buttons(view.widget)
    start = view.board.value
    b["ck-next"].click()
    assert "GRRR" in view.explanation.value and "R3.5" in view.explanation.value
    assert view.board.value != start
    b["ck-run"].click()
    assert b["ck-next"].disabled and view.stepper.finished
    b["ck-back"].click()
    assert not view.stepper.finished
    b["ck-reset"].click()
    assert view.board.value == start and b["ck-back"].disabled


def test_hand_builder_view_slots_plan_and_game():
    view = views.hand_builder(HandBuilder(bot="random"))
    b = buttons(view.widget)
    view.slots[0].value = "GNOME"
    assert view.builder.order[0] == "GNOME"
    assert "GNOME" in view.plan.value
    b["ck-right-0"].click()
    assert view.builder.order[:2] == ["BARON", "GNOME"] and view.slots[1].value == "GNOME"
    view.preset.value = "deck 3"
    assert view.builder.order == view.builder.decks["deck 3"]
    first, second = view.builder.order[:2]
    view.slots[1].value = first  # already in slot 0: the two swap, no card twice (R7.1)
    assert view.builder.order[:2] == [second, first] and view.slots[0].value == second
    assert view.problems.value == "" and "twice" not in view.plan.value
    assert view.preset.value == "—"  # the hand is no longer deck 3
    view.preset.value = "deck 4"
    view.opponent.value, view.first.value = "deck 1", "A"
    b["ck-new-game"].click()
    assert view.builder.state is not None and view.actions.options
    first = view.board.value
    view.actions.value = view.actions.options[0][1]
    b["ck-play"].click()
    assert view.board.value != first and not b["ck-back"].disabled
    b["ck-end"].click()
    assert view.builder.state.turn == 3 and "turn 3" in view.log.value
    b["ck-back"].click()
    assert view.builder.state.turn == 1


def test_card_designer_view_edits_and_simulates():
    view = views.card_designer(CardDesigner(FROZEN, games_per_pairing=2, policy="random"))
    b = buttons(view.widget)
    view.which.value = "GNOME"
    assert view.kind.value == "creature" and view.attack.value == 1
    view.attack.value = 3
    b["ck-apply"].click()
    assert "changed: GNOME 0 mana 3/2" in view.message.value
    assert view.designer.cards.card("GNOME").attack == 3
    view.which.value = "METEORITE"
    assert view.kind.value == "incantation" and view.effect.value == "damage" and view.amount.value == 3
    assert view.creature_box.layout.display == "none"
    view.health.value = 1
    view.kind.value = "creature"
    view.abilities.value = ("rage",)
    b["ck-apply"].click()
    assert view.designer.cards.card("METEORITE").is_creature
    view.mode.value = "add a card"
    view.new_name.value = "wisp"
    view.deck.value = "deck 3"
    view.replaces.value = "GNOME"
    view.kind.value = "creature"
    view.cost.value = 1
    b["ck-apply"].click()
    assert "added WISP" in view.message.value and "WISP" in view.designer.decks["deck 3"]
    view.games.value = 2
    b["ck-simulate"].click()
    assert "deck 3" in view.table.value and view.designer.after is not None
    b["ck-undo"].click()
    assert "WISP" not in view.designer.changes


def test_hand_builder_view_draws_the_hand_and_follows_the_first_player():
    view = views.hand_builder(HandBuilder(bot="random"))
    assert view.hand_view.value.count('data-playable="true"') == 4
    turn_one = view.plan.value
    view.first.value = "B"  # R3.1: the second player's first turn brings 9 mana, not 6
    assert view.plan.value != turn_one


def test_card_designer_view_previews_the_card():
    view = views.card_designer(CardDesigner(games_per_pairing=2, policy="random"))
    view.which.value = "OGRE"
    view.attack.value = 7
    assert "shipped" in view.preview.value and "⚔7" in view.preview.value
    assert view.designer.changes == {}  # a preview is not a change
    view.kind.value = "incantation"
    view.effect.value = "grant"
    assert "grant" in view.preview.value


def test_hand_builder_view_plan_marks_what_was_playable_at_each_play():
    view = views.hand_builder()
    assert "each play, and what was playable then (R3.2)" in view.plan.value
    assert "playable at the start" in view.plan.value and "(playable then: " in view.plan.value


def test_card_designer_view_speaks_in_its_own_words_and_refuses_a_negative_game_count():
    """The widget's messages name what to click, not a method; a count below 0 is refused with a
    message, never set to 0 (which means "enough games") without a word."""
    view = views.card_designer(CardDesigner(games_per_pairing=2, policy="random"))
    b = buttons(view.widget)
    view.mode.value = "add a card"
    view.new_name.value = "ogre"
    b["ck-apply"].click()
    assert view.message.value == (
        '<span style="color:#c62828;font-size:12px">OGRE is in the set already: to change it, choose '
        "“change a card” above and pick OGRE</span>"
    )
    view.new_name.value = "  "
    b["ck-apply"].click()
    assert "type the new card&#x27;s name under “name”" in view.message.value
    assert view.designer.changes == {}
    view.mode.value = "change a card"
    view.which.value = "OGRE"
    view.attack.value = 7
    view.games.value = -500
    assert view.games.value == -500  # kept as typed, so that it can be refused
    b["ck-apply"].click()
    assert view.message.value == (
        '<span style="color:#c62828;font-size:12px">“games a pairing” is -500: a number of games is 0 or more</span>'
    )
    assert view.designer.changes == {}
    b["ck-simulate"].click()
    assert "is -500" in view.message.value and view.designer.after is None


def test_the_sweep_view_refuses_a_game_count_below_one():
    from clashkit.viz.design_views import SweepView

    view = SweepView(games_per_pairing=4, seed=1, policy="random", engine="reference")
    view.games.value = -3
    view.run_button.click()
    assert view.message.value == (
        '<span style="color:#c62828;font-size:12px">“games a pairing” is -3: a number of games is 1 or more</span>'
    )
    assert view.result is None
    with pytest.raises(ValueError, match="is -3"):
        view.run()


def test_card_stats_rates_carry_the_games_they_are_of():
    """A card played in 99% of games: its deck's rate when not played is of a dozen games, said beside it."""
    import polars as pl

    from clashkit.viz.tables import card_stats_readable

    stats = pl.DataFrame(
        {
            "card": ["OGRE", "GNOME"],
            "deck": [2, 3],
            "play_rate": [0.99, 1.0],
            "win_played": [0.5123, 0.4],
            "win_not_played": [0.0, None],
            "games_played": [1188, 1200],
            "games_not_played": [12, 0],
        }
    )
    readable = card_stats_readable(stats)
    assert readable["deck's rate when played (%)"].to_list() == ["51.2 (of 1,188 games)", "40.0 (of 1,200 games)"]
    assert readable["when not played (%)"].to_list() == ["0.0 (of 12 games)", "— (no game)"]
