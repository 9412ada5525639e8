"""Draft games that reach the turn limit (R10.1): how many, and how they end with a longer limit.

Plays ``-n`` greedy draft games (R7.2, seed 0, as ``clashkit simulate --a draft --b draft
--no-events`` does), then the same games with a turn limit ten times longer, and prints one
Markdown list: the games that reached the limit, the median and mean length, and for those games
how they end when played on.

    python benchmarks/draft_limit.py -n 5000
"""

from __future__ import annotations

import argparse

import polars as pl

from clashkit.base.rules import Rules
from clashkit.runs.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = dict(seed=args.seed, record_events=False, progress=False)
    games = simulate(args.n, "draft", "draft", "greedy", **options).games
    limit = Rules().turn_limit
    longer = simulate(args.n, "draft", "draft", "greedy", rules={"turn_limit": 10 * limit}, **options).games
    stuck = games.filter(pl.col("winner").is_null())["game"]
    played_on = longer.filter(pl.col("game").is_in(stuck.implode()))
    ended = played_on.filter(pl.col("winner").is_not_null())
    winners = ended["winner"].cast(pl.String).value_counts().sort("winner")
    print(
        f"- {args.n:,} greedy draft games, seed {args.seed}: {len(stuck)} reached the {limit}-turn limit; "
        f"the median game lasted {games['turns'].median():.0f} turns, the mean {games['turns'].mean():.1f}."
    )
    if len(stuck):
        won = ", ".join(f"{row['count']} won by {row['winner']}" for row in winners.iter_rows(named=True))
        print(
            f"- Played on with a turn limit of {10 * limit:,}: {len(ended)} of the {len(stuck)} end, at turns "
            f"{ended['turns'].min()} to {ended['turns'].max()} ({won})."
        )


if __name__ == "__main__":
    main()
