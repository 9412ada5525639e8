"""``greedy``: the heuristic a good player follows without looking ahead.

**Summon phase**, one card at a time (R3.2–R3.5).  Every playable creature it
can afford is scored in each lane, and the best goes in while its score
beats the ``stop`` threshold:

1. *Guard the keep.*  A lane where the opponent's creatures would hit harder
   next turn than my creatures there can absorb is a gap; a creature that
   fills a gap scores for every point of damage it soaks up.
2. *Front and back.*  Attacks hit the creature nearest the bridge, and a side
   attacks from the back (R3.9): the first creature in an empty lane of mine
   should be tough (it takes the hits), the ones behind it should hit hard
   (they strike first, so the front creature may finish on the keep).
3. *Press an open lane.*  A creature facing an empty side will hit the keep
   next turn; a Rage creature that can kill at once goes where it can;
   Aura holders and receivers go where the Aura reaches a neighbour (R6.8).
4. *Use the mana, protect hand-health.*  Stats per mana decide between
   cards; a card right of the keep costs 1 hand-health (R3.7) and must earn
   more the lower hand-health is; it never plays the card that would destroy
   its own keep (R3.8).  It keeps back the price of an incantation it means
   to cast in the siege.

**Siege phase**, before each attack (R3.11), it *kills what it can*: a
damage incantation that finishes an opposing creature — best the one in
front of attackers still to strike, which opens the lane for them;
``destroy``/``bounce``/``shift`` clear the way for those attackers or remove
the biggest threat at the end; ``empower``/``grant`` go on the next attacker
when they turn its hit into a kill, add a victim, or add damage to the keep.
Incantations are aimed by their declared side (R5.5): ``enemy`` effects at
the opponent's creatures, ``ally`` effects at its own.  Mana still unspent
before the end of the turn casts an incantation that sits left of the keep:
it comes back on the right, which heals 1 (R5.2).  It casts at most six a
turn: an incantation that costs nothing would otherwise come back for ever
(R5.3).

**Format choices** go by each card's *choice value*: on the card set they were
fitted on, the card values of ``data/card-values.csv`` (a meta study's, under
``expert``: how much a strong deck scores more with the card than with an
ordinary other one; :mod:`clashkit.policies.card_values`); on any other set
(an edited or random card file), a fixed formula of stats and abilities for
the cost (:func:`card_value`).  A draft pick (R7.2) takes the offered card of
highest value, keeping at most three incantations; the constructed ten (R7.3)
are *drawn* from the kit with the game's generator, each card with a weight
that grows with its value (:func:`~clashkit.policies.card_values.draw_ten`),
at most three incantations while creatures last — so the decks vary from
game to game but lean to the strong cards; a ban (R7.3) removes the
opponent's card of highest value.
Creatures destroyed together return best first by the formula (R4.6).

Everything is read straight from the state and the legal cards the game loop
hands it (:mod:`clashkit.engine.legality`), with small integer computations — no
copies, no look-ahead.  In play it draws no random number, except to leave a
loop: a position that begins one of its turns for the second time gets a
play drawn from the game's generator (R10.2).
"""

from __future__ import annotations

from typing import NamedTuple

from ..base.cards import CardSet
from ..base.vocab import (
    BEHIND,
    BLOODLUST,
    EFFECT_BOUNCE,
    EFFECT_DAMAGE,
    EFFECT_DESTROY,
    EFFECT_EMPOWER,
    EFFECT_GRANT,
    EFFECT_HEAL,
    EFFECT_SHIFT,
    EFFECT_WEAKEN,
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
    hand_health_of,
)
from ..engine.abilities import abilities
from ..engine.actions import ATTACK, BEGIN_SIEGE, END_TURN, Action, play
from ..engine.destruction import protection_cancels
from ..engine.formats import kit
from ..engine.hand import playable_indices
from ..engine.legality import legal_actions, legal_cards, summons
from ..engine.siege import coming_attack_damage, next_in_order
from ..engine.state import SUMMON, GameState
from .base import Policy
from .card_values import INCANTATIONS_KEPT, draw_ten, draw_weights, fitted_values

