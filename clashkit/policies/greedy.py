"""``greedy``: the heuristic a good player follows without looking ahead.

Summon phase, one card at a time (R3.2–R3.5):

1. **Guard the keep** — a lane where the opponent's creatures would hit harder
   than my creatures there can absorb gets a blocker first.
2. **Use the mana** — among the playable creatures it can afford (keeping
   back the price of an incantation it means to cast in the siege), it plays
   the best set it can pay for, best card first.
3. **Press an open lane** — a creature goes where it blocks most, else where
   the opposing side is empty (its attack will hit the keep), else where a
   Rage creature can kill at once; Aura holders go where their neighbours get
   the Aura.
4. **Protect hand-health** — a card to the right of the keep costs 1
   hand-health (R3.7), so those plays must earn more the lower it is, and it
   never plays the card that would destroy its own keep (R3.8).

Siege phase, before each attack (R3.11): it **kills what it can** — an
incantation that finishes the creature in front of its next attacker, or any
creature worth the mana; ``empower``/``grant`` go on the next attacker when
they turn its hit into a kill or into more damage to the keep; ``shift`` and
``bounce`` open a lane that attackers are still to strike.  Incantations are
aimed by their declared side (R5.5): ``enemy`` at the opponent's creatures,
``ally`` at its own.  Left-over mana before the end of the turn casts an
incantation sitting left of the keep, which brings it back on the right and
heals 1 (R5.2).

Format choices rank cards by a fixed value (stats, abilities and cost):
draft picks (R7.2) keep at most three incantations, the constructed ten
(R7.3) are the ten best, bans remove the opponent's best card, and creatures
destroyed together return best first (R4.6).

Everything is read straight from the state with small integer computations —
no copies, no look-ahead — so a game between two greedy players costs little
more than the rules themselves.
"""

from __future__ import annotations

from itertools import combinations

from ..actions import play
from ..cards import CardSet
from ..state import SUMMON, GameState
from ..vocab import (
    BEHIND,
    BLOODLUST,
    FRONT,
    INDESTRUCTIBLE,
    KEEP,
    PIERCE,
    PROTECTION,
    RAGE,
    SIDE,
    SPLASH,
    SPRINT,
    Effect,
    TargetSide,
)
from .base import Policy

_ABILITY_VALUE = {
    SPLASH: 1.5,
    PIERCE: 1.0,
    RAGE: 1.0,
    PROTECTION: 1.5,
    INDESTRUCTIBLE: 3.0,
    BLOODLUST: 1.5,
    SPRINT: 1.0,
}
_EFFECT_VALUE = {
    Effect.DAMAGE: 1.2,  # per point
    Effect.DESTROY: 6.0,
    Effect.BOUNCE: 4.5,
    Effect.SHIFT: 3.5,
    Effect.WEAKEN: 0.3,  # per point
    Effect.EMPOWER: 1.0,  # per point
    Effect.GRANT: 3.0,
    Effect.HEAL: 0.5,
}


class Tables:
    """Per-card numbers the greedy player reads (computed once per card set)."""

    __slots__ = (
        "cards",
        "value",
        "names",
        "cost",
        "is_creature",
        "attack",
        "health",
        "effect",
        "amount",
        "grant",
        "enemy_side",
    )

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.names = cards.names
        self.cost = cards.cost
        self.is_creature = cards.is_creature
        self.attack = cards.attack
        self.health = cards.health
        self.effect = cards.effect
        self.amount = cards.amount
        self.grant = cards.grant_mask
        self.enemy_side = tuple(t is not TargetSide.ALLY for t in cards.target)
        self.value = tuple(card_value(cards, i) for i in range(len(cards)))


def card_value(cards: CardSet, card: int) -> float:
    """A card's worth for picks and bans: stats and abilities for the price."""
    if cards.is_creature[card]:
        v = cards.attack[card] * 1.0 + cards.health[card] * 0.6
        mask = cards.mask[card]
        for bit, extra in _ABILITY_VALUE.items():
            if mask & bit:
                v += extra
        dirs = cards.aura_dirs[card]
        if dirs:
            v += 1.0 * bin(dirs).count("1")
        return v - 0.55 * cards.cost[card]
    effect = cards.effect[card]
    v = _EFFECT_VALUE.get(effect, 1.0)
    if effect in (Effect.DAMAGE, Effect.WEAKEN, Effect.EMPOWER):
        v *= cards.amount[card]
    return v - 0.55 * cards.cost[card]


