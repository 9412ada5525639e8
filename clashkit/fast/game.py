"""Whole games, compiled: setup (R2), the game loop, a batch of games (mirrors :mod:`clashkit.runs.game`).

:func:`play` asks the players exactly when the reference loop
(:func:`clashkit.runs.game.play`) asks them — a player with no choice is not asked,
a siege with nothing to cast runs straight through (R3.11) — so the same
draws come from the generator in the same order.  :func:`play_batch` plays
many games of fixed decks, from their seeds, and writes the turns frame's
rows and each game's outcome into arrays.
"""

from __future__ import annotations

import numpy as np

from . import rng as R
from .greedy import decide, leaves_loop
from .jit import batch, compiled, step
from .lanes import fill
from .legality import A_CREATURE, A_PROCEED, A_SPELL, has_choice, legal_actions
from .search import SEARCH, search_decision
from .state import (
    AI,
    G_ACTIVE,
    G_ERROR,
    G_EVENTS,
    G_FIRST,
    G_PHASE,
    G_RECORD,
    G_SOLO,
    G_TURN,
    G_TURNS_LOGGED,
    G_UID,
    G_WIDTH,
    G_WINNER,
    GREEDY,
    KEEP,
    OVER,
    SUMMON,
)
from .tables import W_LOOP_WATCH
from .transition import play_creature, play_incantation, proceed
from .turn import record_turn, start_turn


@compiled
def play(s, t, r, pol_codes, legal, w):
    """Play the game in ``s`` to its end; the solo AI (player B) plays itself (R8.3).

    Each pass asks the active player for one action — (kind, hand index, lane
    or target player, target lane, target position) — and carries it out, in
    one place for each kind.  R3.11: a siege window with nothing to cast means
    nothing later either, so that siege runs through without asking again.
    ``w``: search's arrays (:func:`clashkit.fast.search.new_work`), or ``None`` when no player
    searches.  numba compiles ``play`` once for each: with ``None`` the search branch is pruned before
    typing, so games without search never compile search (about a third of the engine's compile time).
    """
    through = -1  # the turn whose siege runs through
    while s.g[G_PHASE] != OVER:
        if s.g[G_ERROR] != 0:
            return
        p = s.g[G_ACTIVE]
        turn = s.g[G_TURN]
        summon = s.g[G_PHASE] == SUMMON
        greedy = pol_codes[p] == GREEDY and not (s.g[G_SOLO] and p == AI)
        kind, index, a, b, c = A_PROCEED, 0, 0, 0, 0
        drawn = False  # the action is drawn from the legal list (random, or greedy leaving a loop, R10.1)
        if summon and greedy:
            if turn >= t.weights[W_LOOP_WATCH] and leaves_loop(s, t, r, p, checked=False):
                drawn = True
            else:
                kind, index, a, b, c = decide(s, t, r, p)
        elif turn != through:
            if not has_choice(s, t, r):
                if not summon:
                    through = turn
            elif greedy:
                kind, index, a, b, c = decide(s, t, r, p)
            elif w is None:  # no search player: this branch is compiled away (see the docstring)
                drawn = True
            elif pol_codes[p] == SEARCH:
                kind, index, a, b, c = search_decision(s, t, r, legal, w)
            else:
                drawn = True
        if drawn:
            row = legal[R.randrange(s.rng, legal_actions(s, t, r, legal))]
            kind, index, a, b, c = row[0], row[1], row[2], row[3], row[4]
        if kind == A_CREATURE:
            play_creature(s, t, r, index, a)
        elif kind == A_SPELL:
            play_incantation(s, t, r, pol_codes, index, a, b, c)
        else:
            proceed(s, t, r, pol_codes)
    finish(s)


@compiled
def finish(s):
    """Close the last turn's row when the game ended inside a turn (R4.9)."""
    if s.g[G_TURNS_LOGGED] < s.g[G_TURN]:
        record_turn(s)


