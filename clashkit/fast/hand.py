"""The hand and the keep, compiled (R1.4, R1.5, R3.7, R3.8, R4.4, R4.7-R4.9): mirrors :mod:`clashkit.engine.hand`."""

from __future__ import annotations

from . import events as ev
from .jit import compiled, step
from .state import (
    ERR_FULL,
    G_ERROR,
    G_FORT_A,
    G_PHASE,
    G_PILE,
    G_RECORD,
    G_SOLO,
    G_STAT_KEEP_DAMAGE,
    G_WINNER,
    KEEP,
    OVER,
)


@compiled
def keep_index(s, p):
    hand = s.hands[p]
    for i in range(s.hlen[p]):
        if hand[i] == KEEP:
            return i
    return -1


@compiled
def hand_health(s, p):
    """R1.5; for the solo AI, cards above its keep (R8.6)."""
    if s.g[G_SOLO] and p == 1:
        return s.g[G_PILE] - 1
    return s.hlen[p] - 1 - keep_index(s, p)


@compiled
def take_from_hand(s, p, index):
    """R3.7: remove a card; the cards right of it shift one place left."""
    hand = s.hands[p]
    card = hand[index]
    n = s.hlen[p]
    for i in range(index, n - 1):
        hand[i] = hand[i + 1]
    s.hlen[p] = n - 1
    return card


@compiled
def return_to_hand(s, p, card):
    """R4.4, R5.2: a card comes back in the rightmost place."""
    n = s.hlen[p]
    if n >= s.hands.shape[1]:
        s.g[G_ERROR] = ERR_FULL
        return
    s.hands[p, n] = card
    s.hlen[p] = n + 1
    if s.g[G_RECORD]:
        ev.record(s, ev.CARD_RETURNED, -1, -1, n, p, card, 0)


@compiled
def win(s, p):
    """R4.9, R8.7, R8.8: the game ends at once and ``p`` wins."""
    s.g[G_WINNER] = p
    s.g[G_PHASE] = OVER
    if s.g[G_RECORD]:
        ev.record(s, ev.GAME_WON, -1, -1, -1, p, -1, 0)


@compiled
def destroy_keep(s, p):
    """R4.8: the Bastion flips to the Fort and goes leftmost; R4.9: the Fort falls."""
    if s.g[G_FORT_A + p]:
        win(s, 1 - p)
        return
    s.g[G_FORT_A + p] = 1
    hand = s.hands[p]
    at = keep_index(s, p)
    for i in range(at, 0, -1):
        hand[i] = hand[i - 1]
    hand[0] = KEEP
    if s.g[G_RECORD]:
        ev.record(s, ev.KEEP_FLIPPED, -1, -1, -1, p, -1, 0)


@step
def check_keep(s, p):
    """R3.8: whenever the keep is the rightmost card, it is destroyed at once."""
    if s.hands[p, s.hlen[p] - 1] == KEEP:
        destroy_keep(s, p)


@step
def damage_keep(s, p, amount):
    """R4.7: the keep moves ``amount`` places right, stopping at the rightmost place."""
    hand = s.hands[p]
    n = s.hlen[p]
    at = keep_index(s, p)
    moved = min(amount, n - 1 - at)
    if moved:
        for i in range(at, at + moved):
            hand[i] = hand[i + 1]
        hand[at + moved] = KEEP
    s.g[G_STAT_KEEP_DAMAGE] += moved
    if s.g[G_RECORD]:
        ev.record(s, ev.KEEP_MOVED, -1, -1, at + moved, p, -1, moved)
    if at + moved == n - 1:
        destroy_keep(s, p)
