"""The rules, compiled: each function mirrors the reference function of the same name.

Sections follow the reference modules — hand, lanes, abilities, destruction,
siege, incantations, solo, turn, engine — and cite the same R-numbers.  ``s``
is a :class:`~clashkit.fast.state.FastState`, ``t`` the card
:class:`~clashkit.fast.tables.Tables`, ``r`` the rules array, ``pol_codes``
the two players' policies (for R4.6's return order).

Every compiled call copies all the arrays of ``s`` and ``t`` onto the stack,
so the steps of the hot path that have one or two callers are inlined
(``inline="always"``): the same code, fewer calls.
"""

from __future__ import annotations

from numba import njit

from ..limits import TURN_COUNTS
from ..vocab import BEHIND, BLOODLUST, FRONT, INDESTRUCTIBLE, PIERCE, PROTECTION, RAGE, SIDE, SPLASH, SPRINT
from . import rng as R
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_GRANTED,
    C_LOST,
    C_LOST_COUNT,
    C_NEW,
    C_PROTECTION_USED,
    C_SLOT,
    C_SPRINT_BONUS,
    C_TOOK_TURN,
    C_UID,
    END,
    ERR_FULL,
    ERR_LOST,
    G_ACTIVE,
    G_AI_LAST_TURN,
    G_DISCARD,
    G_ERROR,
    G_FORT_A,
    G_MANA,
    G_MANA_GAINED,
    G_PHASE,
    G_PILE,
    G_SIEGE_LANE,
    G_SOLO,
    G_STAT_DESTROYED,
    G_STAT_HAND_HEALTH,
    G_STAT_HAND_SIZE,
    G_STAT_KEEP_DAMAGE,
    G_STAT_PLAYED,
    G_TURN,
    G_TURNS_LOGGED,
    G_UID,
    G_WINNER,
    KEEP,
    LAST_TURN_PENDING,
    LAST_TURN_UNDER_WAY,
    MANA,
    MAX_LOST,
    NO_LAST_TURN,
    OVER,
    SIEGE,
    SUMMON,
    W_LEGAL,
    W_ORDER,
    W_VICTIMS,
)
from .tables import (
    BLOODLUST_ANY,
    BLOODLUST_PRIMARY,
    E_BOUNCE,
    E_DAMAGE,
    E_DESTROY,
    E_EMPOWER,
    E_GRANT,
    E_HEAL,
    E_SHIFT,
    E_WEAKEN,
    PILE_MINUS_ONE,
    PILE_ONE,
    PROTECTION_FIRST_ATTACK,
    PROTECTION_FIRST_DAMAGE,
    R_AI_BITS,
    R_AI_FIRST,
    R_AI_FIXED_MANA,
    R_AI_INCANTATION_SIDE,
    R_AI_LAST_TURN,
    R_AI_MANA_PER_CREATURE,
    R_AI_PILE_DAMAGE,
    R_AI_REDUCED_ALL,
    R_AURA,
    R_BLOODLUST,
    R_INCANTATIONS_IN_SIEGE,
    R_KEEP_DISTANCE,
    R_PROTECTION,
    R_SIEGE_ORDER,
    R_SOLO_PLAYER_FIRST_MANA,
    R_TURN_LIMIT,
    TARGET_ALLY,
)

#: Policy codes (R4.6's return order is the owner's policy's).
RANDOM, GREEDY = 0, 1
#: R3.2: how many cards left of the hand (the keep skipped) are playable.
PLAYABLE = 4
#: R2.3: the first player's first turn gains this much mana.
FIRST_TURN_MANA = 6
AI = 1

# ======================================================================================
# hand (R1.4, R1.5, R3.7, R3.8, R4.4, R4.7–R4.9)
# ======================================================================================


@njit(cache=True, _nrt=False)
def keep_index(s, p):
    hand = s.hands[p]
    for i in range(s.hlen[p]):
        if hand[i] == KEEP:
            return i
    return -1


@njit(cache=True, _nrt=False)
def hand_health(s, p):
    """R1.5; for the solo AI, cards above its keep (R8.6)."""
    if s.g[G_SOLO] and p == 1:
        return s.g[G_PILE] - 1
    return s.hlen[p] - 1 - keep_index(s, p)


