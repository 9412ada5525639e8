"""``clashkit.pettingzoo.env`` checked by PettingZoo's own API and seed tests and against clashkit's engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from clashkit.engine.legality import legal_actions  # noqa: E402
from clashkit.engine.solo_setup import solo_setup  # noqa: E402
from clashkit.interop.encoding import action_id  # noqa: E402
from clashkit.pettingzoo import env  # noqa: E402
from clashkit.runs.game import new_game  # noqa: E402
from clashkit.show.render import describe_state  # noqa: E402


@pytest.mark.parametrize(
    "make",
    [lambda: env(3, 4, render_mode="ansi"), lambda: env(2, mode="solo"), lambda: env(1, 2, rules={"turn_limit": 6})],
    ids=["duel", "solo", "turn-limit"],
)
def test_pettingzoo_api_test(make):
    api_test(make(), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(1, 2), num_cycles=200)


def play_through(e, seed: int, finals: dict | None = None) -> list[int]:
    """Play ``e`` to its end from ``reset(seed)``, actions drawn from the mask with a seeded generator;
    ``finals`` gets each agent's reward at its end."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    taken = []
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            if finals is not None:
                finals[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(list(legal)))
        taken.append(action)
        e.step(action)
    return taken


@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_reset_with_a_seed_deals_clashkits_game_and_the_same_actions_give_the_same_game(mode):
    seed = 9
    e = env(2, 3) if mode == "duel" else env(3, mode="solo")
    reference = new_game("2", "3", seed=seed, record=False)[0] if mode == "duel" else solo_setup(3, seed=seed).state
    e.reset(seed=seed)
    assert [e.match.state.hands[p] for p in (0, 1)] == [reference.hands[p] for p in (0, 1)]
    assert e.match.state.pile == reference.pile
    taken = play_through(e, seed)
    # the same integers through the clashkit engine, the turn moved on as the game loop does
    from clashkit.interop.match import Match

    match = Match(e.table, reference.clone(record=False))
    for number in taken:
        match.apply(number)
    assert match.over and describe_state(match.state) == describe_state(e.match.state)
    assert play_through(e, seed) == taken


def test_observation_spaces_masks_and_rewards():
    e = env(1, 3, render_mode="ansi")
    e.reset(seed=4)
    agent = e.agent_selection
    observation = e.observe(agent)
    assert e.observation_space(agent).contains(observation)
    mask = observation["action_mask"]
    state = e.match.state
    assert list(np.flatnonzero(mask)) == [action_id(e.table, a) for a in legal_actions(state)]
    other = "B" if agent == "A" else "A"
    assert not e.observe(other)["action_mask"].any()
    assert "turn 1" in e.render() and "BASTION" in e.render()
    finals: dict = {}
    play_through(e, 4, finals)
    assert sorted(finals) == ["A", "B"]
    winner = e.match.state.winner
    assert finals == ({"A": 0.0, "B": 0.0} if winner is None else {"AB"[winner]: 1.0, "BA"[winner]: -1.0})


def test_solo_has_one_agent():
    e = env(2, mode="solo")
    e.reset(seed=1)
    assert e.possible_agents == ["A"] and e.agent_selection == "A"


def test_the_examples_of_docs_interop_run(capsys):
    """Both ten-line examples of docs/interop.md, as they are."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "interop.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "docs/interop.md", "exec"), {})
    assert "turn " in capsys.readouterr().out
