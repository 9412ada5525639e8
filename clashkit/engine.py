"""Legal actions and applying them: the rules engine's two entry points.

``legal_actions(state)`` lists what the active player may do now, in a fixed
order: plays in hand order (creatures into upper then lower, incantations on
every creature in play, A before B, upper before lower, bridge outward), then
the one :class:`~clashkit.actions.Proceed` action.  ``apply(state, action)``
checks an action against the rules — raising
:class:`~clashkit.errors.IllegalActionError` naming the rule it breaks — and
carries it out in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .actions import (
    ATTACK,
    BEGIN_SIEGE,
    END_TURN,
    Action,
    Play,
    Proceed,
    format_place,
    parse_action,
    play,
)
from .errors import IllegalActionError
from .hand import PLAYABLE, check_keep, is_playable, return_to_hand, take_from_hand
from .incantations import resolve
from .lanes import enter_play
from .siege import begin_siege, next_in_order, take_turn
from .state import OVER, SIEGE, SUMMON, GameState
from .turn import end_turn
from .vocab import KEEP, PLAYERS


def can_cast_now(state: GameState) -> bool:
    """R3.6, R3.11: incantations in the summon phase, and in the siege unless the option forbids it."""
    return state.phase == SUMMON or (state.phase == SIEGE and state.rules.incantations_in_siege)


def proceed_action(state: GameState) -> Proceed:
    """The action that moves the turn on from here."""
    if state.phase == SUMMON:
        return BEGIN_SIEGE
    return ATTACK if next_in_order(state) is not None else END_TURN


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the active player, in the fixed order of this module's docstring."""
    if state.phase == OVER:
        return []
    player = state.active
    if state.solo and player == 1:  # R8.3: the AI's summon phase plays itself
        return [proceed_action(state)]
    cards = state.cards
    cost, is_creature, names = cards.cost, cards.is_creature, cards.names
    hand = state.hands[player]
    mana = state.mana
    summon = state.phase == SUMMON
    cast = summon or (state.phase == SIEGE and state.rules.incantations_in_siege)
    summon_creatures = summon and len(hand) > 2  # R3.4: one card besides the keep must stay
    lens = None
    out: list[Action] = []
    playable = 0
    for index, card in enumerate(hand):  # R3.2: the 4 leftmost cards, the keep skipped
        if card == KEEP:
            continue
        if cost[card] <= mana:
            if is_creature[card]:
                if summon_creatures:
                    name = names[card]
                    out += _summons_cache.get((name, index)) or _summons(name, index)
            elif cast:
                if lens is None:
                    lanes = state.lanes
                    lens = (len(lanes[0][0]), len(lanes[0][1]), len(lanes[1][0]), len(lanes[1][1]))
                if lens != _NO_CREATURES:  # R5.1: an incantation needs a creature to aim at
                    name = names[card]
                    out += _casts_cache.get((name, index, lens)) or _casts(name, index, lens)
        playable += 1
        if playable == PLAYABLE:
            break
    if summon:
        out.append(BEGIN_SIEGE)
    else:
        out.append(ATTACK if next_in_order(state) is not None else END_TURN)
    return out


def has_choice(state: GameState) -> bool:
    """Whether :func:`legal_actions` would list more than the one action that moves the turn on.

    The same test as the list's, without building it: a playable card (R3.2)
    the player can afford that is a creature in the summon phase with another
    card besides the keep left (R3.4), or an incantation when one may be cast
    and some creature is in play to aim at (R5.1).
    """
    if state.phase == OVER:
        return False
    player = state.active
    if state.solo and player == 1:  # R8.3
        return False
    cards = state.cards
    cost, is_creature = cards.cost, cards.is_creature
    hand = state.hands[player]
    mana = state.mana
    summon = state.phase == SUMMON
    summon_creatures = summon and len(hand) > 2
    cast = None
    playable = 0
    for card in hand:
        if card == KEEP:
            continue
        if cost[card] <= mana:
            if is_creature[card]:
                if summon_creatures:
                    return True
            else:
                if cast is None:
                    if summon or (state.phase == SIEGE and state.rules.incantations_in_siege):
                        lanes = state.lanes
                        cast = bool(lanes[0][0] or lanes[0][1] or lanes[1][0] or lanes[1][1])
                    else:
                        cast = False
                if cast:
                    return True
        playable += 1
        if playable == PLAYABLE:
            break
    return False