@njit(cache=True, _nrt=False)
def take_from_hand(s, p, index):
    """R3.7: remove a card; the cards right of it shift one place left."""
    hand = s.hands[p]
    card = hand[index]
    n = s.hlen[p]
    for i in range(index, n - 1):
        hand[i] = hand[i + 1]
    s.hlen[p] = n - 1
    return card


@njit(cache=True, _nrt=False)
def return_to_hand(s, p, card):
    """R4.4, R5.2: a card comes back in the rightmost place."""
    n = s.hlen[p]
    if n >= s.hands.shape[1]:
        s.g[G_ERROR] = ERR_FULL
        return
    s.hands[p, n] = card
    s.hlen[p] = n + 1


@njit(cache=True, _nrt=False)
def win(s, p):
    """R4.9, R8.7, R8.8: the game ends at once and ``p`` wins."""
    s.g[G_WINNER] = p
    s.g[G_PHASE] = OVER


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def check_keep(s, p):
    """R3.8: whenever the keep is the rightmost card, it is destroyed at once."""
    if s.hands[p, s.hlen[p] - 1] == KEEP:
        destroy_keep(s, p)


@njit(cache=True, _nrt=False, inline="always")
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
    if at + moved == n - 1:
        destroy_keep(s, p)


# ======================================================================================
# abilities (R6, R6.8 Aura, R8.9, R10.4 aura)
# ======================================================================================


@njit(cache=True, _nrt=False)
def has_lost(s, p, lane, pos, holder_uid):
    c = s.cr[p, lane, pos]
    for k in range(c[C_LOST_COUNT]):
        if c[C_LOST + k] == holder_uid:
            return True
    return False


@njit(cache=True, _nrt=False)
def abilities(s, t, r, p, lane, pos):
    """The ability mask of the creature at ``p``'s ``lane``/``pos`` now."""
    c = s.cr[p, lane, pos]
    mask = t.card[c[C_CARD]].mask | c[C_GRANTED]
    # R6.8: a neighbour whose Aura reaches back toward this creature grants its ability.
    if pos:
        nb = s.cr[p, lane, pos - 1]
        if t.card[nb[C_CARD]].aura_dirs & BEHIND and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    if pos + 1 < s.ln[p, lane]:
        nb = s.cr[p, lane, pos + 1]
        if t.card[nb[C_CARD]].aura_dirs & FRONT and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    if pos < s.ln[p, 1 - lane]:
        nb = s.cr[p, 1 - lane, pos]
        if t.card[nb[C_CARD]].aura_dirs & SIDE and not has_lost(s, p, lane, pos, nb[C_UID]):
            mask |= t.card[nb[C_CARD]].aura_mask
    # R8.9: the ability the custom solo game gives every AI creature.
    if p == 1 and r[R_AI_BITS]:
        mask |= r[R_AI_BITS]
    return mask


# ======================================================================================
# lanes (R1.2, R3.5, R4.5, R5.5 shift, R6.7 Sprint, R10.0, R10.4 aura)
# ======================================================================================


