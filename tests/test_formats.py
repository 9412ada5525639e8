"""R7 formats: deck arguments, preconstructed decks, the draft (R7.2), constructed (R7.3)."""

from __future__ import annotations

import pytest

from clashkit.base.cards import starter_set
from clashkit.base.errors import DeckError
from clashkit.base.rng import Rng
from clashkit.base.rules import Rules
from clashkit.base.vocab import KEEP
from clashkit.engine.formats import (
    CONSTRUCTED,
    CUSTOM,
    DRAFT,
    PRECONSTRUCTED,
    constructed,
    draft,
    format_of,
    kit,
    parse_deck,
)
from clashkit.policies import Policy
from clashkit.runs.game import new_duel, new_game

CARDS = starter_set()
DECK_1 = "ANNIHILATION,BARON,BOOM!,BRUTE,CARAPACE,PARTISAN,REVENANT,TROLL"


class Scripted(Policy):
    """Takes the first card offered, writes down every call; bans the first revealed card."""

    def __init__(self, label: str, log: list) -> None:
        self.name = label
        self.log = log

    def pick(self, cards, offered, mine, rng):
        self.log.append((self.name, "pick", tuple(offered), tuple(mine)))
        return offered[0]

    def choose_ten(self, cards, rng):
        ten = kit(cards)[:10] if self.name == "A" else kit(cards)[-10:]
        self.log.append((self.name, "ten", tuple(ten)))
        return ten

    def ban(self, cards, theirs, mine, rng):
        self.log.append((self.name, "ban", tuple(theirs), tuple(mine)))
        return theirs[0]


def choices(a: Policy, b: Policy):
    """R7.3's choices of two policies, as :func:`constructed` takes them."""
    return (a.choose_ten, b.choose_ten), (a.ban, b.ban)


# --- Deck arguments -------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_r7_1_a_deck_number_is_that_starter_deck(number):
    spec = parse_deck(str(number), CARDS)
    assert spec.format == PRECONSTRUCTED
    assert spec.number == number
    assert list(spec.names) == CARDS.deck(number)


@pytest.mark.parametrize("word", ["draft", "DRAFT", " constructed "])
def test_draft_and_constructed_are_words(word):
    assert parse_deck(word, CARDS).format == word.strip().lower()


def test_a_comma_separated_list_names_eight_cards_in_any_case_and_spacing():
    spec = parse_deck(" ogre, TROLL,brute,GNOME , MARTYR,zombie,REPTILE,METEORITE", CARDS)
    assert spec.format == CUSTOM
    assert spec.names == (
        "OGRE",
        "TROLL",
        "BRUTE",
        "GNOME",
        "MARTYR",
        "ZOMBIE",
        "REPTILE",
        "METEORITE",
    )


def test_a_deck_file_has_one_name_a_line_or_commas_and_comments(tmp_path):
    path = tmp_path / "my.deck"
    path.write_text(
        "# my favourite deck\nOGRE\nTROLL, BRUTE  # two at once\n\nGNOME\nMARTYR,ZOMBIE\nREPTILE\nMETEORITE\n"
    )
    spec = parse_deck(str(path), CARDS)
    assert spec.format == CUSTOM
    assert spec.names == (
        "OGRE",
        "TROLL",
        "BRUTE",
        "GNOME",
        "MARTYR",
        "ZOMBIE",
        "REPTILE",
        "METEORITE",
    )


def test_a_sequence_of_names_is_a_list():
    assert parse_deck(DECK_1.split(","), CARDS).names == tuple(DECK_1.split(","))


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("5", "deck B: there is no starter deck 5 (R7.1"),
        ("", "deck B: empty deck argument"),
        ("OGRE", "deck B: 'OGRE' is one card"),
        ("banana", "deck B: 'banana' is not a starter deck number, 'draft', 'constructed'"),
        ("OGRE,TROLL", "deck B: a duel hand has 8 cards (R2.1), the list has 2"),
        ("OGRE,TROLL,BRUTE,GNOME,MARTYR,ZOMBIE,REPTILE,NOPE", "deck B: unknown card 'NOPE'"),
        ("OGRE,OGRE,BRUTE,GNOME,MARTYR,ZOMBIE,REPTILE,METEORITE", "deck B: OGRE is listed twice"),
    ],
)
def test_bad_deck_arguments_are_refused_naming_the_argument_and_the_rule(argument, message):
    with pytest.raises(DeckError) as caught:
        parse_deck(argument, CARDS, side="B")
    assert str(caught.value).startswith(message)


