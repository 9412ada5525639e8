"""The documentation site built once for the tests that read it (``tests/test_docs_site.py``,
``tests/browser/test_site_in_browser.py``), whichever pytest worker asks first.

``mkdocs build --strict`` runs into a folder of the temporary directory named after a hash
of everything the site is made from; a lock makes a second worker wait for the first and
reuse its build.  The build's output is kept beside it, for the tests to read."""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


@dataclass(frozen=True)
class Build:
    site: Path
    returncode: int
    log: str


def _inputs_hash() -> str:
    digest = hashlib.sha256()
    files = [ROOT / "mkdocs.yml", *sorted((ROOT / "docs").rglob("*")), *sorted((ROOT / "clashkit").rglob("*.py"))]
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def built_site() -> Build:
    """The site as ``make docs`` builds it (strict), built at most once for these inputs."""
    folder = Path(tempfile.gettempdir()) / f"clashkit-site-{_inputs_hash()}"
    folder.mkdir(exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        status = folder / "status"
        if not status.exists():
            done = subprocess.run(
                [str(MKDOCS), "build", "--strict", "--site-dir", str(folder / "site")],
                cwd=ROOT,
                capture_output=True,
                text=True,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                timeout=900,
            )
            (folder / "log").write_text(done.stdout + done.stderr, encoding="utf-8")
            status.write_text(str(done.returncode))
        return Build(folder / "site", int(status.read_text()), (folder / "log").read_text(encoding="utf-8"))