@njit(cache=True, _nrt=False)
def copy_row(dst, src):
    """``dst[:] = src`` for two creature rows (written out: these functions run without numba's allocator)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def fill(a, value):
    """``a[:] = value`` for a 1-D array."""
    for i in range(a.shape[0]):
        a[i] = value


@njit(cache=True, _nrt=False)
def enter_play(s, p, lane, card):
    """R3.5: a creature enters behind every creature on its side of the lane; it is new (R10.0)."""
    n = s.ln[p, lane]
    if n >= s.cr.shape[2]:
        s.g[G_ERROR] = ERR_FULL
        return
    c = s.cr[p, lane, n]
    fill(c, 0)
    c[C_CARD] = card
    c[C_NEW] = 1
    c[C_UID] = s.g[G_UID]
    s.g[G_UID] += 1
    c[C_SLOT] = -1
    s.ln[p, lane] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def _remove(s, p, lane, pos, out):
    """Take the creature at that place out of its side (the gap closes, R4.5) into ``out``."""
    side = s.cr[p, lane]
    copy_row(out, side[pos])
    n = s.ln[p, lane]
    for i in range(pos, n - 1):
        copy_row(side[i], side[i + 1])
    s.ln[p, lane] = n - 1


@njit(cache=True, _nrt=False)
def locate(s, p, uid):
    """(lane, position) of the creature ``uid`` of ``p`` in play, or (-1, -1)."""
    for lane in range(2):
        for pos in range(s.ln[p, lane]):
            if s.cr[p, lane, pos, C_UID] == uid:
                return lane, pos
    return -1, -1


@njit(cache=True, _nrt=False)
def _grants_before_move(s, t, r, p, lane, first, last, grants):
    """R10.4 ``aura = "until_holder_moves"``: for the holders at ``first..last`` of that side,
    (holder uid, receiver uid) pairs into ``grants``; returns how many."""
    k = 0
    if not r[R_AURA]:
        return 0
    for pos in range(first, last + 1):
        h = s.cr[p, lane, pos]
        if not t.card[h[C_CARD]].aura_mask:
            continue
        dirs = t.card[h[C_CARD]].aura_dirs
        uid = h[C_UID]
        # aura_receivers: front, behind, side, each if the Aura reaches it and was not lost.
        if pos and dirs & FRONT and not has_lost(s, p, lane, pos - 1, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, lane, pos - 1, C_UID]
            k += 1
        if pos + 1 < s.ln[p, lane] and dirs & BEHIND and not has_lost(s, p, lane, pos + 1, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, lane, pos + 1, C_UID]
            k += 1
        if pos < s.ln[p, 1 - lane] and dirs & SIDE and not has_lost(s, p, 1 - lane, pos, uid):
            grants[k, 0] = uid
            grants[k, 1] = s.cr[p, 1 - lane, pos, C_UID]
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _lose_grants(s, p, grants, k, out, shifting):
    """R10.4: those creatures lose the moved holder's grant until the end of the turn.

    ``shifting``: ``out`` is the row of a creature out of play only for the moment (a
    shift between its two lanes), which keeps its losses like those in play."""
    for i in range(k):
        lane, pos = locate(s, p, grants[i, 1])
        if lane >= 0:
            c = s.cr[p, lane, pos]
        elif shifting and out[C_UID] == grants[i, 1]:
            c = out  # shifted: it loses the grant as the reference's Creature does (lanes.leave_play)
        else:
            continue  # it left play: it comes back a fresh creature (R10.0)
        holder = grants[i, 0]
        seen = False
        for j in range(c[C_LOST_COUNT]):
            if c[C_LOST + j] == holder:
                seen = True
        if seen:
            continue
        if c[C_LOST_COUNT] >= MAX_LOST:
            s.g[G_ERROR] = ERR_LOST
            continue
        c[C_LOST + c[C_LOST_COUNT]] = holder
        c[C_LOST_COUNT] += 1


@njit(cache=True, _nrt=False, inline="always")
def leave_play(s, t, r, p, lane, pos, out, shifting):
    """R4.5: the creature leaves; those behind it move one place toward the bridge.

    ``shifting``: it leaves only to enter the other lane (R5.5 shift), so a grant it
    loses as the gap closes stays lost (R10.4)."""
    grants = s.grants[1]
    k = _grants_before_move(s, t, r, p, lane, pos + 1, s.ln[p, lane] - 1, grants)
    _remove(s, p, lane, pos, out)
    _lose_grants(s, p, grants, k, out, shifting)


@njit(cache=True, _nrt=False)
def shift(s, t, r, p, lane, pos):
    """R5.5 shift: the creature moves to the back of its side of the other lane.

    R3.9: once the lower lane's siege has begun, a creature of the active player
    moved into the upper lane has lost its turn (the live order).
    """
    grants = s.grants[0]
    k = _grants_before_move(s, t, r, p, lane, pos, pos, grants)
    moved = s.moved[1]
    leave_play(s, t, r, p, lane, pos, moved, True)
    n = s.ln[p, 1 - lane]
    if n >= s.cr.shape[2]:
        s.g[G_ERROR] = ERR_FULL
        return
    copy_row(s.cr[p, 1 - lane, n], moved)
    s.ln[p, 1 - lane] = n + 1
    _lose_grants(s, p, grants, k, moved, False)
    if lane == 1 and s.g[G_SIEGE_LANE] >= 1 and s.g[G_PHASE] == SIEGE and p == s.g[G_ACTIVE]:
        if not r[R_SIEGE_ORDER]:
            s.cr[p, 0, n, C_TOOK_TURN] = 1


@njit(cache=True, _nrt=False, inline="always")
def sprint_forward(s, t, r, p, lane, pos):
    """R6.7: move to position 0, passing the creatures in front; returns how many were passed."""
    if pos:
        grants = s.grants[0]
        k = _grants_before_move(s, t, r, p, lane, 0, pos, grants)
        side = s.cr[p, lane]
        moving = s.moved[1]
        copy_row(moving, side[pos])
        for i in range(pos, 0, -1):
            copy_row(side[i], side[i - 1])
        copy_row(side[0], moving)
        _lose_grants(s, p, grants, k, moving, False)
    return pos


# ======================================================================================
# destruction (R4.3–R4.6, R5.4–R5.6, R6.4, R6.5, R8.5, R10.4 protection)
# ======================================================================================


@njit(cache=True, _nrt=False)
def protection_cancels(reading, amount, attack, aimed):
    """R6.4, R10.4: whether an armed Protection cancels this damage (and is used up)."""
    if reading == PROTECTION_FIRST_ATTACK:
        return aimed
    if reading == PROTECTION_FIRST_DAMAGE:
        return amount > 0
    return attack and amount > 0


@njit(cache=True, _nrt=False)
def hurt(s, t, r, p, lane, pos, amount, attack, aimed):
    """Deal ``amount`` damage to one creature; returns the damage it really took."""
    c = s.cr[p, lane, pos]
    if (
        not c[C_PROTECTION_USED]
        and protection_cancels(r[R_PROTECTION], amount, attack, aimed)
        and abilities(s, t, r, p, lane, pos) & PROTECTION
    ):
        c[C_PROTECTION_USED] = 1
        amount = 0
    c[C_DAMAGE] += amount
    return amount


@njit(cache=True, _nrt=False)
def to_owner(s, owner, card):
    """R4.4, R5.5 bounce: back to the owner's hand, rightmost; R8.5: the AI's go to its discard."""
    if s.g[G_SOLO] and owner == 1:
        n = s.g[G_DISCARD]
        s.discard[n] = card
        s.g[G_DISCARD] = n + 1
    else:
        return_to_hand(s, owner, card)


@njit(cache=True, _nrt=False, inline="always")
def destroy(s, t, r, pol_codes, owner, uids, count):
    """R4.3–R4.6: destroy these creatures of ``owner`` together, then return them (R4.6 order)."""
    order = s.work[W_ORDER : W_ORDER + count]
    out = s.moved[0]
    for i in range(count):
        lane, pos = locate(s, owner, uids[i])
        leave_play(s, t, r, owner, lane, pos, out, False)
        s.g[G_STAT_DESTROYED] += 1
        order[i] = out[C_CARD]
    # R4.6: the owner's policy chooses (the solo AI keeps the default order).
    if count > 1 and not (s.g[G_SOLO] and owner == 1):
        if pol_codes[owner] == RANDOM:
            R.shuffle(s.rng, order, count)
        else:
            _sort_by_value(t, order, count)
    for i in range(count):
        to_owner(s, owner, order[i])


@njit(cache=True, _nrt=False)
def _sort_by_value(t, order, count):
    """greedy's R4.6 order: best card first (a stable sort on the card value, descending)."""
    for i in range(1, count):
        card = order[i]
        v = t.card[card].value
        j = i - 1
        while j >= 0 and t.card[order[j]].value < v:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = card