#: What an ability adds to a creature's worth (picks, bans, order of returns).
ABILITY_VALUE = {
    SPLASH: 1.5,
    PIERCE: 1.0,
    RAGE: 1.0,
    PROTECTION: 1.5,
    INDESTRUCTIBLE: 1.0,  # R6.5: proof against incantations, not attacks
    BLOODLUST: 1.5,
    SPRINT: 1.0,
}
#: What an incantation's effect is worth (per point for damage, weaken, empower).
EFFECT_VALUE = {
    Effect.DAMAGE: 1.2,
    Effect.DESTROY: 6.0,
    Effect.BOUNCE: 4.5,
    Effect.SHIFT: 3.5,
    Effect.WEAKEN: 0.3,
    Effect.EMPOWER: 1.0,
    Effect.GRANT: 3.0,
    Effect.HEAL: 0.5,
}
#: Mana's worth against stats.
COST_WEIGHT = 0.55


def card_value(cards: CardSet, card: int) -> float:
    """A card's worth for picks, bans and returns: stats and abilities for the cost."""
    if cards.is_creature[card]:
        v = cards.attack[card] * 1.0 + cards.health[card] * 0.6
        mask = cards.mask[card]
        for bit, extra in ABILITY_VALUE.items():
            if mask & bit:
                v += extra
        v += 1.0 * bin(cards.aura_dirs[card]).count("1")
        return v - COST_WEIGHT * cards.cost[card]
    effect = cards.effect[card]
    v = EFFECT_VALUE.get(effect, 1.0) if effect is not None else 1.0
    if effect in (EFFECT_DAMAGE, EFFECT_WEAKEN, EFFECT_EMPOWER):
        v *= cards.amount[card]
    return v - COST_WEIGHT * cards.cost[card]


class Tables:
    """The per-card numbers the greedy player reads, made once per card set.

    ``value`` is :func:`card_value`'s formula (the summon phase's worth, R4.6's order of returns);
    ``choice_value`` ranks cards for the formats' choices: the fitted values of
    ``data/card-values.csv`` where they were fitted on this very card set (``fitted``,
    :func:`~clashkit.policies.card_values.fitted_values`), else ``value``; ``draw_weight`` is
    :func:`~clashkit.policies.card_values.draw_weights` of ``choice_value``.
    """

    __slots__ = (
        "cards",
        "names",
        "cost",
        "is_creature",
        "attack",
        "health",
        "mask",
        "aura_mask",
        "aura_dirs",
        "effect",
        "amount",
        "grant",
        "enemy_side",
        "value",
        "fitted",
        "choice_value",
        "draw_weight",
        "sheets",
    )

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.names = cards.names
        self.cost = cards.cost
        self.is_creature = cards.is_creature
        self.attack = cards.attack
        self.health = cards.health
        self.mask = cards.mask
        self.aura_mask = cards.aura_mask
        self.aura_dirs = cards.aura_dirs
        self.effect = cards.effect
        self.amount = cards.amount
        self.grant = cards.grant_mask
        self.enemy_side = tuple(t is not TargetSide.ALLY for t in cards.target)
        self.value = tuple(card_value(cards, i) for i in range(len(cards)))
        fitted = fitted_values(cards)
        self.fitted = fitted is not None
        self.choice_value = fitted if fitted is not None else self.value
        self.draw_weight = draw_weights(self.choice_value)
        #: Rows a policy derives from these with its own weights, by policy and weights.
        self.sheets: dict[tuple, tuple] = {}


_TABLES: dict[int, Tables] = {}


def _best_offered(cards: CardSet, offered, mine, values) -> int:
    """The offered card of highest ``values`` (the first of equal ones), keeping at most
    ``INCANTATIONS_KEPT`` incantations in the hand while a creature is offered (R7.2, R8.1)."""
    t = tables(cards)
    incantations = sum(1 for c in mine if not t.is_creature[c])
    ranked = sorted(offered, key=lambda c: -values[c])
    for c in ranked:
        if t.is_creature[c] or incantations < INCANTATIONS_KEPT:
            return c
    return ranked[0]


def tables(cards: CardSet) -> Tables:
    """The :class:`Tables` of a card set (made once, kept for the next games)."""
    t = _TABLES.get(id(cards))
    if t is None or t.cards is not cards:
        if len(_TABLES) > 64:
            _TABLES.clear()
        t = _TABLES[id(cards)] = Tables(cards)
    return t


