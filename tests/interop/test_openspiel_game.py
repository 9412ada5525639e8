"""``python_clash_of_decks`` checked by OpenSpiel's own suite and against clashkit's engine."""

from __future__ import annotations

import difflib
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import clashkit.openspiel as cos  # noqa: E402
from clashkit.engine.legality import legal_actions  # noqa: E402
from clashkit.engine.solo_setup import solo_setup  # noqa: E402
from clashkit.policies import Policy  # noqa: E402
from clashkit.runs.game import new_game, play  # noqa: E402
from clashkit.show.render import describe_state  # noqa: E402

#: Parameter sets for OpenSpiel's random simulation test: duels, rules options, solo settings.
PARAMETER_SETS = [
    {"seed": 1},
    {"deck_a": 3, "deck_b": 4, "incantations_in_siege": False, "protection": "first_damage", "turn_limit": 40},
    {"names_a": "BRUTE+TROLL+OGRE+GNOME+BARON+ALPHA+BOOM!+ZOMBIE", "deck_b": 1, "siege_order": "fixed"},
    {"mode": "solo", "deck_a": 2},
    {"mode": "solo", "deck_a": 4, "ai_fixed_mana": 8, "ai_first": True, "ai_ability": "rage", "turn_limit": 60},
]


def random_states(params, seed, count=40):
    """States along one random game, every chance and player node."""
    game = pyspiel.load_game(cos.NAME, params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_random_sim_test(params):
    """OpenSpiel's generic playthrough test, serialization included."""
    game = pyspiel.load_game(cos.NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_legal_actions_are_clashkits_one_to_one_in_clashkits_order():
    for params in (PARAMETER_SETS[0], PARAMETER_SETS[3]):
        for state in random_states(params, seed=3):
            ids = state.legal_actions()
            assert ids == sorted(ids) and len(ids) >= 2  # a decision node has a choice
            assert [state.clashkit_action(i) for i in ids] == legal_actions(state.game_state)
            assert [state.action_to_string(i) for i in ids] == [str(a) for a in legal_actions(state.game_state)]


class Recorder(Policy):
    """Plays uniformly at random from its own generator (never the game's) and keeps its decisions."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.moves: list = []

    def decide(self, state, cards=None):
        legal = legal_actions(state)
        move = legal[0] if self.rng.random() < 0.5 else self.rng.choice(legal)
        self.moves.append(move)
        return move


@pytest.mark.parametrize("mode", ["duel", "solo"])
@pytest.mark.parametrize("seed", [0, 5])
def test_the_same_seed_gives_the_same_game_as_clashkit_game(mode, seed):
    recorder = Recorder(seed)
    if mode == "duel":
        reference, _ = new_game("2", "4", seed=seed, record=False)
        game = pyspiel.load_game(cos.NAME, {"deck_a": 2, "deck_b": 4, "seed": seed})
    else:
        reference = solo_setup(1, seed=seed, record=False).state
        game = pyspiel.load_game(cos.NAME, {"mode": "solo", "deck_a": 1, "seed": seed})
    play(reference, recorder, recorder)
    state = cos.deal_as_clashkit(game.new_initial_state())
    for step, move in enumerate(recorder.moves):
        assert not state.is_terminal(), f"step {step}: the OpenSpiel game ended before clashkit's"
        (number,) = [i for i in state.legal_actions() if state.clashkit_action(i) == move]
        state.apply_action(number)
    assert state.is_terminal()
    assert describe_state(state.game_state) == describe_state(reference)
    winner = reference.winner
    assert state.returns() == ([0.0, 0.0] if winner is None else [[1.0, -1.0], [-1.0, 1.0]][winner])


def test_the_chance_nodes_are_the_deal_and_the_coin():
    game = pyspiel.load_game(cos.NAME)
    state = game.new_initial_state()
    for place in range(8):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 8 - place and sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    for _ in range(8):
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert [state.action_to_string(a) for a in (0, 1)] == ["coin: A starts", "coin: B starts"]
    state.apply_action(1)
    assert state.current_player() == 1 and state.game_state.hand_health(0) == 8


def test_observations_hold_only_what_the_player_can_know():
    """Shuffling the opponent's hidden cards changes nothing the player observes."""
    for params in (PARAMETER_SETS[0], PARAMETER_SETS[3]):
        for state in random_states(params, seed=11, count=12):
            player = state.current_player()
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.legal_actions() == state.legal_actions()
            own = state.game_state.hands[player]
            assert other.game_state.hands[player] == own
            assert sorted(other.game_state.hands[1 - player]) == sorted(state.game_state.hands[1 - player])


def test_resampling_draws_other_worlds():
    state = random_states({"seed": 2}, seed=1, count=1)[0]
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = {tuple(state.resample_from_infostate(player, sampler).game_state.hands[1 - player]) for _ in range(20)}
    assert len(worlds) > 10  # eight hidden cards: 40,320 orders


def test_the_opponents_hand_shows_its_hidden_cards_as_a_set():
    state = random_states({"seed": 4}, seed=2, count=1)[0]
    text = state.observation_string(state.current_player())
    assert "? ? ? ? ? ? ? ?" in text and "hidden: " in text
    assert "your deal:" in state.information_state_string(state.current_player())


def test_serialization_round_trip():
    state = random_states(PARAMETER_SETS[1], seed=5, count=25)[-1]
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    game, again = pyspiel.deserialize_game_and_state(text)
    assert str(game) == str(state.get_game())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)


def test_bad_parameters_are_one_clear_error():
    with pytest.raises(ValueError, match="deck B: both players picked starter deck 1"):
        pyspiel.load_game(cos.NAME, {"deck_a": 1, "deck_b": 1})
    with pytest.raises(ValueError, match="protection"):
        pyspiel.load_game(cos.NAME, {"protection": "sometimes"})


def test_the_golden_playthrough():
    """OpenSpiel's playthrough of one seeded game, regenerated and diffed with the golden file."""
    from playthrough import PATH, playthrough

    expected = PATH.read_text(encoding="utf-8")
    actual = playthrough()
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now", n=2))
        pytest.fail(
            "the playthrough differs from tests/interop/python_clash_of_decks.txt; if the change is deliberate, "
            f"run `.venv/bin/python tests/interop/playthrough.py`\n{diff[:4000]}"
        )
