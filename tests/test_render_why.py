"""The readable account says why, in one short clause with its rule, where a line would leave a reader
guessing: an attack for more than the card's attack (R6.7), the Bastion flip (R4.8), damage that is
lost (R4.3, R4.8, R8.6), a creature that moved before it was destroyed (R4.5), a new creature that
cannot attack (R3.10, R6.3)."""

from __future__ import annotations

import re

from helpers import ROOT, parse
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clashkit.base.rulebook import rule
from clashkit.engine.scenario import parse_scenario, run_siege
from clashkit.runs.game import new_game, play
from clashkit.show.render import describe_event, event_dicts

CARDS = """
[[card]]
name = "PIERCER"
kind = "creature"
cost = 1
attack = 3
health = 3
abilities = ["pierce"]

[[card]]
name = "SMALL"
kind = "creature"
cost = 1
attack = 1
health = 2

[[card]]
name = "BIG"
kind = "creature"
cost = 1
attack = 5
health = 5

[[card]]
name = "RAGER"
kind = "creature"
cost = 1
attack = 2
health = 2
abilities = ["rage"]
"""


def lines(text: str) -> list[str]:
    return [describe_event(e) for e in event_dicts(run_siege(parse(text)))]


def doc_example(n: int) -> str:
    return re.findall(r"```toml\n(.*?)```", (ROOT / "docs/scenarios.md").read_text(encoding="utf-8"), re.DOTALL)[n]


def test_an_attack_for_3_from_a_2_attack_card_names_sprints_bonus():
    account = [describe_event(e) for e in event_dicts(run_siege(parse_scenario(doc_example(0))))]
    assert account[7:9] == [
        "A's RUNNER sprints to upper.0 past 1 creature (+1 damage on its attacks this siege, R6.7)",
        "A's RUNNER at upper.0 attacks B's PAWN for 3 (attack 2, +1 from Sprint, R6.7)",
    ]
    # A creature that attacks for its printed value gets no clause.
    assert account[12] == "A's WALL at upper.1 attacks B's PAWN for 0"


def test_a_new_creature_whose_turn_comes_cannot_attack_and_says_why():
    account = [describe_event(e) for e in event_dicts(run_siege(parse_scenario(doc_example(0))))]
    assert account[14] == "A's PAWN at lower.0 cannot attack (it entered play this turn, R3.10)"
    raging = lines(
        CARDS
        + """
        [game]
        actions = [{ play = "RAGER", lane = "lower" }]
        mana = 1
        [A]
        hand = ["RAGER", "BASTION", "SMALL"]
        [B]
        hand = ["SMALL", "BASTION", "SMALL"]
        """
    )
    assert raging[-1] == (
        "A's RAGER at lower.0 cannot attack (new this turn, and its Rage finds no creature to attack, R6.3)"
    )


def test_excess_damage_and_a_creature_that_moved_before_it_was_destroyed():
    assert lines(
        CARDS
        + """
        [A]
        hand = ["SMALL", "BASTION", "SMALL"]
        upper = ["PIERCER"]
        [B]
        hand = ["SMALL", "BASTION", "SMALL"]
        upper = ["SMALL", { card = "BIG", damage = 2 }]
        """
    ) == [
        "A's siege begins",
        "A's PIERCER at upper.0 attacks B's SMALL for 3",
        "B's SMALL at upper.0 takes 3 damage (from PIERCER; more than its health 2: the excess is lost, R4.3)",
        "B's BIG at upper.1 takes 3 damage (from PIERCER; Pierce: the creature behind the target, R6.2)",
        "B's SMALL at upper.0 is destroyed",
        "B's BIG at upper.0 is destroyed (it was at upper.1 until the gap in front closed, R4.5)",
        "SMALL returns to B's hand (index 3)",
        "BIG returns to B's hand (index 4)",
    ]


def test_the_bastion_flip_moves_the_keep_leftmost_and_the_rest_of_the_damage_is_lost():
    assert lines(
        CARDS
        + """
        [A]
        hand = ["SMALL", "BASTION", "SMALL"]
        upper = ["BIG"]
        [B]
        hand = ["SMALL", "BASTION", "SMALL", "SMALL"]
        """
    ) == [
        "A's siege begins",
        "A's BIG at upper.0 attacks B's BASTION for 5",
        "B's keep moves 2 right (hand-health 0; the other 3 damage is lost, R4.8)",
        "B's Bastion is destroyed: it flips to the Fort (and moves to the leftmost place of the hand, R4.8)",
    ]


def test_solo_reduced_damage_milling_stops_at_the_keep_and_the_ai_bastion_flips():
    account = [describe_event(e) for e in event_dicts(run_siege(parse_scenario(doc_example(1))))]
    assert account == [
        "A's siege begins",
        "A's OGRE at upper.0 attacks B's BASTION for 4 (attack 5, -1 for reduced damage to the AI pile, R8.9)",
        "GNOME is milled from the AI pile (1 above the keep)",
        "MARTYR is milled from the AI pile (0 above the keep; the other 2 damage is lost, R8.6)",
        "B's Bastion is destroyed: it flips to the Fort (alone in the AI pile, R8.7)",
        "the AI discard is shuffled into a new pile of 3",
    ]


