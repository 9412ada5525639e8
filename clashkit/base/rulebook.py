"""The rules reference, ``docs/rules.md``, read as numbered rules.

``docs/rules.md`` is the one text of the rules; this module only parses it, so a
notebook, the command line (``clashkit rules``) and an event line can show
what a rule number says::

    >>> from clashkit.base.rulebook import rule
    >>> rule("R6.5").title
    'Indestructible'
    >>> rule("6.7").number
    'R6.7'
    >>> rule("R6").title
    'Special abilities'

The file's layout is the contract: a section is a level-2 heading
``## R6 Special abilities``, a rule a level-3 heading ``### R6.5 Indestructible``;
a rule's text runs to the next heading.  This module imports nothing from the
engine.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import UnknownRuleError
from .shipped import shipped_file

_HEADING = re.compile(r"^(#{2,3}) (R\d+(?:\.\d+[a-z]?)?) (.+?)\s*$", re.MULTILINE)
_NUMBER = re.compile(r"^R?(\d+(?:\.\d+[a-z]?)?)$", re.IGNORECASE)


@dataclass(frozen=True)
class Rule:
    """One numbered rule (``R6.5``) or a whole section (``R6``) of ``docs/rules.md``.

    ``text`` is Markdown: a section's text holds its introduction and then
    every rule in it, each under its own heading.
    """

    number: str
    title: str
    text: str

    @property
    def is_section(self) -> bool:
        return "." not in self.number

    @property
    def section(self) -> str:
        """The section's number: ``"R6"`` for ``R6.5`` and for ``R6`` itself."""
        return _section_of(self.number)

    def __str__(self) -> str:
        return f"{self.number} {self.title}\n\n{self.text}"

    def _repr_markdown_(self) -> str:
        return f"**{self.number} {self.title}**\n\n{self.text}"


def rules_path() -> Path:
    """``docs/rules.md`` of a source checkout, else the copy the installed package carries."""
    return shipped_file("docs/rules.md")


def parse_rules(markdown: str) -> dict[str, Rule]:
    """Every section and rule of a rules text, by number (``"R6"``, ``"R6.5"``), in the text's order."""
    headings = list(_HEADING.finditer(markdown))
    found: dict[str, Rule] = {}
    for i, match in enumerate(headings):
        end = headings[i + 1].start() if i + 1 < len(headings) else len(markdown)
        number = match.group(2)
        if number in found:
            raise UnknownRuleError(f"docs/rules.md: {number} is written twice")
        found[number] = Rule(number, match.group(3), markdown[match.end() : end].strip())
    # A section's text is its introduction followed by its rules.
    for number, section in list(found.items()):
        if section.is_section:
            parts = [section.text] if section.text else []
            members = [r for r in found.values() if not r.is_section and r.section == number]
            parts += [f"### {r.number} {r.title}\n\n{r.text}" for r in members]
            found[number] = Rule(number, section.title, "\n\n".join(parts))
    return found


_RULES: dict[str, Rule] | None = None


def _rules() -> dict[str, Rule]:
    global _RULES
    if _RULES is None:
        _RULES = parse_rules(rules_path().read_text(encoding="utf-8"))
    return _RULES


def _section_of(number: str) -> str:
    return number.split(".")[0]


def is_number(text: str) -> bool:
    """Whether ``text`` is written like a rule number (``R6.7``, ``r6.7``, ``6.7``, ``R6``), known or not."""
    return _NUMBER.match(text.strip()) is not None


def normalize(number: str) -> str:
    """``"r6.7"``, ``"6.7"``, ``" R6.7 "`` -> ``"R6.7"``; anything else is returned stripped."""
    text = number.strip()
    match = _NUMBER.match(text)
    return f"R{match.group(1).lower()}" if match else text


def rule(number: str) -> Rule:
    """The rule (``"R6.7"``, ``"r6.7"``, ``"6.7"``) or whole section (``"R6"``) with that number.

    An unknown number raises :class:`~clashkit.base.errors.UnknownRuleError` naming close numbers.
    """
    rules = _rules()
    key = normalize(number)
    if key in rules:
        return rules[key]
    raise UnknownRuleError(f"no rule {number.strip()!r} in docs/rules.md{_close_numbers(key, rules)}")


def _close_numbers(key: str, rules: dict[str, Rule]) -> str:
    section = _section_of(key)
    near = [n for n in rules if _section_of(n) == section and n != section] if section in rules else []
    if not near:
        near = difflib.get_close_matches(key, list(rules), n=5, cutoff=0.5)
    if not near:
        return f"; the sections are {', '.join(n for n in rules if '.' not in n)}"
    return f"; close numbers: {', '.join(near)}"


def all_rules() -> list[Rule]:
    """Every numbered rule (R1.1 … R10.4) in the order of ``docs/rules.md``, sections left out."""
    return [r for r in _rules().values() if not r.is_section]


def sections() -> list[Rule]:
    """The sections (R1 … R10), each with all its rules in its text."""
    return [r for r in _rules().values() if r.is_section]


def search(word: str) -> list[Rule]:
    """The numbered rules whose title or text contains ``word`` (any case), in order."""
    needle = word.strip().casefold()
    if not needle:
        return []
    return [r for r in all_rules() if needle in r.title.casefold() or needle in r.text.casefold()]


__all__ = ["Rule", "all_rules", "is_number", "normalize", "parse_rules", "rule", "rules_path", "search", "sections"]
