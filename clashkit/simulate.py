"""Many seeded games, on every core: the engine of ``clashkit simulate`` (R10.1, R10.2).

:func:`simulate` plays ``n`` games of one matchup — two decks (or, in solo
mode, the player's deck against the AI) and two policies — and returns their
:class:`~clashkit.trace.Trace`::

    >>> from clashkit.simulate import simulate
    >>> trace = simulate(20, "1", "2", "random", "random", seed=7)
    >>> trace.games.height, trace.games["finished"].all()
    (20, True)

Game ``i`` is played with its own seed, ``game_seeds(seed, n)[i]``, drawn
from ``numpy.random.SeedSequence(seed)``: it depends on the master seed and
on ``i`` only, never on ``n``, on the number of worker processes or on the
order in which games finish.  The games frame records it, so any one game can
be replayed alone (``new_game(..., seed=games["seed"][i])``).  With
``jobs > 1`` the games are cut into chunks that worker processes play;
each sends back its raw buffers (:class:`~clashkit.records.GameRecords`),
and the parent puts them back in game order and builds the frames once —
so ``jobs=1`` and ``jobs=2`` give equal frames.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import sys
from array import array
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from . import formats
from .cards import CardSet, load_cards, starter_set
from .errors import DeckError, OptionError
from .game import play
from .levels import parse_level, points, solo_settings
from .policies import Policy, get_policy
from .records import GameRecords
from .rng import Rng
from .rules import Rules
from .solo_setup import solo_setup, split_cards
from .vocab import Mode

#: The largest number of games one worker task plays before it reports back.
MAX_CHUNK = 500


def game_seeds(seed: int, n: int) -> list[int]:
    """The seeds of games ``0 … n-1`` of a simulation with master ``seed`` (R10.2).

    Words of ``numpy.random.SeedSequence(seed)``: game ``i``'s seed is the
    same whatever ``n`` is.
    """
    import numpy as np  # here, so that worker processes never import it

    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise OptionError(f"seed {seed!r} must be a whole number ≥ 0")
    if n == 0:
        return []
    return np.random.SeedSequence(int(seed)).generate_state(n, dtype=np.uint64).tolist()


@dataclass(frozen=True, slots=True)
class Matchup:
    """What every game of a simulation shares: mode, decks, policies, cards and rules.

    ``deck_a`` / ``deck_b`` are :class:`~clashkit.formats.DeckSpec` in a duel;
    in solo mode ``deck_a`` is the player's deck argument and ``deck_b`` is
    ``None`` (the AI gets the rest, R8.1).  ``cards`` is ``None`` for the
    shipped set, so worker processes load it themselves.
    """

    mode: str
    deck_a: Any
    deck_b: Any
    policy_a: str | Policy
    policy_b: str | Policy
    cards: CardSet | None
    rules: Rules
    record_events: bool
    level: int | None
    mirror: bool = False
    #: ``reference`` or ``fast`` (:mod:`clashkit.fast`).
    engine: str = "reference"

    @property
    def card_set(self) -> CardSet:
        return self.cards if self.cards is not None else starter_set()

    @property
    def labels(self) -> tuple[str, str]:
        """The policies as the games frame names them (``ai`` for the solo AI)."""
        label_b = "ai" if self.mode == Mode.SOLO else _label(self.policy_b)
        return _label(self.policy_a), label_b


def _label(spec: str | Policy) -> str:
    return spec.name if isinstance(spec, Policy) else str(spec).strip()


def _fresh(spec: str | Policy) -> Policy:
    """A policy for one game: a new instance from a name, so no state leaks between games."""
    return spec if isinstance(spec, Policy) else get_policy(spec)


def _sorted_names(cards: CardSet, ids) -> tuple[str, ...]:
    """The names of these card ids in card-set order, a keep (-1, sorted first) left out."""
    names = cards.names
    return tuple([names[c] for c in sorted(ids) if c >= 0])


def play_game(matchup: Matchup, game: int, seed: int, records: GameRecords) -> None:
    """Set up game ``game`` of ``matchup`` with ``seed``, play it to its end, record it."""
    cards = matchup.card_set
    policy_a, policy_b = _fresh(matchup.policy_a), _fresh(matchup.policy_b)
    record = matchup.record_events
    if matchup.mode == Mode.SOLO:
        setup = solo_setup(
            matchup.deck_a,
            policy_a,
            rules=matchup.rules,
            cards=matchup.cards,
            seed=seed,
            record=record,
        )
        state, fmt = setup.state, setup.format
        deck_a = _sorted_names(cards, cards.ids(setup.player_deck))
        deck_b = _sorted_names(cards, cards.ids(setup.ai_cards))
    else:
        state, fmt = formats.new_game(
            matchup.deck_a,
            matchup.deck_b,
            policy_a,
            policy_b,
            cards=matchup.cards,
            rules=matchup.rules,
            seed=seed,
            record=record,
            mirror=matchup.mirror,
        )
        # The dealt hands (a draft's picks vary by game).
        deck_a, deck_b = _sorted_names(cards, state.hands[0]), _sorted_names(cards, state.hands[1])
    if state.turn_log is None:  # the turns frame is kept even without events
        state.turn_log = array("h")
    play(state, policy_a, policy_b)
    label_a, label_b = matchup.labels
    records.add(
        state,
        game=game,
        seed=seed,
        format=fmt,
        deck_a=deck_a,
        deck_b=deck_b,
        policy_a=label_a,
        policy_b=label_b,
        level=matchup.level,
    )


# --- Worker processes --------------------------------------------------------------------

_WORKER_MATCHUP: Matchup | None = None


def _init_worker(matchup: Matchup) -> None:
    global _WORKER_MATCHUP
    _WORKER_MATCHUP = matchup


def _play_chunk(first: int, seeds: list[int]) -> GameRecords:
    if _WORKER_MATCHUP.engine == "fast":
        from .fast.simulate import play_games

        return play_games(_WORKER_MATCHUP, first, seeds)
    records = GameRecords()
    for i, seed in enumerate(seeds):
        play_game(_WORKER_MATCHUP, first + i, seed, records)
    return records


def _pool_context():
    """Worker processes that do not inherit the parent's threads (polars', a notebook's).

    ``forkserver`` forks each worker from a small server that has imported
    this module, which needs neither numpy nor polars.
    """
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


# --- The public entry point ----------------------------------------------------------------


def simulate(
    n: int,
    deck_a: str | int | Sequence[str] = "1",
    deck_b: str | int | Sequence[str] | None = "2",
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    seed: int = 0,
    jobs: int | None = 1,
    record_events: bool | None = True,
    engine: str | None = None,
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
    progress: bool | None = None,
):
    """Play ``n`` games and return their :class:`~clashkit.trace.Trace`.

    Decks are what ``--a`` / ``--b`` take (:func:`clashkit.formats.parse_deck`:
    ``1``–``4``, ``draft``, ``constructed``, 8 names, a file).  ``policy_b``
    defaults to ``policy_a``.  ``jobs``: worker processes (``None`` or ``0``:
    one per core; ``1``: this process).  ``record_events=False`` leaves the
    events frame empty (turns and games are always recorded).

    ``engine``: ``"reference"`` (the readable engine, the only one that records
    events) or ``"fast"`` (:mod:`clashkit.fast`: the same games, no events, for
    the policies it has).  ``None`` picks ``fast`` when both policies exist there
    and events are not asked for (``record_events`` false, or ``None``: no
    preference), else ``reference``; ``record_events=None`` records events
    whenever the reference engine plays.  The games frame's ``engine`` column says which played.

    Solo mode (``mode="solo"``): the player is A and plays ``deck_a`` (R8.1);
    ``deck_b`` must be ``None``; the AI's settings come from ``level`` and
    ``settings`` (:func:`clashkit.levels.solo_settings`, ``free_settings``
    allowing settings whose points differ from the level).

    ``progress`` shows a bar counted by finished games (``tqdm.auto``, so a
    notebook gets a widget); ``None`` shows it in a notebook or when stderr is a
    terminal.
    """
    matchup = make_matchup(
        deck_a,
        deck_b,
        policy_a,
        policy_b,
        record_events=record_events,
        engine=engine,
        mode=mode,
        level=level,
        settings=settings,
        free_settings=free_settings,
        cards=cards,
        rules=rules,
        mirror=mirror,
    )
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise OptionError(f"n = {n!r}: the number of games must be a whole number ≥ 0")
    if jobs is None or jobs == 0:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs = {jobs!r} must be a whole number ≥ 1 (0: one per core)")
    seeds = game_seeds(seed, n)
    if progress is None:  # a terminal or a notebook shows it; a pipe or a log does not
        progress = sys.stderr.isatty() or "ipykernel" in sys.modules
    from tqdm.auto import tqdm

    bar = tqdm(total=n, unit="game", desc="simulate", disable=not progress, file=sys.stderr)
    try:
        if (jobs == 1 or n <= 1) and matchup.engine == "fast":
            from .fast.simulate import Engine

            fast = Engine(matchup)
            records = GameRecords()
            step = MAX_CHUNK * 8
            for first in range(0, n, step):
                records.extend(fast.play(first, seeds[first : first + step]))
                bar.update(min(step, n - first))
        elif jobs == 1 or n <= 1:
            records = GameRecords()
            for i, game_seed in enumerate(seeds):
                play_game(matchup, i, game_seed, records)
                bar.update(1)
        else:
            records = _parallel(matchup, seeds, jobs, bar)
    finally:
        bar.close()
    return records.build(matchup.card_set)


def _parallel(matchup: Matchup, seeds: list[int], jobs: int, bar) -> GameRecords:
    n = len(seeds)
    size = max(1, min(MAX_CHUNK, -(-n // (jobs * 8))))
    chunks = [(first, seeds[first : first + size]) for first in range(0, n, size)]
    done: dict[int, GameRecords] = {}
    workers = min(jobs, len(chunks))
    context = _pool_context()
    with ProcessPoolExecutor(
        workers, context, initializer=_init_worker, initargs=(matchup,)
    ) as pool:
        pending = {pool.submit(_play_chunk, first, chunk): first for first, chunk in chunks}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    first = pending.pop(future)
                    done[first] = future.result()
                    bar.update(len(done[first]))
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    records = GameRecords()
    for first, _ in chunks:  # back in game order
        records.extend(done[first])
    return records


def make_matchup(
    deck_a,
    deck_b,
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    record_events: bool | None = True,
    engine: str | None = "reference",
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
) -> Matchup:
    """Check every option of a simulation once, before any game is played."""
    matchup = _make_matchup(
        deck_a, deck_b, policy_a, policy_b, record_events=bool(record_events), mode=mode, level=level,
        settings=settings, free_settings=free_settings, cards=cards, rules=rules, mirror=mirror,
    )
    solo = matchup.mode == Mode.SOLO  # the AI plays itself: policy B is not played
    engine, record_events = choose_engine(
        engine, record_events, matchup.policy_a, matchup.policy_a if solo else matchup.policy_b
    )
    return dataclasses.replace(matchup, engine=engine, record_events=record_events)


def choose_engine(engine: str | None, record_events: bool | None, policy_a, policy_b) -> tuple[str, bool]:
    """The engine that plays and whether events are recorded (see :func:`simulate`); one clear line if refused."""
    from .fast import FAST_POLICIES, policy_code

    if engine is not None and engine not in ("fast", "reference"):
        raise OptionError(f"engine {engine!r} is not an engine (fast, reference)")
    if engine is None:
        names = [p.name if isinstance(p, Policy) else str(p).strip().lower() for p in (policy_a, policy_b)]
        plain = all(isinstance(p, str) for p in (policy_a, policy_b))
        fast_ok = plain and all(name in FAST_POLICIES for name in names)
        engine = "fast" if fast_ok and record_events is not True else "reference"
    if engine == "fast":
        if record_events:
            raise OptionError(
                "the fast engine records no events: leave events out (--no-events) or use engine reference"
            )
        for spec in (policy_a, policy_b):
            policy_code(spec)
        return "fast", False
    return "reference", record_events is not False


def _make_matchup(
    deck_a,
    deck_b,
    policy_a: str | Policy = "random",
    policy_b: str | Policy | None = None,
    *,
    record_events: bool = True,
    mode: str = "duel",
    level: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    free_settings: bool = False,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    mirror: bool = False,
) -> Matchup:
    if cards is not None and not isinstance(cards, CardSet):
        cards = load_cards(cards)
    card_set = cards if cards is not None else starter_set()
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules, where="rules")
    try:
        mode = Mode(str(mode).lower())
    except ValueError:
        raise OptionError(f"mode {mode!r} is not a mode (duel, solo)") from None
    policy_b = policy_a if policy_b is None else policy_b
    for spec in (policy_a, policy_b):
        get_policy(spec)  # refuse an unknown policy now, not in a worker
    if isinstance(deck_a, int) and not isinstance(deck_a, bool):
        deck_a = str(deck_a)
    if isinstance(deck_b, int) and not isinstance(deck_b, bool):
        deck_b = str(deck_b)
    if mode is Mode.SOLO:
        if deck_b is not None:
            raise DeckError(
                "deck B: in solo mode the AI gets the cards the player does not (R8.1); "
                "give no deck B"
            )
        if settings is not None or level is not None:
            rules = rules.replace(solo=solo_settings(level, settings, free=free_settings))
        recorded_level = parse_level(level) if level is not None else points(rules.solo)
        formats.check_first_player(rules, "", solo=True)
        split_cards(deck_a, policy_a, card_set, Rng(0))  # refuse a bad deck now
        return Matchup(
            mode.value,
            deck_a,
            None,
            policy_a,
            policy_b,
            cards,
            rules,
            record_events,
            recorded_level,
            mirror,
        )
    if level is not None or settings is not None:
        raise OptionError("level and settings are for solo mode (R8.9); add mode solo")
    if deck_b is None:
        raise DeckError("deck B: a duel needs two decks (R2.1)")
    spec_a = formats.parse_deck(deck_a, card_set, side="A")
    spec_b = formats.parse_deck(deck_b, card_set, side="B")
    formats.check_first_player(rules, formats.format_of(spec_a, spec_b, mirror=mirror))
    return Matchup(
        mode.value, spec_a, spec_b, policy_a, policy_b, cards, rules, record_events, None, mirror
    )


__all__ = ["MAX_CHUNK", "Matchup", "choose_engine", "game_seeds", "make_matchup", "play_game", "simulate"]
