"""Solo mode's AI, compiled (R8.2-R8.8): mirrors :mod:`clashkit.engine.solo`."""

from __future__ import annotations

from . import events as ev
from . import rng as R
from .hand import win
from .incantations import resolve
from .jit import compiled
from .lanes import enter_play
from .state import (
    AI,
    ERR_FULL,
    G_ACTIVE,
    G_AI_LAST_TURN,
    G_DISCARD,
    G_ERROR,
    G_FORT_A,
    G_MANA,
    G_PILE,
    G_RECORD,
    G_STAT_KEEP_DAMAGE,
    G_WINNER,
    LAST_TURN_PENDING,
    LAST_TURN_UNDER_WAY,
    NO_LAST_TURN,
)
from .tables import (
    PILE_MINUS_ONE,
    PILE_ONE,
    R_AI_FIXED_MANA,
    R_AI_INCANTATION_SIDE,
    R_AI_LAST_TURN,
    R_AI_MANA_PER_CREATURE,
    R_AI_PILE_DAMAGE,
    TARGET_ALLY,
)


@compiled
def ai_mana(s, r):
    """R8.2: a fixed amount plus a variable amount per creature the player has in play."""
    return r[R_AI_FIXED_MANA] + r[R_AI_MANA_PER_CREATURE] * (s.ln[0, 0] + s.ln[0, 1])


@compiled
def pile_damage(r, amount):
    """R8.9: the player's siege damage to the AI pile, per attack."""
    reading = r[R_AI_PILE_DAMAGE]
    if reading == PILE_MINUS_ONE:
        return amount - 1 if amount > 1 else 0
    if reading == PILE_ONE:
        return 1
    return amount


@compiled
def _pop_pile(s):
    card = s.pile[0]
    n = s.g[G_PILE]
    for i in range(n - 1):
        s.pile[i] = s.pile[i + 1]
    s.g[G_PILE] = n - 1
    return card


@compiled
def check_pile(s, r):
    """R8.7: a lone Bastion flips and the discard becomes the new pile; a lone Fort, the last turn."""
    if s.g[G_PILE] > 1:
        return
    if not s.g[G_FORT_A + AI]:
        s.g[G_FORT_A + AI] = 1
        if s.g[G_RECORD]:
            ev.record(s, ev.KEEP_FLIPPED, -1, -1, -1, AI, -1, 0)
        nd = s.g[G_DISCARD]
        R.shuffle(s.rng, s.discard, nd)
        n = s.g[G_PILE]
        if nd + n > s.pile.shape[0]:
            s.g[G_ERROR] = ERR_FULL
            return
        for i in range(n - 1, -1, -1):
            s.pile[i + nd] = s.pile[i]
        for i in range(nd):
            s.pile[i] = s.discard[i]
        s.g[G_PILE] = n + nd
        s.g[G_DISCARD] = 0
        if s.g[G_RECORD]:
            ev.record(s, ev.AI_RESHUFFLE, -1, -1, -1, AI, -1, nd)
        if s.g[G_PILE] > 1:
            return
    if s.g[G_AI_LAST_TURN] == NO_LAST_TURN:
        current = s.g[G_ACTIVE] == AI and r[R_AI_LAST_TURN]
        s.g[G_AI_LAST_TURN] = LAST_TURN_UNDER_WAY if current else LAST_TURN_PENDING
        if s.g[G_RECORD]:
            ev.record(s, ev.AI_LAST_TURN, -1, -1, -1, AI, -1, s.g[G_AI_LAST_TURN])


@compiled
def mill(s, r, amount):
    """R8.6: move ``amount`` cards from the top of the pile to the discard, never the keep."""
    moved = 0
    while moved < amount and s.g[G_PILE] > 1:
        card = _pop_pile(s)
        s.discard[s.g[G_DISCARD]] = card
        s.g[G_DISCARD] += 1
        moved += 1
        if s.g[G_RECORD]:
            ev.record(s, ev.AI_MILL, -1, -1, -1, AI, card, s.g[G_PILE] - 1)
    s.g[G_STAT_KEEP_DAMAGE] += moved
    check_pile(s, r)


@compiled
def ai_target(s, t, r, card, lane):
    """R8.4: (player, position) of the creature nearest the bridge in ``lane`` on the declared side."""
    side = AI if t.card[card].target == TARGET_ALLY else 0
    if s.ln[side, lane]:
        return side, 0
    if r[R_AI_INCANTATION_SIDE] and s.ln[1 - side, lane]:
        return 1 - side, 0
    return -1, -1


@compiled
def ai_summon(s, t, r, pol_codes):
    """R8.3–R8.4: reveal cards until their total cost reaches the AI's mana."""
    mana = s.g[G_MANA]
    total = 0
    slot = 0
    while total < mana and s.g[G_PILE] > 1:
        card = _pop_pile(s)
        lane = slot & 1
        slot += 1
        if s.g[G_RECORD]:
            ev.record(s, ev.AI_REVEAL, card, lane, -1, AI, -1, total)
        # R8.3, R8.7: a reveal that leaves the Bastion alone flips it at once.
        check_pile(s, r)
        if t.card[card].is_creature:
            enter_play(s, AI, lane, card)
            total += t.card[card].cost
        else:
            tp, tpos = ai_target(s, t, r, card, lane)
            if tp >= 0:
                resolve(s, t, r, pol_codes, card, tp, lane, tpos)
                total += t.card[card].cost
            elif s.g[G_RECORD]:  # R8.4: no target, no effect
                side = AI if t.card[card].target == TARGET_ALLY else 0
                ev.record(s, ev.NO_EFFECT, card, lane, -1, side, -1, ev.NO_EFFECT_NO_TARGET)
            s.discard[s.g[G_DISCARD]] = card
            s.g[G_DISCARD] += 1
            if s.g[G_RECORD]:
                ev.record(s, ev.CARD_DISCARDED, -1, -1, -1, AI, card, s.g[G_DISCARD])
        s.g[G_MANA] = mana - total if total < mana else 0


@compiled
def begin_ai_turn(s):
    """R8.7: a pending last turn is now under way."""
    if s.g[G_AI_LAST_TURN] == LAST_TURN_PENDING:
        s.g[G_AI_LAST_TURN] = LAST_TURN_UNDER_WAY
        if s.g[G_RECORD]:
            ev.record(s, ev.AI_LAST_TURN, -1, -1, -1, AI, -1, LAST_TURN_UNDER_WAY)


@compiled
def end_ai_turn(s):
    """R8.7: if the player has not lost by the end of the AI's last turn, the player wins."""
    if s.g[G_AI_LAST_TURN] == LAST_TURN_UNDER_WAY and s.g[G_WINNER] < 0:
        win(s, 0)
