"""Setting games up, compiled: the formats' deals and a batch of dealt games (mirrors :mod:`clashkit.engine.setup`).

The reference deals in :mod:`clashkit.engine.formats` (R7.2 :func:`~clashkit.engine.formats.draft`,
R7.3 :func:`~clashkit.engine.formats.constructed`), :mod:`clashkit.engine.solo_setup` (R8.1) and
:mod:`clashkit.engine.setup` (R2.2 hands, R2.3 the coin, R8.1 the AI pile), the players'
choices made by their policies' ``pick``, ``choose_ten`` and ``ban``.  Here the
same steps draw the same numbers from the game's generator in the same order
(R10.2), and the choices of ``random`` (:class:`~clashkit.policies.RandomPolicy`)
and ``greedy`` (:class:`~clashkit.policies.GreedyPolicy`, whose choices by card
choice value ``search``, ``expert`` and ``deep`` inherit) are compiled, so a seed gives the same hands, the same
AI pile and the same first player in both engines.

:func:`compiled_deal` is the one place that decides whether a matchup's games are
dealt here; when it says no (a policy whose format choices are not compiled here,
a card set the reference refuses), :mod:`clashkit.runs.fast_games` deals with the
reference code and converts each game (:func:`clashkit.fast.from_state`).
:func:`play_dealt_batch` deals and plays many games in one compiled call.
Duels of two fixed decks (R7.1, custom lists) are :func:`clashkit.fast.game.play_batch`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..base.errors import DeckError
from ..base.rng import Rng
from ..base.vocab import Mode
from ..engine import formats
from ..engine.solo_setup import AI_CARDS, PLAYER_CARDS, REVEALED, split_cards, starter_pool
from ..policies import GreedyPolicy, RandomPolicy, get_policy
from ..policies.greedy import INCANTATIONS_KEPT
from . import rng as R
from .game import begin, deal_hand, play, record_deal, reset
from .jit import batch, compiled, step
from .state import G_ERROR, G_EVENTS, G_FIRST, G_FORT_B, G_PILE, G_SOLO, G_TURN, G_TURNS_LOGGED, G_WINNER, KEEP
from .tables import R_AI_FIRST

# --- What a matchup's deal is -------------------------------------------------------------

#: The deals compiled here, by format: R7.2, R7.3, R8.1 with a fixed deck (preconstructed or
#: custom), R8.1's draft.
DRAFT, CONSTRUCTED, SOLO_FIXED, SOLO_DRAFT = range(4)
#: The format choices compiled here: those of ``random`` and of ``greedy``.
RANDOM_CHOICES, GREEDY_CHOICES = 0, 1
#: The policy methods that make the format choices (R7.2, R7.3, R8.1).
CHOICES = ("pick", "pick_solo", "choose_ten", "ban")

# ``Deal.plan``: the format, each player's choices, the first-player rule, the AI keep, the cards
D_FORMAT, D_CHOICE_A, D_CHOICE_B, D_LAST_DRAFTER, D_AI_FORT, D_CARDS = range(6)
D_WIDTH = 6

# rows of ``Deal.work``: scratch space, so that no deal step allocates
W_DECK, W_SAMPLE, W_HAND_A, W_HAND_B, W_OFFERED, W_IN_KIT, W_COUNT = range(7)
W_ROWS = 7

#: ``status[0]`` after :func:`play_dealt_batch`: every game played, a game the arrays cannot
#: hold, a deal the reference refuses (a choice it does not accept); ``status[1]`` is the game.
OK, TOO_SMALL, REFUSED = range(3)


def deal_choices(spec) -> int | None:
    """The code of a policy's format choices compiled here, or ``None`` when they are not.

    A policy has random's (``RANDOM_CHOICES``) or greedy's (``GREEDY_CHOICES``) when its
    ``pick``, ``choose_ten`` and ``ban`` are all that class's own methods, inherited or not
    (``search`` inherits greedy's).  Any other policy's choices are made by the reference code.
    """
    kind = type(get_policy(spec))
    for code, cls in ((RANDOM_CHOICES, RandomPolicy), (GREEDY_CHOICES, GreedyPolicy)):
        if all(getattr(kind, name) is getattr(cls, name) for name in CHOICES):
            return code
    return None


@dataclass(frozen=True, slots=True)
class Deal:
    """How every game of one matchup is dealt here: the format, the choices, the cards to deal from.

    ``format`` is the games frame's word (the reference's); ``pool`` the cards the deal
    shuffles (a kit, R7.2, R7.3; the starter cards, R8.1); ``deck_a`` / ``deck_b`` the
    solo player's 8 and the AI's cards of a fixed solo deck; ``cap`` the room a hand,
    side or pile needs (:func:`clashkit.fast.capacity` of the dealt game).
    """

    format: str
    plan: np.ndarray
    pool: np.ndarray
    deck_a: np.ndarray
    deck_b: np.ndarray
    cap: int

    @property
    def width_b(self) -> int:
        """How many cards player B (the solo AI) is dealt."""
        return len(self.deck_b) if self.plan[D_FORMAT] == SOLO_FIXED else AI_CARDS if self.is_solo else 8

    @property
    def is_solo(self) -> bool:
        return self.plan[D_FORMAT] in (SOLO_FIXED, SOLO_DRAFT)

    def work(self) -> np.ndarray:
        """Scratch rows for :func:`play_dealt_batch` (``W_*``)."""
        width = max(self.plan[D_CARDS], len(self.pool), formats.CONSTRUCTED_CHOICE, AI_CARDS) + 1
        return np.zeros((W_ROWS, width), np.int64)


def compiled_deal(matchup) -> Deal | None:
    """How the games of ``matchup`` are dealt here, or ``None`` when the reference code deals them.

    The one decision between the two: a duel of fixed decks is not a deal here
    (:func:`clashkit.fast.game.play_batch`); a draft or constructed duel needs both
    players' choices compiled (:func:`deal_choices`), a solo draft the player's; a card set
    the reference refuses to deal from (too few cards, R7.2, R7.3, R8.1) is left to it, so
    that its error is the one raised.
    """
    cards, rules = matchup.card_set, matchup.rules
    if matchup.mode == Mode.SOLO:
        return _solo_deal(matchup.deck_a, matchup.policy_a, cards, rules)
    fmt = matchup.deck_a.format
    if fmt not in (formats.DRAFT, formats.CONSTRUCTED):
        return None
    choices = deal_choices(matchup.policy_a), deal_choices(matchup.policy_b)
    if None in choices:
        return None
    try:
        pool = formats.kit(cards)
    except DeckError:
        return None
    if fmt == formats.DRAFT:
        if len(pool) < formats.DRAFT_REVEAL * formats.DRAFT_ROUNDS:
            return None
        code = DRAFT
    else:
        if len(pool) < formats.CONSTRUCTED_CHOICE:  # the reference refuses it (R7.3)
            return None
        code = CONSTRUCTED
    plan = _plan(code, choices, rules.first_player == "last_drafter", False, len(cards))
    empty = np.zeros(0, np.int64)
    return Deal(fmt, plan, np.array(pool, np.int64), empty, empty, max(len(cards), 18) + 2)


def _solo_deal(spec, policy, cards, rules) -> Deal | None:
    """R8.1: a fixed deck's split is made once (no draw); a draft needs the player's choices compiled."""
    fort = rules.solo.ai_starts_as_fort
    if isinstance(spec, str) and spec.strip().lower() == "draft":
        choice = deal_choices(policy)
        pool = starter_pool(cards)
        if choice is None or len(pool) != PLAYER_CARDS + AI_CARDS:
            return None
        plan = _plan(SOLO_DRAFT, (choice, choice), False, fort, len(cards))
        empty = np.zeros(0, np.int64)
        return Deal("draft", plan, np.array(pool, np.int64), empty, empty, max(len(cards), 10 + AI_CARDS) + 2)
    fmt, mine, ai = split_cards(spec, get_policy(policy), cards, Rng(0))
    if len(mine) != PLAYER_CARDS or not ai:
        return None  # the reference's deal_solo says why (R8.1)
    plan = _plan(SOLO_FIXED, (0, 0), False, fort, len(cards))
    cap = max(len(cards), len(mine) + len(ai) + 2) + 2
    return Deal(fmt, plan, np.zeros(0, np.int64), np.array(mine, np.int64), np.array(ai, np.int64), cap)


def _plan(code: int, choices, last_drafter: bool, ai_fort: bool, n_cards: int) -> np.ndarray:
    plan = np.zeros(D_WIDTH, np.int64)
    plan[D_FORMAT] = code
    plan[D_CHOICE_A], plan[D_CHOICE_B] = choices
    plan[D_LAST_DRAFTER] = int(last_drafter)
    plan[D_AI_FORT] = int(ai_fort)
    plan[D_CARDS] = n_cards
    return plan


# --- The players' format choices (the policies' pick, choose_ten, ban) ------------------------


@compiled
def pick(s, t, choice, offered, n, mine, m, solo):
    """R7.2, R8.1: the index in ``offered[:n]`` of the card picked for a hand holding ``mine[:m]``.

    random: uniform.  greedy: the card of highest choice value (``solo``, R8.1: of highest formula
    value, ``GreedyPolicy.pick_solo``), the first of equal ones, keeping at most
    ``INCANTATIONS_KEPT`` incantations (``GreedyPolicy.pick``)."""
    if choice == RANDOM_CHOICES:
        return R.randrange(s.rng, n)
    incantations = 0
    for i in range(m):
        if not t.card[mine[i]].is_creature:
            incantations += 1
    best = -1
    best_creature = -1
    best_value = 0.0
    creature_value = 0.0
    for i in range(n):
        card = t.card[offered[i]]
        value = card.value if solo else card.choice_value
        if best < 0 or value > best_value:
            best = i
            best_value = value
        if card.is_creature and (best_creature < 0 or value > creature_value):
            best_creature = i
            creature_value = value
    if incantations < INCANTATIONS_KEPT or best_creature < 0:
        return best
    return best_creature


@compiled
def choose_ten(s, t, choice, pool, n_kit, left, out):
    """R7.3: ten card ids into ``out``; returns how many were chosen (``left``: scratch).

    random: a sample of ten of the kit ``pool`` (``rng.sample(kit(cards), 10)``).
    greedy: ten drawn one by one, each with chance in proportion to its draw weight among the
    cards still open, incantations open while fewer than ``INCANTATIONS_KEPT`` are drawn or no
    creature is left (``clashkit.policies.greedy.draw_ten``: the same numbers drawn)."""
    for i in range(n_kit):
        left[i] = pool[i]
    if choice == RANDOM_CHOICES:
        R.sample_into(s.rng, left, n_kit, 10)
        for i in range(10):
            out[i] = left[i]
        return 10
    creatures = 0
    for i in range(n_kit):
        if t.card[left[i]].is_creature:
            creatures += 1
    spells = 0
    n = n_kit
    for count in range(10):
        spells_open = spells < INCANTATIONS_KEPT or creatures == 0
        total = 0
        for i in range(n):
            if spells_open or t.card[left[i]].is_creature:
                total += t.card[left[i]].draw_weight
        r = R.randrange(s.rng, total)
        at = -1
        for i in range(n):
            c = left[i]
            if spells_open or t.card[c].is_creature:
                w = t.card[c].draw_weight
                if r < w:
                    at = i
                    break
                r -= w
        c = left[at]
        out[count] = c
        remove_at(left, n, at)
        n -= 1
        if t.card[c].is_creature:
            creatures -= 1
        else:
            spells += 1
    return 10


@compiled
def ban(s, t, choice, theirs, n):
    """R7.3: the index in ``theirs[:n]`` of the opponent's revealed card to remove.

    random: uniform.  greedy: the card of highest choice value, the first of equal ones."""
    if choice == RANDOM_CHOICES:
        return R.randrange(s.rng, n)
    best = 0
    for i in range(1, n):
        if t.card[theirs[i]].choice_value > t.card[theirs[best]].choice_value:
            best = i
    return best


@compiled
def remove_at(cards, n, i):
    """Remove ``cards[i]`` of ``cards[:n]``, the cards to its right moving one place left."""
    for j in range(i, n - 1):
        cards[j] = cards[j + 1]


# --- R7.2 the draft, R7.3 constructed, R8.1 the solo draft -----------------------------------


@compiled
def draft(s, t, plan, pool, work):
    """R7.2: shuffle the kit; per round reveal 4, the round's first picker takes 1, the other 2 of
    the remaining 3, the first picker the last; A leads rounds 1 and 3.  The hands go to
    ``work[W_HAND_A, :8]`` and ``work[W_HAND_B, :8]`` in pick order; returns the last drafter."""
    n = pool.shape[0]
    deck = work[W_DECK]
    for i in range(n):
        deck[i] = pool[i]
    R.shuffle(s.rng, deck, n)
    offered = work[W_OFFERED]
    held = work[W_COUNT]  # cards in each hand
    held[0] = 0
    held[1] = 0
    last = 0
    for round_ in range(4):
        first = round_ % 2
        second = 1 - first
        for i in range(4):
            offered[i] = deck[round_ * 4 + i]
        left = 4
        # The first picker takes 1 …
        left = _take(s, t, plan[D_CHOICE_A + first], offered, left, work[W_HAND_A + first], held, first)
        # … the other player 2 of the remaining 3 …
        left = _take(s, t, plan[D_CHOICE_A + second], offered, left, work[W_HAND_A + second], held, second)
        left = _take(s, t, plan[D_CHOICE_A + second], offered, left, work[W_HAND_A + second], held, second)
        # … and the first picker the last card.
        work[W_HAND_A + first, held[first]] = offered[left - 1]
        held[first] += 1
        last = first
    return last


@step
def _take(s, t, choice, offered, left, mine, held, p):
    i = pick(s, t, choice, offered, left, mine, held[p], solo=False)
    mine[held[p]] = offered[i]
    held[p] += 1
    remove_at(offered, left, i)
    return left - 1


@compiled
def constructed(s, t, plan, pool, work):
    """R7.3: each chooses 10 from their own kit; then B bans one of A's, A one of B's, A a second of
    B's, B a second of A's.  The eights go to ``work[W_HAND_A, :8]``, ``work[W_HAND_B, :8]`` in
    the order chosen; returns False for a ten the reference refuses (not 10 cards of the kit)."""
    n_kit = pool.shape[0]
    in_kit = work[W_IN_KIT]
    for p in range(2):
        hand = work[W_HAND_A + p]
        count = choose_ten(s, t, plan[D_CHOICE_A + p], pool, n_kit, work[W_SAMPLE], hand)
        if count != 10:
            return False
        for i in range(10):
            if not in_kit[hand[i]]:
                return False
    left = work[W_COUNT]  # cards each player has left
    left[0] = 10
    left[1] = 10
    for k in range(4):
        banner = 1 if k == 0 or k == 3 else 0
        victim = 1 - banner
        theirs = work[W_HAND_A + victim]
        i = ban(s, t, plan[D_CHOICE_A + banner], theirs, left[victim])
        remove_at(theirs, left[victim], i)
        left[victim] -= 1
    return True


@compiled
def draft_against_ai(s, t, plan, pool, work):
    """R8.1: shuffle the 32 starter cards, reveal 4, the player picks 1 and the AI gets the other 3
    in the order revealed, until the pool is spent: ``work[W_HAND_A, :8]``, ``work[W_HAND_B, :24]``."""
    n = pool.shape[0]
    deck = work[W_DECK]
    for i in range(n):
        deck[i] = pool[i]
    R.shuffle(s.rng, deck, n)
    mine = work[W_HAND_A]
    ai = work[W_HAND_B]
    offered = work[W_OFFERED]
    m = 0
    k = 0
    for start in range(0, n, REVEALED):
        for i in range(REVEALED):
            offered[i] = deck[start + i]
        picked = pick(s, t, plan[D_CHOICE_A], offered, REVEALED, mine, m, solo=True)
        mine[m] = offered[picked]
        m += 1
        for i in range(REVEALED):
            if i != picked:
                ai[k] = offered[i]
                k += 1


@compiled
def deal_solo(s, t, r, pol_codes, plan, mine, ai, dealt_a, dealt_b):
    """R8.1: the player's hand (R2.2), the AI pile shuffled with its keep at the bottom, the AI keep's
    side (R8.9), then the first turn: the player's, or the AI's with ``ai_first`` (R8.9).  The hand
    and the pile as dealt go to ``dealt_a`` and ``dealt_b`` (:func:`~clashkit.fast.game.record_deal`)."""
    s.g[G_SOLO] = 1
    deal_hand(s, 0, mine)
    n = ai.shape[0]
    for i in range(n):
        s.pile[i] = ai[i]
    R.shuffle(s.rng, s.pile, n)
    s.pile[n] = KEEP
    s.g[G_PILE] = n + 1
    s.g[G_FORT_B] = plan[D_AI_FORT]
    record_deal(s, dealt_a, dealt_b)
    begin(s, t, r, pol_codes, 1 if r[R_AI_FIRST] else 0)


# --- A batch of dealt games ---------------------------------------------------------------------


@batch
def play_dealt_batch(
    s,
    t,
    r,
    pol_codes,
    plan,
    pool,
    deck_a,
    deck_b,
    work,
    seeds,
    legal,
    w,
    winner,
    first,
    turns,
    turn_counts,
    rows,
    events,
    dealt_a,
    dealt_b,
    status,
):
    """Games of one deal (``plan``), one per seed: dealt, played, their turns frame's rows and outcomes
    written; returns the rows written.  ``dealt_a[i]`` / ``dealt_b[i]`` are game ``i``'s hands as
    dealt, the solo AI's pile from the top (:func:`~clashkit.fast.game.record_deal`).  ``status``
    says whether every game was played (``OK``) or which one stopped the batch (``TOO_SMALL``,
    ``REFUSED``).  ``w``: search's
    arrays (:func:`clashkit.fast.search.new_work`).  ``events[i]``: game ``i``'s event rows in ``s.ev``,
    as :func:`clashkit.fast.game.play_batch` writes them.
    """
    fmt = plan[D_FORMAT]
    n_pool = pool.shape[0]
    if fmt == CONSTRUCTED:
        in_kit = work[W_IN_KIT]
        for c in range(plan[D_CARDS]):
            in_kit[c] = 0
        for i in range(n_pool):
            in_kit[pool[i]] = 1
    width_b = dealt_b.shape[1]
    status[0] = OK
    k = 0
    for i in range(seeds.shape[0]):
        start = s.g[G_EVENTS]
        reset(s, seeds[i])
        if fmt == SOLO_FIXED:
            deal_solo(s, t, r, pol_codes, plan, deck_a, deck_b, dealt_a[i], dealt_b[i])
        elif fmt == SOLO_DRAFT:
            draft_against_ai(s, t, plan, pool, work)
            deal_solo(s, t, r, pol_codes, plan, work[W_HAND_A, :8], work[W_HAND_B, :width_b], dealt_a[i], dealt_b[i])
        else:
            first_player = -1
            if fmt == DRAFT:
                last = draft(s, t, plan, pool, work)
                if plan[D_LAST_DRAFTER]:
                    first_player = last
            elif not constructed(s, t, plan, pool, work):
                status[0] = REFUSED
                status[1] = i
                return k
            # R2.2, R2.3 (clashkit.runs.game.new_game)
            deal_hand(s, 0, work[W_HAND_A, :8])
            deal_hand(s, 1, work[W_HAND_B, :8])
            record_deal(s, dealt_a[i], dealt_b[i])
            begin(s, t, r, pol_codes, first_player)
        play(s, t, r, pol_codes, legal, w)
        if s.g[G_ERROR] != 0:
            status[0] = TOO_SMALL
            status[1] = i
            return k
        events[i] = s.g[G_EVENTS] - start
        winner[i] = s.g[G_WINNER]
        first[i] = s.g[G_FIRST]
        turns[i] = s.g[G_TURN]
        m = s.g[G_TURNS_LOGGED]
        turn_counts[i] = m
        for j in range(m):
            for f in range(s.tl.shape[1]):
                rows[k + j, f] = s.tl[j, f]
        k += m
    return k


__all__ = [
    "CHOICES",
    "Deal",
    "ban",
    "choose_ten",
    "compiled_deal",
    "constructed",
    "deal_choices",
    "deal_solo",
    "draft",
    "draft_against_ai",
    "pick",
    "play_dealt_batch",
]