def test_a_weakened_attack_says_so():
    assert lines(
        CARDS
        + SURGE
        + """
        [game]
        mana = 1
        actions = [{ play = "DRAIN", target = "A.upper.0" }]
        [A]
        hand = ["DRAIN", "BASTION", "SMALL"]
        upper = ["BIG"]
        [B]
        hand = ["SMALL", "BASTION", "SMALL"]
        upper = ["BIG"]
        """
    )[3:5] == [
        "A's siege begins",
        "A's BIG at upper.0 attacks B's BIG for 1 (attack 5, -4 from DRAIN's weaken, R5.5)",
    ]


SURGE = """
[[card]]
name = "SURGE"
kind = "incantation"
cost = 1
effect = "empower 2"
target = "ally"

[[card]]
name = "DRAIN"
kind = "incantation"
cost = 1
effect = "weaken 4"
target = "enemy"

[[card]]
name = "ERASE"
kind = "incantation"
cost = 1
effect = "destroy"
target = "enemy"
"""


def solo_attack(setting: str, *plays: str) -> str:
    """The account's line of SMALL's attack on the AI pile after ``plays`` on it, under ``[solo] setting``."""
    actions = ", ".join(f'{{ play = "{card}", target = "A.upper.0" }}' for card in plays)
    account = lines(
        CARDS
        + SURGE
        + f"""
        [game]
        mode = "solo"
        mana = 2
        actions = [{actions}]
        [solo]
        {setting}
        [A]
        hand = ["SURGE", "DRAIN", "BASTION", "SMALL"]
        upper = ["SMALL"]
        [B]
        pile = ["BIG", "RAGER", "PIERCER", "BASTION"]
        """
    )
    return next(line for line in account if "attacks B's BASTION" in line)


def test_an_empower_is_named_as_such_and_r8_9_only_where_the_solo_setting_reduces():
    """R5.5, R8.9: in a quick game (full damage) an empowered attack on the AI pile is an empower,
    not a reduction; with the reduced setting both terms are there, each with its rule."""
    assert solo_attack('ai_pile_damage = "full"', "SURGE") == (
        "A's SMALL at upper.0 attacks B's BASTION for 3 (attack 1, +2 from SURGE's empower, R5.5)"
    )
    assert solo_attack('ai_pile_damage = "minus_one"', "SURGE") == (
        "A's SMALL at upper.0 attacks B's BASTION for 2 "
        "(attack 1, +2 from SURGE's empower, R5.5; -1 for reduced damage to the AI pile, R8.9)"
    )
    assert solo_attack('ai_pile_damage = "one"', "SURGE") == (
        "A's SMALL at upper.0 attacks B's BASTION for 1 "
        "(attack 1, +2 from SURGE's empower, R5.5; -2 for reduced damage to the AI pile, R8.9)"
    )
    # An attack the reduction leaves as it is (1 stays 1 under "one") cites no R8.9.
    assert solo_attack('ai_pile_damage = "one"') == "A's SMALL at upper.0 attacks B's BASTION for 1"
    # A weaken below the attack: the sum is floored at 0 (R4.1), and minus_one has nothing to take.
    assert solo_attack('ai_pile_damage = "minus_one"', "DRAIN") == (
        "A's SMALL at upper.0 attacks B's BASTION for 0 (attack 1, -4 from DRAIN's weaken, R5.5; floored at 0, R4.1)"
    )


def test_a_creature_destroyed_by_a_destroy_incantation_is_not_said_to_have_moved():
    """R4.5: the gap closes behind a creature that leaves; the destroyed creature itself moved nowhere,
    at position 0 or behind."""
    for position, lane in ((0, '["BIG"]'), (1, '["SMALL", "BIG"]')):
        account = lines(
            CARDS
            + SURGE
            + f"""
            [game]
            mana = 1
            actions = [{{ play = "ERASE", target = "B.upper.{position}" }}]
            [A]
            hand = ["ERASE", "BASTION", "SMALL"]
            [B]
            hand = ["SMALL", "BASTION", "SMALL"]
            upper = {lane}
            """
        )
        assert account[1:3] == [
            f"ERASE resolves on B's BIG at upper.{position}",
            f"B's BIG at upper.{position} is destroyed",
        ]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["1", "2", "3", "4"]), st.sampled_from(["1", "2", "3", "4"]))
@example(seed=1, deck_a="4", deck_b="3")  # VORTEX on MACHINE: a no_effect event (R5.4, R6.5) with the shipped set
def test_every_why_ends_with_a_rule_of_the_rulebook_and_sprint_bonuses_add_up(seed, deck_a, deck_b):
    state, _ = new_game(deck_a, deck_b, seed=seed, mirror=deck_a == deck_b)
    play(state, "greedy")
    events = event_dicts(state)
    for e in events:
        if e["why"] is None:
            continue
        if e["kind"] == "no_effect":  # the reason is the line: "ZAP has no effect: B's ROCK is … (R5.4, R6.5)"
            numbers = re.fullmatch(r".+ \((R\d+\.\d+(?:, R\d+\.\d+)*)\)", e["why"]).group(1).split(", ")
            assert describe_event(e) == f"{e['card']} has no effect: {e['why']}"
        else:
            numbers = [re.fullmatch(r".+, (R\d+\.\d+)", e["why"]).group(1)]
            assert describe_event(e).endswith(f"{e['why']})")
        assert all(rule(number).number == number for number in numbers)
    for i, e in enumerate(events):
        if e["kind"] == "attack" and e["why"] and "Sprint" in e["why"]:
            bonus = int(re.search(r"\+(\d+) from Sprint", e["why"]).group(1))
            moves = [m["amount"] for m in events[:i] if m["kind"] == "creature_moved" and m["card"] == e["card"]]
            assert moves and moves[-1] == bonus
