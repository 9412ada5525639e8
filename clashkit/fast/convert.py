"""Between the engines: a reference position as the fast engine's arrays, the policies it plays,
and a position played out in it (the conversion search and the differential tests need)."""

from __future__ import annotations

import numpy as np

from ..base.errors import OptionError
from ..base.layout import MARKS, MAX_LOST
from ..engine.state import Creature, GameState
from ..policies.expert import ExpertPolicy
from .state import (
    COLUMN,
    ERR_EVENTS,
    G_ACTIVE,
    G_AI_LAST_TURN,
    G_DISCARD,
    G_ERROR,
    G_FIRST,
    G_FORT_A,
    G_FORT_B,
    G_MANA,
    G_MANA_GAINED,
    G_PHASE,
    G_PILE,
    G_RECORD,
    G_SIEGE_LANE,
    G_SOLO,
    G_STAT_DESTROYED,
    G_STAT_HAND_HEALTH,
    G_STAT_HAND_SIZE,
    G_STAT_KEEP_DAMAGE,
    G_STAT_PLAYED,
    G_TURN,
    G_TURNS_LOGGED,
    G_UID,
    G_WINNER,
    FastState,
    legal_rows,
    new_state,
)

#: The policies the fast engine plays, by name, as its policy codes (``fast.state.RANDOM``,
#: ``fast.state.GREEDY``, ``fast.search.SEARCH``); an expert and a deep player are search players
#: with their own options (:func:`search_params`, :mod:`clashkit.fast.expert`).
FAST_POLICIES = {"random": 0, "greedy": 1, "search": 2, "expert": 2, "deep": 2}


def _fast_policy(spec):
    """The policy ``spec`` names (:func:`clashkit.policies.get_policy`) and its name in
    :data:`FAST_POLICIES`; one clear line if the fast engine does not play it."""
    from ..policies import POLICIES, get_policy

    policy = get_policy(spec)
    name = next((key for key, cls in POLICIES.items() if type(policy) is cls), None)
    if name not in FAST_POLICIES:
        shown = f"{policy.name} ({type(policy).__name__})" if name is None else name
        raise OptionError(
            f"policy {shown!r} is not supported by the fast engine yet (it plays {', '.join(FAST_POLICIES)}); "
            "use engine reference"
        )
    return policy, name


def policy_code(spec) -> int:
    """The fast engine's code of a policy given by name (``greedy``, ``search:budget=4``) or as
    one of the shipped classes; one clear line if it has none."""
    return FAST_POLICIES[_fast_policy(spec)[1]]


def search_params(specs) -> np.ndarray:
    """Each player's search options (``fast.search.S_*``: budget, horizon, noise, fair, expert, deep,
    plain leaf, then expert's weights; for ``deep``, its model's options after them from ``S_MODEL``),
    zeros for a player that does not search."""
    from .search import S_MODEL, S_ROW

    out = np.zeros((len(specs), S_ROW), np.float64)
    for i, spec in enumerate(specs):
        policy, name = _fast_policy(spec)
        out[i, :S_MODEL] = _options(policy, name)
        if name == "deep":
            model = policy.opponent()
            out[i, S_MODEL:] = _options(model, "expert" if isinstance(model, ExpertPolicy) else "greedy")
    return out


def _options(policy, name: str) -> np.ndarray:
    """One policy's row of ``S_*`` options (zeros for one that does not search)."""
    from .search import S_WEIGHTS, S_WIDTH

    row = np.zeros(S_WIDTH, np.float64)
    if name in ("search", "expert", "deep"):
        deep = name == "deep"
        plain = deep and policy.leaf == "plain"
        expert = name == "expert"
        row[:S_WEIGHTS] = (policy.budget, policy.horizon, policy.noise, policy.fair, expert, deep, plain)
    if name in ("expert", "deep"):
        row[S_WEIGHTS:] = policy.weights
    return row


def capacity(state: GameState) -> int:
    """How many cards a hand, a side of a lane or the AI pile may need to hold in this game."""
    held = sum(len(h) for h in state.hands) + len(state.pile) + len(state.discard)
    held += sum(len(side) for lanes in state.lanes for side in lanes)
    return max(len(state.cards), held) + 2