def test_a_deck_file_with_a_bad_name_names_the_file(tmp_path):
    path = tmp_path / "bad.deck"
    path.write_text("OGRE\nTROLL\nBRUTE\nGNOME\nMARTYR\nZOMBIE\nREPTILE\nMETEOR\n")
    with pytest.raises(DeckError, match=r"deck A \(.*bad.deck\): unknown card 'METEOR'"):
        parse_deck(str(path), CARDS)


def test_a_directory_is_not_a_deck(tmp_path):
    with pytest.raises(DeckError, match="is a directory"):
        parse_deck(str(tmp_path), CARDS)


def test_r7_1_two_different_starter_decks_unless_mirror():
    one, other = parse_deck("1", CARDS), parse_deck("1", CARDS, side="B")
    with pytest.raises(DeckError, match="R7.1 needs two different decks"):
        format_of(one, other)
    assert format_of(one, other, mirror=True) == PRECONSTRUCTED
    assert format_of(one, parse_deck("2", CARDS)) == PRECONSTRUCTED


def test_a_list_against_a_starter_deck_is_custom():
    assert format_of(parse_deck(DECK_1, CARDS), parse_deck("1", CARDS)) == CUSTOM


@pytest.mark.parametrize(("a", "b", "rule"), [("draft", "1", "R7.2"), ("2", "constructed", "R7.3")])
def test_draft_and_constructed_are_for_both_players(a, b, rule):
    with pytest.raises(DeckError, match=rule):
        new_game(a, b, "random", "random")


# --- Preconstructed ------------------------------------------------------------------


def test_preconstructed_game_is_the_same_as_new_duel_with_the_seed():
    for seed in range(20):
        state, fmt = new_game("3", "4", "greedy", "greedy", seed=seed)
        same = new_duel(CARDS.deck(3), CARDS.deck(4), seed=seed)
        assert fmt == PRECONSTRUCTED
        assert state.hands == same.hands
        assert state.active == same.active == state.first_player
        assert state.log.buffer == same.log.buffer


def test_r2_2_hands_are_the_decks_shuffled_with_the_keep_leftmost():
    state, _ = new_game("1", "2", "random", "random", seed=3)
    for player, number in ((0, 1), (1, 2)):
        hand = state.hands[player]
        assert hand[0] == KEEP
        assert sorted(hand[1:]) == sorted(CARDS.id(n) for n in CARDS.deck(number))


# --- R7.2 the draft ------------------------------------------------------------------


def test_r7_2_draft_alternates_exactly():
    log: list = []
    rng = Rng(42)
    shuffled = kit(CARDS)
    Rng(42).shuffle(shuffled)
    result = draft(CARDS, Scripted("A", log).pick, Scripted("B", log).pick, rng)
    # Who is asked, and how many cards they are offered, round by round.
    assert [(who, len(offered)) for who, _, offered, _ in log] == [
        ("A", 4),
        ("B", 3),
        ("B", 2),  # round 1: A picks 1, B picks 2, A takes the last
        ("B", 4),
        ("A", 3),
        ("A", 2),  # round 2: roles swapped
        ("A", 4),
        ("B", 3),
        ("B", 2),  # round 3
        ("B", 4),
        ("A", 3),
        ("A", 2),  # round 4
    ]
    # The reveals are the kit shuffled with the game's generator, four at a time.
    for round_ in range(4):
        first_call = log[3 * round_]
        assert first_call[2] == tuple(shuffled[4 * round_ : 4 * round_ + 4])
    # Taking the first offered card each time: who ends with which card of each reveal.
    r = [shuffled[4 * i : 4 * i + 4] for i in range(4)]
    assert result.a == [r[0][0], r[0][3], r[1][1], r[1][2], r[2][0], r[2][3], r[3][1], r[3][2]]
    assert result.b == [r[0][1], r[0][2], r[1][0], r[1][3], r[2][1], r[2][2], r[3][0], r[3][3]]
    assert result.last_drafter == 1  # B took the last card of the 4th round
    assert len(set(result.a + result.b)) == 16


def test_r7_2_each_picker_sees_its_own_hand_so_far():
    log: list = []
    draft(CARDS, Scripted("A", log).pick, Scripted("B", log).pick, Rng(1))
    a_sizes = [len(mine) for who, _, _, mine in log if who == "A"]
    b_sizes = [len(mine) for who, _, _, mine in log if who == "B"]
    assert a_sizes == [0, 2, 3, 4, 6, 7]
    assert b_sizes == [0, 1, 2, 4, 5, 6]


