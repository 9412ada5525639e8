"""The card model, the card file (``interfaces.md`` §1) and the shipped set (R7.1, R9)."""

# The bad rows below are read as one table: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import re

import pytest

from clashkit import CardFileError, load_cards, starter_decks, starter_set
from clashkit.base.cards import COLUMNS, Aura, read_cards_csv
from clashkit.base.vocab import Ability, Direction, Effect, Kind, TargetSide

HEADER = ",".join(COLUMNS)
OGRE = "OGRE,2,creature,4,4,5,,,,,a plain body"
ZAP = "ZAP,,incantation,1,,,,,damage 2,enemy,"


def read(*rows: str) -> list:
    return read_cards_csv("\n".join([HEADER, *rows]) + "\n", source="cards.csv")


# --- The shipped set ----------------------------------------------------------------------

INCANTATIONS = {"ANNIHILATION", "BOOM!", "COMBUSTION", "METEORITE", "VORTEX", "CYCLONE"}
DECKS = {
    1: {"ANNIHILATION", "BARON", "BOOM!", "BRUTE", "CARAPACE", "PARTISAN", "REVENANT", "TROLL"},
    2: {"ABOMINATION", "ALPHA", "COMBUSTION", "LIEUTENANT", "MICROCTOPUS", "OGRE", "SCRIBE", "SHAMAN"},
    3: {"BRIGAND", "DISCIPLE", "GNOME", "GRRR", "MARTYR", "METEORITE", "PARASITE", "VORTEX"},
    4: {"ABERRATION", "ASSASSIN", "CARNIVORE", "CYCLONE", "MACHINE", "MUTANT", "REPTILE", "ZOMBIE"},
}


def test_r9_1_the_shipped_set_has_32_cards_6_incantations_26_creatures():
    cards = starter_set()
    assert len(cards) == 32 and len(set(cards.names)) == 32
    assert {c.name for c in cards if c.kind is Kind.INCANTATION} == INCANTATIONS
    assert sum(c.is_creature for c in cards) == 26


def test_r7_1_the_four_starter_decks():
    assert {n: set(names) for n, names in starter_decks().items()} == DECKS


def test_r9_2_every_ability_on_a_creature_and_every_aura_direction():
    creatures = [c for c in starter_set() if c.is_creature]
    printed = {a for c in creatures for a in c.abilities}
    assert printed == set(Ability)
    directions = {d for c in creatures if c.aura for d in c.aura.directions}
    assert directions == set(Direction)


def test_r9_1_values_are_provisional_and_said_so():
    first = starter_set().cards[0]
    assert "provisional" in first.notes.lower()
    assert all("provisional" in c.notes.lower() for c in starter_set())


def test_shipped_values_are_well_formed():
    for card in starter_set():
        assert card.cost >= 0
        if card.is_creature:
            assert card.attack >= 0 and card.health >= 1 and card.effect is None
        else:
            assert card.attack is None and card.effect is not None and card.target is not None


# --- Reading rows -----------------------------------------------------------------------------


def test_a_good_file_reads_into_cards():
    cards = read(
        OGRE,
        "SHAMAN,2,creature,3,1,4,,protection@front+side,,,",
        "MUTANT,4,creature,4,2,3,splash;pierce,,,,",
        ZAP,
        "BOOM!,1,incantation,1,,,,,grant splash,ally,",
        "",  # a blank row is skipped
    )
    assert [c.name for c in cards] == ["OGRE", "SHAMAN", "MUTANT", "ZAP", "BOOM!"]
    assert cards[1].aura == Aura(Ability.PROTECTION, (Direction.FRONT, Direction.SIDE))
    assert cards[2].abilities == (Ability.SPLASH, Ability.PIERCE)
    assert (cards[3].effect, cards[3].amount, cards[3].target) == (Effect.DAMAGE, 2, TargetSide.ENEMY)
    assert (cards[4].effect, cards[4].grants, cards[4].effect_text) == (Effect.GRANT, Ability.SPLASH, "grant splash")
    assert cards[0].deck == 2 and cards[3].deck is None


