"""Many games in the fast engine, as the reference :mod:`clashkit.simulate` records them.

:func:`play_games` plays the games of one :class:`~clashkit.simulate.Matchup`
with the given seeds and returns their :class:`~clashkit.records.GameRecords`
(turns, outcomes; no events) — the same records the reference engine makes
for the same seeds.  Two fixed decks are dealt and played in one compiled
call per batch; drafts, the constructed format and solo games are dealt by the
reference setup code and converted (:func:`clashkit.fast.from_state`).
"""

from __future__ import annotations

import sys
from array import array

import numpy as np

from .. import formats
from ..errors import OptionError
from ..game import new_game
from ..outcome import termination_of
from ..policies import get_policy
from ..records import TERMINATIONS, GameRecords
from ..rules import RULES_VERSION
from ..turn import TURN_WIDTH
from ..vocab import Mode
from .convert import capacity, from_state, policy_code, search_params
from .search import new_work
from .state import G_ERROR, G_FIRST, G_TURN, G_TURNS_LOGGED, G_WINNER, legal_rows, new_state
from .tables import card_tables, rules_array

#: Games per compiled call (their turn rows are held at once).
BATCH = 2048
_WARM: set = set()


def _compiled():
    """The compiled game functions; the first use in a fresh environment compiles them (once)."""
    from . import game

    if not _WARM:
        if not _cache_present(game):
            print("clashkit: compiling the fast engine (once, about a minute)…", file=sys.stderr, flush=True)
        _WARM.add(True)
    return game


def _cache_present(game) -> bool:
    """Whether numba's cache holds the batch function already (a later process starts from it)."""
    try:
        from pathlib import Path

        cache = Path(game.__file__).parent / "__pycache__"
        return any(cache.glob("game.play_batch-*.nbi"))
    except OSError:
        return False


class Engine:
    """What the games of one matchup share in the fast engine: tables, rules, policies, arrays."""

    def __init__(self, matchup) -> None:
        self.matchup = matchup
        cards = matchup.card_set
        self.cards = cards
        self.tables = card_tables(cards)
        self.solo = matchup.mode == Mode.SOLO
        self.rules = rules_array(matchup.rules, solo=self.solo)
        specs = (matchup.policy_a, matchup.policy_b)
        self.policies = np.array([policy_code(spec) for spec in specs], np.int64)
        self.search = search_params(specs)  # search's options per player (fast.search)
        self.labels = matchup.labels
        self.rules_text = matchup.rules.changes()
        self.game = _compiled()

    def play(self, first: int, seeds: list[int]) -> GameRecords:
        """Games ``first, first+1, …`` with these seeds."""
        m = self.matchup
        if not self.solo and m.deck_a.format != formats.DRAFT and m.deck_a.format != formats.CONSTRUCTED:
            return self._fixed(first, seeds)
        return self._dealt(first, seeds)

    # --- Two fixed decks: dealt and played compiled ------------------------------------------

    def _fixed(self, first: int, seeds: list[int]) -> GameRecords:
        m, cards = self.matchup, self.cards
        deck_a = np.array(cards.ids(m.deck_a.names), np.int64)
        deck_b = np.array(cards.ids(m.deck_b.names), np.int64)
        fmt = formats.format_of(m.deck_a, m.deck_b, mirror=m.mirror)
        names = cards.names
        sorted_a = tuple(names[c] for c in sorted(deck_a.tolist()))
        sorted_b = tuple(names[c] for c in sorted(deck_b.tolist()))
        cap = len(cards) + 2
        limit = m.rules.turn_limit
        s = new_state(cap, limit)
        legal = legal_rows(cap)
        work = new_work(cap, limit, self.search)
        records = GameRecords()
        for start in range(0, len(seeds), BATCH):
            chunk = np.array(seeds[start : start + BATCH], dtype=np.uint64)
            n = len(chunk)
            winner = np.empty(n, np.int64)
            first_player = np.empty(n, np.int64)
            turns = np.empty(n, np.int64)
            counts = np.empty(n, np.int64)
            rows = np.empty((n * limit, TURN_WIDTH), np.int16)
            k = self.game.play_batch(
                s, self.tables, self.rules, self.policies, chunk, deck_a, deck_b, legal, work,
                winner, first_player, turns, counts, rows,
            )
            if k < 0:
                raise OptionError(f"game {first + start - 1 - k}: the fast engine's arrays are too small for it")
            _add_bulk(
                records, first + start, chunk, rows[:k], counts, winner, first_player, turns,
                mode="duel", fmt=fmt, deck_a=sorted_a, deck_b=sorted_b, labels=self.labels,
                rules=self.rules_text, level=-1,
            )
        return records

    # --- Drafts, constructed, solo: the reference deals, the fast engine plays -------------

    def _dealt(self, first: int, seeds: list[int]) -> GameRecords:
        from ..solo_setup import solo_setup

        m, cards = self.matchup, self.cards
        records = GameRecords()
        legal = work = None
        s = None
        for i, seed in enumerate(seeds):
            policy_a, policy_b = get_policy(m.policy_a), get_policy(m.policy_b)
            if self.solo:
                setup = solo_setup(m.deck_a, policy_a, rules=m.rules, cards=m.cards, seed=seed, record=False)
                state, fmt = setup.state, setup.format
                deck_a = cards.sorted_names(cards.ids(setup.player_deck))
                deck_b = cards.sorted_names(cards.ids(setup.ai_cards))
            else:
                state, fmt = new_game(
                    m.deck_a, m.deck_b, policy_a, policy_b, cards=m.cards, rules=m.rules,
                    seed=seed, record=False, mirror=m.mirror,
                )
                deck_a, deck_b = cards.sorted_names(state.hands[0]), cards.sorted_names(state.hands[1])
            state.turn_log = array("h")
            cap = capacity(state)
            if s is None or s.hands.shape[1] < cap:
                s = new_state(cap, m.rules.turn_limit)
                legal = legal_rows(cap)
                work = new_work(cap, m.rules.turn_limit, self.search)
            from_state(state, out=s)
            self.game.play_from(s, self.tables, self.rules, self.policies, legal, work)
            if s.g[G_ERROR]:
                raise OptionError(f"game {first + i}: the fast engine's arrays are too small for it")
            n_rows = int(s.g[G_TURNS_LOGGED])
            _add_bulk(
                records, first + i, np.array([seed], np.uint64), s.tl[:n_rows],
                np.array([n_rows]), np.array([s.g[G_WINNER]]), np.array([s.g[G_FIRST]]),
                np.array([s.g[G_TURN]]), mode=m.mode, fmt=fmt, deck_a=deck_a, deck_b=deck_b,
                labels=self.labels, rules=self.rules_text, level=-1 if m.level is None else m.level,
            )
        return records


