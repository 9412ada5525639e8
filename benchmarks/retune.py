"""The starter set beside its neighbours, at every strength a designer trusts: each deck's overall
rate, the first player's and the worst ordered pairing under ``greedy``, ``expert`` and ``deep``.

    .venv/bin/python benchmarks/retune.py                      # the balance guide's table
    .venv/bin/python benchmarks/retune.py -n 500 --deep-n 60   # quicker, noisier

Each set is the shipped card file with a few changes (:data:`SETS`): the set before the last
retune, the shipped set, and the strongest alternative the retune's search found.  Every set is
played on the same seeds (``--seed``, games ``0 … n−1`` of every ordered pairing), ``greedy`` and
``expert`` ``-n`` games a pairing, ``deep`` ``--deep-n`` (it is the slowest bot by far: the
policy-speed figure of the bots guide).  Printed as Markdown: one table of rates, then the distance from the targets of
the balance guide (each deck 45–55%, each ordered pairing 35–65%, the first player at most 56%
under ``expert`` and ``deep`` and 58% under ``greedy``) and how far ``expert`` and ``deep``
disagree on each deck: while they disagree by more than 10 points on a deck, no set can bring
that deck within 45–55% at both.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

from clashkit.base.cards import starter_set
from clashkit.studies.analysis import first_player
from clashkit.studies.design.changes import Change, apply_changes
from clashkit.studies.design.matrix import balance

#: The sets measured, as changes to the shipped card file.
SETS: dict[str, tuple[Change, ...]] = {
    "before (CYCLONE 2 mana, CARAPACE 2 mana)": (
        Change("CYCLONE", "cost", 3, 2),
        Change("CARAPACE", "cost", 3, 2),
    ),
    "shipped": (),
    "shipped + COMBUSTION empower 3, ABERRATION attack 5": (
        Change("COMBUSTION", "amount", 2, 3),
        Change("ABERRATION", "attack", 4, 5),
    ),
}

STRENGTHS = ("greedy", "expert", "deep")
#: The first player's target under each strength (the decks' and pairings' are the same for all).
FIRST_AT_MOST = {"greedy": 58.0, "expert": 56.0, "deep": 56.0}
DECK_BAND, PAIRING_BAND = 5.0, 15.0


def misses(decks: list[float], pairings: list[float], first: float, policy: str) -> tuple[float, float, float]:
    """Points (of a rate in %) by which the farthest deck, the farthest ordered pairing and the first
    player miss their targets under ``policy``; 0 where the target is met."""
    return (
        max(0.0, max(abs(x - 50) for x in decks) - DECK_BAND),
        max(0.0, max(abs(x - 50) for x in pairings) - PAIRING_BAND),
        max(0.0, first - FIRST_AT_MOST[policy]),
    )


def measure(label: str, policy: str, n: int, seed: int) -> dict:
    """:func:`rates` of the set :data:`SETS` names ``label``."""
    return rates(SETS[label], policy, n, seed)


def rates(changes: tuple[Change, ...], policy: str, n: int, seed: int) -> dict:
    """The shipped set with ``changes`` played by ``policy``, ``n`` games an ordered pairing from
    ``seed``: each deck's rate, each ordered pairing's (seat A's wins), the first player's (%), and
    the pairing farthest from 50%."""
    played = balance(n, cards=apply_changes(starter_set(), changes), policy=policy, seed=seed, jobs=1)
    rows = played.matchups.select("deck_a", "deck_b").rows()
    rates = [100 * r for r in played.a_rates]
    worst = max(range(len(rates)), key=lambda i: abs(rates[i] - 50))
    return {
        "decks": [100 * r for r in played.decks["rate"].to_list()],
        "pairings": rates,
        "first": 100 * first_player(played.matchups)[0],
        "pairing": (rows[worst], rates[worst]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="games a pairing for greedy and expert")
    parser.add_argument("--deep-n", type=int, default=300, help="games a pairing for deep")
    parser.add_argument("--seed", type=int, default=7777)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    jobs = [(label, p) for label in SETS for p in STRENGTHS]
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:  # no fork of threads
        futures = {
            job: pool.submit(measure, *job, args.deep_n if job[1] == "deep" else args.n, args.seed) for job in jobs
        }
        got = {job: f.result() for job, f in futures.items()}

    print(
        f"Seeds {args.seed}+k; greedy and expert {args.n:,} games an ordered pairing, deep {args.deep_n:,}; "
        "every set on the same games.\n"
    )
    print("| set | strength | deck 1 | deck 2 | deck 3 | deck 4 | first player | worst ordered pairing |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for label, p in jobs:
        r = got[label, p]
        (a, b), rate = r["pairing"]
        decks = " | ".join(f"{x:.1f}" for x in r["decks"])
        print(f"| {label} | {p} | {decks} | {r['first']:.1f}% | {a} v {b}: {rate:.1f}% |")

    print("\nPoints beyond each target (0: met) and the largest of them; then `expert` − `deep`, deck by deck:\n")
    print("| set | strength | decks | pairings | first player | worst |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for label, p in jobs:
        r = got[label, p]
        over = misses(r["decks"], r["pairings"], r["first"], p)
        print(f"| {label} | {p} | {over[0]:.1f} | {over[1]:.1f} | {over[2]:.1f} | **{max(over):.1f}** |")
    print("\n| set | deck 1 | deck 2 | deck 3 | deck 4 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label in SETS:
        gaps = [e - d for e, d in zip(got[label, "expert"]["decks"], got[label, "deep"]["decks"], strict=True)]
        print(f"| {label} | " + " | ".join(f"{g:+.1f}" for g in gaps) + " |")
    print(f"\n({time.perf_counter() - started:.0f} s, {args.jobs} processes)")


if __name__ == "__main__":
    main()
