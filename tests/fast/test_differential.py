"""Differential games: the fast engine and the reference engine play the same seeds to equal frames.

Every format (fixed decks, draft, constructed; solo preconstructed and draft),
every rules option of R10.3 and R10.4 and the solo settings of R8.9, the
policies random and greedy (and mixed), and random card files (cards with
random abilities, Auras and incantation effects).  The games frames must be
equal but for the ``engine`` column; the turns frames equal outright.  The
``long`` marker runs the same checks on 1,000,000 games (``make test-long``).
"""

from __future__ import annotations

import random
from array import array

import numpy as np
import polars as pl
import pytest

from clashkit.base.cards import Aura, Card, CardSet
from clashkit.base.rules import Rules
from clashkit.base.vocab import Ability, Direction, Effect, Kind, TargetSide
from clashkit.fast import play_out
from clashkit.fast.state import G_TURN, G_TURNS_LOGGED, G_WINNER
from clashkit.runs.game import new_game, play
from clashkit.runs.simulate import simulate

#: The options of R10.3 and R10.4, one value changed at a time.
OPTIONS = [
    {},
    {"incantations_in_siege": False},
    {"protection": "first_damage"},
    {"protection": "first_hit"},
    {"bloodlust_trigger": "any"},
    {"bloodlust_trigger": "per_creature"},
    {"keep_distance": "attack"},
    {"aura": "until_holder_moves"},
    {"siege_order": "fixed"},
    {"turn_limit": 12},
    {"aura": "until_holder_moves", "siege_order": "fixed", "protection": "first_hit",
     "bloodlust_trigger": "per_creature", "keep_distance": "attack", "incantations_in_siege": False},
]
PAIRS = [("1", "2"), ("3", "4"), ("2", "4"), ("4", "1")]


def assert_same(n, deck_a, deck_b, policy_a, policy_b, seed, **kw):
    ref = simulate(n, deck_a, deck_b, policy_a, policy_b, seed=seed, engine="reference", record_events=False, **kw)
    fast = simulate(n, deck_a, deck_b, policy_a, policy_b, seed=seed, engine="fast", record_events=False, **kw)
    assert ref.games["engine"].unique().to_list() == ["reference"]
    assert fast.games["engine"].unique().to_list() == ["fast"]
    left, right = ref.games.drop("engine"), fast.games.drop("engine")
    if not left.equals(right):
        diff = left.with_row_index().join(right.with_row_index(), on="index", suffix="_fast")
        bad = diff.filter((pl.col("winner") != pl.col("winner_fast")) | (pl.col("turns") != pl.col("turns_fast")))
        raise AssertionError(f"games differ, first: {bad.head(3)}")
    assert ref.turns.equals(fast.turns)
    return ref


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_duel_fixed_decks_every_option(options):
    rules = Rules(**options)
    for k, (a, b) in enumerate(PAIRS):
        assert_same(200, a, b, "random", "random", 100 + k, rules=rules)
        assert_same(60, a, b, "greedy", "greedy", 200 + k, rules=rules)
        assert_same(40, a, b, "greedy", "random", 300 + k, rules=rules)


@pytest.mark.parametrize("fmt", ["draft", "constructed"])
def test_duel_draft_and_constructed(fmt):
    assert_same(250, fmt, fmt, "random", "greedy", 5)
    assert_same(150, fmt, fmt, "greedy", "greedy", 6, rules=Rules(protection="first_hit", aura="until_holder_moves"))
    if fmt == "draft":
        assert_same(150, fmt, fmt, "random", "random", 7, rules=Rules(first_player="last_drafter"))


SOLO = [
    (None, {}),
    (3, {}),
    (None, {"ai_fixed_mana": 9, "ai_mana_per_creature": 2, "ai_first": True, "ai_starts_as_fort": True,
            "ai_pile_damage": "one", "ai_ability": "bloodlust"}),
    (None, {"ai_pile_damage": "minus_one", "ai_reduced_scope": "all", "ai_ability": "protection"}),
    (None, {"ai_first": True, "ai_ability": "splash"}),
]


@pytest.mark.parametrize(("level", "settings"), SOLO)
def test_solo(level, settings):
    rules = Rules(ai_incantation_side="either", ai_last_turn="current", solo_player_first_mana="six")
    for deck in ("1", "draft"):
        for policy in ("random", "greedy"):
            assert_same(120, deck, None, policy, None, 11, mode="solo", level=level, settings=settings or None,
                        free_settings=True)
            assert_same(60, deck, None, policy, None, 12, mode="solo", level=level, settings=settings or None,
                        free_settings=True, rules=rules)


