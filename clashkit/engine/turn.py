"""The turn's frame: the mana phase and the end of turn (R2.3, R3.1, R3.12, R8.1, R8.2, R10.1, R10.4).

:func:`start_turn` gives the active player their mana and opens the summon
phase — for the solo AI it also plays the AI's whole summon phase (R8.3) and
opens its siege, since the AI makes no choices.  :func:`end_turn`
regenerates every creature and hands the turn over, or ends the game at the
turn limit.
"""

from __future__ import annotations

import struct

from ..base.rules import Rules
from . import events as ev
from .outcome import Termination, end_game
from .siege import begin_siege
from .solo import PLAYER_FIRST_MANA, ai_mana, ai_summon, begin_ai_turn, end_ai_turn
from .state import END, MANA, SUMMON, GameState, TurnCounters

#: The integer columns of one row of ``state.turn_log`` (the turns frame).
TURN_FIELDS = (
    "turn",
    "player",
    "mana_gained",
    "mana_spent",
    "cards_played",
    "hand_size_start",
    "hand_health_start",
    "hand_size_end",
    "hand_health_end",
    "keep_end",
    "creatures_a",
    "creatures_b",
    "keep_damage",
    "creatures_destroyed",
)
TURN_WIDTH = len(TURN_FIELDS)
#: One row as native int16 bytes, appended with ``array.frombytes`` (as event rows are).
_pack_row = struct.Struct(f"{TURN_WIDTH}h").pack


def hand_counts(state: GameState, player: int) -> tuple[int, int]:
    """Cards in hand, the keep included (R3.1), and hand-health (R1.5); for the solo AI,
    cards in its pile and those above its keep (R8.6)."""
    size = len(state.pile) if state.solo and player == 1 else len(state.hands[player])
    return size, state.hand_health(player)


def record_turn(state: GameState) -> None:
    """Close the active player's turn in ``state.turn_log`` (at its end, or when the game ends in it)."""
    if state.turn_log is None:
        return
    player = state.active
    counters = state.counters
    size, health = hand_counts(state, player)
    try:
        row = _pack_row(
            state.turn,
            player,
            state.mana_gained,
            state.mana_gained - state.mana,
            counters.cards_played,
            counters.hand_size_start,
            counters.hand_health_start,
            size,
            health,
            state.forts[player],
            len(state.lanes[0][0]) + len(state.lanes[0][1]),
            len(state.lanes[1][0]) + len(state.lanes[1][1]),
            counters.keep_damage,
            counters.creatures_destroyed,
        )
    except struct.error:
        raise OverflowError(
            f"turn {state.turn}: {counters.cards_played} cards played, {counters.creatures_destroyed} creatures "
            "destroyed: more than a turn row's 16 bits hold (clashkit.base.limits.TURN_COUNTS)"
        ) from None
    state.turn_log.frombytes(row)


def first_turn_mana(rules: Rules, *, solo: bool) -> int:
    """R2.3, R8.1: the mana of the turn that gains a fixed amount instead of R3.1's: a duel's
    ``first_turn_mana`` (R10.3), the solo player's 6 (R8.1).  The fast engine reads it from its
    rules table (``clashkit.fast.tables.rules_array``)."""
    return PLAYER_FIRST_MANA if solo else rules.first_turn_mana


def gains_first_turn_mana(state: GameState) -> bool:
    """R2.3, R8.1: whether this turn gains :func:`first_turn_mana` instead of R3.1's.

    The game's first turn does; R10.4 ``solo_player_first_mana = "six"``: so
    does the solo player's first turn when the AI started (turn 2).
    """
    if state.turn == 1:
        return True
    return state.turn == 2 and state.solo and state.rules.solo.ai_first and state.rules.solo_player_first_mana == "six"


def start_turn(state: GameState) -> None:
    """R3.1 / R8.2: the mana phase, then the summon phase opens."""
    state.phase = MANA
    player = state.active
    state.counters = TurnCounters(*hand_counts(state, player))
    if state.log is not None:
        ev.record(state, ev.TURN_STARTED)
    if state.solo and state.active == 1:
        begin_ai_turn(state)
        state.mana = state.mana_gained = ai_mana(state)
        if state.log is not None:
            ev.record(state, ev.MANA_GAINED, amount=state.mana)
        state.phase = SUMMON
        ai_summon(state)
        if state.winner is None:
            begin_siege(state)
        return
    # R2.3, R8.1: the game's first turn brings a fixed amount; every other turn R3.1.
    if gains_first_turn_mana(state):
        mana = first_turn_mana(state.rules, solo=state.solo)
    else:
        mana = len(state.hands[state.active])
    state.mana = state.mana_gained = mana
    if state.log is not None:
        ev.record(state, ev.MANA_GAINED, amount=mana)
    state.phase = SUMMON


def regenerate(state: GameState) -> None:
    """R3.12: damage back to 0, until-end-of-turn effects end, Protection re-armed, nothing new."""
    for lanes in state.lanes:
        for side in lanes:
            for creature in side:
                creature.end_turn()
    state.mana = 0
    if state.log is not None:
        ev.record(state, ev.REGENERATION)


def end_turn(state: GameState) -> None:
    """R3.12, R8.7, R10.1: regenerate, then the other player's turn (or the end of the game)."""
    record_turn(state)
    state.phase = END
    regenerate(state)
    if state.solo and state.active == 1:
        end_ai_turn(state)
        if state.winner is not None:
            return
    if state.turn >= state.rules.turn_limit:
        end_game(state, Termination.TURN_LIMIT)
        return
    state.turn += 1
    state.active = 1 - state.active
    start_turn(state)
