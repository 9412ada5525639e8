"""The siege phase, compiled (R3.9, R3.10, R4.1-R4.3, R6.1-R6.3, R6.6, R6.7, R10.4): mirrors
:mod:`clashkit.engine.siege`."""

from __future__ import annotations

from ..base.vocab import BLOODLUST, PIERCE, RAGE, SPLASH, SPRINT
from . import events as ev
from .abilities import abilities
from .destruction import destroy, hurt
from .hand import damage_keep
from .jit import compiled, step
from .lanes import sprint_forward
from .solo import mill, pile_damage
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_NEW,
    C_SLOT,
    C_SPRINT_BONUS,
    C_TOOK_TURN,
    C_UID,
    G_ACTIVE,
    G_PHASE,
    G_RECORD,
    G_SIEGE_LANE,
    G_SOLO,
    SIEGE,
    W_VICTIMS,
)
from .tables import (
    BLOODLUST_ANY,
    BLOODLUST_PRIMARY,
    R_AI_REDUCED_ALL,
    R_BLOODLUST,
    R_KEEP_DISTANCE,
    R_SIEGE_ORDER,
)


@compiled
def begin_siege(s, r):
    """R1.6: the siege begins in the upper lane; R10.4 ``siege_order = "fixed"``: the order is taken now."""
    s.g[G_PHASE] = SIEGE
    s.g[G_SIEGE_LANE] = 0
    if r[R_SIEGE_ORDER]:
        p = s.g[G_ACTIVE]
        slot = 0
        for lane in range(2):
            for pos in range(s.ln[p, lane] - 1, -1, -1):
                s.cr[p, lane, pos, C_SLOT] = slot
                slot += 1
    if s.g[G_RECORD]:
        ev.record(s, ev.SIEGE_STARTED, -1, -1, -1, -1, -1, 0)


@step
def next_in_order(s, r):
    """R3.9: (lane, position) of the next creature to take its turn, or (-1, -1)."""
    p = s.g[G_ACTIVE]
    if r[R_SIEGE_ORDER]:
        found_lane, found_pos, first = -1, -1, -1
        for lane in range(2):
            for pos in range(s.ln[p, lane]):
                c = s.cr[p, lane, pos]
                if c[C_SLOT] >= 0 and not c[C_TOOK_TURN] and (first < 0 or c[C_SLOT] < first):
                    first, found_lane, found_pos = c[C_SLOT], lane, pos
        return found_lane, found_pos
    lane = s.g[G_SIEGE_LANE]
    while lane < 2:
        pos = s.ln[p, lane]
        while pos:
            pos -= 1
            if not s.cr[p, lane, pos, C_TOOK_TURN]:
                return lane, pos
        lane += 1
    return -1, -1


@compiled
def attack_damage(t, c, sprint):
    """R4.1: attack value plus weaken/empower and Sprint's bonus, floored at 0."""
    damage = t.card[c[C_CARD]].attack + c[C_ATTACK_MOD] + (c[C_SPRINT_BONUS] if sprint else 0)
    return damage if damage > 0 else 0


@step
def take_turn(s, t, r, pol_codes, lane, pos):
    """R3.9–R3.10: the creature at (lane, pos), next in the order, takes its turn."""
    s.g[G_SIEGE_LANE] = lane
    p = s.g[G_ACTIVE]
    c = s.cr[p, lane, pos]
    c[C_TOOK_TURN] = 1
    mask = abilities(s, t, r, p, lane, pos)
    # R3.10, R6.3: new creatures attack only with Rage, and then only creatures.
    if c[C_NEW] and not (mask & RAGE and s.ln[1 - p, lane]):
        if s.g[G_RECORD]:
            ev.record(s, ev.ATTACK_SKIPPED, c[C_CARD], lane, pos, p, -1, 0)
        return
    # R6.7 Sprint: forward to position 0 first; +1 damage per creature passed.
    if mask & SPRINT:
        passed = sprint_forward(s, t, r, p, lane, pos)
        s.cr[p, lane, 0 if passed else pos, C_SPRINT_BONUS] = passed
        if passed:
            pos = 0
            mask = abilities(s, t, r, p, lane, 0)
    attack(s, t, r, pol_codes, p, lane, pos, mask)


