"""The bots: legal choices only, determinism (R10.2), greedy's heuristics, search's budget."""

# Inline TOML tables (the card definitions) stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import parse

from clashkit import BEGIN_SIEGE, Rules, apply, legal_actions
from clashkit.base.cards import CardSet, starter_set
from clashkit.base.errors import OptionError
from clashkit.base.rng import Rng
from clashkit.engine.formats import kit
from clashkit.policies import POLICIES, GreedyPolicy, SearchPolicy, get_policy
from clashkit.policies.search import evaluate, life
from clashkit.runs.game import new_game, play

CARDS = starter_set()
BOTS = ["random", "greedy", "search:budget=3"]

INLINE = """
card = [
  { name = "HIT",  kind = "creature", cost = 1, attack = 1, health = 2 },
  { name = "WALL", kind = "creature", cost = 1, attack = 1, health = 4 },
  { name = "BIG",  kind = "creature", cost = 3, attack = 4, health = 4 },
  { name = "DEAR", kind = "creature", cost = 9, attack = 1, health = 1 },
  { name = "ZAP",  kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
  { name = "PUMP", kind = "incantation", cost = 1, effect = "empower 2", target = "ally" },
]
"""


def states(n: int, seed: int = 0):
    """``n`` varied positions from random games (random decks, formats and options)."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        rules = Rules(
            incantations_in_siege=rng.random() < 0.8,
            protection=rng.choice(["first_attack", "first_damage"]),
            bloodlust_trigger=rng.choice(["primary", "any"]),
        )
        fmt = rng.choice(["1", "2", "3", "4", "draft", "constructed"])
        if fmt in ("draft", "constructed"):
            deck_a = deck_b = fmt
        else:
            deck_a, deck_b = fmt, rng.choice([d for d in "1234" if d != fmt])
        state, _ = new_game(deck_a, deck_b, "random", "random", rules=rules, seed=rng.randrange(10**6), record=False)
        play(state, "random", "random", max_steps=rng.randrange(1, 150))
        if not state.over:
            made += 1
            yield state


def test_the_registry_names_the_three_bots():
    assert {"random", "greedy", "search", "expert"} <= set(POLICIES)
    assert isinstance(get_policy("greedy"), GreedyPolicy)
    search = get_policy("search:budget=7")
    assert isinstance(search, SearchPolicy) and search.budget == 7
    assert search.name == "search:budget=7"


@pytest.mark.parametrize("spec", ["search:budget=0", "search:budget=x", "search:depth=3", "greedy:x=1", "nobody"])
def test_bad_policy_specs_are_option_errors(spec):
    with pytest.raises(OptionError):
        get_policy(spec)


@pytest.mark.parametrize("spec", BOTS)
def test_bots_choose_only_legal_actions(spec):
    count = 100 if spec.startswith("search") else 800
    for state in states(count, seed=len(spec)):
        policy = get_policy(spec)
        legal = legal_actions(state)
        action = policy.decide(state.clone(record=False))
        assert action in legal, (str(action), [str(a) for a in legal])


@pytest.mark.parametrize("spec", ["random", "greedy", "search:budget=4"])
def test_r10_2_same_seed_same_game(spec):
    def game(seed):
        state, _ = new_game("draft", "draft", spec, "greedy", seed=seed)
        play(state, get_policy(spec), "greedy")
        return state

    one, two, other = game(11), game(11), game(12)
    assert one.log.buffer == two.log.buffer
    assert one.winner == two.winner
    assert one.log.buffer != other.log.buffer


def test_greedy_and_random_beat_what_they_should():
    wins = 0
    for seed in range(40):
        state, _ = new_game(str(1 + seed % 4), str(1 + (seed + 1) % 4), "greedy", "random", seed=seed, record=False)
        play(state, "greedy", "random")
        wins += state.winner == 0
    assert wins >= 34


# --- greedy's heuristics, on crafted positions ------------------------------------------------


def siege_window(text: str):
    """The scenario's state once the siege has begun (the first window of R3.11)."""
    state = parse(INLINE + text).state
    apply(state, BEGIN_SIEGE)
    return state


def test_greedy_kills_what_it_can_and_opens_the_lane():
    # B's WALL has taken 2 already: ZAP (damage 2) finishes it, and HIT then strikes the keep.
    state = siege_window(
        '[game]\nmana = 1\n[A]\nhand = ["BASTION", "ZAP", "DEAR", "DEAR"]\nupper = ["HIT"]\n'
        '[B]\nhand = ["BASTION", "DEAR", "DEAR"]\nupper = [{ card = "WALL", damage = 2 }]\nlower = ["BIG"]\n'
    )
    action = GreedyPolicy().decide(state)
    assert str(action) == "play ZAP@1 B.upper.0"


def test_greedy_aims_damage_at_a_creature_it_kills():
    # BIG has 4 health left, HIT in the lower lane only 2: ZAP goes where it kills.
    state = siege_window(
        '[game]\nmana = 1\n[A]\nhand = ["BASTION", "ZAP", "DEAR", "DEAR"]\nupper = ["WALL"]\n'
        '[B]\nhand = ["BASTION", "DEAR", "DEAR"]\nupper = ["BIG"]\nlower = ["HIT"]\n'
    )
    action = GreedyPolicy().decide(state)
    assert str(action) == "play ZAP@1 B.lower.0"


