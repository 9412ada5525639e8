"""The fast engine's deals (clashkit.fast.setup) against the reference's: R7.2, R7.3, R8.1, R2.2, R2.3.

Two levels.  The deals alone: the compiled draft, constructed choice and solo
draft give the hands the reference's (:mod:`clashkit.engine.formats`,
:mod:`clashkit.engine.solo_setup`) give for the same seed, with the generator left in
the same state (hypothesis over seeds, card files and the players' choices).
Whole games: both engines play the same seeds of every format and policy
pairing to equal ``games`` and ``turns`` frames, with the options that change a
setup (``first_player``, R8.9's levels and settings, ``solo_player_first_mana``)
and with random card files; a deal the reference refuses is refused with its
error; a policy whose format choices are not compiled is dealt by the reference.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_differential import assert_same, random_cards

from clashkit.base.cards import Card, CardSet, starter_set
from clashkit.base.errors import DeckError
from clashkit.base.rng import Rng
from clashkit.base.rules import Rules
from clashkit.base.vocab import Effect, Kind, TargetSide
from clashkit.engine import formats
from clashkit.engine.solo_setup import draft_against_ai
from clashkit.fast import setup
from clashkit.fast.state import new_state
from clashkit.fast.tables import card_tables
from clashkit.policies import GreedyPolicy, Policy, RandomPolicy, SearchPolicy, get_policy
from clashkit.runs.simulate import simulate
from clashkit.runs.spec import Matchup

DUEL_PAIRS = [("random", "random"), ("greedy", "greedy"), ("random", "greedy"), ("greedy", "random")]


def card_file(seed: int, *, extra: int = 0) -> CardSet:
    """32 random cards in four starter decks of 8 (R7.1, R9.1), then ``extra`` cards of no deck (not in the kit)."""
    cards = random_cards(random.Random(seed), 32 + extra).cards
    return CardSet([dataclasses.replace(c, deck=i // 8 + 1) if i < 32 else c for i, c in enumerate(cards)])


def dealt(matchup, seed: int, step: str):
    """Run one compiled deal step of ``matchup`` from ``seed``: (its work rows, its result, the generator's state)."""
    deal = setup.compiled_deal(matchup)
    s = new_state(deal.cap, 10)
    s.rng[0] = np.uint64(seed)
    work = deal.work()
    t = card_tables(matchup.card_set)
    if step == "constructed":  # what play_dealt_batch makes once a batch
        work[setup.W_IN_KIT, deal.pool] = 1
    result = getattr(setup, step)(s, t, deal.plan, deal.pool, work)
    return work, result, int(s.rng[0])


# --- Which policies' choices are compiled --------------------------------------------------------


class PicksFirst(GreedyPolicy):
    """greedy's play with the base class's draft pick (the first card offered)."""

    name = "picks-first"
    pick = Policy.pick


def test_random_and_greedy_choices_are_compiled_and_search_inherits_greedys():
    assert setup.deal_choices("random") == setup.RANDOM_CHOICES
    assert setup.deal_choices(RandomPolicy()) == setup.RANDOM_CHOICES
    assert setup.deal_choices("greedy") == setup.GREEDY_CHOICES
    # search ranks cards as greedy does: it inherits pick, choose_ten and ban
    assert all(getattr(SearchPolicy, name) is getattr(GreedyPolicy, name) for name in setup.CHOICES)
    assert setup.deal_choices("search:budget=4") == setup.GREEDY_CHOICES
    # random overrides the base class's defaults (its solo pick is its pick)
    assert all(getattr(RandomPolicy, name) is not getattr(Policy, name) for name in ("pick", "choose_ten", "ban"))
    assert setup.deal_choices(PicksFirst()) is None
    assert setup.deal_choices(Policy()) is None


def test_compiled_deal_decides_which_engine_deals():
    def deal(a, b, pa, pb=None, **kw):
        return setup.compiled_deal(Matchup.build(a, b, pa, pb, record_events=False, **{"engine": "reference", **kw}))

    assert deal("1", "2", "greedy") is None  # fixed decks: game.play_batch
    assert deal("draft", "draft", "random", PicksFirst()) is None
    assert deal("draft", None, PicksFirst(), mode="solo") is None
    # a fixed solo deck makes no choice: any policy's games are dealt compiled
    fixed = deal("2", None, PicksFirst(), mode="solo")
    assert (fixed.format, len(fixed.deck_a), len(fixed.deck_b), fixed.width_b) == ("preconstructed", 8, 24, 24)
    constructed = deal("constructed", "constructed", "greedy", "random")
    assert constructed.format == "constructed"
    assert constructed.plan.tolist() == [setup.CONSTRUCTED, setup.GREEDY_CHOICES, setup.RANDOM_CHOICES, 0, 0, 32]
    draft = deal("draft", "draft", "random", "greedy", rules=Rules(first_player="last_drafter"))
    assert draft.plan[setup.D_LAST_DRAFTER] == 1 and draft.pool.tolist() == list(range(32))
    solo = deal("draft", None, "greedy", mode="solo", level=2)
    assert solo.plan[setup.D_AI_FORT] == 1 and solo.cap == 36
    # a kit too small to draft from (R7.2): the reference deals, and raises its error
    small = CardSet(random_cards(random.Random(1), 12).cards)
    assert deal("draft", "draft", "random", cards=small) is None


# --- The deals alone: same hands, same generator state ----------------------------------------------

SEEDS = st.integers(0, 2**64 - 1)
FILES = st.one_of(st.none(), st.integers(0, 10**6))
CHOOSERS = st.sampled_from(["random", "greedy"])


def cards_of(file_seed):
    return starter_set() if file_seed is None else card_file(file_seed)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, file_seed=FILES, a=CHOOSERS, b=CHOOSERS)
