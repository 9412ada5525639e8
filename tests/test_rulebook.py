"""clashkit.base.rulebook: docs/rules.md read as numbered rules (every R-number, lookups, search, errors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clashkit.base.errors import ClashkitError, UnknownRuleError
from clashkit.base.rulebook import (
    Rule,
    all_rules,
    is_number,
    normalize,
    parse_rules,
    rule,
    rules_path,
    search,
    sections,
)
from clashkit.base.rules import Rules, SoloSettings

ROOT = Path(__file__).resolve().parent.parent

# Every rule number of the reference, in order (R1.1 … R10.4).
NUMBERS = (
    [f"R1.{i}" for i in range(1, 8)]
    + [f"R2.{i}" for i in range(1, 4)]
    + [f"R3.{i}" for i in range(1, 13)]
    + [f"R4.{i}" for i in range(1, 10)]
    + [f"R5.{i}" for i in range(1, 7)]
    + [f"R6.{i}" for i in range(1, 9)]
    + [f"R7.{i}" for i in range(1, 4)]
    + ["R8.1", "R8.2", "R8.3", "R8.3a"]
    + [f"R8.{i}" for i in range(4, 10)]
    + [f"R9.{i}" for i in range(1, 4)]
    + [f"R10.{i}" for i in range(0, 5)]
)

# The rules that carry a **Ruling**, each with the passage it rests on.
RULINGS = [
    "R1.7",
    "R3.1",
    "R3.4",
    "R3.8",
    "R3.9",
    "R3.10",
    "R3.11",
    "R4.6",
    "R4.7",
    "R5.1",
    "R5.4",
    "R6.4",
    "R6.5",
    "R6.6",
    "R6.8",
    "R8.1",
    "R8.3",
    "R8.4",
    "R8.7",
    "R8.9",
]


def test_the_checkout_reads_docs_rules_md():
    assert rules_path() == ROOT / "docs" / "rules.md"


def test_every_rule_number_in_order():
    assert [r.number for r in all_rules()] == NUMBERS
    assert [s.number for s in sections()] == [f"R{i}" for i in range(1, 11)]


def test_every_ruling_says_what_it_rests_on():
    with_ruling = [r.number for r in all_rules() if "**Ruling:**" in r.text]
    assert with_ruling == RULINGS
    for number in RULINGS:
        text = rule(number).text
        assert text.index("*Rests on:*") > text.index("**Ruling:**"), number


@pytest.mark.parametrize("written", ["R6.5", "r6.5", "6.5", " R6.5 "])
def test_a_rule_by_any_spelling_of_its_number(written):
    found = rule(written)
    assert (found.number, found.title) == ("R6.5", "Indestructible")
    assert "Incantations neither affect nor damage an Indestructible creature" in found.text
    assert "**Attacks damage it and destroy it in the ordinary way**" in found.text


def test_r8_3a_keeps_its_letter():
    assert rule("r8.3A").number == "R8.3a" and rule("R8.3a").title == "AI siege"


def test_a_section_holds_its_introduction_and_every_rule():
    section = rule("R6")
    assert (section.number, section.title, section.is_section) == ("R6", "Special abilities", True)
    assert section.text.startswith("An ability works by itself whenever it can")
    headings = re.findall(r"^### (R\S+)", section.text, re.MULTILINE)
    assert headings == [f"R6.{i}" for i in range(1, 9)]
    assert rule("R6.7").text in section.text


def test_text_forms():
    sprint = rule("R6.7")
    assert str(sprint).startswith("R6.7 Sprint\n\nSprint (the Hungarian text says *Roham*, charge)")
    assert sprint._repr_markdown_().startswith("**R6.7 Sprint**\n\n")
    assert sprint.section == "R6" and not sprint.is_section


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        rule("R6.7").title = "Run"  # type: ignore[misc]


def test_r10_3_and_r10_4_name_every_option_and_value():
    options = rule("R10.3").text + rule("R10.4").text
    for name in [*Rules.__dataclass_fields__, *SoloSettings.__dataclass_fields__]:
        assert name == "solo" or f"`{name}`" in options or f"`{name} = " in options, name
    for needle in [
        "`incantations_in_siege`",
        "`protection`",
        '`"first_attack"`',
        '`"first_damage"`',
        "`bloodlust_trigger`",
        '`"primary"`',
        '`"any"`',
        "`ai_incantation_side`",
        '`"declared"`',
        '`"either"`',
        "`ai_last_turn`",
        '`"next"`',
        '`"current"`',
        "`first_player`",
        '`"coin"`',
        '`"last_drafter"`',
        "`turn_limit`",
        "`200`",
        "`ai_fixed_mana`",
        "`ai_mana_per_creature`",
        "`ai_first`",
        "`ai_starts_as_fort`",
        "`ai_pile_damage`",
        '`"minus_one"`',
        '`"one"`',
        "`ai_ability`",
        '`protection = "first_hit"`',
        '`keep_distance = "damage" | "attack"`',
        '`ai_reduced_scope = "pile" | "all"`',
        '`aura = "adjacent" | "until_holder_moves"`',
        '`siege_order = "live" | "fixed"`',
        '`bloodlust_trigger = "per_creature"`',
        '`solo_player_first_mana = "hand" | "six"`',
    ]:
        assert needle in options, needle
    assert "`ai_reduced_scope` is a solo setting" in " ".join(rule("R10.4").text.split())


def test_search_finds_a_word_in_titles_and_texts_in_order():
    assert [r.number for r in search("Sprint")] == [r.number for r in search("sprint")]
    assert [r.number for r in search("indestructible")] == ["R4.1", "R5.4", "R6.5"]
    assert search("no such word anywhere") == [] and search("  ") == []


@pytest.mark.parametrize(
    ("written", "close"),
    [
        ("R6.9", "close numbers: R6.1, R6.2, R6.3, R6.4, R6.5, R6.6, R6.7, R6.8"),
        ("R11", "close numbers: "),
        ("sprint", "the sections are R1, R2, R3, R4, R5, R6, R7, R8, R9, R10"),
    ],
)
def test_an_unknown_number_is_a_typed_error_naming_close_numbers(written, close):
    with pytest.raises(UnknownRuleError) as caught:
        rule(written)
    message = str(caught.value)
    assert message.startswith(f"no rule {written!r} in docs/rules.md; ")
    assert close in message and "\n" not in message
    assert isinstance(caught.value, ClashkitError)


@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from(["R", "r", ""]))
def test_any_written_number_is_found_or_refused_cleanly(major, minor, prefix):
    written = f"{prefix}{major}.{minor}"
    assert is_number(written) and normalize(written) == f"R{major}.{minor}"
    try:
        found = rule(written)
    except UnknownRuleError as e:
        assert f"R{major}.{minor}" not in NUMBERS and "docs/rules.md" in str(e)
    else:
        assert found.number == f"R{major}.{minor}" in NUMBERS


def test_the_parser_reads_headings_only_and_refuses_a_number_twice():
    text = "intro\n\n## R1 One\n\nfirst\n\n### R1.1 A\n\nalpha `x`\n\n### R1.2 B\n\nbeta\n"
    parsed = parse_rules(text)
    assert list(parsed) == ["R1", "R1.1", "R1.2"]
    assert parsed["R1.1"] == Rule("R1.1", "A", "alpha `x`")
    assert parsed["R1"].text == "first\n\n### R1.1 A\n\nalpha `x`\n\n### R1.2 B\n\nbeta"
    with pytest.raises(UnknownRuleError, match="R1.1 is written twice"):
        parse_rules(text + "\n### R1.1 again\n")
