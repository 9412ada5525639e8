"""The fair search (R1.7): it decides only from what the acting player can know.

Its decisions must not change when only hidden information changes: the order
of the opponent's cards never seen since the deal (R2.2), or in solo the order
of the AI pile (R8.1).  Each position below is met in a real game; a second
copy has its hidden slots permuted; two fair searches with the same sightings
must make the same decision and draw the same numbers from the game's
generator, and leave each state as it was.
"""

from __future__ import annotations

import pytest

from clashkit.base.cards import starter_set
from clashkit.base.vocab import KEEP
from clashkit.engine.legality import legal_cards
from clashkit.engine.loop import run
from clashkit.engine.setup import new_duel, new_solo
from clashkit.policies import GreedyPolicy, SearchPolicy, get_policy
from clashkit.policies.sight import Sightings, hidden_row, hidden_slots
from clashkit.runs.game import new_game

CARDS = starter_set()


def fair(seen: dict[int, set[int]] | None = None, state=None) -> SearchPolicy:
    policy = SearchPolicy(budget=3, horizon=3, fair=True)
    if seen is not None:
        for player, cards in seen.items():
            policy.sightings.of(state, player).update(cards)
    return policy


def decision_points(state, players, seat: int, every: int):
    """Every ``every``-th position where ``seat`` has a choice, as the game goes on."""
    met = 0
    while not state.over:
        if state.active == seat and legal_cards(state):
            met += 1
            if met % every == 0:
                yield state
        run(state, *players, max_steps=1)


def permuted(state, player: int, slots: list[int]):
    """A copy with the hidden slots' cards rotated by one place."""
    other = state.clone(record=False)
    row = hidden_row(other, player)
    cards = [row[i] for i in slots]
    for i, card in zip(slots, cards[1:] + cards[:1], strict=True):
        row[i] = card
    return other


def same_decision(state, player: int, seen: set[int]) -> bool:
    """Whether the fair search decides alike on ``state`` and on a copy with the hidden order
    changed; asserts the generators and the states afterwards."""
    slots = hidden_slots(state, player, seen)
    if len(slots) < 2:
        return False
    one, two = state.clone(record=False), permuted(state, player, slots)
    assert hidden_row(two, player) != hidden_row(one, player)
    before_one, before_two = [h[:] for h in one.hands], [h[:] for h in two.hands]
    pile_one, pile_two = one.pile[:], two.pile[:]
    a = fair({player: seen}, one).decide(one)
    b = fair({player: seen}, two).decide(two)
    assert a == b
    assert one.rng.random() == two.rng.random()  # the same draws from the game's generator
    assert [h[:] for h in one.hands] == before_one and [h[:] for h in two.hands] == before_two
    assert one.pile == pile_one and two.pile == pile_two
    return True


@pytest.mark.parametrize("seed", [3, 11])
def test_duel_decisions_ignore_the_opponents_hidden_order(seed):
    state, _ = new_game("2", "4", seed=seed, record=False)
    policy = fair()
    players = (policy, GreedyPolicy())
    checked = 0
    for point in decision_points(state, players, 0, every=1):
        checked += same_decision(point, 0, set(policy.sightings.of(point, 0)))
        if checked >= 5:
            break
    assert checked >= 3


def test_solo_decisions_ignore_the_ai_pile_order():
    decks = CARDS.decks
    ai = [name for d in (2, 3, 4) for name in decks[d]]
    state = new_solo(decks[1], ai, seed=5, record=False)
    players = (fair(), GreedyPolicy())
    checked = 0
    for point in decision_points(state, players, 0, every=2):
        checked += same_decision(point, 0, set())
        if checked >= 3:
            break
    assert checked >= 3


def test_a_card_seen_in_play_and_back_in_hand_has_a_known_place():
    state = new_duel(CARDS.decks[1], CARDS.decks[2], seed=1, record=False, first_player=0)
    hand = [KEEP, *sorted(CARDS.ids(CARDS.decks[2]))]
    state.hands[1] = hand
    seen = {hand[8]}  # seen in play earlier, now back at the rightmost place (R4.4)
    assert hidden_slots(state, 0, seen) == [1, 2, 3, 4, 5, 6, 7]
    assert hidden_slots(state, 0, set()) == [1, 2, 3, 4, 5, 6, 7, 8]
    state.hands[1] = [hand[1], hand[1], KEEP]  # a card held twice: neither place is known
    assert hidden_slots(state, 0, {hand[1]}) == [0, 1]


def test_sightings_remember_the_opponents_creatures_per_game():
    state, _ = new_game("1", "3", seed=2, record=False)
    sightings = Sightings()
    state.lanes[1][0].clear()
    assert sightings.of(state, 0) == set()
    other, _ = new_game("1", "3", seed=2, record=False)
    from clashkit.engine.state import Creature

    card = CARDS.id(CARDS.decks[3][1])
    other.lanes[1][0].append(Creature(CARDS, card))
    assert sightings.of(other, 0) == {card}  # a new game: afresh, then what is in play
    other.lanes[1][0].clear()
    assert sightings.of(other, 0) == {card}  # remembered after it left play


@pytest.mark.parametrize("spec", ["search:fair", "search:fair=true", "search:budget=4,fair", "search:fair=1"])
def test_fair_is_an_on_off_option(spec):
    policy = get_policy(spec)
    assert policy.fair is True and policy.name.endswith(",fair")


def test_fair_search_plays_the_same_game_from_the_same_seed():
    games = []
    for _ in range(2):
        state, _ = new_game("3", "1", seed=9, record=True)
        run(state, SearchPolicy(budget=2, horizon=3, fair=True), GreedyPolicy())
        games.append((state.winner, state.turn, len(state.log)))
    assert games[0] == games[1]


def test_the_plain_search_reads_the_hidden_order_and_the_fair_one_does_not():
    """The information test has teeth: in some position of these games the full-information
    search (R1.7) changes its play when only the opponent's hidden order changes; the fair
    search does not, there or anywhere."""
    found = None
    for seed in range(6, 30):
        state, _ = new_game("2", "4", seed=seed, record=False)
        players = (SearchPolicy(budget=3, horizon=3), GreedyPolicy())
        for point in decision_points(state, players, 0, every=1):
            slots = hidden_slots(point, 0, set())
            if len(slots) < 2:
                continue
            one, two = point.clone(record=False), permuted(point, 0, slots)
            if SearchPolicy(budget=3, horizon=3).decide(one) != SearchPolicy(budget=3, horizon=3).decide(two):
                found = point
                break
        if found is not None:
            break
    else:
        pytest.fail("the plain search never changed its play")
    assert same_decision(found, 0, set())
