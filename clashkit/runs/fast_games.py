"""Many games in the fast engine, as the reference :mod:`clashkit.runs.simulate` records them.

:func:`play_games` plays the games of one :class:`~clashkit.runs.simulate.Matchup`
with the given seeds and returns their :class:`~clashkit.engine.records.GameRecords`
(turns, outcomes, and the events when the matchup records them) — the same
records the reference engine makes for the same seeds.  Every format is dealt and played in one compiled call
per batch: two fixed decks by :func:`clashkit.fast.game.play_batch`; drafts,
the constructed format and solo games by :func:`clashkit.fast.setup.play_dealt_batch`.
A policy whose format choices are not compiled (:func:`clashkit.fast.setup.compiled_deal`
decides) has its games dealt by the reference setup code and converted
(:func:`clashkit.fast.from_state`).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..base.errors import OptionError
from ..base.rules import RULES_VERSION
from ..base.vocab import Mode
from ..engine import formats
from ..engine.events import WIDTH
from ..engine.outcome import termination_of
from ..engine.records import TERMINATIONS, GameRecords, Setup
from ..engine.turn import TURN_WIDTH
from ..fast import search as fast_search
from ..fast.convert import capacity, from_state, policy_code, search_params
from ..fast.search import new_work, searching
from ..fast.state import (
    ERR_EVENTS,
    G_ERROR,
    G_EVENTS,
    G_FIRST,
    G_RECORD,
    G_TURN,
    G_TURNS_LOGGED,
    G_WINNER,
    FastState,
    legal_rows,
    new_state,
)
from ..fast.tables import card_tables, rules_array
from ..policies import get_policy
from .game import new_game

#: Games per compiled call (their turn rows are held at once).
BATCH = 2048
#: Event rows a compiled call holds at first (a call that fills them stops at that game, and
#: the next call goes on from it; a single game that fills them gets twice the room).
EVENT_ROWS = 1 << 17
_WARM: set = set()


def compiling_ahead() -> None:
    """Say nothing of compiling at first use: the caller compiles ahead and says so (``clashkit.runs.warm``)."""
    _WARM.update(("loop", "deal", "search"))


def _first_use(part: str, module, function: str, what: str, takes: str) -> None:
    """Say, once a process, that ``what`` compiles now when numba's cache has no ``module.function``
    yet (a fresh environment, or ``make lab`` still compiling it beside JupyterLab); nothing
    without the compiler (``NUMBA_DISABLE_JIT=1``, :data:`clashkit.fast.jit.JIT`)."""
    from ..fast.jit import JIT

    if part not in _WARM and JIT:
        if not _cache_present(module, function):
            print(f"clashkit: compiling {what} (once, {takes}; make venv does it ahead)…", file=sys.stderr, flush=True)
        _WARM.add(part)


def _compiled():
    """The compiled game functions; the first use in a fresh environment compiles them (once)."""
    from ..fast import game

    _first_use("loop", game, "play_batch", "the fast engine", "a few minutes")
    return game


def _cache_present(module, function: str = "play_batch") -> bool:
    """Whether numba's cache holds a batch function already (a later process starts from it)."""
    try:
        from pathlib import Path

        cache = Path(module.__file__).parent / "__pycache__"
        return any(cache.glob(f"{Path(module.__file__).stem}.{function}-*.nbi"))
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
        self.events = bool(matchup.record_events)
        self.game = _compiled()
        if searching(self.search):
            _first_use("search", fast_search, "choose", "the fast engine's search player", "a few minutes")

    def new_state(self, cap: int, limit: int) -> FastState:
        """A game's arrays, with room for event rows when the games record events."""
        s = new_state(cap, limit, EVENT_ROWS if self.events else 0)
        s.g[G_RECORD] = int(self.events)
        return s

    def batches(self, s: FastState, first: int, seeds: np.ndarray, limit: int, call):
        """Play ``seeds`` with ``call(s, seeds, outcomes)`` (a compiled batch) until every game is
        played; yields ``(first index, outcomes, turn rows, event rows)`` for each call's games.

        A call that finds the event rows full stops at that game (``ERR_EVENTS``); the next
        call plays it again from its seed, with twice the room if it was the call's first game.
        """
        done = 0
        n = len(seeds)
        while done < n:
            b = _outcomes(n - done, limit)
            s.g[G_EVENTS] = 0
            k, stopped = call(s, seeds[done:], b)
            if stopped is None:
                yield done, b, b.rows[:k], s.ev[: s.g[G_EVENTS]]
                return
            if s.g[G_ERROR] != ERR_EVENTS:
                raise OptionError(f"game {first + done + stopped}: the fast engine's arrays are too small for it")
            if stopped:  # the games before it are played
                part = _Outcomes(
                    b.winner[:stopped],
                    b.first[:stopped],
                    b.turns[:stopped],
                    b.counts[:stopped],
                    b.rows,
                    b.events[:stopped],
                )
                turn_rows = int(b.counts[:stopped].sum())
                yield done, part, b.rows[:turn_rows], s.ev[: int(b.events[:stopped].sum())]
                done += stopped
            else:
                s = s._replace(ev=np.zeros((2 * s.ev.shape[0], s.ev.shape[1]), np.int32))
                s.g[G_RECORD] = 1
            self._state = s

    def play(self, first: int, seeds) -> GameRecords:
        """Games ``first, first+1, …`` with these seeds (a list, or a ``uint64`` array)."""
        m = self.matchup
        if not self.solo and m.deck_a.format != formats.DRAFT and m.deck_a.format != formats.CONSTRUCTED:
            return self._fixed(first, seeds)
        return self._dealt(first, [int(seed) for seed in seeds])

    # --- Two fixed decks: dealt and played compiled ------------------------------------------

    def _fixed(self, first: int, seeds: list[int]) -> GameRecords:
        m, cards = self.matchup, self.cards
        fmt = formats.format_of(m.deck_a, m.deck_b, mirror=m.mirror)
        names = cards.names
        sorted_a, sorted_b = (tuple(names[c] for c in sorted(cards.ids(spec.names))) for spec in (m.deck_a, m.deck_b))
        records = GameRecords()
        for start, played, b, rows, events, hands in self._fixed_batches(first, seeds):
            _add_bulk(
                records,
                start,
                played,
                rows,
                b.counts,
                b.winner,
                b.first,
                b.turns,
                events=events,
                event_counts=b.events,
                mode="duel",
                fmt=fmt,
                deck_a=sorted_a,
                deck_b=sorted_b,
                hands=hands,
                labels=self.labels,
                rules=self.rules_text,
                level=-1,
            )
        return records

    def outcomes(self, seeds, decks: tuple[Sequence[int], Sequence[int]] | None = None) -> np.ndarray:
        """Who won each game of two fixed decks with these seeds, and nothing else: ``0`` (A), ``1``
        (B) or ``-1`` (unfinished, R10.1), as ``int8`` — no frames are built, for studies that
        play many short pairings (:mod:`clashkit.studies.meta`).  ``decks`` (two lists of card ids,
        each eight different cards of the set) plays other decks with the matchup's policies,
        rules and cards: the tables are built once."""
        m = self.matchup
        if self.solo or m.deck_a.format in (formats.DRAFT, formats.CONSTRUCTED):
            raise OptionError("outcomes: two fixed decks of a duel (R7.1 or custom lists) only")
        winners = np.empty(len(seeds), np.int8)
        for start, _seeds, b, _rows, _events, _hands in self._fixed_batches(0, seeds, decks):
            winners[start : start + len(b.winner)] = b.winner
        return winners

    def _fixed_batches(self, first: int, seeds, decks: tuple[Sequence[int], Sequence[int]] | None = None):
        """The compiled batches of two fixed decks (the matchup's, or ``decks``' card ids):
        ``(first game, its seeds, outcomes, turn rows, event rows, dealt hands)`` for each run of
        games played."""
        m, cards = self.matchup, self.cards
        ids = (cards.ids(m.deck_a.names), cards.ids(m.deck_b.names)) if decks is None else decks
        deck_a, deck_b = (np.array(deck, np.int64) for deck in ids)
        cap = len(cards) + 2
        limit = m.rules.turn_limit
        self._state = self.new_state(cap, limit)
        legal = legal_rows(cap)
        work = new_work(cap, limit, self.search)
        dealt: dict[str, np.ndarray] = {}

        def call(s, chunk, b):
            dealt["ab"] = np.empty((len(chunk), 2, len(deck_a)), np.int64)
            k = self.game.play_batch(
                s, self.tables, self.rules, self.policies, chunk, deck_a, deck_b, legal, work, *b, dealt["ab"]
            )
            return (k, None) if k >= 0 else (0, -1 - k)

        for start in range(0, len(seeds), BATCH):
            chunk = np.array(seeds[start : start + BATCH], dtype=np.uint64)
            for done, b, rows, events in self.batches(self._state, first + start, chunk, limit, call):
                played = len(b.winner)
                hands = (dealt["ab"][:played, 0], dealt["ab"][:played, 1])
                yield first + start + done, chunk[done : done + played], b, rows, events, hands

    # --- Drafts, constructed, solo: dealt and played compiled -----------------------------

    @cached_property
    def deal(self):
        """How this matchup's games are dealt in compiled code; ``None``: by the reference code."""
        from ..fast.setup import compiled_deal

        return compiled_deal(self.matchup)

    def _dealt(self, first: int, seeds: list[int]) -> GameRecords:
        from ..fast import setup

        deal = self.deal
        if deal is None:
            return self._dealt_by_reference(first, seeds)
        _first_use("deal", setup, "play_dealt_batch", "the fast engine's deals", "about half a minute")
        m, names = self.matchup, np.array(self.cards.names, dtype=object)
        limit = m.rules.turn_limit
        self._state = self.new_state(deal.cap, limit)
        legal = legal_rows(deal.cap)
        work = deal.work()
        search_work = new_work(deal.cap, limit, self.search)
        level = -1 if m.level is None else m.level
        shown: dict[bytes, tuple[str, ...]] = {}
        records = GameRecords()
        dealt: dict[str, np.ndarray] = {}

        def call(s, chunk, b):
            n = len(chunk)
            dealt["a"] = np.empty((n, 8), np.int64)
            dealt["b"] = np.empty((n, deal.width_b), np.int64)
            status = np.zeros(2, np.int64)
            k = setup.play_dealt_batch(
                s,
                self.tables,
                self.rules,
                self.policies,
                deal.plan,
                deal.pool,
                deal.deck_a,
                deal.deck_b,
                work,
                chunk,
                legal,
                search_work,
                *b,
                dealt["a"],
                dealt["b"],
                status,
            )
            if status[0] == setup.REFUSED:
                game = first + start + int(status[1])
                # The reference deal refuses this game's choices: let it say why.
                self._dealt_by_reference(game, [int(chunk[status[1]])])
                raise AssertionError(f"game {game}: the fast deal refused what the reference deal accepts")
            return k, (None if status[0] == setup.OK else int(status[1]))

        for start in range(0, len(seeds), BATCH):
            chunk = np.array(seeds[start : start + BATCH], dtype=np.uint64)
            for done, b, rows, events in self.batches(self._state, first + start, chunk, limit, call):
                n = len(b.winner)
                _add_bulk(
                    records,
                    first + start + done,
                    chunk[done : done + n],
                    rows,
                    b.counts,
                    b.winner,
                    b.first,
                    b.turns,
                    events=events,
                    event_counts=b.events,
                    mode=m.mode,
                    fmt=deal.format,
                    deck_a=_deck_names(dealt["a"][:n], names, shown),
                    deck_b=_deck_names(dealt["b"][:n], names, shown),
                    hands=(dealt["a"][:n], dealt["b"][:n]),
                    labels=self.labels,
                    rules=self.rules_text,
                    level=level,
                )
        return records

    # --- Policies whose format choices are not compiled: the reference deals, the fast engine plays

    def _dealt_by_reference(self, first: int, seeds: list[int]) -> GameRecords:
        from ..engine.solo_setup import solo_setup

        m, cards = self.matchup, self.cards
        records = GameRecords()
        legal = work = None
        s = None
        for i, seed in enumerate(seeds):
            policy_a, policy_b = get_policy(m.policy_a), get_policy(m.policy_b)
            if self.solo:
                setup = solo_setup(m.deck_a, policy_a, rules=m.rules, cards=m.cards, seed=seed, record=self.events)
                state, fmt = setup.state, setup.format
                deck_a = cards.sorted_names(cards.ids(setup.player_deck))
                deck_b = cards.sorted_names(cards.ids(setup.ai_cards))
            else:
                state, fmt = new_game(
                    m.deck_a,
                    m.deck_b,
                    policy_a,
                    policy_b,
                    cards=m.cards,
                    rules=m.rules,
                    seed=seed,
                    record=self.events,
                    mirror=m.mirror,
                )
                deck_a, deck_b = cards.sorted_names(state.hands[0]), cards.sorted_names(state.hands[1])
            state.turn_log = array("h")
            dealt = state.dealt
            assert dealt is not None  # recorded as the first turn began
            cap = capacity(state)
            if s is None or s.hands.shape[1] < cap:
                s = self.new_state(cap, m.rules.turn_limit)
                legal = legal_rows(cap)
                work = new_work(cap, m.rules.turn_limit, self.search)
            s = play_position(self.game, state, s, self.tables, self.rules, self.policies, legal, work)
            if s.g[G_ERROR]:
                raise OptionError(f"game {first + i}: the fast engine's arrays are too small for it")
            n_rows = int(s.g[G_TURNS_LOGGED])
            # The events of the deal (the first turn's start) come from the reference, the rest from here.
            setup_events = np.frombuffer(state.log.buffer, np.int32) if state.log is not None else np.empty(0, np.int32)
            events = np.concatenate([setup_events, s.ev[: s.g[G_EVENTS]].reshape(-1)])
            _add_bulk(
                records,
                first + i,
                np.array([seed], np.uint64),
                s.tl[:n_rows],
                np.array([n_rows]),
                np.array([s.g[G_WINNER]]),
                np.array([s.g[G_FIRST]]),
                np.array([s.g[G_TURN]]),
                events=events,
                event_counts=np.array([len(events) // WIDTH]),
                mode=m.mode,
                fmt=fmt,
                deck_a=deck_a,
                deck_b=deck_b,
                hands=(np.array([dealt[0]]), np.array([dealt[1]])),
                labels=self.labels,
                rules=self.rules_text,
                level=-1 if m.level is None else m.level,
            )
        return records


def play_position(game, state, s: FastState, tables, rules, policies, legal, work) -> FastState:
    """Play a reference position (:func:`clashkit.fast.from_state`) to its end in ``s``, recording its
    events when ``s.g[G_RECORD]`` is set; returns the arrays played in (given more room for events
    when the game needed it)."""
    record = int(s.g[G_RECORD])
    while True:
        from_state(state, out=s)
        s.g[G_RECORD] = record
        s.g[G_EVENTS] = 0
        game.play(s, tables, rules, policies, legal, work)
        if s.g[G_ERROR] != ERR_EVENTS:
            return s
        s = s._replace(ev=np.zeros((2 * s.ev.shape[0], s.ev.shape[1]), np.int32))


def _deck_names(dealt: np.ndarray, names: np.ndarray, shown: dict) -> list[tuple[str, ...]]:
    """Each game's dealt cards as the games frame lists a deck: names in card-set order
    (:meth:`clashkit.base.cards.CardSet.sorted_names`); ``shown`` keeps the tuples already made."""
    dealt = np.sort(dealt, axis=1)
    out = []
    for row in dealt:
        key = row.tobytes()
        deck = shown.get(key)
        if deck is None:
            deck = shown[key] = tuple(names[row].tolist())
        out.append(deck)
    return out


class _Outcomes(NamedTuple):
    """A batch's outcomes, in the order the compiled batch functions take them."""

    winner: np.ndarray
    first: np.ndarray
    turns: np.ndarray
    counts: np.ndarray
    rows: np.ndarray  # the turns frame's rows, ``turn_limit`` a game at most
    events: np.ndarray  # each game's event rows (``FastState.ev``)


def _outcomes(n: int, limit: int) -> _Outcomes:
    """Room for the outcomes of ``n`` games of at most ``limit`` turns."""
    return _Outcomes(
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty((n * limit, TURN_WIDTH), np.int16),
        np.zeros(n, np.int64),
    )


def _add_bulk(
    records,
    first,
    seeds,
    rows,
    counts,
    winner,
    first_player,
    turns,
    *,
    events,
    event_counts,
    mode,
    fmt,
    deck_a,
    deck_b,
    hands,
    labels,
    rules,
    level,
) -> None:
    """Append a batch's games to ``records`` at once (as :meth:`GameRecords.add` would, game by game).

    Every per-game value goes in as one array; what the games share is one :class:`Setup`.
    ``deck_a`` / ``deck_b``: one deck (names) for every game, or a list of one a game (dealt formats);
    ``hands``: two arrays of card ids, one row a game, each game's hands (or AI pile) as dealt.
    """
    n = len(seeds)
    _append(records.turns, rows, np.int16)
    _append(records.events, events, np.int32)
    records.event_counts.frombytes(np.asarray(event_counts, np.int64).tobytes())
    records.turn_counts.frombytes(np.asarray(counts, np.int64).tobytes())
    records.game.frombytes(np.arange(first, first + n, dtype=np.int64).tobytes())
    records.seed.frombytes(np.asarray(seeds, np.uint64).tobytes())
    records.first_player.frombytes(np.asarray(first_player, np.int8).tobytes())
    records.winner.frombytes(np.asarray(winner, np.int8).tobytes())
    records.turns_played.frombytes(np.asarray(turns, np.int64).tobytes())
    records.rules_version.frombytes(np.full(n, RULES_VERSION, np.int64).tobytes())
    records.level.frombytes(np.full(n, level, np.int8).tobytes())
    hand_a, hand_b = (np.asarray(hand, np.int16).reshape(n, -1) for hand in hands)
    _append(records.dealt, np.concatenate([hand_a, hand_b], axis=1), np.int16)
    _append(records.dealt_sizes, np.tile(np.array([hand_a.shape[1], hand_b.shape[1]], np.int16), n), np.int16)
    if isinstance(deck_a, list):
        for a, b in zip(deck_a, deck_b, strict=True):
            records.add_setup(Setup(str(mode), fmt, tuple(a), tuple(b), labels[0], labels[1], rules, "fast"), 1)
    else:
        records.add_setup(Setup(str(mode), fmt, tuple(deck_a), tuple(deck_b), labels[0], labels[1], rules, "fast"), n)
    # The termination of each winner (-1, 0, 1), looked up once, then read for every game.
    solo = mode == Mode.SOLO
    codes = np.array([TERMINATIONS.index(termination_of(solo, w)) for w in (-1, 0, 1)], np.int8)
    records.termination.frombytes(codes[np.asarray(winner, np.int64) + 1].tobytes())


def _append(target: array, rows: np.ndarray, dtype) -> None:
    """Append ``rows`` to ``target`` as they are in memory: one copy, with no bytes object between."""
    rows = np.ascontiguousarray(rows, dtype=dtype)
    if rows.size:
        target.frombytes(memoryview(rows).cast("B"))  # type: ignore[arg-type]  # numpy arrays are buffers


def play_games(matchup, first: int, seeds: list[int]) -> GameRecords:
    """The records of games ``first …`` of ``matchup`` with these seeds, played in the fast engine."""
    return Engine(matchup).play(first, seeds)


__all__ = ["BATCH", "Engine", "play_games"]