def _add_bulk(records, first, seeds, rows, counts, winner, first_player, turns, *, mode, fmt, deck_a, deck_b,
              labels, rules, level) -> None:
    """Append a batch's games to ``records`` at once (as :meth:`GameRecords.add` would, game by game)."""
    n = len(seeds)
    records.turns.frombytes(np.ascontiguousarray(rows, dtype=np.int16).tobytes())
    records.event_counts.extend(array("q", bytes(8 * n)))
    records.turn_counts.extend(array("q", np.asarray(counts, np.int64).tobytes()))
    records.game.extend(array("q", np.arange(first, first + n, dtype=np.int64).tobytes()))
    records.seed.extend(np.asarray(seeds, np.uint64).tolist())
    records.mode.extend([mode] * n)
    records.format.extend([fmt] * n)
    records.deck_a.extend([tuple(deck_a)] * n)
    records.deck_b.extend([tuple(deck_b)] * n)
    records.policy_a.extend([labels[0]] * n)
    records.policy_b.extend([labels[1]] * n)
    records.first_player.extend(array("b", np.asarray(first_player, np.int8).tobytes()))
    records.winner.extend(array("b", np.asarray(winner, np.int8).tobytes()))
    records.turns_played.extend(array("q", np.asarray(turns, np.int64).tobytes()))
    records.rules_version.extend(array("q", np.full(n, RULES_VERSION, np.int64).tobytes()))
    records.rules.extend([rules] * n)
    records.level.extend(array("b", np.full(n, level, np.int8).tobytes()))
    records.engine.extend(["fast"] * n)
    # The termination of each winner (-1, 0, 1), looked up once, then read for every game.
    solo = mode == Mode.SOLO
    codes = np.array([TERMINATIONS.index(termination_of(solo, w)) for w in (-1, 0, 1)], np.int8)
    records.termination.extend(array("b", codes[np.asarray(winner, np.int64) + 1].tobytes()))


def play_games(matchup, first: int, seeds: list[int]) -> GameRecords:
    """The records of games ``first …`` of ``matchup`` with these seeds, played in the fast engine."""
    return Engine(matchup).play(first, seeds)


__all__ = ["BATCH", "Engine", "play_games"]
