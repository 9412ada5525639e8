"""Notebook 02's question answered from a run: how often deck 1 wins by the place BARON was dealt in
its hand (R2.2, R3.2), from the games frame's ``hand_a`` / ``hand_b``.

    .venv/bin/python benchmarks/deal_position.py [-n N] [--policy P] [--card NAME]

Deck 1 (which holds BARON) against decks 2, 3 and 4, in both seats, ``N`` games a pairing, seed 0
(pairing ``k`` seeded ``k``), on the fast engine; the table is
:func:`clashkit.studies.analysis.win_rate_by_position` of the games frame.
"""

from __future__ import annotations

import argparse

import polars as pl

from clashkit.runs.simulate import simulate
from clashkit.studies.analysis import position_markdown, win_rate_by_position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="games a pairing (6 pairings)")
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--card", default="BARON")
    args = parser.parse_args()
    pairings = [(a, b) for other in ("2", "3", "4") for a, b in (("1", other), (other, "1"))]
    games = pl.concat(
        simulate(args.n, a, b, args.policy, seed=k, record_events=False, progress=False).games
        for k, (a, b) in enumerate(pairings)
    )
    table = win_rate_by_position(games, args.card)
    print(position_markdown(table, args.card))
    print()
    print(
        f"{table['games'].sum():,} games of deck 1 against decks 2–4 in both seats, "
        f"`{args.policy}` against `{args.policy}`, {args.n:,} games a pairing."
    )


if __name__ == "__main__":
    main()