@step
def reset(s, seed):
    """A fresh game's arrays (R10.0: nothing in play), its generator seeded (R10.2); the event rows
    (``G_RECORD``, ``G_EVENTS``) are the batch's and stay."""
    record, events = s.g[G_RECORD], s.g[G_EVENTS]
    fill(s.g, 0)
    s.g[G_RECORD] = record
    s.g[G_EVENTS] = events
    s.g[G_WINNER] = -1
    s.g[G_TURN] = 1
    fill(s.hlen, 0)
    for p in range(2):
        s.ln[p, 0] = 0
        s.ln[p, 1] = 0
        fill(s.pol[p], 0)
        fill(s.sight[p], 0)
    s.rng[0] = np.uint64(seed)
    s.g[G_UID] = 0


@step
def deal_hand(s, p, deck):
    """R2.2: shuffle the cards into a hand, then put the keep, Bastion side up, leftmost."""
    n = deck.shape[0]
    hand = s.hands[p]
    hand[0] = KEEP
    for i in range(n):
        hand[i + 1] = deck[i]
    R.shuffle(s.rng, hand[1:], n)
    s.hlen[p] = n + 1


@step
def record_deal(s, out_a, out_b):
    """The deal as the games frame lists it (``hand_a``, ``hand_b``; the reference's ``state.dealt``,
    set in its ``begin``): each hand left to right after its keep (R2.2), the solo AI's pile from
    the top, its keep at the bottom left out (R8.1).  Called just before :func:`begin`."""
    for j in range(out_a.shape[0]):
        out_a[j] = s.hands[0, j + 1]
    for j in range(out_b.shape[0]):
        out_b[j] = s.pile[j] if s.g[G_SOLO] else s.hands[1, j + 1]


@step
def begin(s, t, r, pol_codes, first_player):
    """R2.3: the coin flip (unless decided), then the first turn's mana phase."""
    if first_player < 0:
        first_player = R.randrange(s.rng, 2)
    s.g[G_FIRST] = first_player
    s.g[G_ACTIVE] = first_player
    s.g[G_TURN] = 1
    start_turn(s, t, r, pol_codes)


@batch
def play_batch(
    s, t, r, pol_codes, seeds, deck_a, deck_b, legal, w, winner, first, turns, turn_counts, rows, events, dealt
):
    """Duels of two fixed decks (R7.1 or a custom list), one per seed; returns the rows written.

    ``dealt[i, p]``: game ``i``'s hand of player ``p`` as dealt (:func:`record_deal`).
    ``rows`` must hold every game's turns (``turn_limit`` rows a game at most).  With
    ``s.g[G_RECORD]`` set, the games' events follow one another in ``s.ev`` from ``s.g[G_EVENTS]``
    on, ``events[i]`` rows for game ``i``.  A game that stops on an error returns ``-1 - i``.
    It lets go of the GIL (``nogil``): :mod:`clashkit.runs.simulate` plays the next part in a
    thread while the one before is built into frames and written.
    """
    k = 0
    for i in range(seeds.shape[0]):
        start = s.g[G_EVENTS]
        reset(s, seeds[i])
        deal_hand(s, 0, deck_a)
        deal_hand(s, 1, deck_b)
        record_deal(s, dealt[i, 0], dealt[i, 1])
        begin(s, t, r, pol_codes, -1)
        play(s, t, r, pol_codes, legal, w)
        if s.g[G_ERROR] != 0:
            return -1 - i
        events[i] = s.g[G_EVENTS] - start
        winner[i] = s.g[G_WINNER]
        first[i] = s.g[G_FIRST]
        turns[i] = s.g[G_TURN]
        m = s.g[G_TURNS_LOGGED]
        turn_counts[i] = m
        width = s.tl.shape[1]
        for j in range(m):
            src = s.tl[j]
            dst = rows[k + j]
            for f in range(width):
                dst[f] = src[f]
        k += m
    return k


__all__ = ["G_WIDTH", "begin", "deal_hand", "play", "play_batch", "record_deal", "reset"]
