"""Each policy's cost: games per second in self-play, one process, on the fast engine and the reference one.

    .venv/bin/python benchmarks/policy_speed.py [--games N] [--reference-games M] [--policies P1,P2,…]

Every policy plays games of each ordered pairing of two starter decks (1 vs 2,
2 vs 1) against itself, on the same seeds, first on the fast engine (N games a
pairing, after one untimed game that loads its compiled code), then on the
reference engine (M games a pairing: it is much slower); the table is Markdown.
The fast engine's rate is given by the clock and by the process's CPU time: on
a shared machine the second is the steadier measure of what a policy costs.
"""

from __future__ import annotations

import argparse
import time

from clashkit.runs.simulate import simulate

POLICIES = ("random", "greedy", "search:budget=4", "search:budget=16", "search:fair", "expert")


def rates(policy: str, games: int, engine: str) -> tuple[float, float]:
    """Games per second of ``policy`` against itself, ``games`` a pairing, on ``engine``: by the clock
    and by this process's CPU time."""
    started, cpu = time.perf_counter(), time.process_time()
    for deck_a, deck_b in (("1", "2"), ("2", "1")):
        simulate(
            games, deck_a, deck_b, policy, policy, seed=0, jobs=1, record_events=False, progress=False, engine=engine
        )
    return 2 * games / (time.perf_counter() - started), 2 * games / max(time.process_time() - cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="fast-engine games per deck pairing (default 200)")
    parser.add_argument(
        "--reference-games", type=int, default=10, help="reference-engine games per deck pairing (default 10)"
    )
    parser.add_argument("--policies", default=",".join(POLICIES), help="the policies, comma-separated")
    args = parser.parse_args()
    from clashkit.studies.ladder import parse_policies

    policies = parse_policies(args.policies, least=1)
    simulate(1, "1", "2", "search:budget=1", "greedy", engine="fast", record_events=False, progress=False)  # load
    print(
        "| policy (both seats) | games per second, fast engine | … by CPU time | games per second, reference engine "
        "| ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for policy in policies:
        fast, fast_cpu = rates(policy, args.games, "fast")
        reference, _ = rates(policy, args.reference_games, "reference")
        print(f"| `{policy}` | {fast:,.1f} | {fast_cpu:,.1f} | {reference:,.1f} | {fast / reference:,.0f}× |")
    print(
        f"\n{2 * args.games} games per policy on the fast engine, {2 * args.reference_games} on the reference "
        "engine, one process, the same run."
    )


if __name__ == "__main__":
    main()
