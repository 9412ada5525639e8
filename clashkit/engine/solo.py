"""Solo mode's AI (R8.2–R8.8): its mana, its reveals, its pile as its life.

The AI has no hand.  Its life is the AI pile (top first, keep last in
``state.pile``): damage mills cards from the top to the AI discard (R8.6);
when the Bastion is left alone it flips and the discard is reshuffled into a
new pile on top of the Fort (R8.7); when the Fort is alone the AI plays one
more turn, its last.  The AI is always player ``1`` (B).
"""

from __future__ import annotations

from ..base.vocab import TargetSide
from . import events as ev
from .incantations import resolve
from .lanes import enter_play
from .outcome import Termination, end_game
from .state import LAST_TURN_PENDING, LAST_TURN_UNDER_WAY, NO_LAST_TURN, GameState

AI = 1
#: R8.1: the solo player's first turn gains this much mana (and, when the AI starts, the
#: player's first turn with R10.4's ``solo_player_first_mana = "six"``).
PLAYER_FIRST_MANA = 6


def ai_mana(state: GameState) -> int:
    """R8.2: a fixed amount plus a variable amount per creature the player has in play."""
    settings = state.rules.solo
    return settings.ai_fixed_mana + settings.ai_mana_per_creature * state.creatures(0)


def ai_summon(state: GameState) -> None:
    """R8.3–R8.4: reveal cards until their total cost reaches the AI's mana.

    Lanes alternate upper, lower, … for each revealed card; an incantation
    with no target counts for nothing and is discarded.  ``state.mana`` shows
    the mana not yet covered by the revealed total (floored at 0).
    """
    cards = state.cards
    mana = state.mana
    total = 0
    slot = 0
    while total < mana and len(state.pile) > 1:
        card = state.pile.pop(0)
        lane = slot & 1
        slot += 1
        if state.log is not None:
            ev.record(state, ev.AI_REVEAL, card=card, lane=lane, target_player=AI, amount=total)
        # R8.3, R8.7: a reveal that leaves the Bastion alone flips it at once, before the
        # revealed card takes effect; revealing goes on from the new pile.
        check_pile(state)
        if cards.is_creature[card]:
            enter_play(state, AI, lane, card)
            total += cards.cost[card]
        else:
            target = ai_target(state, card, lane)
            if target is not None:
                resolve(state, card, target[0], lane, target[1])
                total += cards.cost[card]
            elif state.log is not None:  # R8.4: no target, no effect
                ev.record(
                    state,
                    ev.NO_EFFECT,
                    card=card,
                    lane=lane,
                    target_player=ai_side(state, card),
                    amount=ev.NoEffect.NO_TARGET,
                )
            state.discard.append(card)
            if state.log is not None:
                ev.record(state, ev.CARD_DISCARDED, target_player=AI, target_card=card, amount=len(state.discard))
        state.mana = mana - total if total < mana else 0


def ai_target(state: GameState, card: int, lane: int) -> tuple[int, int] | None:
    """R8.4: (player, position) of the creature nearest the bridge in ``lane`` on the declared side.

    ``enemy`` and ``any`` aim at the player's creature, ``ally`` at the AI's
    own; with ``ai_incantation_side = "either"`` the other side is taken when
    the declared one is empty.
    """
    side = ai_side(state, card)
    if state.lanes[side][lane]:
        return side, 0
    if state.rules.ai_incantation_side == "either" and state.lanes[1 - side][lane]:
        return 1 - side, 0
    return None


def ai_side(state: GameState, card: int) -> int:
    """R8.4: the side the AI's incantation ``card`` is meant for: its own for ``ally``, else the player's."""
    return AI if state.cards.target[card] is TargetSide.ALLY else 0


def pile_damage(state: GameState, amount: int) -> int:
    """R8.9: the player's siege damage to the AI pile, per attack, by ``ai_pile_damage``."""
    reading = state.rules.solo.ai_pile_damage
    if reading == "minus_one":
        return amount - 1 if amount > 1 else 0
    if reading == "one":
        return 1
    return amount


def mill(state: GameState, amount: int) -> None:
    """R8.6: move ``amount`` cards from the top of the pile to the discard, never the keep."""
    pile = state.pile
    moved = 0
    while moved < amount and len(pile) > 1:
        card = pile.pop(0)
        state.discard.append(card)
        moved += 1
        if state.log is not None:
            ev.record(state, ev.AI_MILL, target_player=AI, target_card=card, amount=len(pile) - 1)
    state.counters.keep_damage += moved
    check_pile(state)


def check_pile(state: GameState) -> None:
    """R8.7: a lone Bastion flips and the discard becomes the new pile; a lone Fort means the last turn."""
    if len(state.pile) > 1:
        return
    if not state.forts[AI]:
        state.forts[AI] = True
        if state.log is not None:
            ev.record(state, ev.KEEP_FLIPPED, target_player=AI)
        new_pile = state.discard
        state.discard = []
        state.rng.shuffle(new_pile)
        state.pile = new_pile + state.pile
        if state.log is not None:
            ev.record(state, ev.AI_RESHUFFLE, target_player=AI, amount=len(new_pile))
        if len(state.pile) > 1:
            return
    if state.ai_last_turn == NO_LAST_TURN:
        current = state.active == AI and state.rules.ai_last_turn == "current"
        state.ai_last_turn = LAST_TURN_UNDER_WAY if current else LAST_TURN_PENDING
        if state.log is not None:
            ev.record(state, ev.AI_LAST_TURN, target_player=AI, amount=state.ai_last_turn)


def begin_ai_turn(state: GameState) -> None:
    """R8.7: a pending last turn is now under way."""
    if state.ai_last_turn == LAST_TURN_PENDING:
        state.ai_last_turn = LAST_TURN_UNDER_WAY
        if state.log is not None:
            ev.record(state, ev.AI_LAST_TURN, target_player=AI, amount=state.ai_last_turn)


def end_ai_turn(state: GameState) -> None:
    """R8.7: if the player has not lost by the end of the AI's last turn, the player wins."""
    if state.ai_last_turn == LAST_TURN_UNDER_WAY and state.winner is None:
        end_game(state, Termination.AI_LAST_TURN_SURVIVED, 0)
