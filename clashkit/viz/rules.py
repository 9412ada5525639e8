"""The rules where the notebooks are: ``viz.rule("R6.7")`` and the rule numbers of event lines.

The text is :mod:`clashkit.base.rulebook`'s (``docs/rules.md``); this module only
draws it.  :func:`rule` shows one rule (or a whole section) as a card in a
notebook; :func:`rule_link` is the rule number an event line carries, which
unfolds to the rule's text on a click and shows it on hover, with nothing
fetched from anywhere.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

from ..base import Rule, UnknownRuleError, is_number, search
from ..base import rule as find_rule

_FONT = "font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif"
_CARD = (
    f"{_FONT};max-width:760px;background:#fffdf6;color:#2b2720;border-left:4px solid #d4a017;"
    "border-radius:4px;padding:6px 12px;margin:4px 0;font-size:13px;line-height:18px"
)
_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<b>\1</b>"),
    (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
]


def _inline(text: str) -> str:
    html = escape(text, quote=False)
    for pattern, replacement in _INLINE:
        html = pattern.sub(replacement, html)
    return html


def markdown_html(text: str) -> str:
    """The little Markdown the rules use (paragraphs, ``-`` lists, ``###`` headings, emphasis,
    code) as HTML; everything else is shown as written."""
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if lines and lines[0].startswith("#"):
            heading = lines[0].lstrip("#").strip()
            blocks.append(f'<div style="font-weight:700;margin:8px 0 2px">{_inline(heading)}</div>')
            lines = lines[1:]
            if not lines:
                continue
        if lines and all(line.startswith(("- ", "  ")) for line in lines) and lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            blocks.append(
                '<ul style="margin:2px 0 2px 18px;padding:0">'
                + "".join(f'<li style="margin:1px 0">{_inline(i)}</li>' for i in items)
                + "</ul>"
            )
        else:
            blocks.append(f'<p style="margin:4px 0">{_inline(" ".join(s.strip() for s in lines))}</p>')
    return "".join(blocks)


class RuleCard:
    """One rule (or section) as a notebook shows it; ``str()`` is the plain text."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    @property
    def number(self) -> str:
        return self.rule.number

    @property
    def title(self) -> str:
        return self.rule.title

    @property
    def text(self) -> str:
        return self.rule.text

    def _repr_html_(self) -> str:
        r = self.rule
        return (
            f'<div class="ck-rule-card" data-rule="{escape(r.number)}" style="{_CARD}">'
            f'<div style="font-weight:700;font-size:14px">{escape(r.number)} {escape(r.title)}</div>'
            f"{markdown_html(r.text)}</div>"
        )

    def _repr_markdown_(self) -> str:
        return self.rule._repr_markdown_()

    def __str__(self) -> str:
        return str(self.rule)

    def __repr__(self) -> str:
        return f"<rule {self.rule.number} {self.rule.title}>"


def rule(number: str) -> RuleCard:
    """Rule ``number`` (``"R6.7"``, ``"6.7"``) or a whole section (``"R6"``), shown as a card.
    An unknown number raises :class:`~clashkit.base.errors.UnknownRuleError` naming close ones."""
    return RuleCard(find_rule(number))


class RuleList:
    """Several rules shown one under the other."""

    def __init__(self, rules: list[Rule], word: str) -> None:
        self.rules = rules
        self.word = word

    def _repr_html_(self) -> str:
        said = f"{len(self.rules)} rules mention “{escape(self.word)}”"
        head = f'<div style="{_FONT};font-size:12px;color:#6b6250">{said}</div>'
        return head + "".join(RuleCard(r)._repr_html_() for r in self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self):
        return iter(self.rules)


def rules_matching(word: str) -> RuleList:
    """Every rule whose title or text mentions ``word``, shown as cards."""
    return RuleList(search(word), word)


@lru_cache(maxsize=256)
def rule_link(number: str) -> str:
    """A rule number as an event line shows it: a click unfolds the rule's text under it, a
    hover shows it as a tooltip.  A number the rulebook lacks (or no number) stays plain text."""
    number = (number or "").strip()
    if not number or not is_number(number):
        return escape(number)
    try:
        r = find_rule(number)
    except UnknownRuleError:
        return escape(number)
    tip = escape(f"{r.number} {r.title}: {' '.join(r.text.split())}")
    return (
        f'<details class="ck-rule" data-rule="{escape(r.number)}" style="display:inline-block">'
        f'<summary title="{tip}" style="display:inline;cursor:pointer;color:#1d5fa8;'
        'text-decoration:underline dotted">'
        f"{escape(r.number)}</summary>"
        f'<div style="{_FONT};font-size:11px;line-height:14px;background:#fffdf6;border-left:3px solid #d4a017;'
        f'padding:2px 6px;max-width:420px;white-space:normal">'
        f"<b>{escape(r.title)}</b>{markdown_html(r.text)}</div></details>"
    )


__all__ = ["RuleCard", "RuleList", "markdown_html", "rule", "rule_link", "rules_matching"]
