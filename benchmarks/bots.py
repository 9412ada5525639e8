"""The bots: how fast greedy plays, and how clearly search beats it.

    python benchmarks/bots.py                    # the "Bots" figures (docs/guide/bots.md)
    python benchmarks/bots.py --budget 8 --per-setting 5 --jobs 2
    python benchmarks/bots.py --json             # … then one JSON object as the last line

1. **Speed**: full preconstructed duels (the 12 ordered pairings of the
   starter decks in turn), ``new_game`` + ``play`` with ``record=False``, on
   one core, for ``greedy`` vs ``greedy`` and ``random`` vs ``random``: games
   per second (best of ``--repeats`` runs; wall clock and CPU time).
2. **Strength**: ``search`` against ``greedy`` with seats and first player
   balanced — every ordered pairing of the starter decks × search as A or as
   B × A or B playing first (R2.3 fixed rather than flipped), ``--per-setting``
   seeds each (21 → 1,008 games).  Prints search's win rate with its 95% Wilson
   interval (an unfinished game is not a win) and the time per game.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clashkit.base.cards import starter_set  # noqa: E402
from clashkit.base.stats import wilson  # noqa: E402
from clashkit.policies import get_policy  # noqa: E402
from clashkit.runs.game import (  # noqa: E402
    new_duel,
    new_game,  # noqa: E402
    play,
)

PAIRINGS = [(a, b) for a in (1, 2, 3, 4) for b in (1, 2, 3, 4) if a != b]


def speed(policy: str, n: int, repeats: int) -> dict:
    """Games per second of ``policy`` against itself, one core, no event recording."""
    best_wall = best_cpu = float("inf")
    turns = 0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        turns = 0
        for i in range(n):
            a, b = PAIRINGS[i % len(PAIRINGS)]
            players = get_policy(policy), get_policy(policy)
            state, _ = new_game(str(a), str(b), *players, seed=i, record=False)
            play(state, *players)
            turns += state.turn
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return {
        "policy": policy,
        "games": n,
        "games_per_s": n / best_wall,
        "games_per_s_cpu": n / best_cpu,
        "mean_turns": turns / n,
    }


def settings(per_setting: int) -> list[tuple[int, int, int, int, int]]:
    """(deck A, deck B, search's seat, first player, seed) for every balanced game."""
    return [
        (a, b, seat, first, seed)
        for a, b in PAIRINGS
        for seat in (0, 1)
        for first in (0, 1)
        for seed in range(per_setting)
    ]


def strength_chunk(search: str, games: list[tuple[int, int, int, int, int]]) -> list[tuple]:
    """Play these games; per game (search won, finished, CPU seconds, turns)."""
    cards = starter_set()
    out = []
    for a, b, seat, first, seed in games:
        players = [get_policy("greedy"), get_policy("greedy")]
        players[seat] = get_policy(search)
        cpu = time.process_time()
        state = new_duel(cards.deck(a), cards.deck(b), cards=cards, seed=seed, record=False, first_player=first)
        play(state, *players)
        out.append((state.winner == seat, state.winner is not None, time.process_time() - cpu, state.turn))
    return out


def strength(search: str, per_setting: int, jobs: int) -> dict:
    """Search's win rate against greedy over the balanced games, and its time per game."""
    games = settings(per_setting)
    chunks = [games[i :: jobs * 4] for i in range(jobs * 4)]
    wall = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        results = [r for chunk in pool.map(strength_chunk, [search] * len(chunks), chunks) for r in chunk]
    wall = time.perf_counter() - wall
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    return {
        "search": search,
        "games": len(results),
        "search_wins": wins,
        "win_rate": wins / len(results),
        "ci_low": low,
        "ci_high": high,
        "unfinished": sum(not r[1] for r in results),
        "seconds_per_game_cpu": sum(r[2] for r in results) / len(results),
        "seconds_per_game_wall": wall * jobs / len(results),
        "mean_turns": sum(r[3] for r in results) / len(results),
        "jobs": jobs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per speed run (default 2000)")
    parser.add_argument("--repeats", type=int, default=3, help="speed runs; the best counts (default 3)")
    parser.add_argument("--budget", type=int, default=None, help="search's budget (default: search's own)")
    parser.add_argument("--per-setting", type=int, default=21, help="seeds per balanced setting (48 settings)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the strength games")
    parser.add_argument("--json", action="store_true", help="end with one JSON object of every figure")
    args = parser.parse_args()
    search = "search" if args.budget is None else f"search:budget={args.budget}"
    report = {"cpus": os.cpu_count()}
    for policy in ("greedy", "random"):
        result = speed(policy, args.games, args.repeats)
        report[f"{policy}_games_per_s"] = result["games_per_s"]
        report[f"{policy}_games_per_s_cpu"] = result["games_per_s_cpu"]
        print(
            f"{policy} vs {policy}: {result['games_per_s']:,.0f} games/s on one core "
            f"({result['games_per_s_cpu']:,.0f} by CPU time), "
            f"{result['mean_turns']:.1f} turns a game"
        )
    result = strength(search, args.per_setting, args.jobs)
    report.update({k: v for k, v in result.items() if k != "search"})
    report["search"] = get_policy(search).name
    print(
        f"{report['search']} vs greedy: wins {result['search_wins']} of {result['games']} "
        f"= {100 * result['win_rate']:.1f}% (95% CI {100 * result['ci_low']:.1f}–"
        f"{100 * result['ci_high']:.1f}), {result['unfinished']} unfinished; "
        f"{result['seconds_per_game_cpu']:.2f} s a game (CPU), "
        f"{result['mean_turns']:.1f} turns a game"
    )
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
