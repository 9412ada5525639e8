"""``greedy``, compiled: :class:`clashkit.policies.greedy.GreedyPolicy`'s decisions, step for step.

Every score is computed with the same float operations in the same order
as the reference (``summon``, ``reserve``, ``cast``, ``aim_enemy``,
``aim_ally``), so the same position gives the same choice; the weights and
the per-card rows come from the reference class (:func:`clashkit.fast.tables.card_tables`).
A player's memory — casts this turn, the positions that began its turns
from ``loop_watch`` on — lives in ``s.pol[p]`` and ``s.seen[p]``.
"""

from __future__ import annotations

from ..base.vocab import BEHIND, BLOODLUST, FRONT, INDESTRUCTIBLE, PIERCE, PROTECTION, RAGE, SIDE, SPLASH, SPRINT
from .abilities import abilities
from .hand import keep_index
from .jit import compiled, step
from .lanes import fill
from .legality import A_CREATURE, A_PROCEED, A_SPELL, has_choice
from .siege import next_in_order
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_NEW,
    C_PROTECTION_USED,
    C_TOOK_TURN,
    G_ACTIVE,
    G_FORT_A,
    G_FORT_B,
    G_MANA,
    G_PHASE,
    G_TURN,
    KEEP,
    P_CAST_TURN,
    P_CASTS,
    P_SEEN,
    P_TURN,
    SUMMON,
    W_PLAYABLE,
)
from .tables import (
    E_BOUNCE,
    E_DAMAGE,
    E_DESTROY,
    E_EMPOWER,
    E_GRANT,
    E_HEAL,
    E_SHIFT,
    E_WEAKEN,
    PROTECTION_FIRST_DAMAGE,
    R_INCANTATIONS_IN_SIEGE,
    R_PROTECTION,
    W_AURA,
    W_BLOCK,
    W_BLOCK_BASE,
    W_BLOODLUST_GRANT,
    W_CASTS_PER_TURN,
    W_COMES_BACK,
    W_COMES_BACK_FINAL,
    W_CROWD,
    W_EMPOWER_OPEN,
    W_HH_COST,
    W_HH_COST_LOW,
    W_INCANTATION_COST,
    W_KEEP_FOR_INCANTATIONS,
    W_KILL,
    W_LOOP_WATCH,
    W_LOW_HEALTH,
    W_NOTHING,
    W_OPENS,
    W_OPENS_ALONE,
    W_RAGE_GRANT,
    W_RAGE_KILL,
    W_REMOVE_BASE,
    W_REMOVE_OPENS,
    W_REMOVE_OPENS_ALONE,
    W_SHIFT_OPENS,
    W_SPRINT_GRANT,
    W_STOP,
    W_VICTIM_HIT,
    W_VICTIM_KILLED,
)

# --- Summon phase ------------------------------------------------------------------------


@step
def reserve(s, t, p):
    """Mana kept for the cheapest playable incantation that has a use this turn."""
    enemies = s.ln[1 - p, 0] + s.ln[1 - p, 1]
    attackers = 0
    for lane in range(2):
        for pos in range(s.ln[p, lane]):
            if not s.cr[p, lane, pos, C_NEW]:
                attackers += 1
    best = -1
    seen = 0
    hand = s.hands[p]
    for i in range(s.hlen[p]):
        card = hand[i]
        if card == KEEP:
            continue
        seen += 1
        if seen > 4:
            break
        if t.card[card].is_creature:
            continue
        effect = t.card[card].effect
        if effect == E_WEAKEN or effect == E_HEAL:
            continue
        price = t.card[card].cost
        if best >= 0 and price >= best:
            continue
        if effect == E_SHIFT:
            useful = enemies > 0 and attackers > 0
        else:
            useful = enemies > 0 if t.card[card].enemy_side else attackers > 0
        if useful:
            best = price
    return best if best > 0 else 0  # ``best or 0``


@step
def _lane_offer(s, t, p, lane, aura, crowd):
    """What a lane offers a newcomer: (gap, mine there, crowding, open, front's health left,
    Rage from the creature it would stand behind, Auras it would receive, a free place beside it)."""
    # A gap: what the opposing side hits for, beyond what mine there absorbs.
    gap = 0
    for pos in range(s.ln[1 - p, lane]):
        gap += t.card[s.cr[1 - p, lane, pos, C_CARD]].attack
    for pos in range(s.ln[p, lane]):
        gap -= t.card[s.cr[p, lane, pos, C_CARD]].health
    size = s.ln[p, lane]
    received = 0.0
    rage_behind = False
    if size:
        back = s.cr[p, lane, size - 1, C_CARD]
        if t.card[back].aura_dirs & BEHIND:
            received += aura
            rage_behind = (t.card[back].aura_mask & RAGE) != 0
    side_free = s.ln[p, 1 - lane] > size
    if side_free and t.card[s.cr[p, 1 - lane, size, C_CARD]].aura_dirs & SIDE:
        received += aura
    if s.ln[1 - p, lane]:
        front = s.cr[1 - p, lane, 0]
        left = t.card[front[C_CARD]].health - front[C_DAMAGE]
        return gap, size, crowd * size, False, left, rage_behind, received, side_free
    return gap, size, crowd * size, True, 0, rage_behind, received, side_free


