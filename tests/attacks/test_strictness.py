"""Attacks by input that was wrongly accepted: each is refused where it enters, in one line.

Repeated keys (``turn_limit=5,turn_limit=6`` kept one of them unsaid), digits of other
scripts (``int()`` reads ``"١"`` as 1, and ``"²"`` not at all), a null version that turned the
version check off, a card name that is only a combining mark.
"""

from __future__ import annotations

import json

import pytest
from command_line import cli, one_line_exit_2

from clashkit.base.cards import read_cards_csv, starter_set
from clashkit.base.errors import CardFileError, DeckError, InputError, OptionError, RunFolderError
from clashkit.base.levels import parse_level
from clashkit.base.limits import card_name
from clashkit.base.rng import Rng
from clashkit.base.rules import Rules, parse_settings
from clashkit.engine.actions import parse_action, parse_place
from clashkit.engine.solo_setup import deck_format, split_cards
from clashkit.policies import get_policy, parse_policies
from clashkit.runs.cluster import parse_cluster
from clashkit.runs.run_folder import MANIFEST
from clashkit.runs.simulate import simulate_to
from clashkit.runs.trace import Trace

HEADER = "name,deck,kind,cost,attack,health,abilities,aura,effect,target,notes\n"

#: Digits that are not ASCII: Arabic-Indic one, fullwidth five, superscript two (``isdigit()``
#: but not ``int()``), Devanagari three.
OTHER_DIGITS = ["١", "５", "²", "३"]


# --- Repeated keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["turn_limit=5,turn_limit=6", "turn_limit=5, turn_limit =5", "protection=true,protection=false"]
)
def test_repeated_rules_keys_are_refused_by_the_one_parser(text):
    key = text.split("=")[0].strip()
    with pytest.raises(OptionError, match=f"^--rules: {key} is given twice; give each option once$"):
        parse_settings(text, where="--rules")


def test_repeated_rules_keys_are_refused_from_the_apis_rules_text_too():
    with pytest.raises(OptionError, match="^rules: turn_limit is given twice"):
        Rules.coerce("turn_limit=5,turn_limit=6")


@pytest.mark.parametrize(
    ("option", "value"),
    [("--rules", "turn_limit=5,turn_limit=6"), ("--policy-a", "search:budget=4,budget=5")],
)
def test_repeated_keys_on_the_simulate_command_line_are_one_line(tmp_path, option, value):
    one_line_exit_2(
        cli("simulate", "-n", "2", "--no-progress", option, value, "--out", str(tmp_path / "run")), "given twice"
    )
    assert not (tmp_path / "run").exists()


def test_repeated_solo_settings_are_refused(tmp_path):
    one_line_exit_2(
        cli(
            "simulate",
            "--mode",
            "solo",
            "-n",
            "2",
            "--no-progress",
            "--settings",
            "ai_fixed_mana=8,ai_fixed_mana=9",
            "--free-settings",
            "--out",
            str(tmp_path / "run"),
        ),
        "--settings: ai_fixed_mana is given twice",
    )


@pytest.mark.parametrize("spec", ["search:budget=4,budget=5", "search:fair,fair=false", "search:budget=4,budget=4"])
def test_repeated_policy_options_are_refused_by_the_policy_parser(spec):
    with pytest.raises(OptionError, match=r"^policy 'search': option '(budget|fair)' is given twice; give each"):
        get_policy(spec)


def test_repeated_policy_options_are_refused_in_a_policy_list():
    with pytest.raises(OptionError, match="^--policies: policy 'search': option 'budget' is given twice"):
        parse_policies("greedy,search:budget=4,budget=5")


# --- Digits of other scripts -----------------------------------------------------------------


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_level_in_other_digits_is_refused(digit):
    with pytest.raises(OptionError, match=r"is not a level \(R8\.9"):
        parse_level(digit)


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_level_in_other_digits_is_refused_on_the_command_line(tmp_path, digit):
    one_line_exit_2(
        cli("simulate", "--mode", "solo", "-n", "2", "--no-progress", "--level", digit, "--out", str(tmp_path / "r")),
        "is not a level",
    )


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_local_cluster_size_in_other_digits_is_refused(digit):
    with pytest.raises(OptionError, match="N must be a whole number from 1 to 512"):
        parse_cluster(f"local:{digit}")


def test_ascii_levels_and_cluster_sizes_still_read():
    assert parse_level("3") == 3 and parse_level(" 5 ") == 5 and parse_level("legendary") == 5
    assert parse_cluster("local:2").workers == 2 and parse_cluster("local:512").workers == 512


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_solo_deck_number_in_other_digits_is_not_a_starter_deck(tmp_path, digit):
    assert deck_format(digit) == "custom"
    with pytest.raises(DeckError, match=f"^player deck: unknown card '{digit}'"):
        split_cards(digit, get_policy("random"), starter_set(), Rng(1))
    one_line_exit_2(
        cli("simulate", "--mode", "solo", "-n", "2", "--no-progress", "--a", digit, "--out", str(tmp_path / "r")),
        "is not a starter deck number",
    )


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_an_action_index_or_place_in_other_digits_is_refused(digit):
    with pytest.raises(InputError, match=r"the index after @ must be a number \(digits 0-9\)"):
        parse_action(f"play OGRE@{digit} upper")
    with pytest.raises(InputError, match=r"is not a place like 'B\.upper\.0'"):
        parse_place(f"B.upper.{digit}")


@pytest.mark.parametrize(
    "args",
    [
        ["-n", "{d}"],
        ["--seed", "{d}"],
        ["--jobs", "{d}"],
        ["--rules", "turn_limit={d}"],
        ["--policy-a", "search:budget={d}"],
        ["--cluster", "local:{d}"],
    ],
    ids=["n", "seed", "jobs", "rules", "policy", "cluster"],
)
@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_every_number_of_simulate_refuses_other_digits(tmp_path, args, digit):
    filled = [a.format(d=digit) for a in args]
    one_line_exit_2(cli("simulate", "--no-progress", "--out", str(tmp_path / "r"), *filled))
    assert not (tmp_path / "r").exists()


# --- A null version ---------------------------------------------------------------------------


@pytest.mark.parametrize(("where", "key"), [("top", "frames_version"), ("versions", "rules")])
def test_a_null_version_is_refused_not_skipped(tmp_path, where, key):
    simulate_to(tmp_path, 4, "1", "2", "random", seed=3)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    if where == "top":
        manifest[key] = None
    else:
        manifest["versions"][key] = None
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    what = "frames" if key == "frames_version" else "rules"
    with pytest.raises(RunFolderError, match=f"{what} version None is not a version number"):
        Trace.read_parquet(tmp_path)


# --- A card name of a combining mark --------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u0301", "\u0301\u0301", "\u20dd", "\u0301OGRE", "\u093fX"])
def test_a_card_name_starting_with_a_combining_mark_is_refused(name):
    with pytest.raises(InputError, match="a combining mark: a card name starts with"):
        card_name(name)


def test_a_card_file_row_named_by_a_combining_mark_is_refused():
    row = "\u0301,,creature,1,1,1,,,,,\n"
    with pytest.raises(CardFileError, match="combining mark"):
        read_cards_csv(HEADER + row)


@pytest.mark.parametrize("name", ["É", "E\u0301", "ÑANDU", "OGRE2"])
def test_names_with_marks_on_a_letter_are_kept(name):
    assert card_name(name)
