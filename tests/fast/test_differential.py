"""Differential games: the fast engine and the reference engine play the same seeds to equal frames.

Every format (fixed decks, draft, constructed; solo preconstructed and draft),
every value of every rules option of R10.3 and R10.4 and of every solo setting
of R8.9 (the sweep is built from the fields of ``Rules`` and ``SoloSettings``
and the one declaration of their values, so a new option is swept at once), the
policies random and greedy (and mixed), and random card files (cards with
random abilities, Auras and incantation effects; shift-heavy and Aura-heavy
files too) played with random, greedy, ``search`` and ``search:fair``.  The games frames must be
equal but for the ``engine`` column; the turns and events frames equal outright
(every event kind, rule and ``no_effect`` reason).  When the events differ, the
step-by-step harness (:func:`clashkit.runs.compare.compare`) names the seed,
the step and both engines' events with their rules.  The ``long`` marker runs
the same checks on 1,000,000 games without events and 200,000 with them
(``make test-long``).
"""

from __future__ import annotations

import dataclasses
import os
import random
from array import array

import numpy as np
import polars as pl
import pytest

from clashkit.base.cards import Aura, Card, CardSet
from clashkit.base.errors import OptionError
from clashkit.base.limits import LIMITS
from clashkit.base.rules import RULES_CHOICES, RULES_RANGES, SOLO_CHOICES, Rules, SoloSettings
from clashkit.base.vocab import Ability, Direction, Effect, Kind, TargetSide
from clashkit.engine.formats import check_first_player
from clashkit.engine.setup import new_solo
from clashkit.fast import play_out
from clashkit.fast.state import G_TURN, G_TURNS_LOGGED, G_WINNER
from clashkit.runs.compare import compare
from clashkit.runs.game import new_game, play
from clashkit.runs.simulate import simulate


def option_values(cls, choices) -> list[tuple[str, object]]:
    """(option, value) for every field of ``cls`` (``Rules`` or ``SoloSettings``) and each of its
    values other than the default, read from the one declaration of the values
    (``clashkit.base.rules.RULES_CHOICES``, ``SOLO_CHOICES``): an option added there is swept here.
    An option with a range instead (``clashkit.base.rules.RULES_RANGES``: ``turn_limit``,
    ``first_turn_mana``; ``clashkit.base.limits.LIMITS``) gets its low end and 12 (short games)."""
    default = cls()
    out = []
    for f in dataclasses.fields(cls):
        if f.name == "solo":
            continue
        if f.name in choices:
            values = choices[f.name][0]
        else:
            assert f.name in RULES_RANGES, f"{cls.__name__}.{f.name}: declare its values in clashkit.base.rules"
            values = tuple(sorted({LIMITS[f.name].low, min(LIMITS[f.name].high, 12)}))
        out += [(f.name, v) for v in values if v != getattr(default, f.name)]
    return out


def accepted(options: dict, fmt: str = "1", *, solo: bool = False) -> bool:
    """Whether a game of that format takes these options (``first_player = "last_drafter"`` needs a draft)."""
    try:
        check_first_player(Rules(**options), "draft" if fmt == "draft" else "preconstructed", solo=solo)
    except OptionError:
        return False
    return True


#: Each value of each rules option of R10.3 and R10.4, one changed at a time.
RULES_VALUES = option_values(Rules, RULES_CHOICES)
#: Each value of each solo setting of R8.9 and R10.4, one changed at a time.
SOLO_VALUES = option_values(SoloSettings, SOLO_CHOICES)
#: Every option a duel of fixed decks takes changed at once (each to its last value), the turn limit aside.
EVERY_OPTION = {k: v for k, v in RULES_VALUES if k != "turn_limit" and accepted({k: v})}
#: The options of a duel of fixed decks: the defaults, each value alone, all of them changed.
OPTIONS = [{}, *({k: v} for k, v in RULES_VALUES if accepted({k: v})), EVERY_OPTION]
#: The values only a draft takes.
DRAFT_OPTIONS = [{k: v} for k, v in RULES_VALUES if not accepted({k: v}) and accepted({k: v}, "draft")]
PAIRS = [("1", "2"), ("3", "4"), ("2", "4"), ("4", "1")]


#: Games whose events frames the tests below compared (both engines), by test.
EVENT_GAMES: dict[str, int] = {}


