"""Time per game of OpenSpiel's bots against greedy, per budget (docs/interop.md).

    .venv/bin/python benchmarks/interop_timing.py [POLICY ...]

Each policy plays four games against greedy on the reference engine (decks 1–2, 3–4, 2–3,
4–1, seats alternating, seeds 100–103) in this process; prints one JSON line per policy:
CPU and wall seconds per game, decisions it made per game, its wins.
"""

from __future__ import annotations

import json
import sys
import time

from clashkit.policies import Policy, get_policy
from clashkit.runs.game import new_game, play

DEFAULT = ["search:fair", "openspiel:ismcts,budget=8", "openspiel:ismcts,budget=32", "openspiel:ismcts,budget=128"]
PAIRS = [("1", "2"), ("3", "4"), ("2", "3"), ("4", "1")]


class Counting(Policy):
    """A policy that counts its decisions (and asks another to make them)."""

    def __init__(self, policy: Policy) -> None:
        self.policy, self.decisions, self.name = policy, 0, policy.name

    def decide(self, state, cards=None):
        self.decisions += 1
        return self.policy.decide(state, cards)

    def order_returns(self, state, owner, cards):
        return self.policy.order_returns(state, owner, cards)


def main(specs: list[str]) -> None:
    for spec in specs:
        cpu = wall = 0.0
        wins = decisions = 0
        for k, (a, b) in enumerate(PAIRS):
            state, _ = new_game(a, b, seed=100 + k, record=False)
            seat = k % 2
            mine, greedy = Counting(get_policy(spec)), get_policy("greedy")
            players = (mine, greedy) if seat == 0 else (greedy, mine)
            started, clock = time.process_time(), time.perf_counter()
            play(state, *players)
            cpu += time.process_time() - started
            wall += time.perf_counter() - clock
            wins += state.winner == seat
            decisions += mine.decisions
        n = len(PAIRS)
        row = {
            "policy": spec,
            "cpu_s_per_game": round(cpu / n, 2),
            "wall_s_per_game": round(wall / n, 2),
            "decisions_per_game": decisions / n,
            "wins_vs_greedy": f"{wins}/{n}",
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT)
