"""Does a bot's verdict on card sets it was never fitted on agree with an arbiter's?

    .venv/bin/python benchmarks/agreement.py [-n N] [--policy P] [--arbiter A] [--sets K]
                                             [--designer D] [--first-seed S] [--weights FILE]
                                             [--beside B] [--beside-n M] [--jobs J] [--json]

The sets come from :mod:`clashkit.studies.card_sets`, drawn from ``expert``'s
fitting set with generator seeds from ``--first-seed`` on, leaving out every
seed the shipped weights' fit drew its sets with (``card_sets`` in
``data/expert.json``):

- **unseen sets**: ``--sets`` seeds of each of the kinds ``moved`` and
  ``random``; on each, every deck's overall rate under the policy and under
  the arbiter (:func:`clashkit.studies.design.balance`, ``n`` games an
  ordered pairing, seed 0, each with its 95% interval), the difference, and
  the share of decks whose two rates lie within ±3 points;
- **designer additions**: ``--designer`` seeds of the kind ``designer`` (the
  fitting set with one new card in one starter deck); the paired change the
  new card makes to its deck's rate under each bot
  (:func:`clashkit.studies.design.compare` with both bots, the same seeds
  before and after) and whether the two agree: the same sign and within ±5
  points.

``--beside B`` adds a third bot's deck rates on the unseen sets, at ``--beside-n``
games an ordered pairing (the figure shows ``deep:leaf=plain`` there, the same
search without expert's evaluation).  ``--jobs`` worker processes play the games
(every core by default).

The arbiter is ``deep`` where that policy exists, else
``search:budget=16,fair``.  ``--weights FILE`` gives every bot that reads
``expert``'s weights a weights file of ``clashkit expert-train`` instead of
the shipped one — ``expert`` and ``deep`` alike (its leaf and its model of the
opponent), as shipping that file would — and takes the seeds to avoid from
it; the games then run in this process (``--jobs 1``: worker processes would
read the shipped file).
Prints Markdown tables, or with ``--json`` one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from clashkit.base.errors import OptionError
from clashkit.base.points import percent_text, points_text
from clashkit.base.shipped import shipped_file
from clashkit.policies import deep as deep_module
from clashkit.policies import expert as expert_module
from clashkit.policies import get_policy
from clashkit.studies.card_sets import draw, fit_set
from clashkit.studies.design import balance, compare
from clashkit.studies.expert_fit import fit_seeds

#: Two rates of a deck agree within this many rate units (±3 points).
RATE_AGREEMENT = 0.03
#: Two changes a new card makes agree in sign and within this many rate units (±5 points).
CHANGE_AGREEMENT = 0.05
#: The kinds of unseen set whose balances are compared.
UNSEEN_KINDS = ("moved", "random")


def default_arbiter() -> str:
    """``deep`` where it exists, else ``search:budget=16,fair``."""
    try:
        get_policy("deep")
    except OptionError:
        return "search:budget=16,fair"
    return "deep"


def unseen_seeds(count: int, first: int, avoid: set[int]) -> list[int]:
    """``count`` generator seeds from ``first`` on, none of them in ``avoid``."""
    out: list[int] = []
    seed = first
    while len(out) < count:
        if seed not in avoid:
            out.append(seed)
        seed += 1
    return out


def use_weights(path: Path) -> set[int]:
    """Every bot of this process that reads ``expert``'s shipped weights (``expert``; ``deep``'s leaf
    and model) reads the weights file ``path`` instead; its fit's generator seeds."""
    data = json.loads(path.read_text())
    weights = tuple(float(w) for w in data["weights"])
    for module in (expert_module, deep_module):
        module.shipped_weights = lambda: weights  # type: ignore[assignment]
    return fit_seeds(data)