def assert_same(n, deck_a, deck_b, policy_a, policy_b, seed, *, events=True, **kw):
    """Both engines play ``n`` games from ``seed``: equal games, turns and (with ``events``) events frames."""
    args = (n, deck_a, deck_b, policy_a, policy_b)
    ref = simulate(*args, seed=seed, engine="reference", record_events=events, **kw)
    fast = simulate(*args, seed=seed, engine="fast", record_events=events, **kw)
    if events and not ref.events.equals(fast.events):
        kw.pop("jobs", None)
        found = compare(*args, seed=seed, **kw).difference
        raise AssertionError(str(found) if found is not None else "the events frames differ")
    if events:
        assert ref.events.height > 0
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
        EVENT_GAMES[test] = EVENT_GAMES.get(test, 0) + n
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
        assert DRAFT_OPTIONS
        for options in DRAFT_OPTIONS:
            assert_same(150, fmt, fmt, "random", "random", 7, rules=Rules(**options))


SOLO = [
    (None, {}),
    (3, {}),
    (
        None,
        {
            "ai_fixed_mana": 9,
            "ai_mana_per_creature": 2,
            "ai_first": True,
            "ai_starts_as_fort": True,
            "ai_pile_damage": "one",
            "ai_ability": "bloodlust",
        },
    ),
    (None, {"ai_pile_damage": "minus_one", "ai_reduced_scope": "all", "ai_ability": "protection"}),
    (None, {"ai_first": True, "ai_ability": "splash"}),
]


@pytest.mark.parametrize(("level", "settings"), SOLO)
def test_solo(level, settings):
    rules = Rules(ai_incantation_side="either", ai_last_turn="current", solo_player_first_mana="six")
    for deck in ("1", "draft"):
        for policy in ("random", "greedy"):
            assert_same(
                120,
                deck,
                None,
                policy,
                None,
                11,
                mode="solo",
                level=level,
                settings=settings or None,
                free_settings=True,
            )
            assert_same(
                60,
                deck,
                None,
                policy,
                None,
                12,
                mode="solo",
                level=level,
                settings=settings or None,
                free_settings=True,
                rules=rules,
            )


#: Each solo setting's values alone, then each rules option's a solo game takes.
SOLO_ALONE = [{k: v} for k, v in SOLO_VALUES] + [{k: v} for k, v in RULES_VALUES if accepted({k: v}, solo=True)]


