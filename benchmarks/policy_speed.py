"""Each policy's cost: games per second in self-play, one process, on the fast engine and the reference one.

    .venv/bin/python benchmarks/policy_speed.py [--games N] [--seconds S] [--rounds R]
                                                [--reference-games M] [--policies P1,P2,…]

Every policy plays games of each ordered pairing of two starter decks (1 vs 2,
2 vs 1) against itself, seeds 0, 1, …, first on the fast engine, then on the
reference engine (M games a pairing, once: it is much slower); the table is
Markdown.

On the fast engine each policy's batch is N games a pairing, or four, sixteen …
times as many until a batch takes at least S seconds (after one untimed game
that loads the compiled code), and then R rounds play every policy's batch in
turn; a policy's rate is its median over the rounds.  The long batches matter
for the fast policies: each ``simulate`` call costs about 10 ms besides its
games, about half the time of 400 ``greedy`` games.  The rounds matter for the
ratios: this kind of machine runs the same work up to a third slower from one
second to the next, and policies measured in turn, round after round, see the
same machine.  The rate is given by the clock and by the process's CPU time: on
a shared machine the second is the steadier measure of what a policy costs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from clashkit.runs.simulate import simulate

POLICIES = ("random", "greedy", "search:budget=4", "search:budget=16", "search:fair", "expert", "deep")


def timed(policy: str, games: int, engine: str) -> tuple[float, float]:
    """Seconds by the clock and of this process's CPU time for ``games`` a pairing of ``policy``
    against itself on ``engine``."""
    started, cpu = time.perf_counter(), time.process_time()
    for deck_a, deck_b in (("1", "2"), ("2", "1")):
        simulate(
            games, deck_a, deck_b, policy, policy, seed=0, jobs=1, record_events=False, progress=False, engine=engine
        )
    return time.perf_counter() - started, max(time.process_time() - cpu, 1e-9)


def batch(policy: str, games: int, seconds: float) -> int:
    """Games a pairing, ``games`` times a power of four, that ``policy`` takes at least ``seconds``
    to play on the fast engine."""
    while timed(policy, games, "fast")[0] < seconds:
        games *= 4
    return games


def fast_rates(
    policies, games: int = 200, seconds: float = 1.0, rounds: int = 5
) -> tuple[dict[str, int], dict[str, float], dict[str, float]]:
    """Each policy's batch (games a pairing, :func:`batch`) and its median self-play rate on the
    fast engine over ``rounds`` rounds that play every policy in turn, by the clock and by CPU time."""
    simulate(1, "1", "2", "search:budget=1", "greedy", engine="fast", record_events=False, progress=False)  # load
    sizes = {policy: batch(policy, games, seconds) for policy in policies}
    clock: dict[str, list[float]] = {policy: [] for policy in policies}
    cpu: dict[str, list[float]] = {policy: [] for policy in policies}
    for _ in range(rounds):
        for policy in policies:
            wall, used = timed(policy, sizes[policy], "fast")
            clock[policy].append(2 * sizes[policy] / wall)
            cpu[policy].append(2 * sizes[policy] / used)
    median = statistics.median
    return sizes, {p: median(clock[p]) for p in policies}, {p: median(cpu[p]) for p in policies}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="fast engine: the smallest batch a pairing (200)")
    parser.add_argument("--seconds", type=float, default=1.0, help="fast engine: the shortest batch (1 s)")
    parser.add_argument("--rounds", type=int, default=5, help="fast engine: rounds, the median counts (5)")
    parser.add_argument(
        "--reference-games", type=int, default=10, help="reference-engine games per deck pairing (default 10)"
    )
    parser.add_argument("--policies", default=",".join(POLICIES), help="the policies, comma-separated")
    args = parser.parse_args()
    from clashkit.studies.ladder import parse_policies

    policies = parse_policies(args.policies, least=1)
    sizes, clock, cpu = fast_rates(policies, args.games, args.seconds, args.rounds)
    print(
        "| policy (both seats) | games per second, fast engine | … by CPU time | games per second, reference engine "
        "| ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for policy in policies:
        fast, fast_cpu = clock[policy], cpu[policy]
        wall, _ = timed(policy, args.reference_games, "reference")
        reference = 2 * args.reference_games / wall
        print(f"| `{policy}` | {fast:,.1f} | {fast_cpu:,.1f} | {reference:,.1f} | {fast / reference:,.0f}× |")
    games = [2 * size for size in sizes.values()]
    print(
        f"\nFast engine: the median of {args.rounds} rounds, each playing every policy's batch in turn "
        f"({min(games):,}–{max(games):,} games, at least {args.seconds:g} s each); reference engine: "
        f"{2 * args.reference_games} games a policy; one process, the same run."
    )


if __name__ == "__main__":
    main()