@step
def summon(s, t, p):
    """R3.3–R3.5: the best creature play now as (hand index, lane), or (-1, -1) to begin the siege."""
    hand = s.hands[p]
    n = s.hlen[p]
    if n <= 2:  # R3.4
        return -1, -1
    w = t.weights
    mana = s.g[G_MANA]
    keep_at = keep_index(s, p)
    health = n - 1 - keep_at
    playable = s.work[W_PLAYABLE : W_PLAYABLE + 4]
    count = 0
    dearest = 0
    incantation_most = 0
    end = 5 if keep_at < 5 else 4
    for i in range(end if end < n else n):
        if i == keep_at:
            continue
        card = hand[i]
        if t.card[card].is_creature:
            price = t.card[card].cost
            if price <= mana and (i < keep_at or health > 1):  # R3.8: never self-destroy
                playable[count] = i
                count += 1
                if price > dearest:
                    dearest = price
        elif t.card[card].reserve_cost > incantation_most:
            incantation_most = t.card[card].reserve_cost
    if not count:
        return -1, -1
    aura, crowd = w[W_AURA], w[W_CROWD]
    # What each lane offers a newcomer, read once.
    offer0 = _lane_offer(s, t, p, 0, aura, crowd)
    offer1 = _lane_offer(s, t, p, 1, aura, crowd)
    if incantation_most and w[W_KEEP_FOR_INCANTATIONS] != 0.0 and dearest + incantation_most > mana:
        budget = mana - reserve(s, t, p)
    else:
        budget = mana
    hh_penalty = w[W_HH_COST] if health > w[W_LOW_HEALTH] else w[W_HH_COST_LOW]
    block, block_base, rage_kill = w[W_BLOCK], w[W_BLOCK_BASE], w[W_RAGE_KILL]
    best = w[W_STOP]
    choice = -1
    choice_lane = -1
    for k in range(count):
        i = playable[k]
        card = hand[i]
        price = t.card[card].cost
        a = t.card[card].attack
        h = t.card[card].health
        rage = t.card[card].mask & RAGE
        front_aura = t.card[card].aura_dirs & FRONT
        side_aura = t.card[card].aura_dirs & SIDE
        base = t.card[card].base
        hits = t.card[card].hits
        tanks = t.card[card].tanks
        opens = t.card[card].opens
        if i > keep_at:
            base -= hh_penalty
        over_budget = price > budget
        for lane in range(2):
            gap, size, crowded, empty, front_left, rage_behind, received, side_free = offer1 if lane else offer0
            if gap <= 0 and over_budget:
                continue
            score = base + received
            if gap > 0:
                score += block * (h if h < gap else gap) + block_base
            if size:
                score += hits - crowded
                if front_aura:
                    score += aura
            else:
                score += tanks
            if empty:
                score += opens
            elif (rage or rage_behind) and a >= front_left:
                score += rage_kill
            if side_aura and side_free:
                score += aura
            if score > best:
                best = score
                choice = i
                choice_lane = lane
    if choice < 0:
        return -1, -1
    return choice, choice_lane


# --- Incantations (R3.11) ------------------------------------------------------------------


