"""Balance of the starter set: each starter deck against each other deck, both seats.

    python benchmarks/balance.py                 # 2,000 games a pairing, greedy vs greedy, 2 jobs
    python benchmarks/balance.py --n 500 --policy search:budget=8 --cards my_cards.csv

Prints the README's "Balance of the starter set" table: the row deck's win
rate against the column deck over both seats, with 95% Wilson intervals,
then the first player's win rate over every game (see
:mod:`clashkit.analysis`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clashkit.analysis import balance_markdown, deck_matchups  # noqa: E402
from clashkit.cards import load_cards, starter_set  # noqa: E402
from clashkit.cli import one_line_errors  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--n", type=int, default=2000, help="games per ordered pairing (default 2000)"
    )
    parser.add_argument(
        "--policy", default="greedy", help="the policy of both players (default greedy)"
    )
    parser.add_argument("--cards", help="a card file instead of the shipped set")
    parser.add_argument("--seed", type=int, default=0, help="master seed (pairing k uses seed + k)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (0: one per core)")
    args = parser.parse_args()
    cards = load_cards(args.cards) if args.cards else starter_set()
    started = time.perf_counter()
    matchups = deck_matchups(
        args.n, policy=args.policy, cards=cards, seed=args.seed, jobs=args.jobs or None
    )
    seconds = time.perf_counter() - started
    print(f"{args.policy} vs {args.policy}, {args.n:,} games a pairing, seeds {args.seed}+k:\n")
    print(balance_markdown(matchups))
    print(f"\n({int(matchups['games'].sum()):,} games in {seconds:.0f} s)")


if __name__ == "__main__":
    with one_line_errors():  # a bad card file or option: one line and exit 2, as on the command line
        main()