def test_r7_2_a_pick_that_was_not_offered_is_refused():
    class Cheat(Scripted):
        def pick(self, cards, offered, mine, rng):
            return next(c for c in range(len(cards)) if c not in offered)

    with pytest.raises(DeckError, match=r"draft: policy 'A' of A picked .* not an offered card \(R7.2\)"):
        draft(CARDS, Cheat("A", []).pick, Scripted("B", []).pick, Rng(0))


def test_r10_2_the_draft_draws_from_the_game_generator():
    one, _ = new_game("draft", "draft", "random", "random", seed=9)
    two, _ = new_game("draft", "draft", "random", "random", seed=9)
    other, _ = new_game("draft", "draft", "random", "random", seed=10)
    assert one.hands == two.hands
    assert one.hands != other.hands
    assert all(len(h) == 9 and h[0] == KEEP for h in one.hands)
    assert not set(one.hands[0][1:]) & set(one.hands[1][1:])


def test_r2_3_last_drafter_starts_when_the_option_says_so():
    rules = Rules(first_player="last_drafter")
    starters = {new_game("draft", "draft", "greedy", "greedy", rules=rules, seed=s)[0].first_player for s in range(12)}
    assert starters == {1}
    coin = {new_game("draft", "draft", "greedy", "greedy", seed=s)[0].first_player for s in range(12)}
    assert coin == {0, 1}


def test_draft_format_name():
    assert new_game("draft", "draft", "random", "random", seed=1)[1] == DRAFT


# --- R7.3 constructed --------------------------------------------------------------


def test_r7_3_ban_sequence_is_b_a_a_b():
    log: list = []
    result = constructed(CARDS, *choices(Scripted("A", log), Scripted("B", log)), Rng(0))
    ten_a, ten_b = list(kit(CARDS)[:10]), list(kit(CARDS)[-10:])
    assert [entry[:2] for entry in log] == [
        ("A", "ten"),
        ("B", "ten"),
        ("B", "ban"),
        ("A", "ban"),
        ("A", "ban"),
        ("B", "ban"),
    ]
    bans = [entry for entry in log if entry[1] == "ban"]
    assert [len(theirs) for _, _, theirs, _ in bans] == [10, 10, 9, 9]
    assert bans[0][2] == tuple(ten_a)  # B removes one of A's ten …
    assert bans[1][2] == tuple(ten_b)  # … A one of B's ten, then a second of B's nine …
    assert bans[2][2] == tuple(ten_b[1:])
    assert bans[3][2] == tuple(ten_a[1:])  # … and B a second of A's nine.
    assert result.bans == [(1, ten_a[0]), (0, ten_b[0]), (0, ten_b[1]), (1, ten_a[1])]
    assert result.a == ten_a[2:] and result.b == ten_b[2:]


def test_r7_3_each_kit_is_its_own_so_both_may_choose_the_same_cards():
    log: list = []

    class Same(Scripted):
        def choose_ten(self, cards, rng):
            return kit(cards)[:10]

    result = constructed(CARDS, *choices(Same("A", log), Same("B", log)), Rng(0))
    assert len(result.a) == len(result.b) == 8


@pytest.mark.parametrize(
    ("ten", "message"),
    [
        (list(range(9)), "chose 9 different cards, not 10"),
        ([0, 0, 1, 2, 3, 4, 5, 6, 7, 8], "chose 9 different cards, not 10"),
        (list(range(9)) + [999], "not in its kit"),
    ],
)
def test_r7_3_a_bad_ten_is_refused(ten, message):
    class Bad(Scripted):
        def choose_ten(self, cards, rng):
            return ten

    with pytest.raises(DeckError, match=message):
        constructed(CARDS, *choices(Bad("A", []), Scripted("B", [])), Rng(0))


def test_r7_3_a_ban_of_an_unrevealed_card_is_refused():
    class Bad(Scripted):
        def ban(self, cards, theirs, mine, rng):
            return mine[0]

    with pytest.raises(DeckError, match=r"banned .* not one of A's revealed cards \(R7.3\)"):
        constructed(CARDS, *choices(Scripted("A", []), Bad("B", [])), Rng(0))


def test_constructed_game_with_bots():
    for policy in ("random", "greedy"):
        state, fmt = new_game("constructed", "constructed", policy, policy, seed=5)
        assert fmt == CONSTRUCTED
        assert all(len(h) == 9 and len(set(h)) == 9 for h in state.hands)