def random_cards(rng: random.Random, n: int = 20) -> CardSet:
    """A card file of ``n`` cards with random stats, abilities, Auras and incantation effects."""
    cards = []
    abilities = list(Ability)
    for i in range(n):
        if rng.random() < 0.3:
            effect = rng.choice(list(Effect))
            amount = rng.randint(0, 4) if effect in (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER) else 0
            grants = rng.choice(abilities) if effect is Effect.GRANT else None
            cards.append(Card(f"SPELL{i}", Kind.INCANTATION, rng.randint(0, 4), effect=effect, amount=amount,
                              grants=grants, target=rng.choice(list(TargetSide))))
        else:
            picked = tuple(rng.sample(abilities, rng.choice([0, 0, 1, 1, 2, 3])))
            aura = None
            if rng.random() < 0.35:
                dirs = tuple(rng.sample(list(Direction), rng.randint(1, 3)))
                aura = Aura(rng.choice(abilities), dirs)
            cards.append(Card(f"BEAST{i}", Kind.CREATURE, rng.randint(0, 5), rng.randint(0, 5), rng.randint(1, 7),
                              picked, aura))
    return CardSet(cards)


@pytest.mark.parametrize("which", range(12))
def test_random_card_files(which):
    rng = random.Random(which)
    cards = random_cards(rng)
    names = list(cards.names)
    deck_a, deck_b = rng.sample(names, 8), rng.sample(names, 8)
    deck_a.sort(key=cards.id)
    deck_b.sort(key=cards.id)
    option = OPTIONS[which % len(OPTIONS)]
    rules = Rules(**option)
    assert_same(150, deck_a, deck_b, "random", "random", which, cards=cards, rules=rules)
    assert_same(80, deck_a, deck_b, "greedy", "greedy", which, cards=cards, rules=rules)
    assert_same(60, "draft", "draft", "greedy", "random", which, cards=cards.with_cards([]), rules=rules)


def random_positions(seed: int, count: int):
    """Reference positions part-way through games (``random`` for 1–60 steps, every option in turn),
    with their turn rows kept; the games that ended already are left out."""
    rng = random.Random(seed)
    for k in range(count):
        a, b = rng.sample("1234", 2)
        options = OPTIONS[k % len(OPTIONS)]
        state, _ = new_game(a, b, "random", "random", rules=Rules(**options), seed=k, record=False)
        state.turn_log = array("h")
        play(state, "random", "random", max_steps=rng.randint(1, 60))
        if not state.over:
            yield k, state


def assert_played_out_the_same(state, policy_a: str, policy_b: str) -> None:
    """``fast.play_out`` of ``state`` ends as the reference engine's play of a copy: winner, turn, turn rows."""
    fast = play_out(state, policy_a, policy_b)
    ref = play(state.clone(record=False), policy_a, policy_b)
    rows = np.frombuffer(ref.turn_log, dtype=np.int16).reshape(-1, fast.tl.shape[1]) if ref.turn_log else None
    assert fast.g[G_WINNER] == (-1 if ref.winner is None else ref.winner)
    assert fast.g[G_TURN] == ref.turn
    if rows is not None:
        assert np.array_equal(fast.tl[: fast.g[G_TURNS_LOGGED]], rows)


def test_positions_from_state_play_out_the_same():
    """A reference position converted (fast.from_state) and played out with greedy ends as the reference does."""
    checked = 0
    for _, state in random_positions(4, 150):
        assert_played_out_the_same(state, "greedy", "greedy")
        checked += 1
    assert checked > 100


def test_replay_gives_the_fast_games_events():
    from clashkit import replay

    fast = simulate(20, "draft", "draft", "greedy", "random", seed=3, engine="fast", record_events=False)
    for row in fast.games.iter_rows(named=True):
        state = replay(row)
        assert state.log is not None and len(state.log.buffer) > 0
        assert state.turn == row["turns"]
        winner = -1 if row["winner"] is None else "AB".index(row["winner"])
        assert (-1 if state.winner is None else state.winner) == winner


def test_fast_refuses_what_it_does_not_play():
    from clashkit.base.errors import OptionError

    with pytest.raises(OptionError, match="fast engine records no events"):
        simulate(2, "1", "2", "greedy", engine="fast", record_events=True)
    from clashkit.policies import GreedyPolicy

    class Careful(GreedyPolicy):
        stop = 0.0

    with pytest.raises(OptionError, match=r"'greedy \(Careful\)' is not supported by the fast engine"):
        simulate(2, "1", "2", Careful(), engine="fast", record_events=False)
    # The default picks the reference engine for a policy the fast one does not play …
    assert simulate(1, "1", "2", Careful(), "greedy", record_events=False).games["engine"][0] == "reference"
    # … and the fast one for every shipped policy by name, options and all.
    assert simulate(2, "1", "2", "greedy", record_events=False).games["engine"][0] == "fast"
    assert simulate(1, "1", "2", "search:budget=1,fair", "random", record_events=False).games["engine"][0] == "fast"


@pytest.mark.long
def test_a_million_games():
    """``make test-long``: 1,000,000 games over every option, format and policy pairing above."""
    total = 0
    k = 0
    while total < 1_000_000:
        options = OPTIONS[k % len(OPTIONS)]
        a, b = PAIRS[k % len(PAIRS)]
        pa, pb = [("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("random", "greedy")][k % 4]
        assert_same(5000, a, b, pa, pb, 10_000 + k, rules=Rules(**options), jobs=2)
        total += 5000
        k += 1
