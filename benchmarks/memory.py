"""Peak memory of ``clashkit simulate`` with events, for growing numbers of games.

    python benchmarks/memory.py                       # 2,000, 8,000 and 32,000 games, 2 jobs
    python benchmarks/memory.py -n 1000 4000 --json   # the last line is one JSON object

Runs the command in a subprocess and samples, every 20 ms, the resident memory
(RSS, from ``/proc``) of every process of the run — the command, the
forkserver, the workers — and reports the peak of their sum.  A run streams
its games in parts (``clashkit.simulate.PART_GAMES``), so the peak should not
grow with ``n``; the report also gives the bytes per event row on disk.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _rss_of_marked(mark: bytes) -> int:
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark not in (entry / "environ").read_bytes():
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def measure(n: int, jobs: int, policy: str) -> dict:
    mark = uuid.uuid4().hex
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "CLASHKIT_MEMORY_RUN": mark}
        command = [sys.executable, "-m", "clashkit", "simulate", "-n", str(n), "--jobs", str(jobs),
                   "--policy-a", policy, "--events", "--no-progress", "--out", out]  # fmt: skip
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
        peak = 0
        while process.poll() is None:
            peak = max(peak, _rss_of_marked(mark.encode()))
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
        if process.returncode != 0:
            raise SystemExit(f"simulate failed with status {process.returncode}")
        import polars as pl

        rows = pl.scan_parquet(Path(out) / "events.parquet").select(pl.len()).collect().item()
        size = (Path(out) / "events.parquet").stat().st_size
    return {"games": n, "jobs": jobs, "peak_rss_mb": round(peak / 1e6, 1), "event_rows": rows,
            "events_file_bytes_per_row": round(size / rows, 2), "seconds": round(elapsed, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, nargs="+", default=[2000, 8000, 32000], help="games per run")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--policy", default="greedy", help="both players' policy (default greedy)")
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    args = parser.parse_args()
    rows = [measure(n, args.jobs, args.policy) for n in args.n]
    for row in rows:
        print(
            f"{row['games']:>9,} games, {row['jobs']} jobs: peak RSS {row['peak_rss_mb']:,.0f} MB (all processes), "
            f"{row['event_rows']:,} event rows, {row['events_file_bytes_per_row']} bytes a row on disk, "
            f"{row['seconds']} s"
        )
    if args.json:
        print(json.dumps({"runs": rows}))


if __name__ == "__main__":
    main()
