"""Each policy's cost: games per second in self-play, one process, on the reference engine.

    .venv/bin/python benchmarks/policy_speed.py [--games N]

Every policy plays N games of each ordered pairing of two starter decks (1 vs 2,
2 vs 1) against itself, on the same seeds; the table is Markdown.  Search is
played by the reference engine only.
"""

from __future__ import annotations

import argparse
import time

from clashkit.simulate import simulate

POLICIES = ("random", "greedy", "search:budget=4", "search:budget=16", "search:fair")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per deck pairing (default 20)")
    args = parser.parse_args()
    print("| policy (both seats) | games per second | seconds per game |")
    print("| --- | ---: | ---: |")
    for policy in POLICIES:
        started = time.perf_counter()
        for deck_a, deck_b in (("1", "2"), ("2", "1")):
            simulate(args.games, deck_a, deck_b, policy, policy, seed=0, jobs=1, record_events=False, progress=False)
        seconds = time.perf_counter() - started
        games = 2 * args.games
        print(f"| `{policy}` | {games / seconds:,.1f} | {seconds / games:.3f} |")
    print(f"\n{2 * args.games} games per policy, one process.")


if __name__ == "__main__":
    main()