@compiled
def bloodlust_earned(reading, count, target_destroyed):
    """R6.6, R10.4: the extra attacks one attack earns by the creatures it destroyed."""
    if reading == BLOODLUST_PRIMARY:
        return 1 if target_destroyed else 0
    if reading == BLOODLUST_ANY:
        return 1
    return count


@step
def attack(s, t, r, pol_codes, p, lane, pos, mask):
    """R4.1–R4.3 one attack, and R6.6 the Bloodlust attacks it earns."""
    enemy = 1 - p
    splash, pierce = mask & SPLASH, mask & PIERCE
    reduced = s.g[G_SOLO] and p == 0 and r[R_AI_REDUCED_ALL]
    pending = 0
    uids = s.work[W_VICTIMS : W_VICTIMS + 3]
    c = s.cr[p, lane, pos]
    while True:
        amount = attack_damage(t, c, sprint=True)
        # R4.2: an empty opposing side means the keep is hit, and only the keep.
        if not s.ln[enemy, lane]:
            if c[C_NEW]:  # R6.3, R6.6: in its entry turn it may hit only creatures
                return
            hit_keep(s, t, r, p, lane, pos, c, amount)
            return
        if reduced:  # R10.4 ai_reduced_scope = "all"
            amount = pile_damage(r, amount)
        # R4.3: fix every creature the attack hits before any damage lands.
        target = s.cr[enemy, lane, 0, C_UID]
        beside = -1
        behind = -1
        if splash and s.ln[enemy, 1 - lane]:  # R6.1
            beside = s.cr[enemy, 1 - lane, 0, C_UID]
        if pierce and s.ln[enemy, lane] > 1:  # R6.2
            behind = s.cr[enemy, lane, 1, C_UID]
        source = c[C_CARD]
        if s.g[G_RECORD]:
            ev.record(s, ev.ATTACK, source, lane, pos, enemy, s.cr[enemy, lane, 0, C_CARD], amount)
        hurt(s, t, r, enemy, lane, 0, amount, source, attack=True, aimed=True)
        if beside >= 0:
            hurt(s, t, r, enemy, 1 - lane, 0, amount, source, attack=True, aimed=False)
        if behind >= 0:
            hurt(s, t, r, enemy, lane, 1, amount, source, attack=True, aimed=False)
        # R4.3: every creature hit whose damage reached its health, in the order hit.
        count = 0
        front = s.cr[enemy, lane, 0]
        target_destroyed = front[C_DAMAGE] >= t.card[front[C_CARD]].health
        if target_destroyed:
            uids[count] = target
            count += 1
        if beside >= 0:
            b = s.cr[enemy, 1 - lane, 0]
            if b[C_DAMAGE] >= t.card[b[C_CARD]].health:
                uids[count] = beside
                count += 1
        if behind >= 0:
            b = s.cr[enemy, lane, 1]
            if b[C_DAMAGE] >= t.card[b[C_CARD]].health:
                uids[count] = behind
                count += 1
        if count:
            destroy(s, t, r, pol_codes, enemy, uids, count)
            # R6.6 Bloodlust, read after the gaps have closed.
            if mask & BLOODLUST:
                pending += bloodlust_earned(r[R_BLOODLUST], count, target_destroyed)
        if not pending:
            return
        pending -= 1


@step
def hit_keep(s, t, r, p, lane, pos, c, amount):
    """R4.2, R4.7: the attack hits the opposing keep (R8.6: in solo, the AI pile)."""
    enemy = 1 - p
    solo_pile = s.g[G_SOLO] and enemy == 1
    if solo_pile:
        amount = pile_damage(r, amount)
    elif r[R_KEEP_DISTANCE]:
        amount = attack_damage(t, c, sprint=False)
    if s.g[G_RECORD]:
        ev.record(s, ev.ATTACK, c[C_CARD], lane, pos, enemy, -1, amount)
    if solo_pile:
        mill(s, r, amount)
    else:
        damage_keep(s, enemy, amount)
