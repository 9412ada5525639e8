"""The board drawn as HTML (how a ``GameState`` displays in a notebook)."""

from __future__ import annotations

import re

from clashkit.base.cards import starter_decks
from clashkit.engine import apply
from clashkit.engine.scenario import load_scenario, run_siege
from clashkit.runs.game import new_duel, new_solo, play
from clashkit.show.board import board_html
from clashkit.viz.controllers import example_scenario_path


def test_board_marks_the_playable_cards_and_the_keep():
    decks = starter_decks()
    state = new_duel(decks[1], decks[2], seed=0, first_player=0)
    html = board_html(state)
    assert html.count('data-keep="bastion"') == 2
    # R3.2: exactly 4 playable cards in each hand of 8.
    assert html.count('data-playable="true"') == 8
    assert html.count('data-playable="false"') == 8
    assert html.count('data-hand-health="8"') == 2
    assert 'data-mana="6"' in html and "Turn 1 · A to play · summon phase" in html


def test_board_draws_lanes_from_the_bridge_with_damage_and_marks():
    state = run_siege(load_scenario(example_scenario_path()))
    html = board_html(state)
    # A's GRRR entered behind BARON: position 1, new this turn (dashed).
    grrr = re.search(r'<div class="ck-tile" data-place="A.lower.1"[^>]*style="([^"]*)"', html)
    assert grrr and "dashed" in grrr.group(1)
    assert ">new<" in html
    # B's Bastion fell during the siege (R4.8).
    assert 'data-keep="fort"' in html and 'data-hand-health="4"' in html
    assert "empty: attacks here hit B" in html


def test_board_shows_damage_and_the_next_attacker():
    scenario = load_scenario(example_scenario_path())
    state = scenario.state
    apply(state, "play GRRR lower")
    apply(state, "play METEORITE B.upper.0")
    apply(state, "siege")
    html = board_html(state)
    assert 'data-place="B.upper.0" data-damage="3"' in html and "−3" in html
    assert "attacks next" in html and "shield ready" in html
    apply(state, "attack")
    assert "shield used" in board_html(state)


def test_board_shows_the_winner_and_the_ai_pile():
    decks = starter_decks()
    state = play(new_duel(decks[1], decks[3], seed=2), "random")
    assert f'data-winner="{"AB"[state.winner]}"' in board_html(state)
    solo = new_solo(decks[1], decks[2] + decks[3] + decks[4], seed=1)
    html = board_html(solo)
    assert "AI pile" in html and "AI discard" in html and "the AI" in html


def test_hand_html_marks_keep_playable_and_hand_health():
    from clashkit.base.cards import starter_set
    from clashkit.show.board import hand_html

    html = hand_html(starter_set(), ["GNOME", "BASTION", "OGRE", "TROLL", "BRUTE", "MARTYR", "ZOMBIE"])
    assert html.count('data-keep="bastion"') == 1
    assert html.count('data-playable="true"') == 4  # GNOME, OGRE, TROLL, BRUTE (R3.2)
    assert 'data-hand-health="5"' in html


def test_card_html_draws_one_card():
    from clashkit.base.cards import starter_set
    from clashkit.show.board import card_html

    html = card_html(starter_set().card("METEORITE"), caption="shipped")
    assert "METEORITE" in html and "damage 3" in html and "shipped" in html
