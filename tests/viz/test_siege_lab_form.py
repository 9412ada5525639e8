"""The siege lab's position form: insert a creature at any place, move it, change its damage
and flags (R6.4 Protection, new this turn), hands in wide boxes or by a card picker, and the
hand-health chart saying what it will show before the first step."""

from __future__ import annotations

import pytest
from helpers import buttons

from clashkit.viz import widgets as views
from clashkit.viz.controllers import SiegeLab
from clashkit.viz.labs.siege_lab_view import HAND_HEALTH_NOTE


def lane(lab, player="A", name="upper"):
    return [(s.card, s.damage, s.new, s.protection_used) for s in lab.sides[player].lane(name)]


def test_the_controller_inserts_at_a_place_and_moves():
    lab = SiegeLab.example()
    assert [c for c, *_ in lane(lab)] == ["OGRE", "SCRIBE"]
    lab.add("A", "upper", "TROLL", position=1, damage=2)
    assert lane(lab) == [("OGRE", 0, False, False), ("TROLL", 2, False, False), ("SCRIBE", 0, False, False)]
    lab.move("A", "upper", 2, 0)
    assert [c for c, *_ in lane(lab)] == ["SCRIBE", "OGRE", "TROLL"]
    lab.move("A", "upper", 0, 1, to_lane="lower")
    assert [c for c, *_ in lane(lab)] == ["OGRE", "TROLL"] and [c for c, *_ in lane(lab, "A", "lower")][1] == "SCRIBE"
    with pytest.raises(ValueError, match="position 5: a place from 0 .nearest the bridge. to 2"):
        lab.add("A", "upper", "TROLL", position=5)


def test_the_form_inserts_moves_and_re_damages_a_creature():
    view = views.siege_lab(chart=False)
    b = buttons(view.widget)
    view.player.value, view.lane.value = "A", "upper"
    assert [label for label, _ in view.place.options] == ["0: OGRE", "1: SCRIBE", "2: the back (empty)"]
    view.place.value = 1
    assert view.card.value == "SCRIBE"  # the fields show the creature at the place
    view.card.value, view.damage.value, view.protection_used.value = "TROLL", 1, True
    b["ck-insert"].click()
    assert [c for c, *_ in lane(view.lab)] == ["OGRE", "TROLL", "SCRIBE"]
    assert 'data-place="A.upper.1" data-damage="1"' in view.board.value
    assert view.lab.sides["A"].upper[1].protection_used
    view.place.value = 2
    view.move_to.value = 0
    b["ck-move"].click()
    assert [c for c, *_ in lane(view.lab)] == ["SCRIBE", "OGRE", "TROLL"] and view.place.value == 0
    view.place.value = 1
    view.damage.value, view.new.value = 3, True
    b["ck-update"].click()
    assert lane(view.lab)[1] == ("OGRE", 3, True, False)
    assert 'data-place="A.upper.1" data-damage="3"' in view.board.value
    view.damage.value = 6  # OGRE's health: the position cannot arise
    b["ck-update"].click()
    assert "would be destroyed" in view.message.value
    view.place.value = 1
    b["ck-remove"].click()
    assert [c for c, *_ in lane(view.lab)] == ["SCRIBE", "TROLL"]


def test_hands_fit_eight_names_and_the_picker_adds_one():
    view = views.siege_lab(chart=False)
    assert view.hand_a.layout.width == "98%" and type(view.hand_a).__name__ == "Textarea"
    view.hand_side.value, view.hand_card.value = "B", "TROLL"
    buttons(view.widget)["ck-hand-add"].click()
    assert view.hand_b.value.endswith(", TROLL")
    buttons(view.widget)["ck-apply"].click()
    assert view.lab.sides["B"].hand[-1] == "TROLL"


def test_the_chart_says_what_it_will_show_before_the_first_step():
    view = views.siege_lab()
    assert view.chart_note.value == HAND_HEALTH_NOTE and "after the first step" in HAND_HEALTH_NOTE
    assert view.chart.layout.display == "none"
    buttons(view.widget)["ck-next"].click()
    assert view.chart_note.value == "" and view.chart.layout.display is None
    buttons(view.widget)["ck-back"].click()
    assert view.chart_note.value == HAND_HEALTH_NOTE
