"""Solo difficulty calibration (R8.9), reproduced in one command.

    python benchmarks/solo_calibration.py                  # the tables of docs/guide/solo.md
    python benchmarks/solo_calibration.py -n 500 --combinations 0 --policy greedy

Plays ``-n`` solo games (seeds ``--seed`` … ``--seed + n - 1``, the player
drafting against the AI with ``--policy``) for the quick game, each single
setting at each of its values, and each level's default combination; then,
unless ``--combinations 0``, every one of the 720 combinations of the points
table with that many games each (on other seeds, from ``--seed + 1_000_000``),
to see how well the points order difficulty overall; ``--decks 1,2,3,4`` adds
the quick game and the level defaults for those decks.  Prints the markdown
tables of the "Solo difficulty" page (docs/guide/solo.md); ``--out DIR`` also writes
the frames as Parquet, ``--json`` prints one JSON object instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import polars as pl

from clashkit.studies.calibration import (
    calibrate,
    every_combination,
    markdown_table,
    plan,
    points_order,
    points_summary,
    suggest_levels,
)

COMBINATION_SEEDS = 1_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="games per configuration (default 2000)")
    parser.add_argument("--policy", default="greedy", help="the player's policy (default greedy)")
    parser.add_argument("--deck", default="draft", help="the player's deck: 1-4, draft or 8 names")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument(
        "--combinations",
        type=int,
        default=500,
        metavar="N",
        help="games for each of the 720 combinations (default 500; 0 skips them)",
    )
    parser.add_argument(
        "--decks",
        default="",
        metavar="D,D",
        help="also the quick game and the level defaults for these decks (e.g. 1,2,3,4)",
    )
    parser.add_argument(
        "--table",
        choices=["all", "main", "combinations", "decks"],
        default="all",
        help="print only this table (benchmarks/figures.py puts each in its place in docs/guide/solo.md)",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the frames as Parquet here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    progress = not args.json and sys.stderr.isatty()
    started = time.perf_counter()
    main_frame = calibrate(args.n, args.policy, deck=args.deck, seed=args.seed, jobs=args.jobs, progress=progress)
    verdict = points_order(main_frame)
    every = None
    if args.combinations and args.table in ("all", "combinations"):
        every = calibrate(
            args.combinations,
            args.policy,
            deck=args.deck,
            seed=args.seed + COMBINATION_SEEDS,
            jobs=args.jobs,
            configurations=every_combination(),
            progress=progress,
        )
    by_deck = {}
    wanted = args.decks if args.table in ("all", "decks") else ""
    for deck in filter(None, (d.strip() for d in wanted.split(","))):
        by_deck[deck] = calibrate(
            args.n,
            args.policy,
            deck=deck,
            seed=args.seed,
            jobs=args.jobs,
            configurations=plan(singles=False),
            progress=progress,
        )
    seconds = time.perf_counter() - started
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        main_frame.write_parquet(args.out / "solo_calibration.parquet")
        if every is not None:
            every.write_parquet(args.out / "solo_combinations.parquet")
        for deck, frame in by_deck.items():
            frame.write_parquet(args.out / f"solo_levels_deck_{deck}.parquet")

    summary = points_summary(every) if every is not None else None
    rho = _spearman(every) if every is not None else None
    if args.json:
        out = {
            "policy": args.policy,
            "deck": args.deck,
            "games": args.n,
            "seed": args.seed,
            "seconds": round(seconds, 1),
            "rows": main_frame.to_dicts(),
            "order": verdict,
        }
        if every is not None:
            out["combinations"] = {
                "games": args.combinations,
                "spearman_points_vs_win_rate": rho,
                "by_points": summary.to_dicts(),
                "suggested_levels": suggest_levels(every),
            }
        out["by_deck"] = {deck: frame.to_dicts() for deck, frame in by_deck.items()}
        print(json.dumps(out))
        return 0

    if args.table == "combinations" and every is not None:
        _print_combinations(args, summary, rho)
        return 0
    if args.table == "decks":
        _print_decks(args, by_deck)
        return 0
    print(
        f"player: {args.policy}, deck: {args.deck}, {args.n} games per row "
        f"(seeds {args.seed}–{args.seed + args.n - 1}), {seconds:.0f} s\n"
    )
    print(markdown_table(main_frame))
    print()
    print(
        f"Single settings: {verdict['concordant']} of {verdict['pairs']} pairs with different "
        f"points are ordered as the points say, {verdict['discordant']} clearly inverted "
        f"(95% intervals apart), "
        f"{verdict['unresolved']} unresolved; Kendall tau-b {verdict['kendall_tau']:.2f}."
    )
    print(
        "Level defaults fall level by level (1 to 5): "
        f"{'yes' if verdict['levels_fall'] else 'NO'}; "
        f"the quick game is easier than level 1: {'yes' if verdict['quick_easiest'] else 'no'}."
    )
    for low, low_points, high, high_points in verdict["inversions"]:
        print(f"- `{high}` ({high_points:+d}) is easier than `{low}` ({low_points:+d})")
    if args.table == "main":
        return 0
    _print_combinations(args, summary, rho)
    _print_decks(args, by_deck)
    return 0


def _print_combinations(args, summary, rho) -> None:
    if summary is not None:
        print(
            f"\nAll 720 combinations, {args.combinations} games each "
            f"(Spearman rho between points and win rate: {rho:.2f}):\n"
        )
        print("| points | combinations | lowest | median | highest | easiest combination |")
        print("| ---: | ---: | ---: | ---: | ---: | --- |")
        for r in summary.iter_rows(named=True):
            print(
                f"| {r['points']:+d} | {r['combinations']} | {100 * r['lowest']:.1f}% | "
                f"{100 * r['median']:.1f}% | {100 * r['highest']:.1f}% | `{r['easiest']}` |"
            )


def _print_decks(args, by_deck) -> None:
    if by_deck:
        print(f"\nQuick game and level defaults by deck ({args.n} games each):\n")
        labels = next(iter(by_deck.values()))["label"].to_list()
        print("| deck | " + " | ".join(labels) + " |")
        print("| --- |" + " ---: |" * len(labels))
        for deck, frame in by_deck.items():
            cells = [f"{100 * w:.1f}%" for w in frame["win_rate"]]
            print(f"| {deck} | " + " | ".join(cells) + " |")


def _spearman(frame: pl.DataFrame) -> float:
    return frame.select(pl.corr("points", "win_rate", method="spearman")).item()


if __name__ == "__main__":
    sys.exit(main())
