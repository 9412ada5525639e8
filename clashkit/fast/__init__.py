"""The fast engine: the reference engine's games, compiled with numba over flat arrays.

Its contract: **the same games as the reference engine, much faster.**  Both
engines draw every random number from the same generator (:mod:`clashkit.rng`,
:mod:`clashkit.fast.rng`), list the legal actions in the same order, and ask
the players at the same moments, so a seed gives the same game in both — the
same ``games`` and ``turns`` frames (``tests/fast`` plays both and compares).
The fast engine records no events; :func:`clashkit.replay` replays any of its
games in the reference engine to see them.

Modules mirror the reference: :mod:`~clashkit.fast.rules` (hand, lanes,
abilities, destruction, siege, incantations, solo, turn, engine),
:mod:`~clashkit.fast.greedy`, :mod:`~clashkit.fast.game` (setup, loop, batches),
:mod:`~clashkit.fast.state` and :mod:`~clashkit.fast.tables` (cards and rules
as arrays: a card file is data, never compiled in).

Policies here: ``random`` and ``greedy``.  Fixed decks (R7.1 and custom lists)
are dealt in compiled code; drafts, the constructed format and solo setups
are dealt by the reference code (the same draws) and converted with
:func:`from_state`.
"""

from __future__ import annotations

import numpy as np

from ..errors import OptionError
from ..state import Creature, GameState
from .state import (
    C_ATTACK_MOD,
    C_CARD,
    C_DAMAGE,
    C_GRANTED,
    C_LOST,
    C_LOST_COUNT,
    C_NEW,
    C_PROTECTION_USED,
    C_SLOT,
    C_SPRINT_BONUS,
    C_TOOK_TURN,
    C_UID,
    G_ACTIVE,
    G_AI_LAST_TURN,
    G_DISCARD,
    G_FIRST,
    G_FORT_A,
    G_FORT_B,
    G_MANA,
    G_MANA_GAINED,
    G_PHASE,
    G_PILE,
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
    MAX_LOST,
    FastState,
    new_state,
)

#: The policies the fast engine plays, by name, as its policy codes.
FAST_POLICIES = {"random": 0, "greedy": 1}


def policy_code(spec) -> int:
    """The fast engine's code of a policy given by name; one clear line if it has none."""
    from ..policies import Policy

    name = spec.name if isinstance(spec, Policy) else str(spec).strip().lower()
    if isinstance(spec, Policy) and type(spec).__name__ not in ("GreedyPolicy", "RandomPolicy"):
        name = f"{name} ({type(spec).__name__})"
    if name not in FAST_POLICIES:
        raise OptionError(
            f"policy {name!r} is not supported by the fast engine yet (it plays {', '.join(FAST_POLICIES)}); "
            "use engine reference"
        )
    return FAST_POLICIES[name]


def capacity(state: GameState) -> int:
    """How many cards a hand, a side of a lane or the AI pile may need to hold in this game."""
    held = sum(len(h) for h in state.hands) + len(state.pile) + len(state.discard)
    held += sum(len(side) for lanes in state.lanes for side in lanes)
    return max(len(state.cards), held) + 2


def from_state(state: GameState, *, cap: int | None = None, out: FastState | None = None) -> FastState:
    """A reference position as the fast engine's arrays: hands, lanes, piles, marks, generator.

    The players' memories (greedy's casts this turn and positions seen) start
    empty, as a fresh reference policy's do.
    """
    cap = capacity(state) if cap is None else cap
    s = out if out is not None else new_state(cap, state.rules.turn_limit)
    g = s.g
    g[:] = 0
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
    stats = state.turn_stats
    g[G_STAT_PLAYED], g[G_STAT_KEEP_DAMAGE], g[G_STAT_DESTROYED] = stats[0], stats[1], stats[2]
    g[G_STAT_HAND_SIZE], g[G_STAT_HAND_HEALTH] = stats[3], stats[4]
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
    s.rng[0] = np.uint64(state.rng.getstate())
    return s


