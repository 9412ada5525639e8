"""How close the run-time estimates of the study commands come on a busy machine.

    python benchmarks/estimates.py                 # the docs' table: loads 2 and 4
    python benchmarks/estimates.py --loads 0 2 4   # other loads

For each load ``L`` it starts ``L`` processes that spin on a core each (the
machine is then as busy as ``L`` other programs make it, on top of whatever
already runs), waits until the load average shows them, then runs each command below as a designer would, with its
progress bar, and reads the estimate it prints before the games start
(``card plays: 12,000 games, about 7 s by a probe``), one for each study a
command plays.  The time taken is measured from that line to the study's
progress bar at 100%: the games it estimates, not the reports after them.  The ratio is time taken
over estimate: 1 is exact, 2 an estimate half as long as the wait.  The spinning
processes are stopped whatever happens.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What each run plays: the studies whose estimates a designer waits on.
COMMANDS = {
    "balance, greedy and expert, 3,000 a pairing (72,000 games)": (
        "balance",
        "--policies",
        "greedy,expert",
        "-n",
        "3000",
    ),
    "balance, greedy and expert, 500 a pairing (12,000 games)": ("balance", "--policies", "greedy,expert", "-n", "500"),
    "card-stats of BARON at expert, 1,000 a pairing": (
        "card-stats",
        "--card",
        "BARON",
        "--policy",
        "expert",
        "-n",
        "1000",
    ),
}
#: A study's estimate before its games (``card plays: 12,000 games, about 7 s by a probe``).
ESTIMATE = re.compile(r"(?P<desc>[\w ]+): [\d,]+ games, about (?P<value>[\d.]+) (?P<unit>s|min|h) by a probe")
UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0}
#: How long the spinning processes may take to show in the load average before the commands start.
SETTLE_SECONDS = 90
#: A command that runs longer than this is stopped (a loaded machine is slow, not this slow).
LIMIT_SECONDS = 1800


@contextmanager
def spinning(count: int):
    """``count`` processes that each keep a core busy, stopped on the way out."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(count)
    ]
    try:
        # A machine under load L has had it for a while: the load average (over a minute) reaches
        # what spins before the first command starts, or a minute and a half has passed.
        deadline = time.monotonic() + SETTLE_SECONDS
        while spinners and os.getloadavg()[0] < 0.9 * count and time.monotonic() < deadline:
            time.sleep(1.0)
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def measure(arguments: tuple[str, ...]) -> list[tuple[str, float, float]]:
    """Run ``clashkit ARGUMENTS`` with its progress bars; for each study it plays (a bar of its own,
    ``desc``), its estimate and the seconds from that line to its bar's 100%."""
    command = [sys.executable, "-m", "clashkit", *arguments, "--jobs", "2"]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    said: dict[str, tuple[float, float]] = {}  # desc → (estimate, when it was said)
    done: dict[str, float] = {}  # desc → seconds from the estimate to 100%
    seen = ""
    started = time.perf_counter()
    try:
        assert process.stderr is not None
        while chunk := process.stderr.read1(4096):
            now = time.perf_counter()
            if now - started > LIMIT_SECONDS:
                raise SystemExit(f"{' '.join(arguments)} ran over {LIMIT_SECONDS} s; stopped")
            seen += chunk.decode(errors="replace")
            for m in ESTIMATE.finditer(seen):
                said.setdefault(m["desc"].strip(), (float(m["value"]) * UNITS[m["unit"]], now))
            for desc, (_, when) in said.items():
                if desc not in done and f"{desc}: 100%" in seen:
                    done[desc] = now - when
            seen = seen[-4096:]  # enough for a line of a bar
        if process.wait() != 0:
            raise SystemExit(f"{' '.join(command)} failed with status {process.returncode}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
    if not said:
        raise SystemExit(f"{' '.join(arguments)} printed no estimate")
    return [(desc, estimate, done[desc]) for desc, (estimate, _) in said.items() if desc in done]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, nargs="+", default=[2, 4], help="spinning processes (default 2 4)")
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} cores; `--jobs 2`; the load average when each command started.\n")
    print("| processes spinning | command | load | study | estimate | time taken | ratio |")
    print("| ---: | --- | ---: | --- | ---: | ---: | ---: |")
    ratios = []
    for load in args.loads:
        with spinning(load):
            for title, arguments in COMMANDS.items():
                average = os.getloadavg()[0]
                for desc, estimate, taken in measure(arguments):
                    ratios.append(taken / estimate)
                    print(
                        f"| {load} | {title} | {average:.1f} | {desc} | {estimate:.0f} s | {taken:.0f} s "
                        f"| {taken / estimate:.2f} |"
                    )
    print(f"\nRatios from {min(ratios):.2f} to {max(ratios):.2f} (1: the estimate was the time taken).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
