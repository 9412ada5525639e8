"""The step-by-step harness (:mod:`clashkit.runs.compare`): both engines, event by event.

It finds no difference where the engines agree (every format, options, policies
with search), and where a record differs it names the seed, the step, both
events with their rules and the position before.
"""

from __future__ import annotations

import random
from array import array

import pytest
from test_differential import OPTIONS, random_cards

from clashkit.base.cards import starter_set
from clashkit.base.rules import Rules
from clashkit.engine.events import ATTACK, CARD_PLAYED, DAMAGE, WIDTH
from clashkit.engine.records import GameRecords
from clashkit.runs.compare import compare, describe, first_difference
from clashkit.runs.simulate import play_game, pool_seeds, seed_pool
from clashkit.runs.spec import Matchup

CASES = [
    dict(n=150, deck_a="1", deck_b="2", policy_a="random", policy_b="random", seed=2103),
    dict(n=80, deck_a="3", deck_b="4", policy_a="greedy", policy_b="greedy", seed=5, rules=OPTIONS[-1]),
    dict(n=80, deck_a="draft", deck_b="draft", policy_a="greedy", policy_b="random", seed=6),
    dict(n=60, deck_a="constructed", deck_b="constructed", policy_a="random", policy_b="greedy", seed=7),
    dict(n=80, deck_a="draft", deck_b=None, policy_a="greedy", policy_b=None, seed=8, mode="solo", level=4),
    dict(n=2, deck_a="1", deck_b="2", policy_a="search:budget=2,horizon=2", policy_b="greedy", seed=9),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['deck_a']}-{c['policy_a']}-{c.get('mode', 'duel')}")
def test_the_engines_agree_step_by_step(case):
    case = dict(case)
    n = case.pop("n")
    args = [case.pop(k) for k in ("deck_a", "deck_b", "policy_a", "policy_b")]
    found = compare(n, *args, **case)
    assert found.difference is None, str(found.difference)
    assert found.games == n
    assert found.events > 20 * n


def test_random_card_files_agree_step_by_step():
    rng = random.Random(77)
    cards = random_cards(rng, spells=0.45)
    names = list(cards.names)
    deck_a, deck_b = rng.sample(names, 8), rng.sample(names, 8)
    found = compare(
        100, deck_a, deck_b, "random", "greedy", seed=3, cards=cards, rules=Rules(aura="until_holder_moves")
    )
    assert found.difference is None, str(found.difference)
    assert found.games == 100


def _one_game(matchup: Matchup, seed: int) -> GameRecords:
    records = GameRecords()
    play_game(matchup, 0, seed, records)
    return records


def test_a_difference_names_the_seed_the_step_the_events_and_their_rules():
    """A record changed at one step (an attack's damage) is reported there, in words, with R4.1."""
    matchup = Matchup.build("1", "2", "greedy", "greedy", engine="reference", record_events=True)
    seed = pool_seeds(seed_pool(11), 0, 1)[0]
    reference = _one_game(matchup, seed)
    rows = [tuple(reference.events[i : i + WIDTH]) for i in range(0, len(reference.events), WIDTH)]
    step = next(i for i, row in enumerate(rows) if row[0] == ATTACK and row[8] >= 0)
    changed = _one_game(matchup, seed)
    flat = array("i", changed.events)
    flat[step * WIDTH + 9] += 1  # the attack's amount
    changed.events = flat
    found = first_difference(matchup, 0, seed, reference, changed)
    assert found is not None
    assert (found.seed, found.step, found.what) == (seed, step, "events")
    text = str(found)
    assert text.startswith(f"seed {seed} (game 0; duel 1 vs 2, greedy vs greedy, default rules), step {step}:")
    names = starter_set().names
    assert f"  reference: {describe(rows[step], names)}" in text
    assert "(R4.1;" in found.reference[found.at] and "(R4.1;" in found.fast[found.at]
    assert found.reference[found.at] != found.fast[found.at]
    assert f"amount {rows[step][9]} " in found.reference[found.at]
    assert f"amount {rows[step][9] + 1} " in found.fast[found.at]
    # The position is the reference's just before the decision that made the step.
    assert "reference position before that step:" in text and "hand [" in found.position


def test_no_difference_between_a_game_and_itself():
    matchup = Matchup.build("2", "3", "random", "random", engine="reference", record_events=True)
    seed = pool_seeds(seed_pool(12), 0, 1)[0]
    assert first_difference(matchup, 0, seed, _one_game(matchup, seed), _one_game(matchup, seed)) is None


def test_describe_reads_a_row_with_its_rule():
    names = starter_set().names
    brute = names.index("BRUTE")
    troll = names.index("TROLL")
    # kind, turn, player, phase, card, lane, position, target_player, target_card, amount, mana, hh_a, hh_b, keeps
    attack = (ATTACK, 3, 0, 3, brute, 0, 1, 1, troll, 4, 2, 7, 6, 0, 0)
    assert describe(attack, names) == (
        "turn 3 A siege: attack BRUTE upper.1 -> B's TROLL amount 4 (R4.1; mana 2, hand-health 7/6)"
    )
    on_keep = (ATTACK, 5, 1, 3, troll, 1, 0, 0, -1, 3, 0, 2, 8, 1, 0)
    assert describe(on_keep, names) == (
        "turn 5 B siege: attack TROLL lower.0 -> A's FORT amount 3 (R4.1; mana 0, hand-health 2/8)"
    )
    played = (CARD_PLAYED, 1, 0, 2, brute, 1, 3, 0, -1, 0, 4, 8, 8, 0, 0)
    assert describe(played, names) == (
        "turn 1 A summon: card_played BRUTE from hand 3, lower -> A (R3.3; mana 4, hand-health 8/8)"
    )
    hit = (DAMAGE, 2, 1, 3, troll, 0, 0, 0, brute, 0, 1, 8, 8, 0, 0)
    assert describe(hit, names) == (
        "turn 2 B siege: damage TROLL upper.0 -> A's BRUTE amount 0 (R4.3; mana 1, hand-health 8/8)"
    )


def test_rule_of_names_splash_pierce_shift_and_incantation_damage():
    from clashkit.engine.events import CREATURE_MOVED, INCANTATION_RESOLVED
    from clashkit.runs.compare import rule_of

    def row(kind, lane, position, amount=0):
        return (kind, 1, 0, 3, 0, lane, position, 1, 1, amount, 0, 8, 8, 0, 0)

    rows = [
        row(ATTACK, 0, 0, 3),
        row(DAMAGE, 0, 0, 3),
        row(DAMAGE, 1, 0, 3),
        row(DAMAGE, 0, 1, 3),
        row(CREATURE_MOVED, 1, 2),
        row(CREATURE_MOVED, 0, 0, 2),
        row(INCANTATION_RESOLVED, 0, 0, 2),
        row(DAMAGE, 0, 0, 2),
    ]
    assert [rule_of(rows, i) for i in range(len(rows))] == [
        "R4.1",
        "R4.3",
        "R4.3, R6.1 Splash",
        "R4.3, R6.2 Pierce",
        "R5.5 shift",
        "R6.7",
        "R5.2",
        "R4.3, R5.6 incantation damage",
    ]