def _creature_row(row: np.ndarray, c: Creature, uids: dict[int, int], gone: int) -> None:
    row[:] = 0
    row[C_CARD] = c.card
    row[C_DAMAGE] = c.damage
    row[C_NEW] = int(c.new)
    row[C_PROTECTION_USED] = int(c.protection_used)
    row[C_TOOK_TURN] = int(c.took_turn)
    row[C_ATTACK_MOD] = c.attack_mod
    row[C_GRANTED] = c.granted
    row[C_SPRINT_BONUS] = c.sprint_bonus
    row[C_UID] = uids[c.uid]
    row[C_SLOT] = c.slot
    lost = sorted({uids.get(u, gone) for u in c.aura_lost})
    if len(lost) > MAX_LOST:
        raise OptionError(f"the fast engine holds at most {MAX_LOST} lost Aura grants a creature (R10.4)")
    row[C_LOST_COUNT] = len(lost)
    row[C_LOST : C_LOST + len(lost)] = lost




def play_out(state: GameState, policy_a="greedy", policy_b=None) -> FastState:
    """Play a reference position to its end in the fast engine (the reference state is not changed).

    Returns the fast state at the end: ``s.g[G_WINNER]`` (-1: unfinished),
    ``s.g[G_TURN]`` and the turn rows ``s.tl[: s.g[G_TURNS_LOGGED]]`` (the
    position's own rows first, when its state kept them).
    """
    from . import game
    from .simulate import _legal_rows
    from .tables import card_tables, rules_array

    codes = np.array([policy_code(policy_a), policy_code(policy_b if policy_b is not None else policy_a)], np.int64)
    s = from_state(state)
    game.play_from(s, card_tables(state.cards), rules_array(state.rules, solo=state.solo), codes,
                   _legal_rows(s.hands.shape[1]))
    return s


def replay(games_row, *, cards=None, rules=None, record: bool = True):
    """Replay one game of a batch in the reference engine, from its seed, with its events.

    ``games_row``: one row of a games frame (a dict, or a one-row frame) of a
    simulation with fixed decks (R7.1 or custom), a draft or the constructed
    format, duel or solo; ``cards`` and ``rules`` as in that simulation
    (default: the shipped set; the rules are read from the row's ``rules``
    column).  Returns the finished :class:`~clashkit.state.GameState`
    (``state.log`` holds its events; :func:`clashkit.trace.game_frames` makes its frames).
    """
    from ..formats import new_game
    from ..game import play
    from ..rules import Rules, SoloSettings, parse_settings
    from ..simulate import _fresh
    from ..solo_setup import solo_setup

    if hasattr(games_row, "row") and hasattr(games_row, "height"):
        if games_row.height != 1:
            raise OptionError(f"replay takes one game, not {games_row.height}")
        games_row = games_row.row(0, named=True)
    row = dict(games_row)
    if rules is None:
        values = parse_settings(row.get("rules") or "", where="rules")
        solo_names = set(SoloSettings.__dataclass_fields__)
        solo = {k: v for k, v in values.items() if k in solo_names}
        rules = Rules.from_mapping({k: v for k, v in values.items() if k not in solo_names})
        if solo:
            rules = rules.replace(solo=SoloSettings.from_mapping(solo))
    policy_a, policy_b = _fresh(row["policy_a"]), _fresh(row["policy_b"] if row["mode"] == "duel" else row["policy_a"])
    seed = int(row["seed"])
    fmt = row["format"]
    if row["mode"] == "solo":
        deck = "draft" if fmt == "draft" else list(row["deck_a"])
        state = solo_setup(deck, policy_a, rules=rules, cards=cards, seed=seed, record=record).state
    else:
        deck_a = fmt if fmt in ("draft", "constructed") else list(row["deck_a"])
        deck_b = fmt if fmt in ("draft", "constructed") else list(row["deck_b"])
        if fmt not in ("draft", "constructed"):
            deck_a, deck_b = _dealt_order(cards, deck_a), _dealt_order(cards, deck_b)
        state, _ = new_game(deck_a, deck_b, policy_a, policy_b, cards=cards, rules=rules, seed=seed, record=record,
                            mirror=deck_a == deck_b)
    return play(state, policy_a, policy_b)


def _dealt_order(cards, names):
    """A fixed deck in the order it is dealt: the games frame lists it in card-set order, which is a
    starter deck's order (R7.1); a custom list replays exactly when it was given in that order."""
    return names


__all__ = ["FAST_POLICIES", "capacity", "from_state", "play_out", "policy_code", "replay"]