def deck_rows(name: str, n: int, cards, policy: str, arbiter: str, jobs: int | None = 1) -> list[dict]:
    """Each deck's rate under ``policy`` and ``arbiter`` on ``cards``, with 95% intervals."""
    rates = {p: balance(n, cards=cards, policy=p, seed=0, jobs=jobs).decks for p in (policy, arbiter)}
    rows = []
    for mine, theirs in zip(rates[policy].iter_rows(named=True), rates[arbiter].iter_rows(named=True), strict=True):
        difference = mine["rate"] - theirs["rate"]
        rows.append(
            {
                "set": name,
                "deck": mine["deck"],
                "rate": mine["rate"],
                "low": mine["low"],
                "high": mine["high"],
                "arbiter_rate": theirs["rate"],
                "arbiter_low": theirs["low"],
                "arbiter_high": theirs["high"],
                "difference": difference,
                "within": abs(difference) <= RATE_AGREEMENT,
                "games": mine["games"],
            }
        )
    return rows


def beside_rates(rows: list[dict], name: str, n: int, cards, beside: str, jobs: int | None = 1) -> None:
    """Each deck's rate under a third bot ``beside`` (``n`` games an ordered pairing), added to the
    rows of set ``name`` as ``beside_rate``, ``beside_low``, ``beside_high``."""
    decks = balance(n, cards=cards, policy=beside, seed=0, jobs=jobs).decks
    by_deck = {r["deck"]: r for r in decks.iter_rows(named=True)}
    for row in rows:
        if row["set"] == name:
            mine = by_deck[row["deck"]]
            row.update(beside_rate=mine["rate"], beside_low=mine["low"], beside_high=mine["high"])


def addition_row(drawn, n: int, before, policy: str, arbiter: str, jobs: int | None = 1) -> dict:
    """The paired change ``drawn``'s new card makes to its deck's rate under each bot."""
    compared = compare(before, drawn.cards, n, policies=[policy, arbiter], seed=0, jobs=jobs)
    changes = {}
    for p, comparison in compared.comparisons.items():
        row = comparison.changes.filter(comparison.changes["deck"] == drawn.deck).row(0, named=True)
        changes[p] = (row["change"], row["change_low"], row["change_high"])
    mine, theirs = changes[policy][0], changes[arbiter][0]
    return {
        "set": drawn.label,
        "deck": drawn.deck,
        "card": drawn.cards.card(drawn.new_card).describe(),
        "replaced": drawn.replaced,
        "change": mine,
        "change_low": changes[policy][1],
        "change_high": changes[policy][2],
        "arbiter_change": theirs,
        "arbiter_change_low": changes[arbiter][1],
        "arbiter_change_high": changes[arbiter][2],
        "same_sign": math.copysign(1, mine) == math.copysign(1, theirs) or mine == theirs,
        "within": abs(mine - theirs) <= CHANGE_AGREEMENT,
    }


def interval(low: float, high: float) -> str:
    return f"{percent_text(low, 1, '')}–{percent_text(high, 1, '')}"


