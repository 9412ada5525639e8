"""Attacks through the Python API: values a caller can pass that once failed deep inside.

OpenSpiel's state took chance outcomes that do not exist and failed later with an
``IndexError``; PettingZoo's ``reset(seed=…)`` took seeds gymnasium refuses; ``viz``
functions given a frame without their columns raised polars' ``ColumnNotFoundError``;
public functions given an unknown name raised a bare ``KeyError`` or ``TypeError``.
Each is now clashkit's own error (a ``ValueError``) naming what is legal.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from clashkit.base.cards import starter_set
from clashkit.base.errors import ClashkitError, InputError, OptionError, UnknownCardError
from clashkit.policies import parse_policies
from clashkit.runs.simulate import simulate

# --- OpenSpiel: chance outcomes and actions -----------------------------------------------------


@pytest.fixture(scope="module")
def spiel():
    pyspiel = pytest.importorskip("pyspiel")
    import clashkit.openspiel as cos

    return pyspiel.load_game(cos.NAME, {})


@pytest.mark.parametrize("outcome", [-5, 8, 10**6, 2**63 - 1])
def test_openspiel_refuses_a_chance_outcome_that_does_not_exist(spiel, outcome):
    state = spiel.new_initial_state()
    assert state.is_chance_node()
    legal = [o for o, _ in state.chance_outcomes()]
    assert legal == list(range(8))
    with pytest.raises(
        InputError, match=rf"^chance outcome {outcome} does not exist now \(legal: 0, 1, 2, 3, 4, 5, 6, 7\)$"
    ):
        state.apply_action(outcome)
    assert state.history() == [] and state.is_chance_node()  # nothing was drawn


def test_openspiel_refuses_a_card_already_drawn(spiel):
    state = spiel.new_initial_state()
    state.apply_action(3)
    legal = [o for o, _ in state.chance_outcomes()]
    assert 3 not in legal and len(legal) == 7  # deck 1's eight cards differ: card 3 is in hand now
    with pytest.raises(InputError, match=r"^chance outcome 3 does not exist now \(legal: 0, 1, 2, 4, 5, 6, 7\)$"):
        state.apply_action(3)


def test_openspiel_refuses_an_illegal_player_action_naming_the_legal_ones(spiel):
    state = spiel.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    wrong = max(legal) + 1
    with pytest.raises(InputError, match=rf"^action {wrong} is not legal now \(legal: {legal[0]}, "):
        state.apply_action(wrong)
    with pytest.raises(InputError, match=r"is not legal now"):
        state.apply_action(-2)


def test_openspiel_clashkit_action_while_dealing_is_an_input_error(spiel):
    state = spiel.new_initial_state()
    with pytest.raises(InputError, match="the deal is still being drawn"):
        state.clashkit_action(0)


# --- PettingZoo: seeds and actions --------------------------------------------------------------


@pytest.fixture
def aec():
    pytest.importorskip("pettingzoo")
    from clashkit.pettingzoo import env

    return env(1, 2)


@pytest.mark.parametrize("seed", [-1, 1.5, 2**70, 2**64, True, "3", np.float64(2.0)])
def test_pettingzoo_reset_refuses_a_seed_gymnasium_or_the_seed_column_would_not_take(aec, seed):
    with pytest.raises(ValueError, match=r"^reset\(seed=.*\): must be a whole number 0…18446744073709551615"):
        aec.reset(seed=seed)


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1, np.uint64(5), np.int32(9), None])
def test_pettingzoo_reset_takes_every_seed_in_range(aec, seed):
    aec.reset(seed=seed)
    assert aec.agent_selection in aec.agents


@pytest.mark.parametrize("action", [1.5, -1, "0", True, 10**9])
def test_pettingzoo_step_refuses_an_action_that_is_no_legal_whole_number(aec, action):
    aec.reset(seed=1)
    with pytest.raises(ValueError, match=r"is not legal for [AB] now \(legal: "):
        aec.step(action)


# --- viz: frames checked on entry ---------------------------------------------------------------


@pytest.fixture(scope="module")
def trace():
    return simulate(6, "1", "2", "random", seed=1, record_events=True)


def _calls(trace):
    import clashkit.viz as viz

    games, turns, events = trace.games, trace.turns, trace.events
    decks = viz.cards_frame()
    ratings = pl.DataFrame(
        {"policy": ["a", "b"], "rating": [1500.0, 1510.0], "low": [1400.0, 1420.0], "high": [1600.0, 1610.0]}
        | {"games": [10, 10], "score": [0.5, 0.5]}
    )
    comparison = viz.compare_win_rates({"before": games, "after": games})
    cells = pl.DataFrame(
        {"deck": [1, 2], "opponent": [2, 1], "change": [0.1, -0.1], "change_low": [0.0, -0.2]}
        | {"change_high": [0.2, 0.0], "clear": [True, False]}
    )
    return [
        ("mana_curve", viz.mana_curve, {"decks": decks}),
        ("chart_mana_curve", viz.chart_mana_curve, {"decks": decks}),
        ("label_decks", viz.label_decks, {"games": games}),
        ("matchups", viz.matchups, {"games": games}),
        ("matchups_readable", viz.matchups_readable, {"games": games}),
        ("chart_matchups", viz.chart_matchups, {"games": games}),
        ("first_player_advantage", viz.first_player_advantage, {"games": games}),
        ("chart_first_player", viz.chart_first_player, {"games": games}),
        ("deck_win_rates", viz.deck_win_rates, {"games": games}),
        ("mana_per_turn", viz.mana_per_turn, {"turns": turns}),
        ("chart_mana_per_turn", viz.chart_mana_per_turn, {"turns": turns}),
        ("hand_health_over_turns", viz.hand_health_over_turns, {"turns": turns}),
        ("hand_health_readable", viz.hand_health_readable, {"turns": turns}),
        ("chart_hand_health", viz.chart_hand_health, {"turns": turns}),
        ("card_numbers", viz.card_numbers, {"events": events, "games": games}),
        ("chart_card_numbers", viz.chart_card_numbers, {"events": events, "games": games}),
        ("hand_health_track", lambda events: viz.charts.hand_health_track(events, game=0), {"events": events}),
        ("chart_hand_health_track", lambda events: viz.chart_hand_health_track(events, game=0), {"events": events}),
        ("chart_ladder", viz.chart_ladder, {"ratings": ratings}),
        ("chart_win_rate_shift", viz.chart_win_rate_shift, {"comparison": comparison}),
        ("paired_matrix_html", viz.paired_matrix_html, {"cells": cells}),
        ("chart_paired_changes", viz.chart_paired_changes, {"cells": cells}),
    ]


def test_every_viz_function_names_the_frame_and_the_column_it_lacks(trace):
    cases = 0
    for name, function, frames_given in _calls(trace):
        function(**frames_given)  # whole frames: drawn
        for argument, frame in frames_given.items():
            for column in frame.columns:
                try:
                    function(**{**frames_given, argument: frame.drop(column)})
                except InputError as e:
                    assert str(e).startswith(f"{name}: the {argument} frame has no column {column!r}"), str(e)
                    cases += 1
                except pl.exceptions.PolarsError as e:
                    pytest.fail(f"{name} without {argument}.{column}: polars' {type(e).__name__}: {e}")
    assert cases >= 100, cases


def test_a_frame_that_is_no_frame_is_named(trace):
    import clashkit.viz as viz

    with pytest.raises(InputError, match="^matchups: games must be a polars DataFrame, not dict$"):
        viz.matchups({"winner": []})


def test_a_games_frame_with_its_deck_labels_needs_no_deck_columns(trace):
    import clashkit.viz as viz

    labelled = viz.label_decks(trace.games).drop("deck_a", "deck_b", "format", "mode")
    assert viz.matchups(labelled).height == viz.matchups(trace.games).height


# --- Public functions given a wrong value -----------------------------------------------------------


@pytest.mark.parametrize("lookup", ["id", "card"])
def test_an_unknown_card_name_is_clashkits_own_error_and_still_a_key_error(lookup):
    with pytest.raises(UnknownCardError, match="^unknown card 'OGER'; did you mean OGRE\\?$") as caught:
        getattr(starter_set(), lookup)("OGER")
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, ClashkitError)
    assert str(caught.value) == "unknown card 'OGER'; did you mean OGRE?"


def test_an_unknown_card_in_a_viz_deck_is_clashkits_own_error():
    import clashkit.viz as viz

    with pytest.raises(UnknownCardError, match="^unknown card 'OGER'; did you mean OGRE"):
        viz.decks_frame({"mine": ["OGER"]})


@pytest.mark.parametrize(
    "call",
    [
        lambda viz, trace: viz.first_player_advantage(trace.games, by="nope"),
        lambda viz, trace: viz.mana_per_turn(trace.turns, by="nope"),
        lambda viz, trace: viz.charts.hand_health_track(trace.events),
    ],
    ids=["first_player_advantage", "mana_per_turn", "hand_health_track"],
)
def test_a_viz_option_out_of_its_choices_is_an_option_error(trace, call):
    import clashkit.viz as viz

    with pytest.raises(OptionError):
        call(viz, trace)


@pytest.mark.parametrize("value", [5, None, 2.5])
def test_a_policy_list_that_is_no_list_is_an_option_error(value):
    with pytest.raises(OptionError, match="is not a list of policies"):
        parse_policies(value)
