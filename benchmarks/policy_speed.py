"""Each policy's cost: games per second in self-play, one process, on the fast engine and the reference one.

    .venv/bin/python benchmarks/policy_speed.py [--games N] [--reference-games M]

Every policy plays games of each ordered pairing of two starter decks (1 vs 2,
2 vs 1) against itself, on the same seeds, first on the fast engine (N games a
pairing, after one untimed game that loads its compiled code), then on the
reference engine (M games a pairing: it is much slower); the table is Markdown.
"""

from __future__ import annotations

import argparse
import time

from clashkit.runs.simulate import simulate

POLICIES = ("random", "greedy", "search:budget=4", "search:budget=16", "search:fair", "expert")


def rate(policy: str, games: int, engine: str) -> float:
    """Games per second of ``policy`` against itself, ``games`` a pairing, on ``engine``."""
    started = time.perf_counter()
    for deck_a, deck_b in (("1", "2"), ("2", "1")):
        simulate(
            games, deck_a, deck_b, policy, policy, seed=0, jobs=1, record_events=False, progress=False, engine=engine
        )
    return 2 * games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="fast-engine games per deck pairing (default 200)")
    parser.add_argument(
        "--reference-games", type=int, default=10, help="reference-engine games per deck pairing (default 10)"
    )
    args = parser.parse_args()
    simulate(1, "1", "2", "search:budget=1", "greedy", engine="fast", record_events=False, progress=False)  # load
    print("| policy (both seats) | games per second, fast engine | games per second, reference engine | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for policy in POLICIES:
        fast = rate(policy, args.games, "fast")
        reference = rate(policy, args.reference_games, "reference")
        print(f"| `{policy}` | {fast:,.1f} | {reference:,.1f} | {fast / reference:,.0f}× |")
    print(
        f"\n{2 * args.games} games per policy on the fast engine, {2 * args.reference_games} on the reference "
        "engine, one process, the same run."
    )


if __name__ == "__main__":
    main()