def test_r7_2_draft_deals_the_references_hands(seed, file_seed, a, b):
    cards = cards_of(file_seed)
    matchup = Matchup.build("draft", "draft", a, b, engine="reference", record_events=False, cards=cards)
    work, last, state = dealt(matchup, seed, "draft")
    rng = Rng(seed)
    ref = formats.draft(cards, get_policy(a).pick, get_policy(b).pick, rng)
    assert work[setup.W_HAND_A, :8].tolist() == ref.a
    assert work[setup.W_HAND_B, :8].tolist() == ref.b
    assert last == ref.last_drafter == 1  # R7.2: B leads the 4th round and takes its last card
    assert state == rng.getstate()


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, file_seed=FILES, a=CHOOSERS, b=CHOOSERS)
def test_r7_3_constructed_deals_the_references_eights(seed, file_seed, a, b):
    cards = cards_of(file_seed)
    matchup = Matchup.build("constructed", "constructed", a, b, engine="reference", record_events=False, cards=cards)
    work, accepted, state = dealt(matchup, seed, "constructed")
    rng = Rng(seed)
    pa, pb = get_policy(a), get_policy(b)
    ref = formats.constructed(cards, (pa.choose_ten, pb.choose_ten), (pa.ban, pb.ban), rng)
    assert accepted
    assert work[setup.W_HAND_A, :8].tolist() == ref.a
    assert work[setup.W_HAND_B, :8].tolist() == ref.b
    assert state == rng.getstate()


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, file_seed=FILES, player=CHOOSERS)
def test_r8_1_solo_draft_deals_the_references_split(seed, file_seed, player):
    cards = cards_of(file_seed)
    matchup = Matchup.build("draft", None, player, engine="reference", record_events=False, mode="solo", cards=cards)
    work, _, state = dealt(matchup, seed, "draft_against_ai")
    rng = Rng(seed)
    mine, ai = draft_against_ai(cards, get_policy(player), rng)
    assert work[setup.W_HAND_A, :8].tolist() == mine
    assert work[setup.W_HAND_B, :24].tolist() == ai
    assert state == rng.getstate()


