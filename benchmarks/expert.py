"""``expert`` in one run: how long its fitting takes, where it stands on the ladder, what it costs.

    .venv/bin/python benchmarks/expert.py [-n N] [--rounds R]

Three parts, printed as Markdown:

- **fitting**: ``clashkit expert-train`` with its defaults (what ``make expert``
  runs), into a temporary file, in a new process; its time by the clock and
  of CPU, the positions of each round, and whether the file it writes is the
  shipped ``data/expert.json`` byte for byte;
- **the ladder** of ``greedy``, ``search:fair``, ``search:budget=64,fair``
  and ``expert``: ``clashkit ladder --policies … -n N`` (seed 0, every core),
  and ``expert``'s rating less ``search:fair``'s;
- **the speed**: self-play on one core of the fast engine, measured as
  ``benchmarks/policy_speed.py`` measures it (each policy's batch at least a
  second, R rounds playing every policy in turn, the median counts), and
  ``expert``'s rate over ``search:fair``'s and over ``greedy``'s.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from command import children_cpu
from policy_speed import fast_rates

from clashkit.base.shipped import shipped_file
from clashkit.policies.expert import SHIPPED
from clashkit.studies.ladder import ladder

ROOT = Path(__file__).resolve().parent.parent
LADDER = ("greedy", "search:fair", "search:budget=64,fair", "expert")
SPEED = ("greedy", "search:fair", "expert")
#: The issue's bars: expert at least search:fair's rating less this, and this many times its speed.
RATING_FLOOR = -25
SPEED_FLOOR = 20


def fitting() -> list[str]:
    """``clashkit expert-train`` with its defaults into a temporary file, timed, compared with the shipped file."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "expert.json"
        cpu, started = children_cpu(), time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "clashkit", "expert-train", "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        wall, cpu = time.perf_counter() - started, children_cpu() - cpu
        made = out.read_bytes()
    rounds = [
        f"round {m[1]}: {int(m[2]):,} positions of {int(m[3]):,} games"
        for m in re.finditer(r"round (\d+): (\d+) positions from (\d+) games", done.stderr)
    ]
    same = made == shipped_file(SHIPPED).read_bytes()
    verdict = f"the shipped `{SHIPPED}`, byte for byte" if same else f"NOT the shipped `{SHIPPED}`"
    return [
        f"**Fitting** (`clashkit expert-train`, the defaults `make expert` uses, on the reference engine in one "
        f"process): {wall:.1f} s by the clock, {cpu:.1f} s of CPU; {'; '.join(rounds)}. The file it writes "
        f"({len(made):,} bytes) is {verdict}."
    ]


def rated(n: int) -> list[str]:
    """The ladder of :data:`LADDER`, ``n`` games per deck pairing and seat, and expert's margin."""
    started = time.perf_counter()
    result = ladder(LADDER, n, seed=0, jobs=0)
    seconds = time.perf_counter() - started
    rating = dict(zip(result.ratings["policy"], result.ratings["rating"], strict=True))
    margin = rating["expert"] - rating["search:fair"]
    return [
        f"**The ladder** (`clashkit ladder --policies {','.join(LADDER)} -n {n}`, seed 0: "
        f"{result.games.height:,} games in {seconds:.0f} s on every core):",
        "",
        str(result),
        "",
        f"`expert` less `search:fair`: {margin:+.0f} Elo points (the floor: {RATING_FLOOR:+d}).",
    ]


def speed(rounds: int) -> list[str]:
    """Self-play rates of :data:`SPEED` on one core of the fast engine and expert's ratios."""
    _, _, rate = fast_rates(SPEED, rounds=rounds)
    over_search = rate["expert"] / rate["search:fair"]
    over_greedy = rate["expert"] / rate["greedy"]
    return [
        f"**The speed** (self-play, one core, the fast engine; games per CPU second, the median of {rounds} "
        f"rounds, each playing every policy's batch of at least a second in turn): `greedy` "
        f"{rate['greedy']:,.0f}, `search:fair` {rate['search:fair']:,.1f}, `expert` {rate['expert']:,.1f}: "
        f"`expert` at **{over_search:.1f}×** `search:fair` (the floor: {SPEED_FLOOR}×) and at "
        f"1/{1 / over_greedy:.0f} of `greedy`."
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="ladder: games per deck pairing and seat (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="speed: rounds, the median counts (default 5)")
    args = parser.parse_args()
    for part in (fitting(), rated(args.n), speed(args.rounds)):
        print("\n".join(part), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