BAD_ROWS = [
    # (row, message after "cards.csv, row 2, ")
    ("OGRE,2,creature,4,4,5,splash;flying,,,,", "column abilities: unknown ability 'flying' (one of splash, pierce"),
    ("OGRE,2,creature,4,4,5,splash;splash,,,,", "column abilities: repeats an ability"),
    ("OGRE,2,creature,-1,4,5,,,,,", "column cost: cost must be at least 0, not -1"),
    ("OGRE,2,creature,two,4,5,,,,,", "column cost: cost must be an integer, not 'two'"),
    ("OGRE,2,creature,,4,5,,,,,", "column cost: is empty"),
    ("OGRE,2,creature,4,4,,,,,,", "column health: is empty"),
    ("OGRE,2,creature,4,4,0,,,,,", "column health: health must be at least 1, not 0"),
    ("OGRE,2,creature,4,-2,5,,,,,", "column attack: attack must be at least 0, not -2"),
    ("OGRE,2,creature,4,40000,5,,,,,", "column attack: attack must be at most 99, not 40000"),
    ("ZAP,,incantation,1,,,,,damage 10000,enemy,", "column effect: damage amount must be at most 99, not 10000"),
    ("OGRE,2,creature,4,,5,,,,,", "column attack: is empty"),
    ("OGRE,2,creature,4,4,5,,,damage 2,,", "column effect: is for incantations; a creature leaves it empty"),
    ("OGRE,2,creature,4,4,5,,,,enemy,", "column target: is for incantations; a creature leaves it empty"),
    ("OGRE,2,monster,4,4,5,,,,,", "column kind: unknown kind 'monster' (one of creature, incantation)"),
    ("OGRE,0,creature,4,4,5,,,,,", "column deck: deck must be at least 1, not 0"),
    ("OGRE,2,creature,3.5,4,5,,,,,", "column cost: cost must be a whole number, not '3.5' (R1.3: a card's cost)"),
    (
        "OGRE,2,creature,3,4,5,splash;peirce,,,,",
        "column abilities: unknown ability 'peirce' (one of splash, pierce, rage, protection, indestructible, bloodlust, sprint); did you mean pierce?",
    ),
    (
        "OGRE,2,creature,3,4,5,,protection@frnt,,,",
        "column aura: unknown aura direction 'frnt' (one of front, behind, side); did you mean front?",
    ),
    (
        "OGRE,2,creature,3,4,5,,protektion@front,,,",
        "column aura: unknown aura ability 'protektion' (one of splash, pierce, rage, protection, indestructible, bloodlust, sprint); did you mean protection?",
    ),
    (
        "ZAP,,incantation,1,,,,,damge 2,enemy,",
        "column effect: unknown effect 'damge' (one of damage, destroy, bounce, shift, weaken, empower, grant, heal); did you mean damage?",
    ),
    (
        "ZAP,,incantation,1,,,,,grant rgae,enemy,",
        "column effect: unknown granted ability 'rgae' (one of splash, pierce, rage, protection, indestructible, bloodlust, sprint); did you mean rage?",
    ),
    ("BASTION,2,creature,4,4,5,,,,,", "column name: 'BASTION' is the keep (R1.1), not a card"),
    (",2,creature,4,4,5,,,,,", "column name: is empty"),
    (
        "OGRE,2,creature,4,4,5,,protection@up,,,",
        "column aura: unknown aura direction 'up' (one of front, behind, side)",
    ),
    ("OGRE,2,creature,4,4,5,,flying@front,,,", "column aura: unknown aura ability 'flying'"),
    ("OGRE,2,creature,4,4,5,,protection,,,", "column aura: aura 'protection' names no direction (front, behind, side)"),
    (
        "OGRE,2,creature,4,4,5,,protection@front+front,,,",
        "column aura: aura 'protection@front+front' repeats a direction",
    ),
    ("ZAP,,incantation,1,3,,,,damage 2,enemy,", "column attack: is for creatures; an incantation leaves it empty"),
    ("ZAP,,incantation,1,,2,,,damage 2,enemy,", "column health: is for creatures; an incantation leaves it empty"),
    (
        "ZAP,,incantation,1,,,rage,,damage 2,enemy,",
        "column abilities: is for creatures; an incantation leaves it empty",
    ),
    (
        "ZAP,,incantation,1,,,,rage@front,damage 2,enemy,",
        "column aura: is for creatures; an incantation leaves it empty",
    ),
    ("ZAP,,incantation,1,,,,,explode,enemy,", "column effect: unknown effect 'explode' (one of damage, destroy"),
    ("ZAP,,incantation,1,,,,,damage,enemy,", "column effect: effect damage needs one amount, as in 'damage 2'"),
    ("ZAP,,incantation,1,,,,,damage -2,enemy,", "column effect: damage amount must be at least 0, not -2"),
    ("ZAP,,incantation,1,,,,,grant flying,enemy,", "column effect: unknown granted ability 'flying'"),
    ("ZAP,,incantation,1,,,,,heal 2,enemy,", "column effect: effect heal takes no argument, got '2'"),
    ("ZAP,,incantation,1,,,,,,enemy,", "column effect: is empty"),
    ("ZAP,,incantation,1,,,,,damage 2,foe,", "column target: unknown target 'foe' (one of enemy, ally, any)"),
    ("ZAP,,incantation,1,,,,,damage 2,,", "column target: is empty"),
]


@pytest.mark.parametrize(
    ("row", "message"), BAD_ROWS, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BAD_ROWS)]
)
def test_a_bad_row_is_refused_naming_file_row_and_column(row, message):
    with pytest.raises(CardFileError, match="^" + re.escape(f"cards.csv, row 2, {message}")):
        read(row)


# --- A spreadsheet's card file -------------------------------------------------------------


def test_a_lower_case_name_is_upper_cased_in_a_file_as_on_the_command_line():
    """One normalising function for a card file's names and a deck list's (R7.1)."""
    from clashkit.engine.formats import parse_deck

    (ogre,) = read("Ogre,2,creature,4,4,5,,,,,")
    assert ogre.name == "OGRE"
    deck = "abomination,alpha,combustion,lieutenant,microctopus,Ogre,scribe,shaman"
    assert parse_deck(deck).names == (
        "ABOMINATION",
        "ALPHA",
        "COMBUSTION",
        "LIEUTENANT",
        "MICROCTOPUS",
        "OGRE",
        "SCRIBE",
        "SHAMAN",
    )