@step
def aim_enemy(s, t, r, card, nxt_lane, final, p):
    """The best target of an ``enemy`` incantation and its score: (score, player, lane, pos)."""
    w = t.weights  # the casts' weights (W_KILL …), greedy's attributes
    enemy = 1 - p
    effect = t.card[card].effect
    amount = t.card[card].amount
    weakening = not (effect == E_DAMAGE or effect == E_DESTROY or effect == E_BOUNCE or effect == E_SHIFT)
    if weakening:
        if final:
            if s.ln[enemy, 0]:
                return 0.0, enemy, 0, 0
            if s.ln[enemy, 1]:
                return 0.0, enemy, 1, 0
        return w[W_NOTHING], -1, -1, -1
    whole_side = final or effect == E_DAMAGE
    pressing0 = False
    pressing1 = False
    if nxt_lane >= 0:
        if nxt_lane == 0:
            for pos in range(s.ln[p, 0]):
                c = s.cr[p, 0, pos]
                if not c[C_TOOK_TURN] and not c[C_NEW]:
                    pressing0 = True
                    break
        for pos in range(s.ln[p, 1]):
            c = s.cr[p, 1, pos]
            if not c[C_TOOK_TURN] and not c[C_NEW]:
                pressing1 = True
                break
    best = w[W_NOTHING]
    tp, tl, tpos = -1, -1, -1
    for lane in range(2):
        size = s.ln[enemy, lane]
        pressing = pressing1 if lane else pressing0
        alone = size == 1
        for pos in range(size if whole_side or not size else 1):
            c = s.cr[enemy, lane, pos]
            opens = pos == 0 and pressing
            attack = t.card[c[C_CARD]].attack
            left = t.card[c[C_CARD]].health - c[C_DAMAGE]
            if effect == E_DAMAGE:
                if left > amount:
                    if final and best < 0.0:
                        best, tp, tl, tpos = 0.0, enemy, lane, pos
                    continue
                score = (
                    w[W_KILL] + attack + (w[W_OPENS] if opens else 0.0) + (w[W_OPENS_ALONE] if opens and alone else 0.0)
                )
            elif effect == E_DESTROY or effect == E_BOUNCE:
                score = attack + 0.5 * left + w[W_REMOVE_BASE]
                if opens:
                    score += w[W_REMOVE_OPENS] + (w[W_REMOVE_OPENS_ALONE] if alone else 0.0)
                elif not final:
                    continue
            else:  # shift
                if not (opens and alone):
                    continue
                score = w[W_SHIFT_OPENS]
            if score <= best:
                continue
            mask = abilities(s, t, r, enemy, lane, pos)
            if mask & INDESTRUCTIBLE:
                continue
            if (
                effect == E_DAMAGE
                and mask & PROTECTION
                and not c[C_PROTECTION_USED]
                and r[R_PROTECTION] == PROTECTION_FIRST_DAMAGE
            ):
                continue
            best, tp, tl, tpos = score, enemy, lane, pos
    return best, tp, tl, tpos


@step
def aim_ally(s, t, r, card, nxt_lane, nxt_pos, p):
    """The best target of an ``ally`` incantation and its score: (score, player, lane, pos)."""
    w = t.weights  # the casts' weights (W_KILL …), greedy's attributes
    effect = t.card[card].effect
    amount = t.card[card].amount
    if nxt_lane < 0:
        if s.ln[p, 0]:
            return 0.0, p, 0, 0
        if s.ln[p, 1]:
            return 0.0, p, 1, 0
        return w[W_NOTHING], -1, -1, -1
    lane, pos = nxt_lane, nxt_pos
    me = s.cr[p, lane, pos]
    mask = abilities(s, t, r, p, lane, pos)
    th = s.ln[1 - p, lane]
    if me[C_NEW] and not mask & RAGE:
        if effect == E_GRANT and t.card[card].grant & RAGE and th:
            return w[W_RAGE_GRANT], p, lane, pos
        return w[W_NOTHING], -1, -1, -1
    damage = t.card[me[C_CARD]].attack + me[C_ATTACK_MOD]
    if mask & SPRINT:
        damage += pos
    if not th:
        if effect == E_EMPOWER and not me[C_NEW]:
            return w[W_EMPOWER_OPEN] * amount, p, lane, pos
        return w[W_NOTHING], -1, -1, -1
    front = s.cr[1 - p, lane, 0]
    left = t.card[front[C_CARD]].health - front[C_DAMAGE]
    shield = abilities(s, t, r, 1 - p, lane, 0)
    blocked = bool(shield & PROTECTION) and not front[C_PROTECTION_USED]
    if effect == E_EMPOWER:
        if not blocked and damage < left and left <= damage + amount:
            return w[W_KILL] + t.card[front[C_CARD]].attack, p, lane, pos
        return w[W_NOTHING], -1, -1, -1
    if effect != E_GRANT:
        return w[W_NOTHING], -1, -1, -1
    grant = t.card[card].grant
    if mask & grant:
        return w[W_NOTHING], -1, -1, -1
    vp, vl, vpos = -1, -1, -1
    if grant & SPLASH:
        if s.ln[1 - p, 1 - lane]:
            vp, vl, vpos = 1 - p, 1 - lane, 0
    elif grant & PIERCE:
        if th > 1:
            vp, vl, vpos = 1 - p, lane, 1
    elif grant & BLOODLUST:
        if not blocked and left <= damage:
            return w[W_BLOODLUST_GRANT], p, lane, pos
    elif grant & SPRINT:
        if pos:
            return w[W_SPRINT_GRANT] * pos, p, lane, pos
    if vp < 0:
        return w[W_NOTHING], -1, -1, -1
    victim = s.cr[vp, vl, vpos]
    if t.card[victim[C_CARD]].health - victim[C_DAMAGE] <= damage:
        return w[W_VICTIM_KILLED] + t.card[victim[C_CARD]].attack, p, lane, pos
    return w[W_VICTIM_HIT], p, lane, pos