# ======================================================================================
# solo (R8.2–R8.8)
# ======================================================================================


@njit(cache=True, _nrt=False)
def ai_mana(s, r):
    """R8.2: a fixed amount plus a variable amount per creature the player has in play."""
    return r[R_AI_FIXED_MANA] + r[R_AI_MANA_PER_CREATURE] * (s.ln[0, 0] + s.ln[0, 1])


@njit(cache=True, _nrt=False)
def pile_damage(r, amount):
    """R8.9: the player's siege damage to the AI pile, per attack."""
    reading = r[R_AI_PILE_DAMAGE]
    if reading == PILE_MINUS_ONE:
        return amount - 1 if amount > 1 else 0
    if reading == PILE_ONE:
        return 1
    return amount


@njit(cache=True, _nrt=False)
def _pop_pile(s):
    card = s.pile[0]
    n = s.g[G_PILE]
    for i in range(n - 1):
        s.pile[i] = s.pile[i + 1]
    s.g[G_PILE] = n - 1
    return card


@njit(cache=True, _nrt=False)
def check_pile(s, r):
    """R8.7: a lone Bastion flips and the discard becomes the new pile; a lone Fort, the last turn."""
    if s.g[G_PILE] > 1:
        return
    if not s.g[G_FORT_A + AI]:
        s.g[G_FORT_A + AI] = 1
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
        if s.g[G_PILE] > 1:
            return
    if s.g[G_AI_LAST_TURN] == NO_LAST_TURN:
        current = s.g[G_ACTIVE] == AI and r[R_AI_LAST_TURN]
        s.g[G_AI_LAST_TURN] = LAST_TURN_UNDER_WAY if current else LAST_TURN_PENDING


