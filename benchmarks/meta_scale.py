"""What a meta study finds for its time, against the simplest alternative: random decks.

For each policy, a meta study (``clashkit.studies.meta.meta``) at each of a few budgets, and beside it
the best of ``--random`` random decks of eight cards (each against the four starter decks, both
seats, ``--random-games`` seeds a pairing, the way a designer would try decks by hand), that best
deck measured again on fresh seeds so the comparison is not flattered by choosing the luckiest.
Prints one Markdown table: the budget, the decks searched, the games played, the seconds taken,
the best found deck's score against the starter decks (fresh seeds, 95% interval) and the random
baseline's.  Run it on a quiet machine: it times itself.

    python benchmarks/meta_scale.py --policies greedy,expert --budgets 60,150,300
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clashkit.base.cards import starter_set
from clashkit.base.rng import Rng
from clashkit.studies.meta import meta
from clashkit.studies.meta.games import FIELD, SEARCH, Arena, Match
from clashkit.studies.meta.space import DeckSpace


def best_random(space: DeckSpace, policy: str, count: int, games: int, fresh: int, seed: int, jobs: int):
    """The best of ``count`` random decks against the starter decks, and its score again on ``fresh`` seeds."""
    rng = Rng(seed)
    starters = list(space.starters().values())
    decks = []
    while len(decks) < count:
        deck = space.random_deck(rng)
        if deck not in decks and deck not in starters:
            decks.append(deck)
    arena = Arena(space.cards, policy, seed=seed, jobs=jobs)

    def plan():
        scores = yield [Match(d, s, SEARCH, games) for d in decks for s in starters]
        per = [np.concatenate(scores[i * 4 : i * 4 + 4]).mean() for i in range(count)]
        best = decks[int(np.argmax(per))]
        again = yield [Match(best, s, FIELD, fresh) for s in starters]
        return best, float(max(per)), np.concatenate(again)

    return arena.run(plan(), 2 * 4 * (count * games + fresh))


def interval(scores: np.ndarray) -> str:
    mean = scores.mean()
    half = 1.96 * scores.std(ddof=1) / np.sqrt(len(scores))
    return f"{100 * mean:.1f}% [{100 * (mean - half):.1f}, {100 * (mean + half):.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policies", default="greedy,expert")
    parser.add_argument("--budgets", default="60,150,300", help="Seconds a study, comma-separated.")
    parser.add_argument("--random", type=int, default=40, help="Random decks of the baseline.")
    parser.add_argument("--random-games", type=int, default=100, help="Seeds a pairing for the random decks.")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    space = DeckSpace(starter_set())
    print(
        "| policy | budget | decks searched | games | seconds | best found against the starter decks "
        f"(of the top, fresh seeds) | best of {args.random} random decks, measured again |"
    )
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    for policy in args.policies.split(","):
        started = time.perf_counter()
        deck, lucky, again = best_random(space, policy, args.random, args.random_games, 2000, args.seed, args.jobs)
        baseline = f"{interval(again)} (it scored {100 * lucky:.1f}% when chosen)"
        for budget in (float(b) for b in args.budgets.split(",")):
            started = time.perf_counter()
            study = meta(policy, budget_seconds=budget, seed=args.seed, jobs=args.jobs)
            seconds = time.perf_counter() - started
            decks = study.decks()
            best = decks.row(int(decks["vs_starters"].arg_max()), named=True)
            games = study.games
            low, high = 100 * best["vs_starters_low"], 100 * best["vs_starters_high"]
            found = f"{100 * best['vs_starters']:.1f}% [{low:.1f}, {high:.1f}]"
            print(
                f"| {policy} | {budget:.0f} s | {len(study.played.archive.tried):,} | {games:,} | {seconds:.0f} | "
                f"{found} | {baseline} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
