"""What a teacher and a designer meet in the widgets: rules text one click away, menus that
offer the sensible move first, logs that follow back, cards refused with a reason, tables
shown whole."""

from __future__ import annotations

import polars as pl
import pytest
from helpers import buttons

from clashkit.base.errors import UnknownRuleError
from clashkit.base.rulebook import rule as rulebook_rule
from clashkit.viz import rules as viz_rules
from clashkit.viz import tables
from clashkit.viz import widgets as views
from clashkit.viz.controllers import CardDesigner, HandBuilder, SiegeLab, events_table

# --- The rules in the notebook ------------------------------------------------------------


def test_viz_rule_shows_the_rulebooks_text():
    card = viz_rules.rule("r6.7")
    text = rulebook_rule("R6.7")
    assert (card.number, card.title, card.text) == ("R6.7", text.title, text.text)
    html = card._repr_html_()
    assert 'data-rule="R6.7"' in html and "R6.7 Sprint" in html
    assert "<em>Roham</em>" in html  # the rulebook's emphasis, drawn
    assert card._repr_markdown_().startswith("**R6.7 Sprint**")
    with pytest.raises(UnknownRuleError, match="R6.99"):
        viz_rules.rule("R6.99")
    found = viz_rules.rules_matching("Protection")
    assert "R6.4" in [r.number for r in found] and "rules mention" in found._repr_html_()


def test_a_rule_number_unfolds_to_its_text_offline():
    link = viz_rules.rule_link("R6.4")
    assert link.startswith('<details class="ck-rule" data-rule="R6.4"')
    assert "<summary" in link and "R6.4 Protection:" in link  # the hover text
    assert "http" not in link and "<script" not in link
    assert viz_rules.rule_link("") == "" and viz_rules.rule_link("R99.9") == "R99.9"


def test_event_lines_carry_rule_links_in_the_widgets():
    lab = views.siege_lab(chart=False)
    buttons(lab.widget)["ck-next"].click()
    assert '<details class="ck-rule" data-rule="R6.4"' in lab.events.value
    stepper = views.rules_stepper()
    buttons(stepper.widget)["ck-next"].click()
    assert '<details class="ck-rule" data-rule="R3.5"' in stepper.explanation.value


def test_markdown_lists_and_headings():
    html = viz_rules.markdown_html("### R1.1 Keep\n\nA *word* and `code`.\n\n- one\n  more\n- two")
    assert html == (
        '<div style="font-weight:700;margin:8px 0 2px">R1.1 Keep</div>'
        '<p style="margin:4px 0">A <em>word</em> and <code>code</code>.</p>'
        '<ul style="margin:2px 0 2px 18px;padding:0"><li style="margin:1px 0">one more</li>'
        '<li style="margin:1px 0">two</li></ul>'
    )


# --- Menus (R5.5) -------------------------------------------------------------------------


def test_ally_effects_offer_your_own_creatures_first():
    lab = SiegeLab.example()
    lab.set_hand("A", ["PARTISAN", "BASTION", "COMBUSTION", "BRIGAND"])
    lab.mana = 3
    targets = [text.rsplit(" ", 1)[1] for text in lab.incantations()]
    assert targets == ["A.upper.0", "A.upper.1", "A.lower.0", "A.lower.1", "B.upper.0", "B.upper.1", "B.lower.0"]
    assert lab.meant(lab.incantations()[0]) and not lab.meant(lab.incantations()[-1])


def test_no_incantation_is_preselected_when_every_target_is_a_regret():
    lab = SiegeLab.example()
    lab.clear("B")  # METEORITE (enemy) could only hit A's own creatures
    view = views.siege_lab(lab, chart=False)
    assert view.spell.options and view.spell.value is None
    buttons(view.widget)["ck-cast"].click()
    assert "choose an incantation" in view.message.value and view.lab.state.mana == 2