@njit(cache=True, _nrt=False)
def mill(s, r, amount):
    """R8.6: move ``amount`` cards from the top of the pile to the discard, never the keep."""
    moved = 0
    while moved < amount and s.g[G_PILE] > 1:
        card = _pop_pile(s)
        s.discard[s.g[G_DISCARD]] = card
        s.g[G_DISCARD] += 1
        moved += 1
    s.g[G_STAT_KEEP_DAMAGE] += moved
    check_pile(s, r)


@njit(cache=True, _nrt=False)
def ai_target(s, t, r, card, lane):
    """R8.4: (player, position) of the creature nearest the bridge in ``lane`` on the declared side."""
    side = AI if t.card[card].target == TARGET_ALLY else 0
    if s.ln[side, lane]:
        return side, 0
    if r[R_AI_INCANTATION_SIDE] and s.ln[1 - side, lane]:
        return 1 - side, 0
    return -1, -1


@njit(cache=True, _nrt=False)
def ai_summon(s, t, r, pol_codes):
    """R8.3–R8.4: reveal cards until their total cost reaches the AI's mana."""
    mana = s.g[G_MANA]
    total = 0
    slot = 0
    while total < mana and s.g[G_PILE] > 1:
        card = _pop_pile(s)
        lane = slot & 1
        slot += 1
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
            s.discard[s.g[G_DISCARD]] = card
            s.g[G_DISCARD] += 1
        s.g[G_MANA] = mana - total if total < mana else 0


@njit(cache=True, _nrt=False)
def begin_ai_turn(s):
    """R8.7: a pending last turn is now under way."""
    if s.g[G_AI_LAST_TURN] == LAST_TURN_PENDING:
        s.g[G_AI_LAST_TURN] = LAST_TURN_UNDER_WAY


@njit(cache=True, _nrt=False)
def end_ai_turn(s):
    """R8.7: if the player has not lost by the end of the AI's last turn, the player wins."""
    if s.g[G_AI_LAST_TURN] == LAST_TURN_UNDER_WAY and s.g[G_WINNER] < 0:
        win(s, 0)


# ======================================================================================
# incantations (R5)
# ======================================================================================


@njit(cache=True, _nrt=False)
def resolve(s, t, r, pol_codes, card, p, lane, pos):
    """R5.2, R5.4, R5.5: apply incantation ``card``'s effect to the creature at that place."""
    # R5.4: an Indestructible creature may be targeted; nothing happens to it.
    if abilities(s, t, r, p, lane, pos) & INDESTRUCTIBLE:
        return
    effect = t.card[card].effect
    amount = t.card[card].amount
    c = s.cr[p, lane, pos]
    if effect == E_DAMAGE or effect == E_DESTROY:
        if effect == E_DAMAGE:  # R5.6: not an attack; destroyed once its damage reaches its health
            hurt(s, t, r, p, lane, pos, amount, False, False)
            if c[C_DAMAGE] < t.card[c[C_CARD]].health:
                return
        uids = s.work[W_VICTIMS : W_VICTIMS + 1]
        uids[0] = c[C_UID]
        destroy(s, t, r, pol_codes, p, uids, 1)
    elif effect == E_BOUNCE:  # not a destruction
        out = s.moved[0]
        leave_play(s, t, r, p, lane, pos, out, False)
        to_owner(s, p, out[C_CARD])
    elif effect == E_SHIFT:
        shift(s, t, r, p, lane, pos)
    elif effect == E_WEAKEN:
        c[C_ATTACK_MOD] -= amount
    elif effect == E_EMPOWER:
        c[C_ATTACK_MOD] += amount
    elif effect == E_GRANT:
        c[C_GRANTED] |= t.card[card].grant
    elif effect == E_HEAL:
        c[C_DAMAGE] = 0


# ======================================================================================
# siege (R3.9, R3.10, R4.1–R4.3, R6.1–R6.3, R6.6, R6.7, R10.4)
# ======================================================================================


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def attack_damage(t, c, sprint):
    """R4.1: attack value plus weaken/empower and Sprint's bonus, floored at 0."""
    damage = t.card[c[C_CARD]].attack + c[C_ATTACK_MOD] + (c[C_SPRINT_BONUS] if sprint else 0)
    return damage if damage > 0 else 0


