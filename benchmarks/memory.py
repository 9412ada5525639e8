"""Peak memory of ``clashkit simulate`` streamed to disk, and of the fast engine's frames in memory.

    python benchmarks/memory.py                       # every part, as docs/guide/simulating.md shows them
    python benchmarks/memory.py -n 1000 4000 --json   # the last line is one JSON object
    python benchmarks/memory.py --turns-n 10000000    # the 10 million games measured, not extrapolated

Streamed to disk: runs ``clashkit simulate --events --out`` in a subprocess
and samples, every 20 ms, the resident memory (RSS, from ``/proc``) of every
process of the run — the command, the forkserver, the workers — and reports
the peak of their sum.  A run streams its games in parts
(``clashkit.runs.simulate.PART_GAMES``), so the peak should not grow with ``n``;
the report also gives the bytes per event row on disk.  Then the same
without events on the fast engine, one job (``--fast-n``, default 100,000 and
2 million games): the command's summary is computed from the parts as they
come, so this peak should not grow with ``n`` either.

In memory: ``simulate(n, "1", "2", "greedy", engine="fast", record_events=False)``
in a fresh process for each ``--turns-n`` (default 1, 2 and 4 million), which
reports its peak RSS (``VmHWM``), the turns frame's rows and
``estimated_size()``, and the games frame's.  The frames grow linearly with
``n``; the 10 million games line is a straight line fitted to the runs
(least squares), unless 10 million is one of them.
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


def measure(n: int, jobs: int, policy: str, events: bool = True) -> dict:
    """One ``clashkit simulate --out`` in a subprocess: the peak of its processes' summed RSS
    (with events on the default engine; without, on the fast engine)."""
    mark = uuid.uuid4().hex
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "CLASHKIT_MEMORY_RUN": mark}
        command = [
            sys.executable,
            "-m",
            "clashkit",
            "simulate",
            "-n",
            str(n),
            "--jobs",
            str(jobs),
            "--policy-a",
            policy,
            *(["--events"] if events else ["--no-events", "--engine", "fast"]),
            "--no-progress",
            "--out",
            out,
        ]
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
        peak = 0
        while process.poll() is None:
            peak = max(peak, _rss_of_marked(mark.encode()))
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
        if process.returncode != 0:
            raise SystemExit(f"simulate failed with status {process.returncode}")
        row = {"games": n, "jobs": jobs, "peak_rss_mb": round(peak / 1e6, 1), "seconds": round(elapsed, 1)}
        if events:
            import polars as pl

            rows = pl.scan_parquet(Path(out) / "events.parquet").select(pl.len()).collect().item()
            size = (Path(out) / "events.parquet").stat().st_size
            row.update(event_rows=rows, events_file_bytes_per_row=round(size / rows, 2))
    return row


#: What a child process runs for :func:`measure_frames`: one simulate, then its numbers as JSON.
_FRAMES = """
import json, sys, time
from clashkit.runs.simulate import simulate

n = int(sys.argv[1])
simulate(2000, "1", "2", "greedy", engine="fast", record_events=False, progress=False)  # numba's cache
started = time.perf_counter()
trace = simulate(n, "1", "2", "greedy", seed=1, engine="fast", record_events=False, progress=False)
seconds = time.perf_counter() - started
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(json.dumps({"games": n, "turn_rows": trace.turns.height, "turns_bytes": trace.turns.estimated_size(),
                  "games_bytes": trace.games.estimated_size(), "seconds": seconds,
                  "peak_rss": int(status["VmHWM"].split()[0]) * 1024, "rss": int(status["VmRSS"].split()[0]) * 1024}))
"""

TEN_MILLION = 10_000_000


def measure_frames(n: int) -> dict:
    """One fast-engine ``simulate`` of ``n`` games in a fresh process: its frames and its peak RSS."""
    done = subprocess.run([sys.executable, "-c", _FRAMES, str(n)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"simulate of {n:,} games failed with status {done.returncode}: {done.stderr[-500:]}")
    row = json.loads(done.stdout.splitlines()[-1])
    row["turn_rows_per_game"] = row["turn_rows"] / n
    row["turns_bytes_per_row"] = row["turns_bytes"] / row["turn_rows"]
    return row


def ten_million(rows: list[dict]) -> dict:
    """The 10 million games figures: measured if a run had them, else a straight line through the runs."""
    for row in rows:
        if row["games"] == TEN_MILLION:
            return {**row, "how": "measured"}
    import numpy as np

    games = np.array([row["games"] for row in rows], float)
    out = {"games": TEN_MILLION, "how": "extrapolated from " + ", ".join(f"{g / 1e6:g}M" for g in games)}
    for key in ("turns_bytes", "games_bytes", "peak_rss", "rss", "seconds", "turn_rows"):
        slope, intercept = np.polyfit(games, [row[key] for row in rows], 1)
        out[key] = float(slope * TEN_MILLION + intercept)
    out["turns_bytes_per_row"] = rows[-1]["turns_bytes_per_row"]
    out["turn_rows_per_game"] = out["turn_rows"] / TEN_MILLION
    return out


def _frames_line(row: dict) -> str:
    how = f" ({row['how']})" if "how" in row else ""
    return (
        f"{row['games']:>11,} games{how}: turns frame {row['turns_bytes'] / 1e9:.2f} GB "
        f"({row['turn_rows_per_game']:.2f} rows a game, {row['turns_bytes_per_row']:.0f} bytes a row), "
        f"games frame {row['games_bytes'] / 1e9:.2f} GB, peak RSS {row['peak_rss'] / 1e9:.2f} GB, "
        f"{row['seconds']:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, nargs="+", default=[2000, 32000, 128000], help="games per run")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--policy", default="greedy", help="both players' policy (default greedy)")
    parser.add_argument(
        "--fast-n",
        type=int,
        nargs="*",
        default=[100_000, 2_000_000],
        help="games of each fast-engine run without events, one job (default 100,000 and 2 million; none: skip)",
    )
    parser.add_argument(
        "--turns-n",
        type=int,
        nargs="*",
        default=[1_000_000, 2_000_000, 4_000_000],
        help="games of each in-memory fast-engine run (default 1, 2 and 4 million; none: skip)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    args = parser.parse_args()
    rows = [measure(n, args.jobs, args.policy) for n in args.n]
    print("Streamed to disk, with events (clashkit simulate --events --out):")
    for row in rows:
        print(
            f"{row['games']:>9,} games, {row['jobs']} jobs: peak RSS {row['peak_rss_mb']:,.0f} MB (all processes), "
            f"{row['event_rows']:,} event rows, {row['events_file_bytes_per_row']} bytes a row on disk, "
            f"{row['seconds']} s"
        )
    fast = [measure(n, 1, args.policy, events=False) for n in args.fast_n]
    if fast:
        print("Streamed to disk, the fast engine without events (clashkit simulate --engine fast --no-events --out):")
        for row in fast:
            print(
                f"{row['games']:>9,} games, 1 job: peak RSS {row['peak_rss_mb']:,.0f} MB (all processes), "
                f"{row['seconds']} s"
            )
    frames = [measure_frames(n) for n in sorted(args.turns_n)]
    if frames:
        print("In memory, the fast engine (simulate greedy 1 vs 2, no events, one process):")
        for row in frames:
            print(_frames_line(row))
        print(_frames_line(ten_million(frames)))
    if args.json:
        print(
            json.dumps(
                {
                    "runs": rows,
                    "fast_runs": fast,
                    "frames": frames,
                    "ten_million": ten_million(frames) if frames else None,
                }
            )
        )


if __name__ == "__main__":
    main()