def test_hand_builder_menu_puts_wrong_side_incantations_after_the_turns_moves():
    hb = HandBuilder(
        ["METEORITE", "GNOME", "BRIGAND", "GRRR", "MARTYR", "DISCIPLE", "PARASITE", "VORTEX"],
        opponent="deck 1",
        bot="random",
        seed=1,
    )
    hb.start()
    hb.act("play GNOME@2 upper")
    legal = hb.legal()
    proceed = legal.index("siege")
    assert all(not t.startswith("play METEORITE") or " B." in t for t in legal[:proceed])
    assert [t for t in legal[proceed:] if t.startswith("play METEORITE")] == ["play METEORITE@1 A.upper.0"]
    labels = dict((text, label) for label, text in hb.menu())
    assert labels["play METEORITE@1 A.upper.0"].endswith("· meant for enemies (R5.5)")


# --- The hand builder's log ---------------------------------------------------------------


def test_log_holds_the_bots_first_turn_and_drops_undone_events():
    hb = HandBuilder(opponent="deck 2", bot="random", seed=3, first="B")
    hb.start()
    log = hb.log()
    assert log["player"].to_list()[0] == "B" and "B plays" in " ".join(log["what happened"])
    before = log.height
    hb.act(hb.legal()[0])
    assert hb.log().height > before
    hb.back()
    assert hb.log().equals(log)
    view = views.hand_builder(HandBuilder(opponent="deck 2", bot="random", seed=3, first="B"))
    view.first.value = "B"
    buttons(view.widget)["ck-new-game"].click()
    assert "the bot moved first" in view.log.value and "B plays" in view.log.value
    start = view.log.value
    view.actions.value = view.actions.options[0][1]
    buttons(view.widget)["ck-play"].click()
    buttons(view.widget)["ck-back"].click()
    assert view.log.value == start


def test_preset_goes_back_to_none_after_an_edit():
    view = views.hand_builder(HandBuilder(bot="random"))
    view.preset.value = "deck 3"
    buttons(view.widget)["ck-right-0"].click()
    assert view.preset.value == "—"
    view.preset.value = "deck 2"
    view.slots[0].value = "ANNIHILATION"
    assert view.preset.value == "—" and view.builder.order[0] == "ANNIHILATION"
    assert all(slot.layout.width == views.NAME_WIDTH for slot in view.slots)


# --- The card designer --------------------------------------------------------------------


def test_an_aura_without_a_direction_is_refused_with_a_message():
    view = views.card_designer(CardDesigner(games_per_pairing=2, policy="random"))
    view.which.value = "OGRE"
    view.aura.value = "splash"
    view.aura_dirs.value = ()
    buttons(view.widget)["ck-apply"].click()
    assert "choose at least one direction" in view.message.value and "R6.8" in view.message.value
    assert view.designer.changes == {}
    assert "choose at least one direction" in view.preview.value
    view.aura_dirs.value = ("front",)
    buttons(view.widget)["ck-apply"].click()
    assert str(view.designer.cards.card("OGRE").aura) == "splash@front"


# --- Tables -------------------------------------------------------------------------------


def test_a_table_is_whole_or_says_how_to_see_the_rest():
    small = pl.DataFrame({"n": range(12), "text": ["a long sentence " * 8] * 12})
    html = tables.table(small)._repr_html_()
    assert html.count("<tr>") == 13 and "not shown" not in html and "a long sentence " * 8 in html
    big = pl.DataFrame({"n": range(150)})
    html = tables.table(big)._repr_html_()
    assert html.count("<tr>") == 101 and "50 more rows not shown; viz.table(frame, max_rows=None)" in html
    assert tables.table(big, max_rows=None)._repr_html_().count("<tr>") == 151
    assert tables.frame_html(small).count("<tr>") >= 13  # polars' own table, every row
    note = tables.frame_html(big)
    assert "The first 100 of 150 rows" in note and "frame.slice(100, 100)" in note


def test_a_rule_column_links_to_the_rules():
    lab = SiegeLab.example()
    lab.next()
    html = tables.table(events_table(lab.state))._repr_html_()
    assert '<details class="ck-rule" data-rule="R6.4"' in html
