"""Screen single card changes at ``greedy``, ``expert`` and ``deep`` at once: the search that found
the shipped retune, one round of it.

    # from the set before the retune: weaken deck 4, strengthen deck 2 (numbers, and CYCLONE's text)
    .venv/bin/python benchmarks/retune_screen.py --from "CYCLONE cost 3 2" --from "CARAPACE cost 3 2" \
        --toward 4=-1,2=+1 --numbers-only --card CYCLONE
    # from the shipped set: strengthen decks 2 and 4, weaken deck 3
    .venv/bin/python benchmarks/retune_screen.py --toward 2=+1,3=-1,4=+1 --numbers-only

``clashkit tune --policies greedy,expert,deep`` plays every strength on the same ``-n``; ``deep``
is the slowest bot by far (the policy-speed figure of the bots guide), so a round of it spends
nearly all its time there.
This screen plays ``deep`` on fewer games (``--deep-n``) than the others (``-n``), every
candidate on the same seeds.  The candidates are the tuner's own
(:func:`clashkit.studies.design.changes.candidates` with ``keep_character``, the fields of
``--fields``), after the changes ``--from`` makes to the shipped card file (each
``"CARD field OLD NEW"``), kept when they move their deck the way ``--toward`` asks (``4=-1``:
weaken deck 4).  A change of what a card does, whose direction the board decides, is kept
unless ``--numbers-only``, and for the cards ``--card`` names in any case.

Printed as Markdown, best first: each candidate's deck rates and first player's rate at each
strength, and its **excess**: the largest number of points by which
a deck (45–55%), an ordered pairing (35–65%, counted a third) or the first player (at most 58%
under ``greedy``, 56% under the others, counted 1/1.2) misses its target at any strength (0: all
met); then the range, over every set played, of ``expert`` − ``deep`` for each deck.
``--jsonl FILE`` keeps every row.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from retune import STRENGTHS, misses, rates  # the targets and the measure, in one place

from clashkit.base.cards import starter_set
from clashkit.studies.design.changes import Change, apply_changes, candidates, direction

FIELDS = "cost,attack,health,amount,ability,aura,effect,target"


def parse_change(text: str) -> Change:
    """``"CARD field OLD NEW"`` (a name with a space is not a starter card)."""
    card, field, old, new = text.split(maxsplit=3)
    number = lambda v: int(v) if v.lstrip("-").isdigit() else v  # noqa: E731
    return Change(card, field, number(old), number(new))


def parse_toward(text: str) -> dict[int, int]:
    out = {}
    for part in filter(None, text.split(",")):
        deck, sign = part.split("=")
        out[int(deck)] = 1 if int(sign) > 0 else -1
    return out


def screened(base: list[Change], toward: dict[int, int], fields: list[str], cards: list[str], numbers_only: bool):
    """The tuner's candidates after ``base`` that move their deck as ``toward`` asks."""
    shipped = starter_set()
    now = apply_changes(shipped, base)
    done = {(c.card, c.field) for c in base}
    out = []
    for change in candidates(now, fields, 1, keep_character=True, base=shipped, done=done):
        deck = now.card(change.card).deck
        if deck not in toward:
            continue
        if isinstance(change.new, int):
            keep = direction(change) == toward[deck]
        else:
            keep = (not numbers_only or change.card in cards) and direction(change) in (0, toward[deck])
        if keep:
            out.append(change)
    return out


def measure(changes: tuple[Change, ...], n: int, deep_n: int, seed: int) -> dict:
    """:func:`retune.rates` at every strength (``deep`` on ``deep_n`` games), to a tenth of a point."""
    out = {}
    for policy in STRENGTHS:
        r = rates(changes, policy, deep_n if policy == "deep" else n, seed)
        out[policy] = {
            "decks": [round(x, 1) for x in r["decks"]],
            "pairs": [round(x, 1) for x in r["pairings"]],
            "first": round(r["first"], 1),
        }
    return out


def played(sets: list[tuple[str, tuple[Change, ...]]], args: argparse.Namespace) -> list[dict]:
    """:func:`measure` of every set, in this process with one job, else in fresh processes (spawned:
    a fork of a process whose thread pools are running may hang)."""
    if args.jobs == 1:
        return [measure(changes, args.n, args.deep_n, args.seed) for _, changes in sets]
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as workers:
        futures = [workers.submit(measure, changes, args.n, args.deep_n, args.seed) for _, changes in sets]
        return [f.result() for f in futures]


def excess(result: dict) -> float:
    """The largest miss of a target at any strength (:func:`retune.misses`), a pairing's counted a
    third and the first player's 1/1.2 (0: every target met)."""
    return max(
        max(deck, pairing / 3, first / 1.2)
        for policy, r in result.items()
        for deck, pairing, first in [misses(r["decks"], r["pairs"], r["first"], policy)]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--from", dest="start", action="append", default=[], help='a change made first: "CARD field OLD NEW"'
    )
    parser.add_argument("--toward", required=True, help="decks and the way to move them: 4=-1,2=+1")
    parser.add_argument("--fields", default=FIELDS)
    parser.add_argument("--numbers-only", action="store_true", help="changes of numbers only (but for --card)")
    parser.add_argument("--card", action="append", default=[], help="also every change of what this card does")
    parser.add_argument("-n", type=int, default=300, help="games a pairing for greedy and expert")
    parser.add_argument("--deep-n", type=int, default=60, help="games a pairing for deep")
    parser.add_argument("--seed", type=int, default=4401)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="only the first L candidates")
    parser.add_argument("--jsonl", default=None, help="append every row to this file")
    args = parser.parse_args(argv)

    base = [parse_change(text) for text in args.start]
    pool = screened(base, parse_toward(args.toward), args.fields.split(","), args.card, args.numbers_only)
    pool = pool[: args.limit] if args.limit is not None else pool
    sets = [("start", tuple(base))] + [(str(c), (*base, c)) for c in pool]
    print(f"{len(pool)} candidates after {', '.join(map(str, base)) or 'the shipped set'}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    rows = [(label, result) for (label, _), result in zip(sets, played(sets, args), strict=True)]
    if args.jsonl:
        with open(args.jsonl, "a", encoding="utf-8") as out:
            for label, result in rows:
                print(json.dumps({"label": label, "excess": excess(result), "result": result}), file=out)

    print(f"Seeds {args.seed}+k; greedy and expert {args.n:,} games an ordered pairing, deep {args.deep_n:,}.\n")
    print("| change | excess | greedy decks, first | expert decks, first | deep decks, first |")
    print("| --- | ---: | --- | --- | --- |")
    for label, result in sorted(rows, key=lambda row: excess(row[1])):
        cells = " | ".join(
            f"{' / '.join(f'{x:.1f}' for x in result[p]['decks'])}, {result[p]['first']:.1f}%" for p in STRENGTHS
        )
        print(f"| {label} | {excess(result):.1f} | {cells} |")
    print("\n`expert` − `deep` over every set played (points):\n")
    for deck in range(4):
        gaps = [r["expert"]["decks"][deck] - r["deep"]["decks"][deck] for _, r in rows]
        print(f"- deck {deck + 1}: {min(gaps):+.1f} to {max(gaps):+.1f}")
    print(f"\n({time.perf_counter() - started:.0f} s, {args.jobs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
