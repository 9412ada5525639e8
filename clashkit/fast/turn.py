"""The turn's frame, compiled (R2.3, R3.1, R3.12, R8.1, R8.2, R10.1, R10.4): mirrors :mod:`clashkit.engine.turn`."""

from __future__ import annotations

from ..base.limits import TURN_COUNTS
from . import events as ev
from .hand import hand_health
from .jit import compiled, step
from .siege import begin_siege
from .solo import ai_mana, ai_summon, begin_ai_turn, end_ai_turn
from .state import (
    END,
    ERR_FULL,
    G_ACTIVE,
    G_ERROR,
    G_FORT_A,
    G_MANA,
    G_MANA_GAINED,
    G_PHASE,
    G_PILE,
    G_RECORD,
    G_SOLO,
    G_STAT_DESTROYED,
    G_STAT_HAND_HEALTH,
    G_STAT_HAND_SIZE,
    G_STAT_KEEP_DAMAGE,
    G_STAT_PLAYED,
    G_TURN,
    G_TURNS_LOGGED,
    G_WINNER,
    MANA,
    OVER,
    RESET_COLUMNS,
    RESET_VALUES,
    SUMMON,
)
from .tables import (
    R_AI_FIRST,
    R_FIRST_TURN_MANA,
    R_SOLO_PLAYER_FIRST_MANA,
    R_TURN_LIMIT,
)


@compiled
def hand_counts(s, p):
    """Cards in hand, the keep included (R3.1), and hand-health; for the solo AI, its pile (R8.6)."""
    if s.g[G_SOLO] and p == 1:
        return s.g[G_PILE], s.g[G_PILE] - 1
    return s.hlen[p], hand_health(s, p)


#: The most cards played or creatures destroyed a turn row holds (``int16``; ``clashkit.base.limits.TURN_COUNTS``).
_ROW_MAX = TURN_COUNTS["cards_played"].high


@compiled
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


@compiled
def gains_first_turn_mana(s, r):
    """R2.3, R8.1: whether this turn gains the rules table's ``R_FIRST_TURN_MANA`` instead of R3.1's."""
    if s.g[G_TURN] == 1:
        return True
    return s.g[G_TURN] == 2 and s.g[G_SOLO] and r[R_AI_FIRST] and r[R_SOLO_PLAYER_FIRST_MANA]


@step
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
    if s.g[G_RECORD]:
        ev.record(s, ev.TURN_STARTED, -1, -1, -1, -1, -1, 0)
    if s.g[G_SOLO] and p == 1:
        begin_ai_turn(s)
        mana = ai_mana(s, r)
        s.g[G_MANA] = mana
        s.g[G_MANA_GAINED] = mana
        if s.g[G_RECORD]:
            ev.record(s, ev.MANA_GAINED, -1, -1, -1, -1, -1, mana)
        s.g[G_PHASE] = SUMMON
        ai_summon(s, t, r, pol_codes)
        if s.g[G_WINNER] < 0:
            begin_siege(s, r)
        return
    mana = r[R_FIRST_TURN_MANA] if gains_first_turn_mana(s, r) else s.hlen[p]
    s.g[G_MANA] = mana
    s.g[G_MANA_GAINED] = mana
    if s.g[G_RECORD]:
        ev.record(s, ev.MANA_GAINED, -1, -1, -1, -1, -1, mana)
    s.g[G_PHASE] = SUMMON


@step
def regenerate(s):
    """R3.12: damage back to 0, until-end-of-turn effects end, Protection re-armed, nothing new."""
    for p in range(2):
        for lane in range(2):
            for pos in range(s.ln[p, lane]):
                c = s.cr[p, lane, pos]
                for i in range(RESET_COLUMNS.shape[0]):  # the marks of clashkit.base.layout.RESET
                    c[RESET_COLUMNS[i]] = RESET_VALUES[i]
    s.g[G_MANA] = 0
    if s.g[G_RECORD]:
        ev.record(s, ev.REGENERATION, -1, -1, -1, -1, -1, 0)


@step
def end_turn(s, t, r, pol_codes):
    """R3.12, R8.7, R10.1: regenerate, then the other player's turn (or the end of the game)."""
    record_turn(s)
    s.g[G_PHASE] = END
    regenerate(s)
    if s.g[G_SOLO] and s.g[G_ACTIVE] == 1:
        end_ai_turn(s)
        if s.g[G_WINNER] >= 0:
            return
    if s.g[G_TURN] >= r[R_TURN_LIMIT]:  # R10.1: unfinished, never a win
        s.g[G_PHASE] = OVER
        if s.g[G_RECORD]:
            ev.record(s, ev.GAME_UNFINISHED, -1, -1, -1, -1, -1, 0)
        return
    s.g[G_TURN] += 1
    s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]
    start_turn(s, t, r, pol_codes)