@njit(cache=True, _nrt=False, inline="always")
def take_turn(s, t, r, pol_codes, lane, pos):
    """R3.9–R3.10: the creature at (lane, pos), next in the order, takes its turn."""
    s.g[G_SIEGE_LANE] = lane
    p = s.g[G_ACTIVE]
    c = s.cr[p, lane, pos]
    c[C_TOOK_TURN] = 1
    mask = abilities(s, t, r, p, lane, pos)
    # R3.10, R6.3: new creatures attack only with Rage, and then only creatures.
    if c[C_NEW] and not (mask & RAGE and s.ln[1 - p, lane]):
        return
    # R6.7 Sprint: forward to position 0 first; +1 damage per creature passed.
    if mask & SPRINT:
        passed = sprint_forward(s, t, r, p, lane, pos)
        s.cr[p, lane, 0 if passed else pos, C_SPRINT_BONUS] = passed
        if passed:
            pos = 0
            mask = abilities(s, t, r, p, lane, 0)
    attack(s, t, r, pol_codes, p, lane, pos, mask)


@njit(cache=True, _nrt=False)
def bloodlust_earned(reading, count, target_destroyed):
    """R6.6, R10.4: the extra attacks one attack earns by the creatures it destroyed."""
    if reading == BLOODLUST_PRIMARY:
        return 1 if target_destroyed else 0
    if reading == BLOODLUST_ANY:
        return 1
    return count


@njit(cache=True, _nrt=False, inline="always")
def attack(s, t, r, pol_codes, p, lane, pos, mask):
    """R4.1–R4.3 one attack, and R6.6 the Bloodlust attacks it earns."""
    enemy = 1 - p
    splash, pierce = mask & SPLASH, mask & PIERCE
    reduced = s.g[G_SOLO] and p == 0 and r[R_AI_REDUCED_ALL]
    pending = 0
    uids = s.work[W_VICTIMS : W_VICTIMS + 3]
    c = s.cr[p, lane, pos]
    while True:
        amount = attack_damage(t, c, True)
        # R4.2: an empty opposing side means the keep is hit, and only the keep.
        if not s.ln[enemy, lane]:
            if c[C_NEW]:  # R6.3, R6.6: in its entry turn it may hit only creatures
                return
            hit_keep(s, t, r, p, c, amount)
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
        hurt(s, t, r, enemy, lane, 0, amount, True, True)
        if beside >= 0:
            hurt(s, t, r, enemy, 1 - lane, 0, amount, True, False)
        if behind >= 0:
            hurt(s, t, r, enemy, lane, 1, amount, True, False)
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


@njit(cache=True, _nrt=False, inline="always")
def hit_keep(s, t, r, p, c, amount):
    """R4.2, R4.7: the attack hits the opposing keep (R8.6: in solo, the AI pile)."""
    enemy = 1 - p
    if s.g[G_SOLO] and enemy == 1:
        mill(s, r, pile_damage(r, amount))
        return
    if r[R_KEEP_DISTANCE]:
        amount = attack_damage(t, c, False)
    damage_keep(s, enemy, amount)


# ======================================================================================
# turn (R2.3, R3.1, R3.12, R8.1, R8.2, R10.1, R10.4)
# ======================================================================================


@njit(cache=True, _nrt=False)
def hand_counts(s, p):
    """Cards in hand, the keep included (R3.1), and hand-health; for the solo AI, its pile (R8.6)."""
    if s.g[G_SOLO] and p == 1:
        return s.g[G_PILE], s.g[G_PILE] - 1
    return s.hlen[p], hand_health(s, p)


#: The most cards played or creatures destroyed a turn row holds (``int16``; ``clashkit.limits.TURN_COUNTS``).
_ROW_MAX = TURN_COUNTS["cards_played"].high


