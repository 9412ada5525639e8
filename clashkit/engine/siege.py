"""The siege phase: attack order, attacks and their abilities (R3.9, R3.10, R4.1–R4.3, R6.1–R6.3, R6.6, R6.7).

R10.4's readings of the siege live here too: ``siege_order``,
``bloodlust_trigger = "per_creature"``, ``keep_distance`` and the solo
setting ``ai_reduced_scope``.

The siege advances one *turn in the order* at a time (:func:`take_turn`), so
that incantations can be played between any two attacks (R3.11) and a siege
can be stepped through.  One turn is indivisible: a Sprint move and its hit, a
Bloodlust attack and its follow-ups all happen inside it.
"""

from __future__ import annotations

from ..base.vocab import BLOODLUST, PIERCE, RAGE, SPLASH, SPRINT
from . import events as ev
from .abilities import abilities
from .destruction import ReturnOrder, destroy, hurt
from .hand import damage_keep
from .lanes import sprint_forward
from .solo import mill, pile_damage
from .state import SIEGE, Creature, GameState


def begin_siege(state: GameState) -> None:
    """R1.6: the summon phase ends, the siege begins in the upper lane (R10.4: the fixed order is taken)."""
    open_siege(state)
    if state.log is not None:
        ev.record(state, ev.SIEGE_STARTED)


def open_siege(state: GameState) -> None:
    """The siege begins: in the upper lane, and R10.4 ``siege_order = "fixed"`` takes its order now.

    Every siege begins here, the solo AI's too (a scenario may put the AI
    straight into its siege).  The fixed order is taken before the first
    window: the active player's creatures upper lane then lower lane, each
    from the farthest to the nearest.
    """
    state.phase = SIEGE
    state.siege_lane = 0
    if state.rules.siege_order == "fixed":
        order = (creature for side in state.lanes[state.active] for creature in reversed(side))
        for slot, creature in enumerate(order):
            creature.slot = slot


def next_in_order(state: GameState) -> tuple[int, int] | None:
    """R3.9: (lane, position) of the next creature to take its turn, or ``None`` when all have.

    The farthest creature of the current lane that has not had its turn; the
    siege moves on to the lower lane only when the upper lane has none left.
    R10.4 ``siege_order = "fixed"``: the creature of the earliest slot still in
    play that has not had its turn, wherever it stands now.
    """
    sides = state.lanes[state.active]
    if state.rules.siege_order == "fixed":
        return _next_in_fixed_order(sides)
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


def _next_in_fixed_order(sides) -> tuple[int, int] | None:
    found = None
    first = None
    for lane in (0, 1):
        for position, creature in enumerate(sides[lane]):
            if creature.slot >= 0 and not creature.took_turn and (first is None or creature.slot < first):
                first, found = creature.slot, (lane, position)
    return found


def take_turn(state: GameState, found: tuple[int, int] | None = None, order_returns: ReturnOrder | None = None) -> None:
    """R3.9–R3.10: the next creature in the order takes its turn: it attacks, or cannot.

    ``found`` is :func:`next_in_order`'s answer when the caller has it already;
    ``order_returns`` answers R4.6 for the defender (see :func:`~clashkit.engine.destruction.destroy`).
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
    attack(state, player, lane, position, creature, mask, order_returns)


def attack_damage(creature: Creature, *, sprint: bool = True) -> int:
    """R4.1: attack value plus weaken/empower and Sprint's bonus, floored at 0.

    ``sprint=False`` leaves Sprint's bonus out (R10.4 ``keep_distance = "attack"``).
    """
    return damage_of(creature.attack + creature.attack_mod, creature.sprint_bonus if sprint else 0)


def coming_attack_damage(creature: Creature, mask: int, position: int, *, extra: int = 0) -> int:
    """What the creature at ``position``, with abilities ``mask``, will deal when its turn comes
    (R4.1): with Sprint (R6.7) it will pass the ``position`` creatures in front of it;
    ``extra``: attack it would gain first (an empower, R5.5)."""
    return damage_of(creature.attack + creature.attack_mod + extra, position if mask & SPRINT else 0)


def damage_of(attack: int, sprint_bonus: int) -> int:
    """R4.1, R6.7: an attack's damage, its attack with modifiers plus Sprint's bonus, floored at 0."""
    damage = attack + sprint_bonus
    return damage if damage > 0 else 0


def attack(
    state: GameState,
    player: int,
    lane: int,
    position: int,
    creature: Creature,
    mask: int | None = None,
    order_returns: ReturnOrder | None = None,
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
    reduced = state.solo and player == 0 and state.rules.solo.ai_reduced_scope == "all"
    pending = 0  # R6.6: Bloodlust attacks earned and not yet made
    while True:
        amount = attack_damage(creature)
        # R4.2: an empty opposing side means the keep is hit, and only the keep.
        if not defenders:
            if creature.new:  # R6.3, R6.6: in its entry turn it may hit only creatures
                return
            hit_keep(state, player, lane, position, creature, amount)
            return
        if reduced:  # R10.4 ai_reduced_scope = "all": R8.9's reduction on AI creatures too
            amount = pile_damage(state, amount)
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
                state,
                ev.ATTACK,
                card=creature.card,
                lane=lane,
                position=position,
                target_player=enemy,
                target_card=target.card,
                amount=amount,
            )
        hurt(state, enemy, lane, 0, amount, creature.card, attack=True, aimed=True)
        if beside is not None:
            hurt(state, enemy, 1 - lane, 0, amount, creature.card, attack=True)
        if behind is not None:
            hurt(state, enemy, lane, 1, amount, creature.card, attack=True)
        # R4.3: every creature hit whose damage reached its health, in the order hit.
        destroyed = [target] if target.damage >= target.health else []
        if beside is not None and beside.damage >= beside.health:
            destroyed.append(beside)
        if behind is not None and behind.damage >= behind.health:
            destroyed.append(behind)
        if destroyed:
            destroy(state, enemy, destroyed, order_returns)
            # R6.6 Bloodlust, read after the gaps have closed: more attacks, chaining.
            if mask & BLOODLUST:
                pending += bloodlust_earned(state.rules.bloodlust_trigger, destroyed, target)
        if not pending:
            return
        pending -= 1


def bloodlust_earned(reading: str, destroyed: list[Creature], target: Creature) -> int:
    """R6.6, R10.4: the extra attacks one attack earns by the creatures it destroyed.

    ``primary``: one if it destroyed its primary target; ``any``: one if it
    destroyed any creature; ``per_creature``: one for each creature destroyed.
    """
    if reading == "primary":
        return 1 if destroyed[0] is target else 0
    if reading == "any":
        return 1
    return len(destroyed)


def hit_keep(state: GameState, player: int, lane: int, position: int, creature: Creature, amount: int) -> None:
    """R4.2, R4.7: the attack hits the opposing keep (R8.6: in solo, the AI pile).

    R10.4 ``keep_distance = "attack"``: a keep in a hand moves by the attack
    value with its modifiers, Sprint's bonus left out; the AI pile is milled
    by the damage whatever the option.
    """
    enemy = 1 - player
    solo_pile = state.solo and enemy == 1
    if solo_pile:
        amount = pile_damage(state, amount)
    elif state.rules.keep_distance == "attack":
        amount = attack_damage(creature, sprint=False)
    if state.log is not None:
        ev.record(
            state,
            ev.ATTACK,
            card=creature.card,
            lane=lane,
            position=position,
            target_player=enemy,
            target_card=-1,
            amount=amount,
        )
    if solo_pile:
        mill(state, amount)
    else:
        damage_keep(state, enemy, amount)
