"""``clashkit rules [R-NUMBER|WORD]``: one rule, the rules mentioning a word, the list; unknown -> exit 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import cli

from clashkit.base.rulebook import all_rules, rule
from clashkit.cli import main


def run(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def test_rules_r6_5_prints_its_text():
    done = cli("rules", "R6.5")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == str(rule("R6.5")) + "\n"
    assert done.stdout.startswith("R6.5 Indestructible\n\nIncantations neither affect nor damage")


@pytest.mark.parametrize("written", ["r6.7", "6.7"])
def test_a_number_in_any_spelling(written):
    result = run(written)
    assert result.exit_code == 0
    assert result.output == str(rule("R6.7")) + "\n"


def test_a_section_prints_all_its_rules():
    result = run("R5")
    assert result.exit_code == 0
    assert result.output.startswith("R5 Incantations\n\n")
    assert [line[4:] for line in result.output.splitlines() if line.startswith("### ")] == [
        f"R5.{i}" + " " + rule(f"R5.{i}").title for i in range(1, 7)
    ]


def test_a_word_prints_every_rule_mentioning_it():
    result = run("Indestructible")
    assert result.exit_code == 0
    assert result.output == "\n\n".join(str(rule(n)) for n in ("R4.1", "R5.4", "R6.5")) + "\n"


def test_without_argument_the_list_of_titles():
    result = run()
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:3] == ["R1 Components and words", "  R1.1   Players and keeps", "  R1.2   Lanes, sides and positions"]
    assert "R6 Special abilities" in lines and "  R6.7   Sprint" in lines
    assert len(lines) == len(all_rules()) + 10


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "R6.9",
            "clashkit: error: no rule 'R6.9' in docs/rules.md; close numbers: R6.1, R6.2, R6.3, R6.4, "
            "R6.5, R6.6, R6.7, R6.8\n",
        ),
        ("teleport", "clashkit: error: no rule mentions 'teleport' (try `clashkit rules` for the list)\n"),
    ],
)
def test_unknown_is_one_line_on_stderr_and_exit_2(query, message):
    done = cli("rules", query)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_the_help_points_to_the_rules_in_the_project():
    done = cli("--help")
    assert done.returncode == 0
    assert "clashkit rules" in done.stdout and "see rules.md" not in done.stdout
