"""``clashkit rules [R-NUMBER|WORD]``: the rules reference, ``docs/rules.md``, on the command line."""

from __future__ import annotations

import click

from ..base.errors import UnknownRuleError
from ..base.rulebook import all_rules, is_number, rule, search, sections


def contents_lines() -> list[str]:
    """Every section and rule with its title: the table of contents of ``docs/rules.md``."""
    lines = []
    for section in sections():
        lines.append(f"{section.number} {section.title}")
        lines += [f"  {r.number:<6} {r.title}" for r in all_rules() if r.section == section.number]
    return lines


def matching_text(query: str) -> str:
    """One rule or section when ``query`` is a number, else every rule that mentions the word."""
    if is_number(query):
        return str(rule(query))
    found = search(query)
    if not found:
        raise UnknownRuleError(f"no rule mentions {query.strip()!r} (try `clashkit rules` for the list)")
    return "\n\n".join(str(r) for r in found)


@click.command("rules")
@click.argument("query", required=False, metavar="[R-NUMBER|WORD]")
def command(query: str | None) -> None:
    """Print a rule of docs/rules.md (R6.7, 6.7, a section R6), or every rule mentioning a WORD.

    Without an argument, list the rules with their titles.
    """
    if query is None:
        click.echo("\n".join(contents_lines()))
        return
    click.echo(matching_text(query))
