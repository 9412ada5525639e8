"""Regenerate every figure of the documentation site, each with the commit it was measured at.

    make figures                                   # every figure (hours: the search calibration is long)
    make figures FIGURES="balance memory"          # some of them
    python benchmarks/figures.py --list            # the figures, their commands and how long they take

Each figure sits, on the page of ``docs/`` that discusses it (or in ``README.md``), between two
markers::

    <!-- figure NAME -->
    …
    <!-- /figure NAME -->

and comes from one command of :data:`FIGURES`.  This script runs the command,
and puts its output between the markers, under a line naming the command,
the commit (``-dirty`` when the working tree had changes) and the date.  A
failing command leaves the page as it was.  The site's Figures page (``docs/figures.md``)
lists every figure with its page and stamp, read from these markers when the site is built.
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@dataclass(frozen=True)
class Figure:
    """One figure: the command that makes it, whether its output is Markdown, and its rough cost."""

    command: tuple[str, ...]
    markdown: bool
    takes: str


FIGURES: dict[str, Figure] = {
    "bots": Figure(("benchmarks/bots.py",), False, "about 3 min"),
    "balance": Figure(("-m", "clashkit", "balance", "-n", "2000", "--no-progress"), True, "about 1 min"),
    "balance-expert": Figure(
        ("-m", "clashkit", "balance", "--policy", "expert", "-n", "2000", "--no-progress"), True, "about 30 s"
    ),
    "balance-deep": Figure(
        ("-m", "clashkit", "balance", "--policy", "deep", "-n", "300", "--no-progress"), True, "about 3 min"
    ),
    "retune": Figure(("benchmarks/retune.py",), True, "about 5 min"),
    "balance-first-turn-5": Figure(
        ("-m", "clashkit", "balance", "-n", "2000", "--rules", "first_turn_mana=5", "--no-progress"),
        True,
        "about 1 min",
    ),
    "solo-search": Figure(
        ("benchmarks/solo_calibration.py", "--policy", "search", "-n", "500", "--combinations", "0", "--table", "main"),
        True,
        "about 8 min",
    ),
    "solo-decks": Figure(
        (
            "benchmarks/solo_calibration.py",
            "--policy",
            "greedy",
            "--decks",
            "draft,1,2,3,4",
            "--combinations",
            "0",
            "--table",
            "decks",
        ),
        True,
        "about 5 min",
    ),
    "solo-combinations": Figure(
        ("benchmarks/solo_calibration.py", "--policy", "greedy", "--combinations", "500", "--table", "combinations"),
        True,
        "about 15 min",
    ),
    "policy-speed": Figure(("benchmarks/policy_speed.py",), True, "about 2 min"),
    "expert": Figure(("benchmarks/expert.py",), True, "about 2 min"),
    "deck-building": Figure(("benchmarks/deck_building.py", "-n", "1000"), True, "about 15 s"),
    "ladder-unseen": Figure(("benchmarks/unseen_sets.py", "-n", "10"), True, "about 40 s"),
    "agreement": Figure(
        ("benchmarks/agreement.py", "-n", "400", "--sets", "3", "--beside", "deep:leaf=plain", "--beside-n", "100"),
        True,
        "about 35 min",
    ),
    "ladder": Figure(
        (
            "-m",
            "clashkit",
            "ladder",
            "--policies",
            "random,greedy,search:budget=4,search:budget=16,search:fair,search:budget=64,fair,expert,deep,deep:budget=4",
            "-n",
            "20",
            "--write-ratings",
            "data/ladder.json",
            "--no-progress",
        ),
        True,
        "about 4 min",
    ),
    "balance-by-skill": Figure(
        (
            "-m",
            "clashkit",
            "balance",
            "--policies",
            "greedy,search:budget=16,search:fair,search:budget=64,fair,expert",
            "-n",
            "500",
            "--no-progress",
        ),
        True,
        "about 12 min",
    ),
    "ogre-sweep": Figure(
        (
            "-m",
            "clashkit",
            "sweep",
            "--card",
            "OGRE",
            "--set",
            "attack=3..7",
            "-n",
            "2000",
            "--jobs",
            "1",
            "--no-progress",
        ),
        False,
        "about 30 s",
    ),
    "tune": Figure(
        ("-m", "clashkit", "tune", "-n", "500", "--max-changes", "2", "--jobs", "1", "--no-progress"),
        False,
        "about 2 min",
    ),
    "ogre-sweep-by-skill": Figure(
        (
            "-m",
            "clashkit",
            "sweep",
            "--card",
            "OGRE",
            "--set",
            "attack=4..6",
            "--policies",
            "greedy,expert",
            "-n",
            "200",
            "--no-progress",
        ),
        False,
        "about 15 s",
    ),
    "card-stats-by-skill": Figure(
        (
            "-m",
            "clashkit",
            "card-stats",
            "--card",
            "BARON",
            "--card",
            "CYCLONE",
            "--card",
            "GRRR",
            "--policies",
            "greedy,expert",
            "-n",
            "200",
            "--no-progress",
        ),
        False,
        "about 15 s",
    ),
    "tune-by-skill": Figure(
        (
            "-m",
            "clashkit",
            "tune",
            "--policies",
            "greedy,expert",
            "-n",
            "100",
            "--max-changes",
            "3",
            "--evaluations",
            "400",
            "--no-progress",
        ),
        False,
        "about 3 min",
    ),
    "compare-check": Figure(
        (
            "-m",
            "clashkit",
            "compare",
            "--cards",
            "docs/examples/warg.csv",
            "--policy",
            "expert",
            "-n",
            "400",
            "--check-strength",
            "--check-n",
            "100",
            "--no-progress",
        ),
        False,
        "about 1 min",
    ),
    "draft-limit": Figure(("benchmarks/draft_limit.py", "-n", "5000"), True, "about 5 s"),
    "exploit": Figure(
        ("-m", "clashkit", "exploit", "--policies", "greedy,expert", "-n", "100", "--no-progress"),
        False,
        "about 4 min",
    ),
    "meta-scale": Figure(
        ("benchmarks/meta_scale.py", "--policies", "greedy,expert", "--budgets", "30,120,300"), True, "about 15 min"
    ),
    "meta-greedy": Figure(
        (
            "-m",
            "clashkit",
            "meta",
            "--policy",
            "greedy",
            "--seed",
            "1",
            "--evaluations",
            "1500",
            "-n",
            "200",
            "--value-games",
            "32",
            "--top",
            "8",
            "--jobs",
            "1",
            "--no-progress",
        ),
        False,
        "about 30 s",
    ),
    "baron-position": Figure(("benchmarks/deal_position.py", "-n", "20000"), True, "about 1 min"),
    "speed": Figure(("benchmarks/run.py",), False, "about 2 min"),
    "first-build": Figure(("benchmarks/first_build.py",), True, "about 5 min (on a quiet machine)"),
    "memory": Figure(("benchmarks/memory.py",), False, "about 4 min"),
    "estimates": Figure(("benchmarks/estimates.py",), True, "about 6 min"),
}


def commit() -> str:
    """The commit the figures are measured at, ``-dirty`` when the tree has changes outside
    ``docs/`` (the pages the figures are written into do not change what is measured)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)docs")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}-dirty" if dirty else head


