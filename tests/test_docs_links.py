"""Everything the project points its readers to is in the repository: docs/rules.md, docs/scenarios.md,
docs/cards.md and the site's other pages, never a rules.md or interfaces.md that only exists elsewhere."""

from __future__ import annotations

import re

from helpers import ROOT

SOURCES = [
    ROOT / "README.md",
    *sorted((ROOT / "clashkit").rglob("*.py")),
    *sorted((ROOT / "notebooks").glob("*.ipynb")),
]
#: The site's pages link each other relatively (``../rules.md#R6.5``; mkdocs --strict checks them).
PAGES = sorted((ROOT / "docs").rglob("*.md"))


def test_no_pointer_to_a_document_outside_the_repository():
    stray = []
    for path in SOURCES:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in re.finditer(r"[\w/.-]*(?:rules|interfaces)\.md", line):
                if not match.group().endswith("docs/rules.md"):
                    stray.append(f"{path.relative_to(ROOT)}:{n}: {match.group()}")
    assert stray == []


def test_no_docs_page_names_a_document_outside_the_repository():
    assert [p.relative_to(ROOT) for p in PAGES if "interfaces.md" in p.read_text(encoding="utf-8")] == []


def test_every_docs_page_named_exists():
    named = set()
    for path in SOURCES:
        named |= set(re.findall(r"docs/[\w/-]+\.md", path.read_text(encoding="utf-8")))
    assert named >= {"docs/rules.md", "docs/scenarios.md", "docs/cards.md"}
    assert [name for name in sorted(named) if not (ROOT / name).is_file()] == []
