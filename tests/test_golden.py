"""Golden playthroughs (see ``tests/golden/playthroughs.py``): whole seeded games, diffed event by event."""

from __future__ import annotations

import difflib

import pytest
from golden.playthroughs import GAMES, account, path


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_matches_golden_file(name):
    expected = path(name).read_text(encoding="utf-8")
    actual = account(GAMES[name]())
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True), "golden", "now", n=2
            )
        )
        pytest.fail(
            f"{name} differs from its golden file; if the change is deliberate, run "
            f"`.venv/bin/python tests/golden/playthroughs.py`\n{diff[:4000]}"
        )


def test_golden_games_end_and_cover_the_set():
    """The golden games are whole games, and between them every event kind of a game appears."""
    texts = "\n".join(path(name).read_text(encoding="utf-8") for name in GAMES)
    for phrase in ("wins", "flips to the Fort", "attacks", "is destroyed", "resolves on", "is milled", "reveals"):
        assert phrase in texts, phrase