@njit(cache=True, _nrt=False)
def record_turn(s):
    """Close the active player's turn in the turn log (one ``TURN_FIELDS`` row)."""
    p = s.g[G_ACTIVE]
    size, health = hand_counts(s, p)
    k = s.g[G_TURNS_LOGGED]
    if k >= s.tl.shape[0] or s.g[G_STAT_PLAYED] > _ROW_MAX or s.g[G_STAT_DESTROYED] > _ROW_MAX:
        s.g[G_ERROR] = ERR_FULL  # the log is full, or a count has no room in the row's 16 bits
        return
    row = s.tl[k]
    row[0] = s.g[G_TURN]
    row[1] = p
    row[2] = s.g[G_MANA_GAINED]
    row[3] = s.g[G_MANA_GAINED] - s.g[G_MANA]
    row[4] = s.g[G_STAT_PLAYED]
    row[5] = s.g[G_STAT_HAND_SIZE]
    row[6] = s.g[G_STAT_HAND_HEALTH]
    row[7] = size
    row[8] = health
    row[9] = s.g[G_FORT_A + p]
    row[10] = s.ln[0, 0] + s.ln[0, 1]
    row[11] = s.ln[1, 0] + s.ln[1, 1]
    row[12] = s.g[G_STAT_KEEP_DAMAGE]
    row[13] = s.g[G_STAT_DESTROYED]
    s.g[G_TURNS_LOGGED] = k + 1


@njit(cache=True, _nrt=False)
def first_turn_of_six(s, r):
    """R2.3, R8.1: whether this turn gains 6 mana instead of R3.1's."""
    if s.g[G_TURN] == 1:
        return True
    return s.g[G_TURN] == 2 and s.g[G_SOLO] and r[R_AI_FIRST] and r[R_SOLO_PLAYER_FIRST_MANA]


@njit(cache=True, _nrt=False, inline="always")
def start_turn(s, t, r, pol_codes):
    """R3.1 / R8.2: the mana phase, then the summon phase opens (the AI's plays itself, R8.3)."""
    s.g[G_PHASE] = MANA
    p = s.g[G_ACTIVE]
    size, health = hand_counts(s, p)
    s.g[G_STAT_PLAYED] = 0
    s.g[G_STAT_KEEP_DAMAGE] = 0
    s.g[G_STAT_DESTROYED] = 0
    s.g[G_STAT_HAND_SIZE] = size
    s.g[G_STAT_HAND_HEALTH] = health
    if s.g[G_SOLO] and p == 1:
        begin_ai_turn(s)
        mana = ai_mana(s, r)
        s.g[G_MANA] = mana
        s.g[G_MANA_GAINED] = mana
        s.g[G_PHASE] = SUMMON
        ai_summon(s, t, r, pol_codes)
        if s.g[G_WINNER] < 0:
            begin_siege(s, r)
        return
    mana = FIRST_TURN_MANA if first_turn_of_six(s, r) else s.hlen[p]
    s.g[G_MANA] = mana
    s.g[G_MANA_GAINED] = mana
    s.g[G_PHASE] = SUMMON


@njit(cache=True, _nrt=False, inline="always")
def regenerate(s):
    """R3.12: damage back to 0, until-end-of-turn effects end, Protection re-armed, nothing new."""
    for p in range(2):
        for lane in range(2):
            for pos in range(s.ln[p, lane]):
                c = s.cr[p, lane, pos]
                c[C_DAMAGE] = 0
                c[C_ATTACK_MOD] = 0
                c[C_GRANTED] = 0
                c[C_SPRINT_BONUS] = 0
                c[C_PROTECTION_USED] = 0
                c[C_NEW] = 0
                c[C_TOOK_TURN] = 0
                c[C_LOST_COUNT] = 0
                c[C_SLOT] = -1
    s.g[G_MANA] = 0


@njit(cache=True, _nrt=False, inline="always")
def end_turn(s, t, r, pol_codes):
    """R3.12, R8.7, R10.1: regenerate, then the other player's turn (or the end of the game)."""
    record_turn(s)
    s.g[G_PHASE] = END
    regenerate(s)
    if s.g[G_SOLO] and s.g[G_ACTIVE] == 1:
        end_ai_turn(s)
        if s.g[G_WINNER] >= 0:
            return
    if s.g[G_TURN] >= r[R_TURN_LIMIT]:
        s.g[G_PHASE] = OVER
        return
    s.g[G_TURN] += 1
    s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]
    start_turn(s, t, r, pol_codes)


# ======================================================================================
# engine: legal actions and applying them
# ======================================================================================

#: Action kinds in a legal list row: (kind, hand index, lane or target player, target lane, target position).
A_CREATURE, A_SPELL, A_PROCEED = 0, 1, 2


