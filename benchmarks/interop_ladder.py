"""The ladder of docs/interop.md: OpenSpiel's IS-MCTS at three budgets beside greedy and fair search.

    .venv/bin/python benchmarks/interop_ladder.py            # plays it (about 30 min on a shared 2-core machine)
    .venv/bin/python benchmarks/interop_ladder.py --from DIR # a ladder already played with --out DIR

Prints the ratings as a Markdown table and writes the chart (``clashkit.viz.chart_ladder``)
to ``docs/interop-ladder.svg``; every game is on the reference engine, one process.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICIES = "greedy,search:fair,openspiel:ismcts,budget=8,openspiel:ismcts,budget=32,openspiel:ismcts,budget=128"
CHART = ROOT / "docs" / "interop-ladder.svg"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="folder", type=Path, help="a ladder's --out folder (games and ratings)")
    parser.add_argument("-n", type=int, default=1, help="games per deck pairing, pair and seat")
    args = parser.parse_args()
    folder = args.folder
    if folder is None:
        folder = ROOT / "runs" / "interop-ladder"
        command = [sys.executable, "-m", "clashkit", "ladder", "--policies", POLICIES, "-n", str(args.n)]
        command += ["--seed", "0", "--engine", "reference", "--jobs", "1", "--no-progress", "--out", str(folder)]
        subprocess.run(command, check=True, cwd=ROOT)

    import polars as pl

    from clashkit.viz import chart_ladder

    ratings = pl.read_parquet(next(folder.rglob("ratings.parquet")))
    chart_ladder(ratings).save(str(CHART))
    print("| policy | rating (Elo scale) | 95% interval | score | games |")
    print("| --- | ---: | --- | ---: | ---: |")
    for r in ratings.iter_rows(named=True):
        print(
            f"| {r['policy']} | {r['rating']:.0f} | {r['low']:.0f}–{r['high']:.0f} "
            f"| {100 * r['score']:.1f}% | {r['games']} |"
        )


if __name__ == "__main__":
    main()