@step
def cast(s, t, r, p, final):
    """An incantation worth casting now as (hand index, target player, lane, pos), or index -1."""
    w = t.weights
    turn = s.g[G_TURN]
    pol = s.pol[p]
    if pol[P_CAST_TURN] == turn:
        if pol[P_CASTS] >= w[W_CASTS_PER_TURN]:
            return -1, -1, -1, -1
    else:
        pol[P_CAST_TURN] = turn
        pol[P_CASTS] = 0
    hand = s.hands[p]
    mana = s.g[G_MANA]
    keep_at = keep_index(s, p)
    nxt_lane, nxt_pos = -1, -1
    if not final:
        nxt_lane, nxt_pos = next_in_order(s, r)
    if nxt_lane < 0:
        final = True
    best = 0.0
    ci, cp, cl, cpos = -1, -1, -1, -1
    seen = 0
    for i in range(s.hlen[p]):
        card = hand[i]
        if card == KEEP:
            continue
        seen += 1
        if seen > 4:
            break
        if t.card[card].is_creature or t.card[card].cost > mana:
            continue
        if t.card[card].enemy_side:
            score, tp, tl, tpos = aim_enemy(s, t, r, card, nxt_lane, final, p)
        else:
            score, tp, tl, tpos = aim_ally(s, t, r, card, nxt_lane, nxt_pos, p)
        if tp < 0:
            continue
        if i < keep_at:  # R5.2: it comes back on the right, past the keep
            score += w[W_COMES_BACK_FINAL] if final else w[W_COMES_BACK]
        if not final:
            score -= w[W_INCANTATION_COST] * t.card[card].cost
        if score > best:
            best = score
            ci, cp, cl, cpos = i, tp, tl, tpos
    if ci >= 0:
        pol[P_CASTS] += 1
    return ci, cp, cl, cpos


# --- Loops (R10.1) -------------------------------------------------------------------------


@compiled
def _position_key(s, key):
    """The reference's ``repeated`` key: active, both hands, the four sides' cards, the keeps."""
    cap = s.hands.shape[1]
    fill(key, -2)
    key[0] = s.g[G_ACTIVE]
    k = 1
    for p in range(2):
        key[k] = s.hlen[p]
        for i in range(s.hlen[p]):
            key[k + 1 + i] = s.hands[p, i]
        k += 1 + cap
    for p in range(2):
        for lane in range(2):
            key[k] = s.ln[p, lane]
            for pos in range(s.ln[p, lane]):
                key[k + 1 + pos] = s.cr[p, lane, pos, C_CARD]
            k += 1 + cap
    key[k] = s.g[G_FORT_A]
    key[k + 1] = s.g[G_FORT_B]


@compiled
def repeated(s, p):
    """Whether this turn begins in a position this player has already had in this game."""
    pol = s.pol[p]
    turn = s.g[G_TURN]
    if turn < pol[P_TURN]:
        pol[P_SEEN] = 0
    pol[P_TURN] = turn
    seen = s.seen[p]
    n = pol[P_SEEN]
    key = seen[n]
    _position_key(s, key)
    width = key.shape[0]
    for j in range(n):
        other = seen[j]
        same = True
        for i in range(width):
            if other[i] != key[i]:
                same = False
                break
        if same:
            return True
    pol[P_SEEN] = n + 1
    return False


@compiled
def leaves_loop(s, t, r, p, checked):
    """Whether this summon phase begins with a play drawn from the game's generator."""
    if s.g[G_TURN] >= t.weights[W_LOOP_WATCH] and s.g[G_TURN] != s.pol[p, P_TURN] and (checked or has_choice(s, t, r)):
        return repeated(s, p)
    return False


# --- One decision (GreedyPolicy.decide) ---------------------------------------------------------


@step
def decide(s, t, r, p):
    """greedy's action now, once :func:`leaves_loop` has said no, as (kind, hand index, lane or target player,
    target lane, target position): in the summon phase the best creature, else (no siege casting, R3.11)
    an incantation or the siege; in a siege window with a choice, an incantation worth it or the next step."""
    final = True
    if s.g[G_PHASE] == SUMMON:
        index, lane = summon(s, t, p)
        if index >= 0:
            return A_CREATURE, index, lane, 0, 0
        if r[R_INCANTATIONS_IN_SIEGE]:
            return A_PROCEED, 0, 0, 0, 0
    elif r[R_INCANTATIONS_IN_SIEGE]:
        final = False
    else:
        return A_PROCEED, 0, 0, 0, 0
    i, tp, tl, tpos = cast(s, t, r, p, final)
    if i >= 0:
        return A_SPELL, i, tp, tl, tpos
    return A_PROCEED, 0, 0, 0, 0
