"""The fast engine's state: one game as a handful of flat NumPy arrays (mirrors :mod:`clashkit.engine.state`).

A :class:`FastState` holds:

- ``g``: the scalars (``G_*`` indices): active player, turn, phase, mana,
  the siege's lane, the winner, the keeps' sides, the turn's counters …
- ``hands[p, :hlen[p]]``: hand ``p`` left to right, ``KEEP`` (-1) for the keep (R1.4);
- ``cr[p, lane, pos, C_*]``: the creatures of one side of one lane from the
  bridge outward (R1.2), ``ln[p, lane]`` of them; one row of ``C_*`` fields
  per creature, as the reference :class:`~clashkit.engine.state.Creature`'s slots;
- ``pile[:g[G_PILE]]`` (top first, keep last) and ``discard[:g[G_DISCARD]]``: the solo AI's (R8.1, R8.5);
- ``rng``: the game's generator (:mod:`clashkit.fast.rng`);
- ``tl[:g[G_TURNS_LOGGED]]``: the turns frame's rows (``clashkit.engine.turn.TURN_FIELDS``);
- ``ev[:g[G_EVENTS]]``: the events frame's rows (``clashkit.engine.events.FIELDS``), written while
  ``g[G_RECORD]`` is set (:mod:`clashkit.fast.events`); a batch's games one after another;
- ``pol``, ``seen``: the greedy players' memory (casts this turn, positions seen, R10.1's loops);
- ``sight[p, card]``: the opponent's cards player ``p``'s fair search has seen in play (R1.7,
  :mod:`clashkit.policies.sight`).

The rules options and card tables are separate read-only arrays
(:mod:`clashkit.fast.tables`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..base.layout import MARKS, RESET, WIDTH, columns
from ..engine.events import WIDTH as EVENT_WIDTH
from ..engine.turn import TURN_WIDTH

# --- Scalars --------------------------------------------------------------------------
(
    G_ACTIVE,
    G_TURN,
    G_PHASE,
    G_MANA,
    G_MANA_GAINED,
    G_SIEGE_LANE,
    G_WINNER,
    G_FORT_A,
    G_FORT_B,
    G_AI_LAST_TURN,
    G_FIRST,
    G_STAT_PLAYED,
    G_STAT_KEEP_DAMAGE,
    G_STAT_DESTROYED,
    G_STAT_HAND_SIZE,
    G_STAT_HAND_HEALTH,
    G_UID,
    G_SOLO,
    G_PILE,
    G_DISCARD,
    G_TURNS_LOGGED,
    G_ERROR,
    G_RECORD,
    G_EVENTS,
) = range(24)
G_WIDTH = 24

#: Phase codes, as :data:`clashkit.engine.state.PHASES`.
SETUP, MANA, SUMMON, SIEGE, END, OVER = range(6)
NO_LAST_TURN, LAST_TURN_PENDING, LAST_TURN_UNDER_WAY = 0, 1, 2
KEEP = -1

# --- One creature in play (clashkit.engine.state.Creature) -------------------------------------
# One row of ``C_WIDTH`` columns a creature, one column a mark of ``clashkit.base.layout.MARKS`` (the
# Aura grants lost: their count, then up to ``MAX_LOST`` holders' ids).
#: Each mark's (first) column (``clashkit.base.layout.columns``).
COLUMN = columns()
C_CARD = COLUMN["card"]
C_DAMAGE = COLUMN["damage"]
C_NEW = COLUMN["new"]
C_PROTECTION_USED = COLUMN["protection_used"]
C_TOOK_TURN = COLUMN["took_turn"]
C_ATTACK_MOD = COLUMN["attack_mod"]
C_GRANTED = COLUMN["granted"]
C_SPRINT_BONUS = COLUMN["sprint_bonus"]
C_UID = COLUMN["uid"]
C_SLOT = COLUMN["slot"]
C_LOST_COUNT = COLUMN["aura_lost"]
C_LOST = C_LOST_COUNT + 1
C_WIDTH = WIDTH
#: R3.12: the columns the end of a turn resets, and their values (``layout.RESET``).
RESET_COLUMNS = np.array([COLUMN[mark.name] for mark in RESET], np.int64)
RESET_VALUES = np.array([mark.reset for mark in RESET], np.int32)
#: R3.5: a creature's row as it enters play, before its card and uid are written (``Mark.start``).
START_ROW = np.zeros(WIDTH, np.int32)
for _mark in MARKS:
    START_ROW[COLUMN[_mark.name]] = _mark.start

#: Error codes in ``g[G_ERROR]``: a position the arrays cannot hold; ``ERR_EVENTS``: the event rows
#: are full (the caller plays the game again with room for them).
ERR_FULL, ERR_LOST, ERR_EVENTS = 1, 2, 3

# --- Greedy's memory, per player (clashkit.policies.greedy) -----------------------------
P_CAST_TURN, P_CASTS, P_TURN, P_SEEN = range(4)
P_WIDTH = 4

FastState = namedtuple(
    "FastState",
    [
        "g",
        "hands",
        "hlen",
        "cr",
        "ln",
        "pile",
        "discard",
        "rng",
        "tl",
        "pol",
        "seen",
        "work",
        "moved",
        "grants",
        "sight",
        "ev",
    ],
)
#: ``work`` regions (scratch space, so that no rule step allocates): an attack's victims, greedy's playable
#: creatures, the legal cards (R3.2: at most 4 of each), a destruction's order.
W_VICTIMS, W_PLAYABLE, W_LEGAL, W_ORDER = 0, 4, 8, 12


def key_width(cap: int) -> int:
    """Greedy's position key (active, both hands, the four sides' cards, both keeps' sides)."""
    return 1 + 2 * (1 + cap) + 4 * (1 + cap) + 2


def new_state(cap: int, turn_limit: int, events: int = 0) -> FastState:
    """Empty arrays for games whose hands, lanes and piles hold at most ``cap`` cards, with room
    for ``events`` event rows (0: the games keep none)."""
    return FastState(
        np.zeros(G_WIDTH, np.int64),
        np.full((2, cap), KEEP, np.int32),
        np.zeros(2, np.int64),
        np.zeros((2, 2, cap, C_WIDTH), np.int32),
        np.zeros((2, 2), np.int64),
        np.zeros(cap, np.int32),
        np.zeros(cap, np.int32),
        np.zeros(1, np.uint64),
        np.zeros((turn_limit + 1, TURN_WIDTH), np.int16),
        np.zeros((2, P_WIDTH), np.int64),
        np.zeros((2, turn_limit + 1, key_width(cap)), np.int32),
        np.zeros(W_ORDER + cap, np.int64),
        np.zeros((2, C_WIDTH), np.int32),
        np.zeros((2, 3 * (cap + 1), 2), np.int64),
        np.zeros((2, cap), np.int8),
        np.zeros((max(events, 1), EVENT_WIDTH), np.int32),
    )


def legal_rows(cap: int) -> np.ndarray:
    """Room for the legal actions of one decision (R3.2: 4 playable cards)."""
    # Plays: each of 4 playable cards, twice (creature) or once per creature in play (incantation).
    return np.zeros((4 * max(2, 4 * cap) + 1, 5), np.int64)


#: Policy codes (R4.6's return order is the owner's policy's).
RANDOM, GREEDY = 0, 1
#: R3.2: how many cards left of the hand (the keep skipped) are playable.
PLAYABLE = 4
#: The solo AI's seat (player B, R8.1).
AI = 1