@pytest.mark.parametrize("option", SOLO_ALONE, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_solo_every_option_alone(option):
    settings = {k: v for k, v in option.items() if k in SOLO_CHOICES} or None
    rules = Rules(**{k: v for k, v in option.items() if k not in SOLO_CHOICES})
    for deck in ("1", "draft"):
        for policy in ("random", "greedy"):
            assert_same(
                20, deck, None, policy, None, 13, mode="solo", settings=settings, free_settings=True, rules=rules
            )


def random_cards(
    rng: random.Random, n: int = 20, *, spells: float = 0.3, effects: list[Effect] | None = None, auras: float = 0.35
) -> CardSet:
    """A card file of ``n`` cards with random stats, abilities, Auras and incantation effects.

    ``spells``: the share of incantations; ``effects``: the effects they draw from (repeat
    one to weigh it); ``auras``: the share of creatures with an Aura."""
    cards = []
    abilities = list(Ability)
    effects = effects if effects is not None else list(Effect)
    for i in range(n):
        if rng.random() < spells:
            effect = rng.choice(effects)
            amount = rng.randint(0, 4) if effect in (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER) else 0
            grants = rng.choice(abilities) if effect is Effect.GRANT else None
            cards.append(
                Card(
                    f"SPELL{i}",
                    Kind.INCANTATION,
                    rng.randint(0, 4),
                    effect=effect,
                    amount=amount,
                    grants=grants,
                    target=rng.choice(list(TargetSide)),
                )
            )
        else:
            picked = tuple(rng.sample(abilities, rng.choice([0, 0, 1, 1, 2, 3])))
            aura = None
            if rng.random() < auras:
                dirs = tuple(rng.sample(list(Direction), rng.randint(1, 3)))
                aura = Aura(rng.choice(abilities), dirs)
            cards.append(
                Card(f"BEAST{i}", Kind.CREATURE, rng.randint(0, 5), rng.randint(0, 5), rng.randint(1, 7), picked, aura)
            )
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
    assert_same(
        1,
        deck_a,
        deck_b,
        "search:budget=2,horizon=2",
        "search:budget=2,horizon=2,fair",
        which,
        cards=cards,
        rules=rules,
    )


#: Card files that stress R5.5 shift (many cheap shifts) and R6.8 Aura (most creatures hold one).
HEAVY = {
    "shift": dict(spells=0.45, effects=[Effect.SHIFT] * 4 + list(Effect)),
    "aura": dict(auras=0.85),
}


@pytest.mark.parametrize("which", range(6))
@pytest.mark.parametrize("heavy", list(HEAVY))
def test_shift_and_aura_heavy_card_files(heavy, which):
    """Aura losses as creatures shift and slide (R10.4 ``until_holder_moves``), both siege orders."""
    rng = random.Random(1000 * (1 + list(HEAVY).index(heavy)) + which)
    cards = random_cards(rng, **HEAVY[heavy])
    names = list(cards.names)
    deck_a, deck_b = sorted(rng.sample(names, 8), key=cards.id), sorted(rng.sample(names, 8), key=cards.id)
    rules = Rules(aura="until_holder_moves" if which % 3 else "adjacent", siege_order=("live", "fixed")[which % 2])
    assert_same(100, deck_a, deck_b, "random", "random", which, cards=cards, rules=rules)
    assert_same(40, deck_a, deck_b, "greedy", "greedy", which, cards=cards, rules=rules)
    assert_same(
        1,
        deck_a,
        deck_b,
        "search:budget=2,horizon=2,fair",
        "search:budget=2,horizon=2",
        which,
        cards=cards,
        rules=rules,
    )


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


def duel_and_solo_in_play():
    """A duel (deck 1 against deck 2, seed 3) at turn 9 and a solo game (deck 1 against the other
    decks' pile) at turn 7, both played by greedy and neither over: the solo game of the first seed
    from 5 that is still on (which seed depends on the card file)."""
    duel, _ = new_game("1", "2", seed=3, record=False)
    play(duel, "greedy", "greedy", until_turn=9)
    cards = duel.cards
    for seed in range(5, 105):
        solo = new_solo(cards.decks[1], [n for d in (2, 3, 4) for n in cards.decks[d]], seed=seed, record=False)
        play(solo, "greedy", until_turn=7)
        if not solo.over:
            break
    assert solo.solo and not solo.over and not duel.over
    return duel, solo


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


@pytest.mark.parametrize("deck", ["1", "draft"])
def test_events_of_batches_that_fill_their_event_rows(monkeypatch, deck):
    """Event rows too few for one game: each call stops at the game that fills them, the next goes
    on from it (with twice the room when it was the call's first); the frames are the same."""
    import clashkit.runs.fast_games as fast_games

    args = (60, deck, "2" if deck == "1" else deck, "greedy", "random")
    roomy = simulate(*args, seed=8, engine="fast", record_events=True)
    monkeypatch.setattr(fast_games, "EVENT_ROWS", 64)
    cramped = simulate(*args, seed=8, engine="fast", record_events=True)
    assert roomy.events.height > 60 * 64
    assert cramped.events.equals(roomy.events)
    assert cramped.turns.equals(roomy.turns)
    assert cramped.games.equals(roomy.games)


def test_replay_frames_give_a_games_rows_in_either_engine():
    from clashkit import replay_frames

    run = simulate(30, "draft", "draft", "greedy", "random", seed=4, engine="fast", record_events=True)
    for k in (0, 17, 29):
        row = run.games.row(k, named=True)
        fast = replay_frames(row)
        assert fast.games["engine"].to_list() == ["fast"]
        assert fast.events.equals(run.events.filter(pl.col("game") == k))
        assert fast.turns.equals(run.turns.filter(pl.col("game") == k))
        reference = replay_frames(row, engine="reference")
        assert reference.events.equals(fast.events)


def test_fast_refuses_what_it_does_not_play():
    from clashkit.base.errors import OptionError
    from clashkit.policies import GreedyPolicy

    class Careful(GreedyPolicy):
        stop = 0.0

    with pytest.raises(OptionError, match=r"'greedy \(Careful\)' is not supported by the fast engine"):
        simulate(2, "1", "2", Careful(), engine="fast", record_events=False)
    # The default picks the reference engine for a policy the fast one does not play …
    assert simulate(1, "1", "2", Careful(), "greedy", record_events=False).games["engine"][0] == "reference"
    # … and the fast one for every shipped policy by name, options and all, events or not.
    assert simulate(2, "1", "2", "greedy", record_events=False).games["engine"][0] == "fast"
    with_events = simulate(2, "1", "2", "greedy", record_events=True)
    assert with_events.games["engine"][0] == "fast"
    assert with_events.events.filter(pl.col("kind") == "game_won").height == 2
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
        assert_same(5000, a, b, pa, pb, 10_000 + k, events=False, rules=Rules(**options), jobs=2)
        total += 5000
        k += 1


@pytest.mark.long
def test_200_000_games_with_events():
    """``make test-long``: 200,000 games' events frames, every option, format and policy pairing."""
    total = 0
    k = 0
    fmts = [*PAIRS, ("draft", "draft"), ("constructed", "constructed")]
    while total < 200_000:
        options = OPTIONS[k % len(OPTIONS)]
        a, b = fmts[k % len(fmts)]
        if not accepted(options, a):
            options = {}
        pa, pb = [("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("random", "greedy")][k % 4]
        assert_same(2000, a, b, pa, pb, 20_000 + k, rules=Rules(**options), jobs=2)
        total += 2000
        k += 1
    assert total == 200_000
