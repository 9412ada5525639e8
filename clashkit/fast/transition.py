"""Applying a decision, compiled: mirrors :mod:`clashkit.engine.transition`."""

from __future__ import annotations

from . import events as ev
from .hand import check_keep, return_to_hand, take_from_hand
from .incantations import resolve
from .jit import compiled, step
from .lanes import enter_play
from .legality import A_CREATURE, A_SPELL
from .siege import begin_siege, next_in_order, take_turn
from .state import (
    C_CARD,
    G_ACTIVE,
    G_MANA,
    G_PHASE,
    G_RECORD,
    G_STAT_PLAYED,
    SUMMON,
)
from .turn import end_turn


@step
def play_creature(s, t, r, index, lane):
    """R3.3, R3.5, R3.7, R3.8: pay, take the card from the hand, enter play behind the lane."""
    p = s.g[G_ACTIVE]
    card = take_from_hand(s, p, index)
    s.g[G_MANA] -= t.card[card].cost
    s.g[G_STAT_PLAYED] += 1
    if s.g[G_RECORD]:
        ev.record(s, ev.CARD_PLAYED, card, lane, index, p, -1, 0)
    enter_play(s, p, lane, card)
    check_keep(s, p)


@step
def play_incantation(s, t, r, pol_codes, index, tp, tl, tpos):
    """R3.3, R5.1–R5.2: pay, resolve on the target, return to the rightmost place; then R3.8."""
    caster = s.g[G_ACTIVE]
    card = take_from_hand(s, caster, index)
    s.g[G_MANA] -= t.card[card].cost
    s.g[G_STAT_PLAYED] += 1
    if s.g[G_RECORD]:
        ev.record(s, ev.CARD_PLAYED, card, tl, index, tp, s.cr[tp, tl, tpos, C_CARD], 0)
    resolve(s, t, r, pol_codes, card, tp, tl, tpos)
    return_to_hand(s, caster, card)
    check_keep(s, caster)


@step
def proceed(s, t, r, pol_codes):
    """The action that moves the turn on: begin the siege, the next attack, or end the turn."""
    if s.g[G_PHASE] == SUMMON:
        begin_siege(s, r)
        return
    lane, pos = next_in_order(s, r)
    if lane < 0:
        end_turn(s, t, r, pol_codes)
    else:
        take_turn(s, t, r, pol_codes, lane, pos)


@compiled
def apply_row(s, t, r, pol_codes, row):
    """Carry out one row of :func:`legal_actions`."""
    kind = row[0]
    if kind == A_CREATURE:
        play_creature(s, t, r, row[1], row[2])
    elif kind == A_SPELL:
        play_incantation(s, t, r, pol_codes, row[1], row[2], row[3], row[4])
    else:
        proceed(s, t, r, pol_codes)
