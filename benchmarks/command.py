"""The whole ``clashkit simulate`` command beside a C sketch of the game loop, in one run.

    python benchmarks/command.py --sketch SKETCH.c          # the command, the sketch, their ratio
    python benchmarks/command.py --sketch SKETCH.c --json   # the same, then one JSON object

The command is timed whole, as a user runs it, from a new process: start-up, the compiled
engine loaded from numba's cache, the games played, parts written and assembled, the
manifest, the summary printed::

    clashkit simulate -n N --a 1 --b 2 --engine fast --no-events --jobs 1 --out DIR

The sketch is a C program of the same game loop with simpler rules (``SKETCH.c``, built with
``gcc -O2``; it takes the number of games as its first argument), timed before and after the
command so that both see the same machine; its rate is the mean of the two.  Printed:
``sketch_games_per_s``, ``command_games_per_s`` (wall clock) and ``command_over_sketch``
(the floor is 1/8), the command's CPU seconds (every thread of it, polars' too) and its
rate per CPU second, and ``fixed_s``: the same command with ``-n 1`` (start-up, the cache
loaded, one game written), what a run of any size pays before its first game.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The floor of the command's rate, as a fraction of the sketch's.
FLOOR = 1 / 8


def children_cpu() -> float:
    """CPU seconds of this process's finished children so far (every thread of them)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_command(n: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``clashkit simulate -n n …`` in a new process."""
    with tempfile.TemporaryDirectory() as out:
        args = [sys.executable, "-m", "clashkit", "simulate", "-n", str(n), "--a", "1", "--b", "2"]
        args += ["--engine", "fast", "--no-events", "--jobs", "1", "--no-progress", "--out", out]
        cpu, started = children_cpu(), time.perf_counter()
        subprocess.run(args, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        return time.perf_counter() - started, children_cpu() - cpu


def sketch_rate(binary: Path, games: int) -> float:
    """Games per second of the sketch (wall clock: it runs on one core)."""
    started = time.perf_counter()
    subprocess.run([str(binary), str(games)], check=True, stdout=subprocess.DEVNULL)
    return games / (time.perf_counter() - started)


def measure(n: int, sketch: Path | None, sketch_games: int, repeats: int) -> dict:
    out: dict = {"games": n}
    with tempfile.TemporaryDirectory() as build:
        binary = None
        if sketch is not None:
            if shutil.which("gcc") is None:
                raise SystemExit("benchmarks/command.py: --sketch needs gcc")
            binary = Path(build) / "sketch"
            subprocess.run(["gcc", "-O2", "-o", str(binary), str(sketch)], check=True)
        run_command(1)  # the first start of a checkout writes bytecode; not counted
        out["fixed_s"] = min(run_command(1)[0] for _ in range(repeats))
        before = sketch_rate(binary, sketch_games) if binary else None
        runs = [run_command(n) for _ in range(repeats)]
        after = sketch_rate(binary, sketch_games) if binary else None
    wall, cpu = min(runs)
    out["command_s"] = wall
    out["command_cpu_s"] = cpu
    out["command_games_per_s"] = n / wall
    out["command_games_per_cpu_s"] = n / cpu
    if before is not None and after is not None:
        out["sketch_games_per_s"] = (before + after) / 2
        out["command_over_sketch"] = out["command_games_per_s"] / out["sketch_games_per_s"]
    return out


def lines(r: dict) -> list[str]:
    """The command's rate, the sketch's and their ratio against the floor (1/8)."""
    shown = [
        f"  clashkit simulate -n {r['games']:,} --engine fast --no-events --jobs 1, whole command:"
        f" {r['command_s']:.2f} s, {r['command_games_per_s']:,.0f} games/s (wall clock);"
        f" {r['command_cpu_s']:.2f} s of CPU, {r['command_games_per_cpu_s']:,.0f} games per CPU second;"
        f" the same with -n 1: {r['fixed_s']:.2f} s",
    ]
    if "command_over_sketch" in r:
        ratio = r["command_over_sketch"]
        verdict = "at or above the floor" if ratio >= FLOOR else "BELOW THE FLOOR"
        shown.append(
            f"    C sketch {r['sketch_games_per_s']:,.0f} games/s on one core; command over sketch"
            f" 1/{1 / ratio:.1f} ({verdict}: floor 1/8)"
        )
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=400_000, help="games of the command (default 400000)")
    parser.add_argument("--sketch", type=Path, default=os.environ.get("CLASHKIT_SKETCH"), help="the C sketch's source")
    parser.add_argument("--sketch-games", type=int, default=2_000_000, help="games of the sketch (default 2000000)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of the command; the best counts (default 2)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")
    args = parser.parse_args()
    result = measure(args.n, args.sketch, args.sketch_games, args.repeats)
    print("\n".join(lines(result)), flush=True)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
