"""Remake the screenshots of the card designer and the siege lab in ``docs/images/``:

    .venv/bin/python docs/screenshots.py      (or: make screenshots)

They are taken by the browser test (``tests/browser/test_lab_in_browser.py``) as it drives
the notebooks in JupyterLab and Debian's Chromium on 127.0.0.1: the designer after OGRE's
attack + 1 has been applied (the matrix of paired changes and its chart), the siege lab
after its first steps and a creature inserted, moved and re-damaged by its form.  This
script runs those two tests with their screenshots sent to a temporary folder, then copies
them here; it fails, copying nothing, if a test fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
SHOTS = {"card_designer.png": "card_designer.png", "siege_lab.png": "siege_lab.png"}


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="clashkit-shots-") as folder:
        env = {**os.environ, "CLASHKIT_ARTIFACTS": folder}
        tests = "tests/browser/test_lab_in_browser.py"
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-m",
            "browser",
            tests,
            "-k",
            "designer or siege_lab",
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, check=False)
        if done.returncode != 0:
            print("screenshots: the browser test failed; docs/images/ left as it was", file=sys.stderr)
            return done.returncode
        IMAGES.mkdir(parents=True, exist_ok=True)
        for taken, kept in SHOTS.items():
            shutil.copyfile(Path(folder) / taken, IMAGES / kept)
            print(f"wrote {(IMAGES / kept).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
