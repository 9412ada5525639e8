"""Shared test set-up: ``tests/`` is importable, so test modules can ``from helpers import …``."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