def from_state(state: GameState, *, cap: int | None = None, out: FastState | None = None, events: int = 0) -> FastState:
    """A reference position as the fast engine's arrays: hands, lanes, piles, marks, generator.

    The players' memories (greedy's casts this turn and positions seen) start
    empty, as a fresh reference policy's do.  ``events``: room for that many event rows, and
    the game records its events from here on (``s.ev``; none without).
    """
    cap = capacity(state) if cap is None else cap
    s = out if out is not None else new_state(cap, state.rules.turn_limit, events)
    g = s.g
    g[:] = 0
    g[G_RECORD] = int(events > 0)
    g[G_ACTIVE] = state.active
    g[G_TURN] = state.turn
    g[G_PHASE] = state.phase
    g[G_MANA] = state.mana
    g[G_MANA_GAINED] = state.mana_gained
    g[G_SIEGE_LANE] = state.siege_lane
    g[G_WINNER] = -1 if state.winner is None else state.winner
    g[G_FORT_A], g[G_FORT_B] = int(state.forts[0]), int(state.forts[1])
    g[G_AI_LAST_TURN] = state.ai_last_turn
    g[G_FIRST] = state.first_player
    counters = state.counters
    g[G_STAT_PLAYED], g[G_STAT_KEEP_DAMAGE] = counters.cards_played, counters.keep_damage
    g[G_STAT_DESTROYED] = counters.creatures_destroyed
    g[G_STAT_HAND_SIZE], g[G_STAT_HAND_HEALTH] = counters.hand_size_start, counters.hand_health_start
    g[G_SOLO] = int(state.solo)
    for p in (0, 1):
        hand = state.hands[p]
        s.hlen[p] = len(hand)
        s.hands[p, : len(hand)] = hand
    g[G_PILE] = len(state.pile)
    s.pile[: len(state.pile)] = state.pile
    g[G_DISCARD] = len(state.discard)
    s.discard[: len(state.discard)] = state.discard
    # Creatures: the reference's uids (identities) become small numbers of this game.
    uids: dict[int, int] = {}
    for p in (0, 1):
        for lane in (0, 1):
            for c in state.lanes[p][lane]:
                uids[c.uid] = len(uids)
    gone = len(uids)  # holders no longer in play: an id no creature will have
    for p in (0, 1):
        for lane in (0, 1):
            side = state.lanes[p][lane]
            s.ln[p, lane] = len(side)
            for pos, c in enumerate(side):
                _creature_row(s.cr[p, lane, pos], c, uids, gone + 1)
    g[G_UID] = gone + 2
    if state.turn_log is not None:
        rows = np.frombuffer(state.turn_log, dtype=np.int16).reshape(-1, s.tl.shape[1])
        s.tl[: len(rows)] = rows
        g[G_TURNS_LOGGED] = len(rows)
    else:
        g[G_TURNS_LOGGED] = state.turn - 1
    s.pol[:] = 0
    s.sight[:] = 0
    s.rng[0] = np.uint64(state.rng.getstate())
    return s


def _creature_row(row: np.ndarray, c: Creature, uids: dict[int, int], gone: int) -> None:
    """``c`` as its row, mark by mark (``clashkit.base.layout.MARKS``): its uid and the holders of
    the Aura grants it lost as this game's small numbers (``gone``: a holder no longer in play)."""
    for mark in MARKS:
        at = COLUMN[mark.name]
        if mark.name == "uid":
            row[at] = uids[c.uid]
        elif mark.kind == "list":
            lost = sorted({uids.get(u, gone) for u in c.aura_lost})
            if len(lost) > MAX_LOST:
                raise OptionError(f"the fast engine holds at most {MAX_LOST} lost Aura grants a creature (R10.4)")
            row[at : at + mark.width] = 0
            row[at] = len(lost)
            row[at + 1 : at + 1 + len(lost)] = lost
        else:
            row[at] = int(getattr(c, mark.name))


def creature_from_row(cards, row: np.ndarray, uid) -> Creature:
    """The way back from :func:`_creature_row`: a reference creature, mark by mark
    (``clashkit.base.layout.MARKS``); ``uid`` maps this game's small numbers to reference
    identities (the creature's own and the Aura holders')."""
    creature = Creature(cards, int(row[COLUMN["card"]]))
    for mark in MARKS:
        at = COLUMN[mark.name]
        if mark.name == "card":
            continue
        if mark.name == "uid":
            creature.uid = uid(int(row[at]))
        elif mark.kind == "list":
            creature.aura_lost = tuple(uid(int(u)) for u in row[at + 1 : at + 1 + row[at]])
        elif mark.kind == "flag":
            setattr(creature, mark.name, bool(row[at]))
        else:
            setattr(creature, mark.name, int(row[at]))
    return creature


def play_out(state: GameState, policy_a="greedy", policy_b=None, *, events: bool = False) -> FastState:
    """Play a reference position to its end in the fast engine (the reference state is not changed).

    Returns the fast state at the end: ``s.g[G_WINNER]`` (-1: unfinished),
    ``s.g[G_TURN]`` and the turn rows ``s.tl[: s.g[G_TURNS_LOGGED]]`` (the
    position's own rows first, when its state kept them); with ``events``, the
    events from the position on, ``s.ev[: s.g[G_EVENTS]]`` (``clashkit.engine.events.FIELDS``).
    """
    from . import game
    from .search import new_work
    from .tables import card_tables, rules_array

    specs = (policy_a, policy_b if policy_b is not None else policy_a)
    codes = np.array([policy_code(spec) for spec in specs], np.int64)
    rows = 1 << 12 if events else 0
    tables, rules = card_tables(state.cards), rules_array(state.rules, solo=state.solo)
    while True:
        s = from_state(state, events=rows)
        cap = s.hands.shape[1]
        work = new_work(cap, state.rules.turn_limit, search_params(specs))
        game.play(s, tables, rules, codes, legal_rows(cap), work)
        if s.g[G_ERROR] != ERR_EVENTS:
            return s
        rows *= 2  # the events needed more room: the same game again


__all__ = ["FAST_POLICIES", "capacity", "creature_from_row", "from_state", "play_out", "policy_code", "search_params"]
