"""How long a first build takes, and how large: ``git clone`` of this repository's last commit
into a temporary folder, then ``make lab`` there until JupyterLab prints its URL and the fast
engine's last part has compiled beside it, timed step by step (the lines ``make`` prints
for each part, the wall clock around them), and the size of the environment it built.

    python benchmarks/first_build.py            # a Markdown table (the site's first-build figure)
    python benchmarks/first_build.py --keep     # ... and leave the clone in place to look at

What is measured is the committed tree (uncommitted changes are not in the clone), built
with this machine's ``python3`` and uv's package cache as it is here (a machine that has
never downloaded the packages adds their download, about 400 MB).  The clone is removed
afterwards, and JupyterLab stopped with its whole process group.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: How long the whole build may take before it is stopped (a loaded machine is slow).
LIMIT_SECONDS = 3600
URL = re.compile(r"http://127\.0\.0\.1:\d+/lab\S*")
PART = re.compile(r"^  (?P<title>\S.*?)\s+(?P<wall>\d+\.\d) s \((?P<cpu>\d+\.\d) s of CPU\)$")
VENV = re.compile(r"^make: \.venv built in (?P<wall>\d+) s(?: \((?P<mb>\d+) MB\))?$")
FAST = re.compile(r"^make: fast engine compiled in (?P<wall>\d+\.\d) s \((?P<cpu>\d+\.\d) s of CPU\)$")


def minutes(seconds: float) -> str:
    """``2 min 57 s`` (or ``41 s``)."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


def build(folder: Path) -> tuple[list[tuple[str, str, str]], float]:
    """Clone and run ``make lab`` in ``folder``; the table's rows and the total wall time."""
    started = time.perf_counter()
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(folder)], check=True)
    rows = [("git clone", f"{time.perf_counter() - started:.1f} s", "")]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    lab = subprocess.Popen(
        ["make", "lab"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # JupyterLab and everything make started, stopped together
    )
    url = compiled = None
    try:
        assert lab.stdout is not None
        for line in lab.stdout:
            line = line.rstrip("\n")
            if time.perf_counter() - started > LIMIT_SECONDS:
                raise SystemExit(f"the build took over {LIMIT_SECONDS} s; stopped")
            later = " (beside JupyterLab)" if url is not None else ""
            if m := VENV.match(line):
                rows.append((".venv from uv.lock (`uv sync`, the lab's packages)", f"{m['wall']} s", ""))
            elif m := PART.match(line):
                rows.append((f"fast engine: {m['title']}{later}", f"{m['wall']} s", f"{m['cpu']} s"))
            elif m := FAST.match(line):
                rows.append(("fast engine in all (its parts side by side)", f"{m['wall']} s", f"{m['cpu']} s"))
                compiled = time.perf_counter() - started
            elif url is None and URL.search(line):
                url = time.perf_counter() - started
            if url is not None and compiled is not None:
                break
        if url is None or compiled is None:
            lab.wait()
            raise SystemExit(
                f"make lab ended (status {lab.returncode}) before JupyterLab printed its URL and the compile ended"
            )
    finally:
        if lab.poll() is None:
            os.killpg(lab.pid, signal.SIGTERM)
            try:
                lab.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(lab.pid, signal.SIGKILL)
                lab.wait()
    rows.append(("**from `git clone` to JupyterLab's URL**", f"**{minutes(url)}**", ""))
    rows.append(("from `git clone` to every part compiled (beside JupyterLab)", minutes(compiled), ""))
    rows.append(("**the lab's environment (`.venv`) on disk**", f"**{size_mb(folder / '.venv'):,} MB**", ""))
    return rows, url


def size_mb(folder: Path) -> int:
    """Megabytes of the files under ``folder`` (as ``du -sm`` counts them)."""
    done = subprocess.run(["du", "-sm", str(folder)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the clone in place")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="clashkit-first-build-"))
    try:
        load = os.getloadavg()[0]
        rows, _ = build(base / "clashkit")
    finally:
        if args.keep:
            print(f"the clone is in {base / 'clashkit'}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)
    print(f"{os.cpu_count()} cores, load average {load:.1f} when it started.\n")
    print("| step | wall clock | CPU |")
    print("| --- | ---: | ---: |")
    for step, wall, cpu in rows:
        print(f"| {step} | {wall} | {cpu} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