@njit(cache=True, _nrt=False, inline="always")
def legal_cards(s, t, r, out, first_only):
    """Hand indices of every card the active player may play now, in hand order, into ``out``; returns how many.

    The one legality kernel (as :func:`clashkit.legality.legal_cards`): a card
    among the playable (R3.2) that the player can afford (R3.3): a creature in
    the summon phase (R3.5) while another card besides the keep would stay
    (R3.4); an incantation when one may be cast (R3.6, R3.11) and some creature
    is in play to aim at (R5.1).  The solo AI has no hand: its summon phase
    plays itself (R8.3).  ``first_only``: stop at the first such card.
    """
    phase = s.g[G_PHASE]
    p = s.g[G_ACTIVE]
    if phase == OVER or (s.g[G_SOLO] and p == AI):
        return 0
    hand = s.hands[p]
    n = s.hlen[p]
    mana = s.g[G_MANA]
    summon_creatures = phase == SUMMON and n > 2
    any_creature = s.ln[0, 0] + s.ln[0, 1] + s.ln[1, 0] + s.ln[1, 1] > 0
    cast = (phase == SUMMON or (phase == SIEGE and r[R_INCANTATIONS_IN_SIEGE] != 0)) and any_creature
    k = 0
    playable = 0
    for i in range(n):
        card = hand[i]
        if card == KEEP:
            continue
        if t.card[card].cost <= mana and (summon_creatures if t.card[card].is_creature else cast):
            out[k] = i
            k += 1
            if first_only:
                return k
        playable += 1
        if playable == PLAYABLE:
            break
    return k


@njit(cache=True, _nrt=False)
def has_choice(s, t, r):
    """Whether :func:`legal_actions` lists more than the one action that moves the turn on."""
    return legal_cards(s, t, r, s.work[W_LEGAL : W_LEGAL + PLAYABLE], True) > 0


@njit(cache=True, _nrt=False)
def legal_actions(s, t, r, out):
    """Every legal action of the active player into ``out`` rows, in the reference order; returns how many.

    :func:`legal_cards`, each in every place (creatures upper then lower;
    incantations on every creature in play, A before B, upper before lower,
    bridge outward), then the one action that moves the turn on.
    """
    cards = s.work[W_LEGAL : W_LEGAL + PLAYABLE]
    k = 0
    for j in range(legal_cards(s, t, r, cards, False)):
        i = cards[j]
        if t.card[s.hands[s.g[G_ACTIVE], i]].is_creature:
            for lane in range(2):
                out[k, 0] = A_CREATURE
                out[k, 1] = i
                out[k, 2] = lane
                k += 1
        else:
            for tp in range(2):
                for tl in range(2):
                    for tpos in range(s.ln[tp, tl]):
                        out[k, 0] = A_SPELL
                        out[k, 1] = i
                        out[k, 2] = tp
                        out[k, 3] = tl
                        out[k, 4] = tpos
                        k += 1
    out[k, 0] = A_PROCEED
    k += 1
    return k


@njit(cache=True, _nrt=False)
def play_creature(s, t, r, index, lane):
    """R3.3, R3.5, R3.7, R3.8: pay, take the card from the hand, enter play behind the lane."""
    p = s.g[G_ACTIVE]
    card = take_from_hand(s, p, index)
    s.g[G_MANA] -= t.card[card].cost
    s.g[G_STAT_PLAYED] += 1
    enter_play(s, p, lane, card)
    check_keep(s, p)


@njit(cache=True, _nrt=False, inline="always")
def play_incantation(s, t, r, pol_codes, index, tp, tl, tpos):
    """R3.3, R5.1–R5.2: pay, resolve on the target, return to the rightmost place; then R3.8."""
    caster = s.g[G_ACTIVE]
    card = take_from_hand(s, caster, index)
    s.g[G_MANA] -= t.card[card].cost
    s.g[G_STAT_PLAYED] += 1
    resolve(s, t, r, pol_codes, card, tp, tl, tpos)
    return_to_hand(s, caster, card)
    check_keep(s, caster)


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False)
def apply_row(s, t, r, pol_codes, row):
    """Carry out one row of :func:`legal_actions`."""
    kind = row[0]
    if kind == A_CREATURE:
        play_creature(s, t, r, row[1], row[2])
    elif kind == A_SPELL:
        play_incantation(s, t, r, pol_codes, row[1], row[2], row[3], row[4])
    else:
        proceed(s, t, r, pol_codes)