def test_r7_3_random_chooses_its_ten_from_the_kit():
    # the two cards of no deck are not in the kit (formats.kit): random never chooses them, and both
    # engines deal the same eights
    cards = card_file(3, extra=2)
    own_kit = set(formats.kit(cards))
    matchup = Matchup.build(
        "constructed", "constructed", "random", "greedy", engine="reference", record_events=False, cards=cards
    )
    pa, pb = RandomPolicy(), GreedyPolicy()
    for seed in range(40):
        work, accepted, state = dealt(matchup, seed, "constructed")
        rng = Rng(seed)
        ref = formats.constructed(cards, (pa.choose_ten, pb.choose_ten), (pa.ban, pb.ban), rng)
        assert accepted
        assert set(ref.ten_a) <= own_kit
        assert work[setup.W_HAND_A, :8].tolist() == ref.a
        assert work[setup.W_HAND_B, :8].tolist() == ref.b
        assert state == rng.getstate()


def test_r7_3_a_kit_of_fewer_than_ten_is_refused():
    cards = CardSet([dataclasses.replace(c, deck=None) for c in random_cards(random.Random(0), 9).cards])
    with pytest.raises(DeckError, match=r"constructed: the kit holds 9 cards; R7\.3 chooses 10 different ones"):
        formats.constructed(cards, (RandomPolicy().choose_ten,) * 2, (RandomPolicy().ban,) * 2, Rng(1))


def kit_of(creatures: int, size: int = 12) -> CardSet:
    """A kit (no deck numbers: the whole set) of ``size`` cards, ``creatures`` of them creatures."""
    rng = random.Random(creatures)
    cards = [
        Card(f"BEAST{i}", Kind.CREATURE, rng.randint(0, 4), rng.randint(0, 4), rng.randint(1, 6))
        for i in range(creatures)
    ]
    cards += [
        Card(
            f"SPELL{i}",
            Kind.INCANTATION,
            rng.randint(0, 3),
            effect=Effect.DAMAGE,
            amount=rng.randint(1, 3),
            target=TargetSide.ENEMY,
        )
        for i in range(size - creatures)
    ]
    return CardSet(cards)


@pytest.mark.parametrize("creatures", range(11))
def test_r7_3_greedy_chooses_ten_whatever_the_kits_make_up(creatures):
    """greedy's ten: drawn, at most three incantations while creatures last, filled up with
    incantations when the kit has fewer than seven creatures; both engines deal and play it."""
    cards = kit_of(creatures)
    matchup = Matchup.build(
        "constructed", "constructed", "greedy", "greedy", engine="reference", record_events=False, cards=cards
    )
    pa = GreedyPolicy()
    for seed in range(5):
        ten = pa.choose_ten(cards, Rng(seed))
        assert len(ten) == len(set(ten)) == 10 and set(ten) <= set(formats.kit(cards))
        spells = sum(not cards.is_creature[c] for c in ten)
        if creatures <= 7:  # every creature, the rest incantations
            assert spells == 10 - creatures
        else:  # at most three incantations
            assert 10 - creatures <= spells <= 3
        work, accepted, state = dealt(matchup, seed, "constructed")
        rng = Rng(seed)
        ref = formats.constructed(cards, (pa.choose_ten,) * 2, (pa.ban,) * 2, rng)
        assert accepted and ref.ten_a == ten
        assert work[setup.W_HAND_A, :8].tolist() == ref.a
        assert work[setup.W_HAND_B, :8].tolist() == ref.b
        assert state == rng.getstate()
    if creatures:  # a game needs a creature to play
        assert_same(10, "constructed", "constructed", "greedy", "greedy", creatures, cards=cards)


# --- Whole games: equal frames in both engines -----------------------------------------------------


@pytest.mark.parametrize(("policy_a", "policy_b"), DUEL_PAIRS)
def test_duel_formats_every_policy_pairing(policy_a, policy_b):
    assert_same(250, "draft", "draft", policy_a, policy_b, 21)
    assert_same(250, "constructed", "constructed", policy_a, policy_b, 22)
    # R2.3: the player who took the draft's last card starts
    ref = assert_same(150, "draft", "draft", policy_a, policy_b, 23, rules=Rules(first_player="last_drafter"))
    assert ref.games["first_player"].unique().to_list() == ["B"]