class GreedyPolicy(Policy):
    """The documented heuristic of this module (no randomness at all)."""

    name = "greedy"

    #: Hand-health below which a play right of the keep must be really needed.
    low_health = 3

    def __init__(self) -> None:
        self._tables: Tables | None = None

    def tables(self, cards: CardSet) -> Tables:
        t = self._tables
        if t is None or t.cards is not cards:
            t = self._tables = Tables(cards)
        return t

    # --- Decisions in a turn -------------------------------------------------------

    def choose(self, state: GameState, legal):
        if state.phase == SUMMON:
            action = self.summon(state)
            if action is not None:
                return action
            if not state.rules.incantations_in_siege:
                action = self.cast(state, final=True)
                if action is not None:
                    return action
            return legal[-1]
        action = self.cast(state, final=False)
        return action if action is not None else legal[-1]

    def summon(self, state: GameState):
        """R3.3–R3.5: the next creature to play, or ``None`` to begin the siege."""
        player = state.active
        hand = state.hands[player]
        n = len(hand)
        if n <= 2:  # R3.4
            return None
        t = self.tables(state.cards)
        cost, is_creature, value = t.cost, t.is_creature, t.value
        mana = state.mana
        keep_at = hand.index(KEEP)
        health = n - 1 - keep_at
        # The playable creatures (R3.2) it can afford, with what they cost in hand-health.
        options = []
        seen = 0
        spare = False  # an incantation in the window: keep its price for the siege
        for i in range(n):
            card = hand[i]
            if card == KEEP:
                continue
            seen += 1
            if seen > 4:
                break
            if not is_creature[card]:
                spare = True
                continue
            if cost[card] > mana:
                continue
            if i > keep_at:
                if health <= 1:  # R3.8: this play would destroy our own keep
                    continue
                worth = value[card] + 1.5 - (1.0 if health > self.low_health else 3.0)
            else:
                worth = value[card] + 1.5
            options.append((worth, i, card))
        if not options:
            return None
        mine = state.lanes[player]
        theirs = state.lanes[1 - player]
        # Guard the keep: enemy attack in a lane against what my creatures there can absorb.
        attack = t.attack
        threat0 = threat1 = 0
        for c in theirs[0]:
            threat0 += c.attack
        for c in theirs[1]:
            threat1 += c.attack
        hold0 = hold1 = 0
        for c in mine[0]:
            hold0 += c.health
        for c in mine[1]:
            hold1 += c.health
        gap0 = threat0 - hold0
        gap1 = threat1 - hold1
        urgent = gap0 > 0 or gap1 > 0
        reserve = self.reserve(state, t, hand, keep_at) if spare else 0
        budget = mana - reserve
        # Use the mana: the best set of playable creatures it can pay for.
        pick = None
        if urgent:
            # A blocker before anything else, even out of the reserve.
            pick = max(options, key=lambda o: t.health[o[2]] + 0.1 * o[0])
        else:
            best = 0.0
            for size in range(len(options), 0, -1):
                for combo in combinations(options, size):
                    total = 0
                    worth = 0.0
                    for o in combo:
                        total += cost[o[2]]
                        worth += o[0]
                    if total <= budget and worth > best:
                        best = worth
                        pick = max(combo)
            if pick is None:
                return None
        worth, index, card = pick
        if worth <= 0 and not urgent:
            return None
        lane = self.lane_for(state, t, card, mine, theirs, gap0, gap1)
        return play(t.names[card], index, lane)

    def lane_for(self, state, t: Tables, card: int, mine, theirs, gap0: int, gap1: int) -> int:
        """R3.5: the lane where this creature blocks most, presses an open lane, or kills at once."""
        cards = state.cards
        mask = cards.mask[card]
        dirs = cards.aura_dirs[card]
        best_lane = 0
        best = None
        for lane in (0, 1):
            my, th = mine[lane], theirs[lane]
            gap = gap0 if lane == 0 else gap1
            score = 0.0
            if gap > 0:  # blocks damage that would reach the keep
                score += 2.0 * min(gap, t.health[card]) + 2.0
            if not th:
                score += t.attack[card] * 1.2  # the keep next turn
            else:
                front = th[0]
                if mask & RAGE and t.attack[card] >= front.health - front.damage:
                    score += 2.0 + front.attack
            # Aura: a neighbour gets it (R6.8).
            if dirs:
                if dirs & FRONT and my:
                    score += 1.0
                if dirs & SIDE and len(mine[1 - lane]) > len(my):
                    score += 1.0
                if dirs & BEHIND and len(my) == 0:
                    score += 0.5
            if my:
                back = my[-1]
                if back.aura_dirs & BEHIND:
                    score += 1.0
            other = mine[1 - lane]
            if len(other) > len(my) and other[len(my)].aura_dirs & SIDE:
                score += 1.0
            score -= 0.3 * len(my)
            if best is None or score > best:
                best, best_lane = score, lane
        return best_lane

    def reserve(self, state: GameState, t: Tables, hand, keep_at: int) -> int:
        """Mana kept for the cheapest playable incantation that has a use this turn."""
        player = state.active
        theirs = state.lanes[1 - player]
        mine = state.lanes[player]
        enemies = len(theirs[0]) + len(theirs[1])
        attackers = 0
        for side in mine:
            for c in side:
                if not c.new:
                    attackers += 1
        best = None
        seen = 0
        for i in range(len(hand)):
            card = hand[i]
            if card == KEEP:
                continue
            seen += 1
            if seen > 4:
                break
            if t.is_creature[card]:
                continue
            effect = t.effect[card]
            if effect is Effect.WEAKEN or effect is Effect.HEAL:
                continue
            useful = enemies if t.enemy_side[card] else attackers
            if effect is Effect.SHIFT:
                useful = enemies and attackers
            if useful and (best is None or t.cost[card] < best):
                best = t.cost[card]
        return best or 0

    def cast(self, state: GameState, *, final: bool):
        """R3.11: an incantation worth casting before the next attack (or at the end), else ``None``."""
        player = state.active
        hand = state.hands[player]
        t = self.tables(state.cards)
        mana = state.mana
        keep_at = hand.index(KEEP)
        from ..siege import next_in_order

        nxt = None if final else next_in_order(state)
        if nxt is None:
            final = True
        best = 0.0
        choice = None
        seen = 0
        for i in range(len(hand)):
            card = hand[i]
            if card == KEEP:
                continue
            seen += 1
            if seen > 4:
                break
            if t.is_creature[card] or t.cost[card] > mana:
                continue
            heals = i < keep_at  # R5.2: it comes back on the right, past the keep
            score, target = self.aim(state, t, card, nxt, final)
            if target is None:
                continue
            if heals:
                score += 1.5 if final else 0.5
            score -= 0.4 * t.cost[card]
            if score > best:
                best, choice = score, (i, card, target)
        if choice is None:
            return None
        i, card, target = choice
        return play(t.names[card], i, None, target)

    def aim(self, state: GameState, t: Tables, card: int, nxt, final: bool):
        """The best target of an incantation (declared side, R5.5) and what it earns now."""
        from ..abilities import abilities

        player = state.active
        enemy = 1 - player
        effect = t.effect[card]
        amount = t.amount[card]
        mine = state.lanes[player]
        theirs = state.lanes[enemy]
        best = -1.0
        target = None
        if t.enemy_side[card]:
            # Lanes where attackers of mine are still to strike this siege.
            pressing = [False, False]
            if nxt is not None:
                for lane in (nxt[0], 1):
                    for c in mine[lane]:
                        if not c.took_turn and not c.new:
                            pressing[lane] = True
            for lane in (0, 1):
                side = theirs[lane]
                for pos in range(len(side)):
                    c = side[pos]
                    mask = abilities(state, enemy, lane, pos)
                    if mask & INDESTRUCTIBLE:
                        continue  # R5.4: nothing would happen
                    opens = pos == 0 and pressing[lane]
                    alone = len(side) == 1
                    score = -1.0
                    if effect is Effect.DAMAGE:
                        if (
                            state.rules.protection == "first_damage"
                            and mask & PROTECTION
                            and not c.protection_used
                        ):
                            continue
                        if c.health - c.damage <= amount:
                            score = (
                                2.0
                                + c.attack
                                + (3.0 if opens else 0.0)
                                + (2.0 if opens and alone else 0.0)
                            )
                        elif final:
                            score = 0.0
                    elif effect is Effect.DESTROY or effect is Effect.BOUNCE:
                        score = c.attack + 0.5 * (c.health - c.damage) - 1.0
                        if opens:
                            score += 2.0 + (3.0 if alone else 0.0)
                        if not final and not opens:
                            score -= 3.0  # wait for the end of the siege
                    elif effect is Effect.SHIFT:
                        if opens and alone:
                            score = 4.0
                    elif effect is Effect.WEAKEN:
                        score = 0.0 if final else -1.0  # only matters for attacks: mine now
                    else:
                        score = 0.0 if final else -1.0
                    if score > best:
                        best, target = score, (enemy, lane, pos)
            return best, target
        # Ally effects: on the next attacker, when it helps this attack.
        if nxt is None:
            if final and (mine[0] or mine[1]):
                lane = 0 if mine[0] else 1
                return 0.0, (player, lane, 0)
            return -1.0, None
        lane, pos = nxt
        me = mine[lane][pos]
        mask = abilities(state, player, lane, pos)
        if me.new and not (mask & RAGE):
            if effect is Effect.GRANT and t.grant[card] & RAGE and theirs[lane]:
                return 2.0, (player, lane, pos)
            return -1.0, None
        damage = me.attack + me.attack_mod
        if mask & SPRINT:
            damage += pos
        th = theirs[lane]
        if not th:
            if me.new:
                return -1.0, None
            if effect is Effect.EMPOWER:
                return 1.0 * amount, (player, lane, pos)
            return -1.0, None
        front = th[0]
        left = front.health - front.damage
        shielded = (
            bool(abilities(state, enemy, lane, 0) & (PROTECTION | INDESTRUCTIBLE))
            and not front.protection_used
        )
        if effect is Effect.EMPOWER:
            if not shielded and damage < left <= damage + amount:
                return 2.0 + front.attack, (player, lane, pos)
            return -1.0, None
        if effect is Effect.GRANT:
            grant = t.grant[card]
            if mask & grant:
                return -1.0, None
            if grant & SPLASH:
                other = theirs[1 - lane]
                if other:
                    victim = other[0]
                    kill = victim.health - victim.damage <= damage
                    return (2.0 + victim.attack if kill else 0.5), (player, lane, pos)
            elif grant & PIERCE:
                if len(th) > 1:
                    victim = th[1]
                    kill = victim.health - victim.damage <= damage
                    return (2.0 + victim.attack if kill else 0.5), (player, lane, pos)
            elif grant & BLOODLUST:
                if not shielded and left <= damage:
                    return 2.0, (player, lane, pos)
            elif grant & SPRINT:
                if pos:
                    return 1.0 * pos, (player, lane, pos)
            return -1.0, None
        return -1.0, None

    # --- R4.6 and the formats ------------------------------------------------------

    def order_returns(self, state, owner, cards):
        """R4.6: the best card returns first, so it is playable again soonest."""
        value = self.tables(state.cards).value
        return sorted(cards, key=lambda c: -value[c])

    def pick(self, cards, offered, mine, rng):
        """R7.2: the best card, keeping at most three incantations in the hand."""
        t = self.tables(cards)
        spells = sum(1 for c in mine if not t.is_creature[c])
        ranked = sorted(offered, key=lambda c: -t.value[c])
        for c in ranked:
            if t.is_creature[c] or spells < 3:
                return c
        return ranked[0]

    def choose_ten(self, cards, rng):
        """R7.3: the ten best cards of the kit, at most three incantations."""
        from ..formats import kit

        t = self.tables(cards)
        chosen: list[int] = []
        spells = 0
        for c in sorted(kit(cards), key=lambda c: -t.value[c]):
            if not t.is_creature[c]:
                if spells >= 3:
                    continue
                spells += 1
            chosen.append(c)
            if len(chosen) == 10:
                break
        return chosen

    def ban(self, cards, theirs, mine, rng):
        """R7.3: remove the opponent's best card."""
        value = self.tables(cards).value
        return max(theirs, key=lambda c: value[c])