def report(result: dict) -> str:
    """The Markdown tables of ``result``."""
    p, a, b = result["policy"], result["arbiter"], result.get("beside")
    third = f" | {b} ({result['beside_n']} games) | 95%" if b else ""
    lines = [
        f"Unseen sets: each deck's rate under `{p}` and `{a}`, {result['n']} games an ordered pairing"
        + (f"; beside them `{b}`, {result['beside_n']} games an ordered pairing" if b else ""),
        "",
        f"| set | deck | {p} | 95% | {a} | 95% | difference | within ±3{third} |",
        "| --- | ---: | ---: | --- | ---: | --- | ---: | ---" + (" | ---: | --- |" if b else " |"),
    ]
    for r in result["decks"]:
        extra = f" | {percent_text(r['beside_rate'])} | {interval(r['beside_low'], r['beside_high'])}" if b else ""
        lines.append(
            f"| {r['set']} | {r['deck']} | {percent_text(r['rate'])} | {interval(r['low'], r['high'])} | "
            f"{percent_text(r['arbiter_rate'])} | {interval(r['arbiter_low'], r['arbiter_high'])} | "
            f"{points_text(r['difference'])} | {'yes' if r['within'] else 'no'}{extra} |"
        )
    lines += [
        "",
        f"Decks within ±3 points: {result['decks_within']} of {len(result['decks'])} "
        f"({percent_text(result['share_within'])}); the mean distance of the two rates: "
        f"{points_text(result['mean_distance'], signed=False)} points.",
        "",
        f"Designer additions: the change the new card makes to its deck, paired, {result['n']} games "
        "an ordered pairing",
        "",
        f"| set | deck | {p} | 95% | {a} | 95% | same sign | within ±5 |",
        "| --- | ---: | ---: | --- | ---: | --- | --- | --- |",
    ]
    for r in result["additions"]:
        lines.append(
            f"| {r['set']} | {r['deck']} | {points_text(r['change'])} | "
            f"[{points_text(r['change_low'])}, {points_text(r['change_high'])}] | {points_text(r['arbiter_change'])} | "
            f"[{points_text(r['arbiter_change_low'])}, {points_text(r['arbiter_change_high'])}] | "
            f"{'yes' if r['same_sign'] else 'no'} | {'yes' if r['within'] else 'no'} |"
        )
    lines += [
        "",
        f"Additions that agree (same sign, within ±5 points): {result['additions_agree']} of "
        f"{len(result['additions'])}; the mean distance of the two changes: "
        f"{points_text(result['mean_change_distance'], signed=False)} points.",
        f"({result['seconds']:.0f} s)",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100, help="games an ordered pairing (default 100)")
    parser.add_argument("--policy", default="expert", help="the bot checked (default expert)")
    parser.add_argument("--arbiter", default=None, help="the bot it is checked against (default deep if it exists)")
    parser.add_argument("--sets", type=int, default=2, help="unseen seeds of each of moved and random (default 2)")
    parser.add_argument("--designer", type=int, default=5, help="designer additions (default 5)")
    parser.add_argument("--first-seed", type=int, default=10_001, help="the first generator seed (default 10001)")
    parser.add_argument("--weights", type=Path, default=None, help="expert's weights file (default: the shipped one)")
    parser.add_argument("--beside", default=None, help="a third bot whose deck rates are shown beside (unseen sets)")
    parser.add_argument("--beside-n", type=int, default=100, help="games an ordered pairing for --beside (100)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default 0: one per core)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    jobs = args.jobs or None
    if args.weights and args.jobs != 1:
        parser.error("--weights plays in this process only: give --jobs 1")
    if args.n < 1 or min(args.sets, args.designer) < 0 or args.sets + args.designer < 1:
        parser.error("-n must be at least 1, --sets and --designer at least 0, one of them more")
    arbiter = args.arbiter or default_arbiter()
    shipped = shipped_file(expert_module.SHIPPED)
    avoid = use_weights(args.weights) if args.weights else fit_seeds(json.loads(shipped.read_text()))
    started = time.perf_counter()
    seeds = unseen_seeds(args.sets + args.designer, args.first_seed, avoid)
    decks: list[dict] = []
    for seed in seeds[: args.sets]:
        for kind in UNSEEN_KINDS:
            drawn = draw(kind, seed)
            decks += deck_rows(drawn.label, args.n, drawn.cards, args.policy, arbiter, jobs)
            if args.beside:
                beside_rates(decks, drawn.label, args.beside_n, drawn.cards, args.beside, jobs)
    base = fit_set()
    additions = [
        addition_row(draw("designer", s), args.n, base, args.policy, arbiter, jobs) for s in seeds[args.sets :]
    ]
    within = sum(r["within"] for r in decks)
    result = {
        "policy": args.policy,
        "arbiter": arbiter,
        "n": args.n,
        "beside": args.beside,
        "beside_n": args.beside_n if args.beside else None,
        "weights": str(args.weights or shipped.name),
        "seeds": seeds,
        "decks": decks,
        "decks_within": within,
        "share_within": within / len(decks) if decks else None,
        "mean_distance": sum(abs(r["difference"]) for r in decks) / len(decks) if decks else None,
        "additions": additions,
        "additions_agree": sum(r["same_sign"] and r["within"] for r in additions),
        "mean_change_distance": (
            sum(abs(r["change"] - r["arbiter_change"]) for r in additions) / len(additions) if additions else None
        ),
        "seconds": time.perf_counter() - started,
    }
    print(json.dumps(result) if args.json else report(result))


if __name__ == "__main__":
    sys.exit(main())