SOLO_DECKS = ["1", "4", "draft", "ABERRATION,ASSASSIN,CARNIVORE,CYCLONE,BARON,BRUTE,TROLL,OGRE"]


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("deck", SOLO_DECKS)
def test_solo_formats_every_level(deck, policy):
    """R8.1 with each level's AI settings (R8.9): the AI keep, the first player, the AI's mana."""
    for level in range(6):
        assert_same(60, deck, None, policy, None, 40 + level, mode="solo", level=level)
    for first_mana in ("hand", "six"):
        rules = Rules(solo_player_first_mana=first_mana)
        ref = assert_same(
            60,
            deck,
            None,
            policy,
            None,
            50,
            mode="solo",
            rules=rules,
            free_settings=True,
            settings={"ai_first": True, "ai_starts_as_fort": False, "ai_ability": "rage"},
        )
        assert ref.games["first_player"].unique().to_list() == ["B"]


@pytest.mark.parametrize("which", range(4))
def test_random_card_files(which):
    """Random card files: four random starter decks, and ``which`` cards of no deck."""
    cards = card_file(100 + which, extra=which)
    a, b = DUEL_PAIRS[which]
    assert_same(50, "draft", "draft", a, b, which, cards=cards)
    # random's ten may hold a card of no deck, which the reference refuses: see below
    ca, cb = (a, b) if not which else ("greedy", "greedy")
    assert_same(50, "constructed", "constructed", ca, cb, which, cards=cards)
    for deck in ("3", "draft"):
        assert_same(50, deck, None, a, None, which, mode="solo", cards=cards, level=which)


REFUSED = {
    "constructed": (
        CardSet([dataclasses.replace(c, deck=None) for c in random_cards(random.Random(2), 9).cards]),
        "the kit holds 9 cards; R7.3 chooses 10 different ones",
    ),
    "draft": (CardSet(random_cards(random.Random(1), 12).cards), "the kit has 12 cards, a draft needs 16 (R7.2)"),
}


@pytest.mark.parametrize("fmt", REFUSED)
def test_a_refused_deal_raises_the_references_error(fmt):
    cards, error = REFUSED[fmt]
    for engine in ("reference", "fast"):
        with pytest.raises(DeckError) as caught:
            simulate(
                60,
                fmt,
                fmt,
                "random",
                "greedy",
                seed=1,
                cards=cards,
                engine=engine,
                record_events=False,
                progress=False,
            )
        assert str(caught.value) == f"{fmt}: {error}"


def test_choices_not_compiled_are_dealt_by_the_reference(monkeypatch):
    """The fallback: the reference deals, the fast engine plays; the same frames as the compiled deal."""
    compiled = [
        simulate(80, d, d, "random", "greedy", seed=9, engine="fast", record_events=False, progress=False)
        for d in ("draft", "constructed")
    ]
    compiled.append(
        simulate(
            80,
            "draft",
            None,
            "greedy",
            mode="solo",
            level=3,
            seed=9,
            engine="fast",
            record_events=False,
            progress=False,
        )
    )
    monkeypatch.setattr(setup, "compiled_deal", lambda matchup: None)
    by_reference = [
        simulate(80, d, d, "random", "greedy", seed=9, engine="fast", record_events=False, progress=False)
        for d in ("draft", "constructed")
    ]
    by_reference.append(
        simulate(
            80,
            "draft",
            None,
            "greedy",
            mode="solo",
            level=3,
            seed=9,
            engine="fast",
            record_events=False,
            progress=False,
        )
    )
    for one, other in zip(compiled, by_reference, strict=True):
        assert one.games.equals(other.games)
        assert one.turns.equals(other.turns)


@pytest.mark.long
def test_every_deal_on_many_games():
    """``make test-long``: 200,000 dealt games, every format, policy pairing and setup option above."""
    duels = [("draft", Rules()), ("constructed", Rules()), ("draft", Rules(first_player="last_drafter"))]
    total = 0
    k = 0
    while total < 200_000:
        fmt, rules = duels[k % len(duels)]
        a, b = DUEL_PAIRS[k % len(DUEL_PAIRS)]
        assert_same(5000, fmt, fmt, a, b, 20_000 + k, rules=rules, jobs=2)
        deck = SOLO_DECKS[k % len(SOLO_DECKS)]
        assert_same(5000, deck, None, a, None, 30_000 + k, mode="solo", level=k % 6, jobs=2)
        total += 10_000
        k += 1
