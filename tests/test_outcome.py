"""R3.8, R4.9, R8.7, R10.1: every way a game ends, read back by ``outcome`` and the games frame."""

from __future__ import annotations

from helpers import varied_game

from clashkit.base.cards import starter_decks
from clashkit.base.rules import Rules
from clashkit.engine.outcome import Outcome, Termination, outcome
from clashkit.engine.solo_setup import solo_setup
from clashkit.engine.state import OVER
from clashkit.policies import get_policy
from clashkit.runs.game import new_duel, play
from clashkit.runs.simulate import simulate

DECKS = starter_decks()


def test_outcome_is_none_while_the_game_runs_then_names_the_end():
    state = varied_game(3, "greedy", "greedy")
    assert outcome(state) is None
    play(state, "greedy", "greedy", max_steps=5)
    assert state.phase != OVER and outcome(state) is None
    play(state, "greedy", "greedy")
    assert outcome(state) == Outcome(state.termination, state.winner)


def finished_games():
    for seed in range(80):
        yield play(varied_game(seed, "random", "greedy"), "random", "greedy")
    for seed in range(30):
        state = solo_setup("1", get_policy("greedy"), seed=seed).state
        yield play(state, "greedy")
    yield play(new_duel(DECKS[1], DECKS[2], rules=Rules(turn_limit=2), seed=1), "greedy")


def test_every_finished_game_has_one_termination_that_fits_its_winner():
    seen = set()
    for state in finished_games():
        end = outcome(state)
        seen.add(end.termination)
        if end.termination is Termination.TURN_LIMIT:
            assert end.winner is None and state.turn == state.rules.turn_limit
        elif end.termination is Termination.AI_LAST_TURN_SURVIVED:
            assert state.solo and end.winner == 0 and state.forts[1] and len(state.pile) == 1
        else:
            assert end.winner is not None and state.forts[1 - end.winner]
    assert seen == set(Termination)


def test_the_games_frame_says_how_each_game_ended():
    games = simulate(30, "1", "2", "greedy", seed=4, rules=Rules(turn_limit=8)).games
    assert games["termination"].dtype.categories.to_list() == [t.value for t in Termination]
    assert set(games.filter(~games["finished"])["termination"].to_list()) <= {"turn_limit"}
    assert set(games.filter(games["finished"])["termination"].to_list()) == {"fort_fell"}
    solo = simulate(20, "1", None, "greedy", mode="solo", seed=1).games
    assert set(solo["termination"].to_list()) <= {"fort_fell", "ai_last_turn_survived", "turn_limit"}
    assert solo.filter(solo["winner"] == "A")["termination"].to_list() == ["ai_last_turn_survived"] * int(
        (solo["winner"] == "A").sum()
    )
