"""What the active player may do now (R3.2–R3.6, R3.9, R3.11, R5.1): the one source of legal plays.

:func:`legal_cards` is the rule, once: the cards the active player may play
now, in hand order.  Everything else is a view on it, as a chess program's
legal-move generator is:

- :func:`legal_plays`: each of those cards with every place it may go — a
  creature into the upper then the lower lane, an incantation on every
  creature in play (A before B, upper before lower, bridge outward);
- :func:`legal_actions`: those plays, then the one
  :class:`~clashkit.engine.actions.Proceed` action that moves the turn on;
- :func:`has_choice`: whether there is any play at all, that is whether
  ``legal_actions`` lists more than one action;
- :func:`check`: membership in ``legal_actions``, and for an action that is
  not a member, the rule it breaks (:class:`~clashkit.base.errors.IllegalActionError`).

The policies' scans, the board's playable marks and the hand builder read
:func:`legal_cards` and :func:`~clashkit.engine.hand.playable_indices` too.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..base.errors import IllegalActionError
from ..base.vocab import KEEP, PLAYERS
from .actions import ATTACK, BEGIN_SIEGE, END_TURN, Action, Play, Proceed, format_place, play
from .hand import playable_indices
from .siege import next_in_order
from .state import OVER, SIEGE, SUMMON, GameState


def can_cast_now(state: GameState) -> bool:
    """R3.6, R3.11: incantations in the summon phase, and in the siege unless the option forbids it."""
    return state.phase == SUMMON or (state.phase == SIEGE and state.rules.incantations_in_siege)


def creatures_in_play(state: GameState) -> bool:
    """R5.1: whether some creature, of either player, is in play for an incantation to aim at."""
    lanes = state.lanes
    return bool(lanes[0][0] or lanes[0][1] or lanes[1][0] or lanes[1][1])


def legal_cards(state: GameState, *, first_only: bool = False) -> list[tuple[int, int]]:
    """``(hand index, card)`` of every card the active player may play now, in hand order.

    A card among the playable (R3.2) that the player can afford (R3.3): a
    creature in the summon phase (R3.5) while another card besides the keep
    would stay (R3.4); an incantation when one may be cast (R3.6, R3.11) and
    some creature is in play to aim at (R5.1).  The solo AI has no hand: its
    summon phase plays itself (R8.3).  ``first_only``: stop at the first such
    card (:func:`has_choice` asks only whether there is one).
    """
    out: list[tuple[int, int]] = []
    phase, player = state.phase, state.active
    if phase == OVER or (player == 1 and state.solo):
        return out
    cards = state.cards
    cost, is_creature = cards.cost, cards.is_creature
    hand = state.hands[player]
    mana = state.mana
    summon_creatures = phase == SUMMON and len(hand) > 2
    cast = None  # read once, when the first affordable incantation asks
    for index in playable_indices(hand):
        card = hand[index]
        if cost[card] > mana:
            continue
        if is_creature[card]:
            if not summon_creatures:
                continue
        else:
            if cast is None:
                cast = can_cast_now(state) and creatures_in_play(state)
            if not cast:
                continue
        out.append((index, card))
        if first_only:
            break
    return out


def legal_plays(state: GameState) -> Iterator[Play]:
    """Every legal :class:`~clashkit.engine.actions.Play` now: :func:`legal_cards`, each in every place."""
    names, is_creature = state.cards.names, state.cards.is_creature
    sizes = None
    for index, card in legal_cards(state):
        if is_creature[card]:
            yield from summons(names[card], index)
        else:
            if sizes is None:
                lanes = state.lanes
                sizes = (len(lanes[0][0]), len(lanes[0][1]), len(lanes[1][0]), len(lanes[1][1]))
            yield from casts(names[card], index, sizes)


def proceed_action(state: GameState) -> Proceed:
    """The action that moves the turn on from here: begin the siege, the next attack (R3.9), or end."""
    if state.phase == SUMMON:
        return BEGIN_SIEGE
    return ATTACK if next_in_order(state) is not None else END_TURN


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the active player: :func:`legal_plays`, then :func:`proceed_action`."""
    if state.phase == OVER:
        return []
    out: list[Action] = list(legal_plays(state))
    out.append(proceed_action(state))
    return out