class LegalActions(Sequence):
    """:func:`legal_actions` of a state, built only when needed.

    Its last item, the action that moves the turn on, is answered without
    building the list; anything else (length, iteration, other indexes)
    builds the same list as :func:`legal_actions`, once.  Valid while the
    state does not change.
    """

    __slots__ = ("state", "_list", "found")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._list: list[Action] | None = None
        #: When the last item was answered in the siege: :func:`next_in_order` then.
        self.found: tuple[int, int] | None = None

    def materialise(self) -> list[Action]:
        found = self._list
        if found is None:
            found = self._list = legal_actions(self.state)
        return found

    def __getitem__(self, index):
        if index == -1 and self._list is None:
            state = self.state
            phase = state.phase
            if phase == SUMMON:
                return BEGIN_SIEGE
            if phase != OVER:
                found = self.found = next_in_order(state)
                return ATTACK if found is not None else END_TURN
        return self.materialise()[index]

    def __len__(self) -> int:
        return len(self.materialise())

    def __iter__(self):
        return iter(self.materialise())

    def __repr__(self) -> str:
        return repr(self.materialise())


_NO_CREATURES = (0, 0, 0, 0)
_summons_cache: dict[tuple[str, int], tuple[Play, Play]] = {}


def _summons(name: str, index: int) -> tuple[Play, Play]:
    """R3.5: the plays of one creature, into the upper then the lower lane (made once)."""
    key = (name, index)
    found = _summons_cache.get(key)
    if found is None:
        if len(_summons_cache) > 50_000:
            _summons_cache.clear()
        found = _summons_cache[key] = (play(name, index, 0), play(name, index, 1))
    return found


_casts_cache: dict[tuple, tuple[Play, ...]] = {}