def test_greedy_aims_an_ally_effect_at_its_own_attacker():
    # PUMP (+2) turns HIT's 1 damage into 3: enough to kill the damaged WALL in front of it.
    state = siege_window(
        '[game]\nmana = 1\n[A]\nhand = ["BASTION", "PUMP", "DEAR", "DEAR"]\nupper = ["HIT"]\n'
        '[B]\nhand = ["BASTION", "DEAR", "DEAR"]\nupper = [{ card = "WALL", damage = 1 }]\n'
    )
    action = GreedyPolicy().decide(state)
    assert str(action) == "play PUMP@1 A.upper.0"


def test_greedy_blocks_the_lane_that_threatens_its_keep():
    state = parse(
        INLINE + '[game]\nmana = 3\n[A]\nhand = ["BASTION", "WALL", "DEAR", "DEAR"]\n'
        '[B]\nhand = ["BASTION", "DEAR", "DEAR"]\nlower = ["BIG"]\n'
    ).state
    assert str(GreedyPolicy().decide(state)) == "play WALL@1 lower"


def test_greedy_never_plays_the_card_that_destroys_its_own_keep():
    # R3.8: BIG is right of the keep and the last card there; playing it would destroy the Bastion.
    state = parse(
        INLINE + '[game]\nmana = 3\n[A]\nhand = ["DEAR", "BASTION", "BIG"]\n'
        '[B]\nhand = ["BASTION", "DEAR", "DEAR"]\nupper = ["BIG"]\n'
    ).state
    assert "play BIG@2 upper" in [str(a) for a in legal_actions(state)]
    assert GreedyPolicy().decide(state) == BEGIN_SIEGE


def test_greedy_uses_its_mana():
    # Plenty of mana, an empty table: it plays creatures rather than ending the summon.
    state, _ = new_game("1", "2", "greedy", "greedy", seed=1)
    action = GreedyPolicy().decide(state)
    assert action != BEGIN_SIEGE and action.target is None


def test_greedy_breaks_a_repeated_position():
    # The same position at the start of a later turn (a loop): greedy draws another play.
    state, _ = new_game("1", "2", "greedy", "greedy", seed=4)
    greedy = GreedyPolicy()
    legal = legal_actions(state)
    state.turn = greedy.loop_watch  # positions are remembered from this turn on
    before = state.rng.getstate()
    greedy.decide(state)
    assert state.rng.getstate() == before  # greedy alone draws nothing
    state.turn += 2
    action = greedy.decide(state)
    assert state.rng.getstate() != before  # the same position again: a play from the generator
    assert action in legal


def test_greedy_does_not_cast_a_free_incantation_for_ever():
    # R5.3: a 0-cost incantation comes straight back; greedy stops after a few casts a turn.
    free = CardSet([dataclasses.replace(c, cost=0) if not c.is_creature else c for c in CARDS])
    for seed in range(24):
        state, _ = new_game(str(1 + seed % 4), str(1 + (seed + 1) % 4), "greedy", "greedy", cards=free, seed=seed)
        play(state, "greedy", "greedy")
        assert state.over


def test_greedy_format_choices():
    greedy = GreedyPolicy()
    rng = Rng(0)
    ten = greedy.choose_ten(CARDS, rng)
    assert len(set(ten)) == 10 and set(ten) <= set(kit(CARDS))
    assert sum(not CARDS.is_creature[c] for c in ten) <= 3
    offered = (CARDS.id("GNOME"), CARDS.id("OGRE"), CARDS.id("MACHINE"))
    assert greedy.pick(CARDS, offered, (), rng) in offered
    theirs = tuple(ten)
    assert greedy.ban(CARDS, theirs, (), rng) in theirs


def test_greedy_returns_the_best_card_first():
    state, _ = new_game("1", "2", "greedy", "greedy", seed=1)
    order = [CARDS.id("PARTISAN"), CARDS.id("BARON")]
    assert GreedyPolicy().order_returns(state, 0, order) == [
        CARDS.id("BARON"),
        CARDS.id("PARTISAN"),
    ]


# --- search ------------------------------------------------------------------------------------


@pytest.mark.parametrize("budget", [1, 3, 8])
def test_search_respects_its_budget(budget):
    search = SearchPolicy(budget=budget)
    decisions = 0
    for state in states(12, seed=budget):
        legal = legal_actions(state)
        before = search.rollouts
        action = search.decide(state)
        assert action in legal
        assert search.rollouts - before <= budget
        decisions += search.rollouts > before
    assert decisions > 0


def test_search_leaves_the_real_state_alone_but_for_its_generator():
    state = next(states(1, seed=3))
    copy = state.clone()
    SearchPolicy(budget=4).decide(state)
    assert state.hands == copy.hands and state.mana == copy.mana and state.turn == copy.turn
    assert [[[c.card for c in side] for side in lanes] for lanes in state.lanes] == [
        [[c.card for c in side] for side in lanes] for lanes in copy.lanes
    ]


def test_search_beats_greedy():
    wins = 0
    for seed in range(8):
        a, b = 1 + seed % 4, 1 + (seed + 2) % 4
        search_is_a = seed % 2 == 0
        state, _ = new_game(str(a), str(b), "greedy", "greedy", seed=seed, record=False)
        bots = ("search:budget=6", "greedy") if search_is_a else ("greedy", "search:budget=6")
        play(state, *bots)
        wins += state.winner == (0 if search_is_a else 1)
    assert wins >= 6


def test_life_and_evaluate():
    state, _ = new_game("1", "2", "greedy", "greedy", seed=1)
    assert life(state, 0) == 8 + 8  # hand-health 8, and the Bastion protects a hand of 8 more
    assert evaluate(state, 0) == pytest.approx(0.5)