class SummonRow(NamedTuple):
    """What the summon phase reads of one card, made once per card set and weights.

    An incantation's row has only ``cost``: the mana greedy may keep back for it
    (0 for ``weaken`` and ``heal``, which it never keeps mana for)."""

    creature: bool
    cost: int
    attack: int = 0
    health: int = 0
    rage: int = 0
    aura_front: int = 0
    aura_side: int = 0
    worth: float = 0.0  # ``stats`` × the card's value
    as_hitter: float = 0.0  # ``hitter`` × attack: behind others, it strikes first
    as_tank: float = 0.0  # ``tank`` × health: at the front, it takes the hits
    on_open_lane: float = 0.0  # ``open_lane`` × attack: facing an empty side


class GreedyPolicy(Policy):
    """The documented heuristic of this module.

    Deterministic in play, except that it leaves a loop: a position that begins one of
    its turns a second time (from turn ``loop_watch`` on) gets a play drawn
    from the game's generator instead, since two deterministic players would
    go round the same loop until the turn limit (R10.1).  Its constructed ten
    are drawn from the game's generator too (:meth:`choose_ten`, R7.3).
    """

    name = "greedy"

    # The weights of the summon phase (see the module docstring); a subclass may set others.
    stats = 0.5  # per point of the card's worth
    hh_cost = 0.5  # a card right of the keep, hand-health above ``low_health``
    hh_cost_low = 2.0  # … at or below it
    low_health = 3
    block = 1.5  # per point of a gap the creature soaks up
    block_base = 2.0  # for filling a gap at all
    tank = 0.5  # per health point of the first creature of a lane
    hitter = 0.5  # per attack point of a creature behind others
    open_lane = 1.0  # per attack point against an empty side
    rage_kill = 3.0  # a Rage creature that kills on entry
    aura = 1.0  # an Aura given or received
    crowd = 0.3  # per creature already in the lane
    stop = -1.0  # the score a play must beat
    keep_for_incantations = 1  # keep back the price of a useful incantation
    loop_watch = 16  # the turn from which positions are remembered to break loops
    casts_per_turn = 6  # incantations cast in one turn at most
    incantation_cost = 0.4  # per mana of an incantation cast before the last window
    # What a cast earns, by the incantation's effect and what it does (:meth:`aim_enemy`, :meth:`aim_ally`).
    kill = 2.0  # a damage incantation or an empowered attack that destroys a creature (plus its attack)
    opens = 3.0  # … that destroys the creature in front of an attacker still to strike
    opens_alone = 2.0  # … and the lane is then empty: the attacker hits the keep
    remove_base = -1.0  # destroy or bounce: the victim's attack plus half its health left, less this much
    remove_opens = 2.0  # destroy or bounce before an attacker still to strike
    remove_opens_alone = 3.0  # … and the lane is then empty
    shift_opens = 4.0  # shift the lone creature in front of an attacker away
    rage_grant = 2.0  # grant Rage to a new creature facing creatures
    empower_open = 1.0  # per point of empower on an attacker facing an empty side
    bloodlust_grant = 2.0  # grant Bloodlust to an attacker that will destroy its target
    sprint_grant = 1.0  # per creature a granted Sprint passes
    victim_killed = 2.0  # a granted Splash or Pierce that destroys its victim (plus its attack)
    victim_hit = 0.5  # … that only damages it
    comes_back_final = 1.5  # R5.2: an incantation left of the keep comes back on the right (heals 1), last window
    comes_back = 0.5  # … before the last window
    nothing = -1.0  # no use: never cast

    def __init__(self) -> None:
        self._tables: Tables | None = None
        self._sheet: tuple | None = None  # :meth:`summon`'s rows of ``self._tables``
        self._game: GameState | None = None
        self._cast_state: GameState | None = None
        self._cast_turn = 0
        self._casts = 0
        self._turn = 0
        self._seen: set = set()

    def decide(self, state: GameState, cards: list[tuple[int, int]] | None = None) -> Action:
        """The play of this module's heuristic, or the action that moves the turn on.

        Asked only when there is a choice; ``cards`` are the legal cards
        (:func:`~clashkit.engine.legality.legal_cards`), read here if not given.
        """
        if cards is None:
            cards = legal_cards(state)
        if state.phase == SUMMON:
            if self.leaves_loop(state):
                legal = legal_actions(state)
                return legal[state.rng.randrange(len(legal))]
            move = self.summon(state, cards)
            if move is not None:
                index, lane = move
                return summons(state.cards.names[state.hands[state.active][index]], index)[lane]
            if not state.rules.incantations_in_siege:
                cast = self.cast(state, None, cards)
                if cast is not None:
                    return self._cast_action(state, cast)
            return BEGIN_SIEGE
        nxt = next_in_order(state)  # R3.9: the next creature to attack, None when all have
        if state.rules.incantations_in_siege:
            cast = self.cast(state, nxt, cards)
            if cast is not None:
                return self._cast_action(state, cast)
        return ATTACK if nxt is not None else END_TURN

    @staticmethod
    def _cast_action(state: GameState, cast: tuple[int, int, tuple[int, int, int]]) -> Action:
        index, card, target = cast
        return play(state.cards.names[card], index, None, target)

    def leaves_loop(self, state: GameState) -> bool:
        """Whether this summon phase begins with a play drawn from the game's generator:
        from turn ``loop_watch`` on, at the first decision of a turn whose position this
        policy has had before in this game (see :meth:`repeated`)."""
        if state.turn >= self.loop_watch and (state is not self._game or state.turn != self._turn):
            # The same position again: greedy play would go round the same loop
            # until the turn limit, so this turn starts with another play.
            return self.repeated(state)
        return False

    def repeated(self, state: GameState) -> bool:
        """Whether this turn begins in a position this policy has already had in this game."""
        if state is not self._game or state.turn < self._turn:
            self._game = state
            self._seen = set()
        self._turn = state.turn
        lanes = state.lanes
        key = (
            state.active,
            tuple(state.hands[0]),
            tuple(state.hands[1]),
            tuple([c.card for c in lanes[0][0]]),
            tuple([c.card for c in lanes[0][1]]),
            tuple([c.card for c in lanes[1][0]]),
            tuple([c.card for c in lanes[1][1]]),
            state.forts[0],
            state.forts[1],
        )
        if key in self._seen:
            return True
        self._seen.add(key)
        return False

    # --- Summon phase ------------------------------------------------------------

    def summon(self, state: GameState, cards: list[tuple[int, int]]) -> tuple[int, int] | None:
        """R3.3–R3.5: the best creature play now as (hand index, lane), or ``None`` to begin the siege;
        ``cards``: the legal cards (:func:`~clashkit.engine.legality.legal_cards`)."""
        player = state.active
        hand = state.hands[player]
        t = self._tables
        sheet = self._sheet
        if t is None or sheet is None or t.cards is not state.cards:
            t, sheet = self._load(state.cards)
        mana = state.mana
        keep_at = hand.index(KEEP)
        health = hand_health_of(hand)
        # The creatures it may play (R3.2–R3.5) …
        is_creature, cost = t.is_creature, t.cost
        playable = []
        dearest = 0  # the highest cost among them
        for i, card in cards:
            if is_creature[card] and (i < keep_at or health > 1):  # R3.8: never self-destroy
                playable.append(i)
                if cost[card] > dearest:
                    dearest = cost[card]
        if not playable:
            return None
        # … and is an incantation among the playable cards (R3.2) that it may keep mana for?
        kept_most = 0  # the highest cost of an incantation :meth:`reserve` may keep mana for
        for i in playable_indices(hand):
            card = hand[i]
            if not is_creature[card] and sheet[card].cost > kept_most:
                kept_most = sheet[card].cost
        mine = state.lanes[player]
        theirs = state.lanes[1 - player]
        # What each lane offers a newcomer, read once: (gap, mine there, crowding, open,
        # front's health left, Rage from the creature it would stand behind, Auras it would
        # receive, a free place beside it).
        aura, crowd = self.aura, self.crowd
        lanes = []
        for lane in (0, 1):
            my, th, other = mine[lane], theirs[lane], mine[1 - lane]
            # A gap: what the opposing side hits for, beyond what mine there absorbs.
            gap = 0
            for c in th:
                gap += c.attack
            for c in my:
                gap -= c.health
            size = len(my)
            received = 0.0
            rage_behind = False
            if size:
                back = my[-1]
                if back.aura_dirs & BEHIND:
                    received += aura
                    rage_behind = bool(back.aura_mask & RAGE)
            side_free = len(other) > size
            if side_free and other[size].aura_dirs & SIDE:
                received += aura
            if th:
                front = th[0]
                lanes.append(
                    (
                        lane,
                        gap,
                        size,
                        crowd * size,
                        False,
                        front.health - front.damage,
                        rage_behind,
                        received,
                        side_free,
                    )
                )
            else:
                lanes.append((lane, gap, size, crowd * size, True, 0, rage_behind, received, side_free))
        # The reserve only matters when it could put a candidate over budget, and it is
        # never more than the dearest incantation it may keep mana for.
        if kept_most and self.keep_for_incantations and dearest + kept_most > mana:
            budget = mana - self.reserve(t, hand, self.counts(state))
        else:
            budget = mana
        hh_penalty = self.hh_cost if health > self.low_health else self.hh_cost_low
        block, block_base, rage_kill = self.block, self.block_base, self.rage_kill
        best = self.stop
        choice = -1
        for i in playable:
            _, price, a, h, rage, front_aura, side_aura, base, hits, tanks, opens = sheet[hand[i]]
            if i > keep_at:
                base -= hh_penalty
            over_budget = price > budget
            for lane, gap, size, crowded, empty, front_left, rage_behind, received, side_free in lanes:
                if gap <= 0 and over_budget:
                    continue  # the reserve is broken only to fill a gap
                score = base + received
                if gap > 0:  # it soaks up damage that would reach the keep
                    score += block * (h if h < gap else gap) + block_base
                if size:  # behind others: it strikes first
                    score += hits - crowded
                    if front_aura:
                        score += aura
                else:  # the front of the lane: it takes the hits
                    score += tanks
                if empty:
                    score += opens
                elif (rage or rage_behind) and a >= front_left:
                    score += rage_kill
                if side_aura and side_free:
                    score += aura
                if score > best:
                    best, choice, choice_lane = score, i, lane
        if choice < 0:
            return None
        return choice, choice_lane

    def _load(self, cards: CardSet) -> tuple[Tables, tuple]:
        """Read the card set's :class:`Tables`, and its rows for :meth:`summon` with these weights."""
        t = self._tables = tables(cards)
        key = (type(self), self.stats, self.hitter, self.tank, self.open_lane)
        sheet = t.sheets.get(key)
        if sheet is None:
            sheet = t.sheets[key] = tuple(self._summon_row(t, card) for card in range(len(t.names)))
        self._sheet = sheet
        return t, sheet

    def _tables_for(self, state: GameState) -> Tables:
        t = self._tables
        if t is None or t.cards is not state.cards:
            t = self._load(state.cards)[0]
        return t

    def _summon_row(self, t: Tables, card: int) -> SummonRow:
        """What :meth:`summon` reads of a card with this policy's weights (:class:`SummonRow`)."""
        cost = t.cost[card]
        if not t.is_creature[card]:
            e = t.effect[card]
            return SummonRow(False, 0 if e is EFFECT_WEAKEN or e is EFFECT_HEAL else cost)
        a, h, dirs = t.attack[card], t.health[card], t.aura_dirs[card]
        return SummonRow(
            True,
            cost,
            a,
            h,
            t.mask[card] & RAGE,
            dirs & FRONT,
            dirs & SIDE,
            self.stats * t.value[card],
            self.hitter * a,
            self.tank * h,
            self.open_lane * a,
        )

    @staticmethod
    def counts(state: GameState) -> tuple[int, int]:
        """How many opposing creatures there are, and how many of mine can attack this turn."""
        player = state.active
        theirs = state.lanes[1 - player]
        attackers = 0
        for side in state.lanes[player]:
            for c in side:
                if not c.new:
                    attackers += 1
        return len(theirs[0]) + len(theirs[1]), attackers

    @staticmethod
    def reserve(t: Tables, hand, counts: tuple[int, int]) -> int:
        """Mana kept for the cheapest playable incantation that has a use this turn:
        an opposing creature for an ``enemy`` effect, an attacker of mine for an ``ally``
        one, both for ``shift``."""
        enemies, attackers = counts
        best = None
        for i in playable_indices(hand):  # R3.2
            card = hand[i]
            if t.is_creature[card]:
                continue
            effect = t.effect[card]
            if effect is EFFECT_WEAKEN or effect is EFFECT_HEAL:
                continue
            price = t.cost[card]
            if best is not None and price >= best:
                continue
            if effect is EFFECT_SHIFT:
                useful = enemies and attackers
            else:
                useful = enemies if t.enemy_side[card] else attackers
            if useful:
                best = price
        return best or 0

    # --- Incantations (R3.11) ----------------------------------------------------

    def cast(
        self, state: GameState, nxt: tuple[int, int] | None, cards: list[tuple[int, int]]
    ) -> tuple[int, int, tuple[int, int, int]] | None:
        """An incantation worth casting before the next attack — the creature at ``nxt``
        (:func:`~clashkit.engine.siege.next_in_order`) — or at the end (``nxt`` is ``None``), as (hand
        index, card, target), else ``None``; ``cards``: the legal cards.

        At most ``casts_per_turn`` a turn: an incantation comes straight back
        (R5.3), so one that costs nothing could otherwise be cast for ever.
        """
        if self._cast_state is state and self._cast_turn == state.turn:
            if self._casts >= self.casts_per_turn:
                return None
        else:
            self._cast_state, self._cast_turn, self._casts = state, state.turn, 0
        player = state.active
        hand = state.hands[player]
        t = self._tables_for(state)
        keep_at = hand.index(KEEP)
        final = nxt is None
        mine, theirs = state.lanes[player], state.lanes[1 - player]
        enemy_side, is_creature, cost = t.enemy_side, t.is_creature, t.cost
        best = 0.0
        choice = None
        for i, card in cards:  # R3.2, R3.3, R3.11, R5.1
            if is_creature[card]:
                continue
            # R5.5: aimed by its declared side.
            if enemy_side[card]:
                score, target = self.aim_enemy(state, t, card, nxt, final, mine, theirs, 1 - player)
            else:
                score, target = self.aim_ally(state, t, card, nxt, final, mine, theirs, player)
            if target is None:
                continue
            if i < keep_at:  # R5.2: it comes back on the right, past the keep
                score += self.comes_back_final if final else self.comes_back
            if not final:
                score -= self.incantation_cost * cost[card]
            if score > best:
                best, choice = score, (i, card, target)
        if choice is not None:
            self._casts += 1
        return choice

    def aim_enemy(self, state, t: Tables, card: int, nxt, final: bool, mine, theirs, enemy: int):
        effect = t.effect[card]
        amount = t.amount[card]
        weakening = not (
            effect is EFFECT_DAMAGE or effect is EFFECT_DESTROY or effect is EFFECT_BOUNCE or effect is EFFECT_SHIFT
        )
        if weakening:  # weaken and the like only matter for attacks: mine, at the end
            if final:
                if theirs[0]:
                    return 0.0, (enemy, 0, 0)
                if theirs[1]:
                    return 0.0, (enemy, 1, 0)
            return self.nothing, None
        # Before the last window, only a damage incantation looks past the front creature.
        whole_side = final or effect is EFFECT_DAMAGE
        # Lanes where attackers of mine are still to strike in this siege.
        pressing0 = pressing1 = False
        if nxt is not None:
            if nxt[0] == 0:
                for c in mine[0]:
                    if not c.took_turn and not c.new:
                        pressing0 = True
                        break
            for c in mine[1]:
                if not c.took_turn and not c.new:
                    pressing1 = True
                    break
        best = self.nothing
        target = None
        for lane in (0, 1):
            side = theirs[lane]
            pressing = pressing1 if lane else pressing0
            alone = len(side) == 1
            for pos in range(len(side) if whole_side or not side else 1):
                c = side[pos]
                opens = pos == 0 and pressing
                left = c.health - c.damage
                if effect is EFFECT_DAMAGE:
                    if left > amount:
                        if final and best < 0.0:
                            best, target = 0.0, (enemy, lane, pos)
                        continue
                    score = self.kill + c.attack
                    if opens:
                        score += self.opens + (self.opens_alone if alone else 0.0)
                elif effect is EFFECT_DESTROY or effect is EFFECT_BOUNCE:
                    score = c.attack + 0.5 * left + self.remove_base
                    if opens:
                        score += self.remove_opens + (self.remove_opens_alone if alone else 0.0)
                    elif not final:
                        continue  # wait for the end of the siege
                else:  # shift
                    if not (opens and alone):
                        continue
                    score = self.shift_opens
                if score <= best:
                    continue
                mask = abilities(state, enemy, lane, pos)
                if mask & INDESTRUCTIBLE:
                    continue  # R5.4: nothing would happen
                if (  # R6.4, R10.4: an armed Protection that cancels an incantation's damage
                    effect is EFFECT_DAMAGE
                    and mask & PROTECTION
                    and not c.protection_used
                    and protection_cancels(state.rules.protection, amount, attack=False, aimed=False)
                ):
                    continue
                best, target = score, (enemy, lane, pos)
        return best, target

    def aim_ally(self, state, t: Tables, card: int, nxt, final: bool, mine, theirs, player: int):
        effect = t.effect[card]
        amount = t.amount[card]
        if nxt is None:
            if mine[0]:
                return 0.0, (player, 0, 0)
            if mine[1]:
                return 0.0, (player, 1, 0)
            return self.nothing, None
        lane, pos = nxt
        me = mine[lane][pos]
        mask = abilities(state, player, lane, pos)
        th = theirs[lane]
        if me.new and not mask & RAGE:
            if effect is EFFECT_GRANT and t.grant[card] & RAGE and th:
                return self.rage_grant, (player, lane, pos)
            return self.nothing, None
        if not th:
            if effect is EFFECT_EMPOWER and not me.new:
                return self.empower_open * amount, (player, lane, pos)
            return self.nothing, None
        damage = coming_attack_damage(me, mask, pos)  # R4.1, R6.7
        front = th[0]
        left = front.health - front.damage
        shield = abilities(state, 1 - player, lane, 0)
        armed = bool(shield & PROTECTION) and not front.protection_used  # R6.4 (R6.5 stops incantations only)
        if effect is EFFECT_EMPOWER:
            empowered = coming_attack_damage(me, mask, pos, extra=amount)
            blocked = armed and protection_cancels(state.rules.protection, empowered, attack=True, aimed=True)
            if not blocked and damage < left <= empowered:
                return self.kill + front.attack, (player, lane, pos)
            return self.nothing, None
        if effect is not EFFECT_GRANT:
            return self.nothing, None
        blocked = armed and protection_cancels(state.rules.protection, damage, attack=True, aimed=True)
        grant = t.grant[card]
        if mask & grant:
            return self.nothing, None
        victim = None
        if grant & SPLASH:
            other = theirs[1 - lane]
            if other:
                victim = other[0]
        elif grant & PIERCE:
            if len(th) > 1:
                victim = th[1]
        elif grant & BLOODLUST:
            if not blocked and left <= damage:
                return self.bloodlust_grant, (player, lane, pos)
        elif grant & SPRINT:
            if pos:
                return self.sprint_grant * pos, (player, lane, pos)
        if victim is None:
            return self.nothing, None
        if victim.health - victim.damage <= damage:
            return self.victim_killed + victim.attack, (player, lane, pos)
        return self.victim_hit, (player, lane, pos)

    # --- R4.6 and the formats ------------------------------------------------------

    def order_returns(self, state, owner, cards):
        """R4.6: the best card returns first, so it is playable again soonest."""
        value = tables(state.cards).value
        return sorted(cards, key=lambda c: -value[c])

    def pick(self, cards, offered, mine, rng):
        """R7.2: the card of highest choice value (the first of equal ones), keeping at most
        ``INCANTATIONS_KEPT`` incantations in the hand while a creature is offered."""
        return _best_offered(cards, offered, mine, tables(cards).choice_value)

    def pick_solo(self, cards, offered, mine, rng):
        """R8.1: as :meth:`pick`, by the formula (:func:`card_value`): the fitted values measure a card
        in a duel deck (R2.1), not against the AI's pile, and R8.9's levels were calibrated so."""
        return _best_offered(cards, offered, mine, tables(cards).value)

    def choose_ten(self, cards, rng) -> list[int]:
        """R7.3: ten cards of the kit drawn by their choice values from the game's generator
        (:func:`~clashkit.policies.card_values.draw_ten`): the decks vary from game to game but
        lean to the strong cards; at most ``INCANTATIONS_KEPT`` incantations while creatures last."""
        t = tables(cards)
        return draw_ten(kit(cards), t.is_creature, t.draw_weight, rng)

    def ban(self, cards, theirs, mine, rng):
        """R7.3: remove the opponent's card of highest choice value (the first of equal ones)."""
        value = tables(cards).choice_value
        return max(theirs, key=lambda c: value[c])
