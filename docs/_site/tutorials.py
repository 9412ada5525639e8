"""Regenerate the site's tutorials: each notebook of ``notebooks/`` run whole, outputs kept.

    make tutorials                         # all seven (a few minutes on two cores)
    python docs/_site/tutorials.py 03      # the notebooks whose names start with 03

``notebooks/*.ipynb`` are committed clean (no outputs); the site shows them with their
outputs from the copies in ``docs/tutorials/``, which this script writes: the same cells,
run top to bottom in a fresh kernel, then made fit for a static page:

- a chart (Vega compiled in the kernel, ``application/vnd.vega.v5+json``) gets an HTML
  twin that the site draws with the Vega shipped in ``vl-convert`` (no CDN);
- a widget, which needs a live kernel, is replaced by a line saying so, and a progress
  bar is left out;
- paths of this checkout are written relative to it (``data/cards.csv``);
- the run's metadata (timings, widget state) is dropped, and the commit it ran at is kept
  (``metadata.clashkit.commit``), which the page shows.

``tests/test_docs_tutorials.py`` checks that every copy holds its notebook's cells
unchanged, so a copy out of date fails the tests until this script is run again.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = ROOT / "docs" / "tutorials"
VEGA = "application/vnd.vega.v5+json"
WIDGET = "application/vnd.jupyter.widget-view+json"
#: What a reader of the site sees where the notebook shows a widget.
WIDGET_NOTE = (
    '<p class="clashkit-widget"><em>An interactive widget is shown here when the notebook runs '
    "in JupyterLab (<code>make lab</code>).</em></p>"
)


def commit() -> str:
    """The commit the tutorials run at, ``-dirty`` when the tree has changes."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "notebooks", "clashkit")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}-dirty" if dirty else head


def chart_html(spec: dict) -> str:
    """A chart for the static page: its Vega spec in a script tag that ``charts.js`` draws."""
    text = json.dumps(spec, separators=(",", ":")).replace("</", "<\\/")
    return f'<div class="clashkit-vega"><script type="application/json">{text}</script></div>'


def is_progress_bar(data: dict) -> bool:
    """A tqdm progress bar (a widget whose text is the bar: ``games:   0%|          | 0/24000``)."""
    text = "".join(data.get("text/plain", ""))
    return bool(re.search(r"\d+%\|", text))


def without_checkout_path(text):
    """Paths of this checkout written relative to it (``data/cards.csv``), for any reader's checkout."""
    if isinstance(text, list):
        return [without_checkout_path(t) for t in text]
    return text.replace(f"{ROOT}/", "") if isinstance(text, str) else text


def for_the_site(output: dict) -> dict | None:
    """One output of a run, as the static page shows it (``None``: left out)."""
    if "text" in output:
        output = {**output, "text": without_checkout_path(output["text"])}
    data = output.get("data")
    if data is None:
        return output
    data = {kind: without_checkout_path(value) if kind.startswith("text/") else value for kind, value in data.items()}
    output = {**output, "data": data}
    if WIDGET in data:
        if is_progress_bar(data):
            return None  # a finished progress bar says nothing on a page
        return {**output, "data": {"text/html": WIDGET_NOTE, "text/plain": "(an interactive widget)"}}
    if VEGA in data:
        output = {**output, "data": {**data, "text/html": chart_html(data[VEGA])}}
    return output


def run(path: Path, at: str) -> Path:
    """Run one notebook in a fresh kernel and write its copy for the site."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            outputs = [for_the_site(dict(o)) for o in cell.outputs]
            cell.outputs = [nbformat.from_dict(o) for o in outputs if o is not None]
    nb.metadata.pop("widgets", None)
    nb.metadata["clashkit"] = {"commit": at, "source": f"notebooks/{path.name}"}
    target = TUTORIALS / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefixes", nargs="*", help="run only the notebooks whose names start so")
    args = parser.parse_args(argv)
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    if args.prefixes:
        paths = [p for p in paths if p.name.startswith(tuple(args.prefixes))]
    at = commit()
    for path in paths:
        print(f"tutorial {path.name}: running it", file=sys.stderr, flush=True)
        target = run(path, at)
        print(f"  wrote {target.relative_to(ROOT)} ({target.stat().st_size:,} bytes)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