def block(name: str, figure: Figure, output: str, at: str) -> str:
    """The text between a figure's markers."""
    command = " ".join(("python", *figure.command))
    today = datetime.date.today().isoformat()
    output = output.strip("\n").rstrip()
    body = output if figure.markdown else f"```text\n{output}\n```"
    return f"*Measured at commit `{at}` on {today} with `{command}` (`make figures FIGURES={name}`).*\n\n{body}\n"


def pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figure {re.escape(name)} -->\n)(.*?)(<!-- /figure {re.escape(name)} -->)", re.S)


def pages() -> list[Path]:
    """The pages figures may sit in: the README and every page of ``docs/``."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def page_of(name: str) -> Path:
    """The page that holds figure ``name`` (its markers must be there once, in one page)."""
    found = [(page, len(pattern(name).findall(page.read_text(encoding="utf-8")))) for page in pages()]
    found = [(page, n) for page, n in found if n]
    if len(found) != 1 or found[0][1] != 1:
        where = ", ".join(f"{page.relative_to(ROOT)} ({n})" for page, n in found) or "no page"
        raise SystemExit(f"figure {name!r} needs one pair of markers in README.md or docs/, found: {where}")
    return found[0][0]


def replace(text: str, name: str, content: str) -> str:
    """``text`` with figure ``name``'s block replaced by ``content``."""
    return pattern(name).sub(lambda m: m[1] + content + m[3], text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"figures to make (default all: {', '.join(FIGURES)})")
    parser.add_argument("--list", action="store_true", help="list the figures and their commands")
    args = parser.parse_args(argv)
    if args.list:
        for name, figure in FIGURES.items():
            print(f"{name:<18} {figure.takes:<13} python {' '.join(figure.command)}")
        return 0
    names = args.names or list(FIGURES)
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        parser.error(f"unknown figure {unknown[0]!r} (one of {', '.join(FIGURES)})")
    pages = {name: page_of(name) for name in names}  # every marker is there before anything long runs
    at = commit()
    for name in names:
        figure = FIGURES[name]
        print(f"figure {name}: python {' '.join(figure.command)} ({figure.takes})", file=sys.stderr, flush=True)
        done = subprocess.run([sys.executable, *figure.command], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            raise SystemExit(f"figure {name}: the command failed (status {done.returncode}); its page unchanged")
        page = pages[name]
        text = replace(page.read_text(encoding="utf-8"), name, block(name, figure, done.stdout, at))
        page.write_text(text, encoding="utf-8")  # each figure kept as soon as it is made
    return 0


if __name__ == "__main__":
    sys.exit(main())