def test_an_integer_valued_decimal_is_read_as_the_integer():
    """A spreadsheet writes 3.0 (or 3,0 where the comma is the decimal mark) for 3."""
    (ogre,) = read("OGRE,2.0,creature,3.0,4.00,5,,,,,")
    assert (ogre.deck, ogre.cost, ogre.attack, ogre.health) == (2, 3, 4, 5)
    (zap,) = read("ZAP,,incantation,1,,,,,damage 2.0,enemy,")
    assert zap.effect_text == "damage 2"


def test_a_semicolon_separated_file_is_read_as_the_comma_separated_one():
    """A European spreadsheet's "CSV" separates by ';' and writes 3,0; a cell holding ';' is quoted."""
    comma = read(OGRE, "MUTANT,4,creature,4,2,3,splash;pierce,,,,", ZAP)
    semicolon = read_cards_csv(
        ";".join(COLUMNS) + "\n" + "OGRE;2;creature;4;4,0;5;;;;;a plain body\n"
        'MUTANT;4;creature;4;2;3;"splash;pierce";;;;\n' + "ZAP;;incantation;1;;;;;damage 2;enemy;\n",
        source="cards.csv",
    )
    assert semicolon == comma
    tabbed = read_cards_csv("\t".join(COLUMNS) + "\n" + OGRE.replace(",", "\t") + "\n", source="cards.csv")
    assert tabbed == comma[:1]
    with pytest.raises(CardFileError) as refused:
        read_cards_csv(";".join(COLUMNS) + "\nMUTANT;4;creature;4;2;3;splash;pierce;;;;\n", source="cards.csv")
    assert str(refused.value) == (
        "cards.csv, row 2: more fields than columns (the file is separated by ';': a cell that holds ';', "
        "as abilities 'splash;pierce', is written in quotes)"
    )


def test_a_row_with_too_many_fields():
    with pytest.raises(CardFileError, match=r"^cards\.csv, row 2: more fields than columns$"):
        read("ZAP,,incantation,1,,,,,damage 2,enemy,,extra")


def test_the_row_number_is_the_files():
    with pytest.raises(CardFileError, match=r"^cards\.csv, row 4, column cost: "):
        read(OGRE, ZAP, "BRUTE,1,creature,x,4,3,,,,,")


def test_duplicate_name_names_both_rows():
    with pytest.raises(
        CardFileError, match=re.escape("cards.csv, row 4, column name: duplicate name 'OGRE' (first on row 2)")
    ):
        read(OGRE, ZAP, OGRE)


def test_missing_and_unknown_columns():
    text = "name,deck,kind,cost,attack,health,abilities,aura,effect,target\n" + OGRE + "\n"
    with pytest.raises(CardFileError, match=r"^cards\.csv: header lacks column\(s\) notes$"):
        read_cards_csv(text, source="cards.csv")
    with pytest.raises(CardFileError, match=r"^cards\.csv: unknown column\(s\) colour$"):
        read_cards_csv(HEADER + ",colour\n" + OGRE + ",red\n", source="cards.csv")


def test_an_empty_file_is_refused():
    with pytest.raises(CardFileError, match=r"^cards\.csv: no cards$"):
        read_cards_csv(HEADER + "\n", source="cards.csv")


def test_load_cards_names_the_file(tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("\n".join([HEADER, OGRE, ZAP]) + "\n", encoding="utf-8")
    assert load_cards(good).names == ("OGRE", "ZAP")
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([HEADER, OGRE, "ZAP,,incantation,1,,,,,zap,enemy,"]) + "\n", encoding="utf-8")
    with pytest.raises(CardFileError, match="^" + re.escape(f"{bad}, row 3, column effect: unknown effect 'zap'")):
        load_cards(bad)


def test_load_cards_refuses_non_utf8_and_missing_files(tmp_path):
    latin = tmp_path / "latin.csv"
    latin.write_bytes(("\n".join([HEADER, "CAFÉ,,creature,1,1,1,,,,,"]) + "\n").encode("latin-1"))
    with pytest.raises(CardFileError, match="^" + re.escape(f"{latin}: not UTF-8 text") + "$"):
        load_cards(latin)
    missing = tmp_path / "nope.csv"
    with pytest.raises(CardFileError, match="^" + re.escape(f"{missing}: cannot read (")):
        load_cards(missing)


def test_nothing_is_half_loaded(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("\n".join([HEADER, OGRE, ZAP, "BRUTE,1,creature,3,4,,,,,,"]) + "\n", encoding="utf-8")
    before = starter_set()
    with pytest.raises(CardFileError):
        load_cards(path)
    assert starter_set() is before and "BRUTE" in before and "ZAP" not in before


def test_the_shipped_file_is_what_designers_edit():
    from clashkit.base.cards import shipped_cards_path

    path = shipped_cards_path()
    assert path.name == "cards.csv" and load_cards(path).names == starter_set().names