def _casts(name: str, index: int, lens: tuple[int, int, int, int]) -> tuple[Play, ...]:
    """R5.1: the plays of one incantation on every creature in play, in :func:`targets` order.

    They depend only on how many creatures each side of each lane holds, so
    they are made once per (card, index, lane sizes).
    """
    key = (name, index, lens)
    found = _casts_cache.get(key)
    if found is None:
        if len(_casts_cache) > 50_000:
            _casts_cache.clear()
        sides = ((0, 0, lens[0]), (0, 1, lens[1]), (1, 0, lens[2]), (1, 1, lens[3]))
        found = _casts_cache[key] = tuple(
            play(name, index, None, (player, lane, position))
            for player, lane, size in sides
            for position in range(size)
        )
    return found


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal now."""
    if state.phase == OVER:
        raise IllegalActionError("R4.9", "the game is over")
    player = state.active
    if isinstance(action, Proceed):
        expected = proceed_action(state)
        if action is expected or action == expected:
            return
        if action == BEGIN_SIEGE:
            raise IllegalActionError("R1.6", "the siege has begun already")
        if action == ATTACK:
            if state.phase == SUMMON:
                raise IllegalActionError("R1.6", "begin the siege before attacking")
            raise IllegalActionError("R3.9", "every creature has had its turn in this siege; end the turn")
        if state.phase == SUMMON:
            raise IllegalActionError("R1.6", "the siege comes before the end of the turn")
        lane, position = next_in_order(state)
        name = state.cards.names[state.lanes[player][lane][position].card]
        raise IllegalActionError(
            "R3.9",
            f"every creature takes its turn in the siege; {name} at {format_place(player, lane, position)} has not",
        )
    if not isinstance(action, Play):
        raise TypeError(f"not an action: {action!r}")
    if state.solo and player == 1:
        raise IllegalActionError("R8.3", "the AI has no hand; its summon phase plays itself")
    cards = state.cards
    hand = state.hands[player]
    index = action.index
    if not 0 <= index < len(hand):
        raise IllegalActionError("R3.2", f"there is no card at index {index} of {PLAYERS[player]}'s hand")
    card = hand[index]
    if card == KEEP:
        raise IllegalActionError("R3.2", "the keep is never played")
    name = cards.names[card]
    if name != action.card:
        raise IllegalActionError("R3.2", f"the card at index {index} is {name}, not {action.card}")
    if not is_playable(hand, index):
        raise IllegalActionError("R3.2", f"{name} is not among the 4 leftmost cards besides the keep")
    if cards.is_creature[card]:
        if state.phase != SUMMON:
            raise IllegalActionError("R3.5", "creatures can be played only in the summon phase")
        if action.lane not in (0, 1) or action.target is not None:
            raise IllegalActionError("R3.5", f"{name} is a creature: name a lane (upper or lower)")
        if cards.cost[card] > state.mana:
            raise IllegalActionError("R3.3", f"{name} costs {cards.cost[card]} mana, only {state.mana} left")
        if len(hand) == 2:
            raise IllegalActionError("R3.4", "cannot play the last card besides the keep")
        return
    if not can_cast_now(state):
        raise IllegalActionError("R3.11", "incantations_in_siege is false: incantations only in the summon phase")
    if action.target is None:
        raise IllegalActionError("R5.1", f"{name} is an incantation: name a target creature (e.g. B.upper.0)")
    if cards.cost[card] > state.mana:
        raise IllegalActionError("R3.3", f"{name} costs {cards.cost[card]} mana, only {state.mana} left")
    if not any(state.lanes[p][lane] for p in (0, 1) for lane in (0, 1)):
        raise IllegalActionError("R5.1", "an incantation needs a creature in play to target")
    tp, tl, tpos = action.target
    if tp not in (0, 1) or tl not in (0, 1) or not 0 <= tpos < len(state.lanes[tp][tl]):
        raise IllegalActionError("R5.1", f"there is no creature at {format_place(tp, tl, tpos)}")


def apply(state: GameState, action: Action | str) -> None:
    """Check ``action`` (or its text) and carry it out, in place."""
    if isinstance(action, str):
        action = parse_action(action, state)
    check(state, action)
    apply_unchecked(state, action)


def apply_unchecked(state: GameState, action: Action) -> None:
    """Carry out an action known to be legal (taken from the legal list), without checking it."""
    if type(action) is Proceed:
        step = action.step
        if step == "attack":
            take_turn(state)
        elif step == "siege":
            begin_siege(state)
        else:
            end_turn(state)
    elif action.target is None:
        play_creature(state, action.index, action.lane)
    else:
        play_incantation(state, action.index, *action.target)


def play_creature(state: GameState, index: int, lane: int) -> None:
    """R3.3, R3.5, R3.7, R3.8: pay, take the card from the hand, enter play behind the lane."""
    player = state.active
    card = take_from_hand(state, player, index)
    state.mana -= state.cards.cost[card]
    state.turn_stats[0] += 1
    if state.log is not None:
        ev.record(state, ev.CARD_PLAYED, card=card, lane=lane, position=index, target_player=player)
    enter_play(state, player, lane, card)
    check_keep(state, player)


def play_incantation(state: GameState, index: int, player: int, lane: int, position: int) -> None:
    """R3.3, R5.1–R5.2: pay, resolve on the target, return to the rightmost place; then R3.8."""
    caster = state.active
    card = take_from_hand(state, caster, index)
    state.mana -= state.cards.cost[card]
    state.turn_stats[0] += 1
    if state.log is not None:
        target_card = state.lanes[player][lane][position].card
        ev.record(
            state, ev.CARD_PLAYED, card=card, lane=lane, position=index,
            target_player=player, target_card=target_card,
        )
    resolve(state, card, player, lane, position)
    return_to_hand(state, caster, card)
    check_keep(state, caster)


__all__ = [
    "LegalActions",
    "apply",
    "apply_unchecked",
    "can_cast_now",
    "check",
    "has_choice",
    "legal_actions",
    "proceed_action",
]
