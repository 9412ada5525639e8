"""The siege phase: attack order, attacks and their abilities (R3.9, R3.10, R4.1–R4.3, R6.1–R6.3, R6.6, R6.7).

The siege advances one *turn in the order* at a time (:func:`take_turn`), so
that incantations can be played between any two attacks (R3.11) and a siege
can be stepped through.  One turn is indivisible: a Sprint move and its hit, a
Bloodlust attack and its follow-ups all happen inside it.
"""

from __future__ import annotations

from . import events as ev
from .abilities import abilities
from .destruction import destroy, hurt
from .hand import damage_keep
from .lanes import sprint_forward
from .state import SIEGE, Creature, GameState
from .vocab import BLOODLUST, PIERCE, RAGE, SPLASH, SPRINT


def begin_siege(state: GameState) -> None:
    """R1.6: the summon phase ends, the siege begins in the upper lane."""
    state.phase = SIEGE
    state.siege_lane = 0
    if state.log is not None:
        ev.record(state, ev.SIEGE_STARTED)


def next_in_order(state: GameState) -> tuple[int, int] | None:
    """R3.9: (lane, position) of the next creature to take its turn, or ``None`` when all have.

    The farthest creature of the current lane that has not had its turn; the
    siege moves on to the lower lane only when the upper lane has none left.
    """
    sides = state.lanes[state.active]
    lane = state.siege_lane
    while lane < 2:
        side = sides[lane]
        position = len(side)
        while position:
            position -= 1
            if not side[position].took_turn:
                return lane, position
        lane += 1
    return None


def take_turn(state: GameState, found: tuple[int, int] | None = None) -> None:
    """R3.9–R3.10: the next creature in the order takes its turn: it attacks, or cannot.

    ``found`` is :func:`next_in_order`'s answer when the caller has it already.
    """
    if found is None:
        found = next_in_order(state)
    if found is None:
        raise LookupError("R3.9: every creature has had its turn in this siege")
    lane, position = found
    state.siege_lane = lane
    player = state.active
    creature = state.lanes[player][lane][position]
    creature.took_turn = True
    mask = abilities(state, player, lane, position)
    # R3.10, R6.3: new creatures attack only with Rage, and then only creatures.
    if creature.new and not (mask & RAGE and state.lanes[1 - player][lane]):
        if state.log is not None:
            ev.record(state, ev.ATTACK_SKIPPED, card=creature.card, lane=lane, position=position, target_player=player)
        return
    # R6.7 Sprint: forward to position 0 first; +1 damage per creature passed.
    if mask & SPRINT:
        passed = creature.sprint_bonus = sprint_forward(state, player, lane, position)
        if passed:  # R6.8: new neighbours, so its abilities are read where it stands now
            position = 0
            mask = abilities(state, player, lane, 0)
    attack(state, player, lane, position, creature, mask)


def attack_damage(creature: Creature) -> int:
    """R4.1: attack value plus weaken/empower and Sprint's bonus, floored at 0."""
    damage = creature.attack + creature.attack_mod + creature.sprint_bonus
    return damage if damage > 0 else 0


def attack(
    state: GameState, player: int, lane: int, position: int, creature: Creature, mask: int | None = None
) -> None:
    """R4.1–R4.3 one attack, and R6.6 the Bloodlust attacks it earns.

    ``mask`` is the attacker's abilities where it stands (read now if not
    given).  It holds for the whole chain of attacks: only the defenders'
    side changes during them, and an attacker's abilities come from its own
    side (R6.8) and its own marks.
    """
    if mask is None:
        mask = abilities(state, player, lane, position)
    enemy = 1 - player
    defenders = state.lanes[enemy][lane]
    splash, pierce = mask & SPLASH, mask & PIERCE
    while True:
        amount = attack_damage(creature)
        # R4.2: an empty opposing side means the keep is hit, and only the keep.
        if not defenders:
            if creature.new:  # R6.3, R6.6: in its entry turn it may hit only creatures
                return
            hit_keep(state, player, lane, position, creature, amount)
            return
        # R4.3: fix every creature the attack hits before any damage lands.
        target = defenders[0]
        beside = behind = None
        if splash:  # R6.1: same position, opposing side of the other lane
            other = state.lanes[enemy][1 - lane]
            if other:
                beside = other[0]
        if pierce and len(defenders) > 1:  # R6.2: directly behind the target
            behind = defenders[1]
        if state.log is not None:
            ev.record(
                state, ev.ATTACK, card=creature.card, lane=lane, position=position,
                target_player=enemy, target_card=target.card, amount=amount,
            )
        hurt(state, enemy, lane, 0, amount, creature.card, aimed=True)
        if beside is not None:
            hurt(state, enemy, 1 - lane, 0, amount, creature.card, aimed=False)
        if behind is not None:
            hurt(state, enemy, lane, 1, amount, creature.card, aimed=False)
        # R4.3: every creature hit whose damage reached its health, in the order hit.
        destroyed = [target] if target.damage >= target.health else []
        if beside is not None and beside.damage >= beside.health:
            destroyed.append(beside)
        if behind is not None and behind.damage >= behind.health:
            destroyed.append(behind)
        if not destroyed:
            return
        destroy(state, enemy, destroyed)
        # R6.6 Bloodlust, read after the gaps have closed: one more attack, chaining.
        if state.rules.bloodlust_trigger == "primary":
            earned = destroyed[0] is target
        else:
            earned = True
        if not (earned and mask & BLOODLUST):
            return


def hit_keep(state: GameState, player: int, lane: int, position: int, creature: Creature, amount: int) -> None:
    """R4.2, R4.7: the attack hits the opposing keep (R8.6: in solo, the AI pile)."""
    enemy = 1 - player
    if state.solo and enemy == 1:
        from .solo import pile_damage

        amount = pile_damage(state, amount)
    if state.log is not None:
        ev.record(
            state, ev.ATTACK, card=creature.card, lane=lane, position=position,
            target_player=enemy, target_card=-1, amount=amount,
        )
    if state.solo and enemy == 1:
        from .solo import mill

        mill(state, amount)
    else:
        damage_keep(state, enemy, amount)
