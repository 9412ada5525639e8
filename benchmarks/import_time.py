"""How long ``import clashkit.viz`` takes beside ``import polars``, each in a fresh interpreter.

    python benchmarks/import_time.py [--runs 7] [--limit 3]

Each import is timed inside its own new Python process (the interpreter's start-up
left out), the two alternating so that a busy machine slows both alike; the
medians are printed with their ratio.  The target is ``import clashkit.viz`` at
most 3 times ``import polars``: altair (and with it jsonschema's format checkers)
loads only when the first chart is made.  Exit status 1 if the ratio is above
``--limit``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

_TIMER = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def import_seconds(module: str) -> float:
    """Seconds ``import module`` takes in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", _TIMER.format(module=module)], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per module (default 7)")
    parser.add_argument("--limit", type=float, default=3.0, help="the largest acceptable ratio (default 3)")
    args = parser.parse_args(argv)
    modules = ("polars", "clashkit.viz", "altair")
    times: dict[str, list[float]] = {m: [] for m in modules}
    for _ in range(args.runs):
        for module in modules:
            times[module].append(import_seconds(module))
    median = {m: statistics.median(t) for m, t in times.items()}
    for module in modules:
        print(f"import {module:<13} {median[module] * 1000:7.0f} ms (median of {args.runs})")
    ratio = median["clashkit.viz"] / median["polars"]
    print(f"clashkit.viz / polars: {ratio:.2f} (limit {args.limit:g})")
    return 0 if ratio <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