def has_choice(state: GameState) -> bool:
    """Whether :func:`legal_actions` lists more than the one action that moves the turn on."""
    return bool(legal_cards(state, first_only=True))


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalActionError` naming the rule unless ``action`` is in :func:`legal_actions`."""
    if state.phase != OVER and action in legal_actions(state):
        return
    raise illegal(state, action)


def illegal(state: GameState, action: Action) -> IllegalActionError:
    """The rule an action outside :func:`legal_actions` breaks, and why, as the error to raise."""
    if state.phase == OVER:
        return IllegalActionError("R4.9", "the game is over")
    player = state.active
    if isinstance(action, Proceed):
        return _illegal_proceed(state, action)
    if not isinstance(action, Play):
        raise TypeError(f"not an action: {action!r}")
    if state.solo and player == 1:
        return IllegalActionError("R8.3", "the AI has no hand; its summon phase plays itself")
    cards = state.cards
    hand = state.hands[player]
    index = action.index
    if not 0 <= index < len(hand):
        return IllegalActionError("R3.2", f"there is no card at index {index} of {PLAYERS[player]}'s hand")
    card = hand[index]
    if card == KEEP:
        return IllegalActionError("R3.2", "the keep is never played")
    name = cards.names[card]
    if name != action.card:
        return IllegalActionError("R3.2", f"the card at index {index} is {name}, not {action.card}")
    if index not in playable_indices(hand):
        return IllegalActionError("R3.2", f"{name} is not among the 4 leftmost cards besides the keep")
    too_dear = IllegalActionError("R3.3", f"{name} costs {cards.cost[card]} mana, only {state.mana} left")
    if cards.is_creature[card]:
        if state.phase != SUMMON:
            return IllegalActionError("R3.5", "creatures can be played only in the summon phase")
        if action.lane not in (0, 1) or action.target is not None:
            return IllegalActionError("R3.5", f"{name} is a creature: name a lane (upper or lower)")
        if cards.cost[card] > state.mana:
            return too_dear
        return IllegalActionError("R3.4", "cannot play the last card besides the keep")
    if not can_cast_now(state):
        return IllegalActionError("R3.11", "incantations_in_siege is false: incantations only in the summon phase")
    if action.target is None:
        return IllegalActionError("R5.1", f"{name} is an incantation: name a target creature (e.g. B.upper.0)")
    if cards.cost[card] > state.mana:
        return too_dear
    if not creatures_in_play(state):
        return IllegalActionError("R5.1", "an incantation needs a creature in play to target")
    return IllegalActionError("R5.1", f"there is no creature at {format_place(*action.target)}")


def _illegal_proceed(state: GameState, action: Proceed) -> IllegalActionError:
    if action == BEGIN_SIEGE:
        return IllegalActionError("R1.6", "the siege has begun already")
    if action == ATTACK:
        if state.phase == SUMMON:
            return IllegalActionError("R1.6", "begin the siege before attacking")
        return IllegalActionError("R3.9", "every creature has had its turn in this siege; end the turn")
    if state.phase == SUMMON:
        return IllegalActionError("R1.6", "the siege comes before the end of the turn")
    player = state.active
    place = next_in_order(state)
    assert place is not None, "ending the turn is illegal here only while a creature has not had its turn"
    lane, position = place
    name = state.cards.names[state.lanes[player][lane][position].card]
    return IllegalActionError(
        "R3.9",
        f"every creature takes its turn in the siege; {name} at {format_place(player, lane, position)} has not",
    )


# --- The plays of one card, made once --------------------------------------------------------

_summons: dict[tuple[str, int], tuple[Play, Play]] = {}
_casts: dict[tuple[str, int, tuple[int, int, int, int]], tuple[Play, ...]] = {}


def summons(name: str, index: int) -> tuple[Play, Play]:
    """R3.5: the plays of one creature, into the upper then the lower lane."""
    key = (name, index)
    found = _summons.get(key)
    if found is None:
        if len(_summons) > 50_000:
            _summons.clear()
        found = _summons[key] = (play(name, index, 0), play(name, index, 1))
    return found


def casts(name: str, index: int, sizes: tuple[int, int, int, int]) -> tuple[Play, ...]:
    """R5.1: the plays of one incantation on every creature in play (A before B, upper before
    lower, bridge outward); they depend only on how many creatures each side of each lane holds."""
    key = (name, index, sizes)
    found = _casts.get(key)
    if found is None:
        if len(_casts) > 50_000:
            _casts.clear()
        sides = ((0, 0, sizes[0]), (0, 1, sizes[1]), (1, 0, sizes[2]), (1, 1, sizes[3]))
        found = _casts[key] = tuple(
            play(name, index, None, (player, lane, position))
            for player, lane, size in sides
            for position in range(size)
        )
    return found


__all__ = [
    "can_cast_now",
    "check",
    "creatures_in_play",
    "has_choice",
    "illegal",
    "legal_actions",
    "legal_cards",
    "legal_plays",
    "proceed_action",
]
