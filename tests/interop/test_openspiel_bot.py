"""OpenSpiel's IS-MCTS and MCTS bots as the clashkit policy ``openspiel``."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from clashkit.base.errors import OptionError  # noqa: E402
from clashkit.base.rules import Rules  # noqa: E402
from clashkit.policies import get_policy, registered_names  # noqa: E402
from clashkit.runs.game import new_game, play  # noqa: E402
from clashkit.show.render import describe_state, event_dicts  # noqa: E402
from clashkit.studies.ladder import parse_policies  # noqa: E402


def test_the_policy_is_found_by_name_through_its_entry_point():
    assert "openspiel" in registered_names()
    assert get_policy("openspiel:ismcts,budget=8").name == "openspiel:ismcts,budget=8"
    assert get_policy("openspiel:mcts").name == "openspiel:mcts,budget=32"
    assert parse_policies("greedy,openspiel:ismcts,budget=4,search:fair") == [
        "greedy",
        "openspiel:ismcts,budget=4",
        "search:fair",
    ]
    with pytest.raises(OptionError, match="ismcts or mcts"):
        get_policy("openspiel:ismcts,mcts")
    with pytest.raises(OptionError, match="evaluator"):
        get_policy("openspiel:evaluator=oracle")


@pytest.mark.parametrize("bot", ["ismcts", "mcts"])
def test_a_game_against_greedy_is_the_same_for_the_same_seed(bot):
    rules = Rules(turn_limit=6)
    games = []
    for _ in range(2):
        state, _ = new_game("1", "2", seed=3, rules=rules)
        play(state, f"openspiel:{bot},budget=4", "greedy")
        games.append(state)
    assert games[0].over
    assert describe_state(games[0]) == describe_state(games[1])
    assert event_dicts(games[0]) == event_dicts(games[1])
