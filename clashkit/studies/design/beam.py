"""The tuner's search: forward selection with a beam over (card, field, change), at several
strengths at once, within a budget of time or of candidate sets (``clashkit tune``).

Round ``r`` adds one change to each of the ``beam`` best sets of ``r − 1`` changes (at
first the set as it is): every change a card file and R9.2 allow
(:func:`~clashkit.studies.design.candidates`) of each size asked for, to a (card, field) not
changed yet, in the direction that brings its deck toward 50%
(:func:`~clashkit.studies.design.changes.direction`) at the strength where the deck is
furthest from it; a change of what a card does (an ability, an Aura, an effect, a target),
whose direction depends on the board, either way.  Each new set is played on the same seeds as every
other (common random numbers, R10.2) at every strength, and scored by
:func:`~clashkit.studies.design.strengths.skill_distance`, then by the number and the size
of its changes; the ``beam`` best go on.  Two parents that reach the same set play it once.

Within a round the changes of the deck furthest from 50% are tried first, so a budget that
runs out mid-round has tried the likeliest ones.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from ...base.cards import CardSet
from ..analysis import deck_rates
from .changes import Change, apply_changes, candidates, change_size, direction, size
from .jobs import SMALL_BATCH, duration, estimate_seconds, notice
from .strengths import DECKS, Objective, skill_distance
from .study import Study, matchups

#: Candidate sets played together in this process (the progress bar moves and the budget is
#: looked at after each batch); with worker processes ``WORKER_BATCH``, so that starting the
#: workers costs little beside the games.
BATCH = 8
WORKER_BATCH = 32


@dataclass(frozen=True)
class Scored:
    """A set of changes, its cards, its outcomes at each strength and its distance."""

    changes: tuple[Change, ...]
    cards: CardSet
    played: dict[str, pl.DataFrame]
    distance: float

    @property
    def rank(self) -> tuple[float, int, int]:
        """The objectives in order: distance (to 1e-12), number of changes, their size."""
        return round(self.distance, 12), len(self.changes), size(self.changes)


@dataclass(frozen=True)
class Row:
    """The best set of at most ``limit`` changes found, and its distance on the search's seeds."""

    limit: int
    changes: tuple[Change, ...]
    distance: float


@dataclass(frozen=True)
class Found:
    """What the search found: the distance of the set as it is (``start``), one :class:`Row`
    a round that improved on the one before (so ``distance`` falls row by row), the candidate
    sets tried and why it stopped early (``None``: it ran its rounds)."""

    start: float
    rows: tuple[Row, ...]
    evaluations: int
    stopped: str | None


def beam_search(
    study: Study,
    policies: Sequence[str],
    base: CardSet,
    max_changes: int,
    *,
    fields: Sequence[str],
    sizes: Sequence[int],
    names: Sequence[str] | None = None,
    beam: int = 3,
    budget_seconds: float | None = None,
    evaluations: int | None = None,
    progress: bool = False,
    objective: Objective = DECKS,
    keep_character: bool = False,
) -> Found:
    """The search of the module docstring; with ``progress``, an estimate on stderr before it
    starts and a bar over the candidate sets; with ``keep_character`` only changes that keep
    each card's character in ``base`` (:func:`~clashkit.studies.design.changes.keeps_character`)."""
    from tqdm.auto import tqdm

    started = time.perf_counter()
    root_played = {p: games[0] for p, games in study.play_at(policies, [base], desc="tune: the set as it is").items()}
    root = Scored((), base, root_played, skill_distance(root_played, objective))
    both_ways = objective.both_ways
    keep = base if keep_character else None
    first_round = _options(root, fields, sizes, names, seen=set(), both_ways=both_ways, keep=keep)
    planned = len(first_round) * (1 + beam * max(0, max_changes - 1)) if max_changes else 0
    if evaluations is not None:
        planned = min(planned, evaluations)
    probe = progress or budget_seconds is not None
    per_set = _seconds_per_set(study, policies, base) if probe and first_round else None
    if per_set is not None and budget_seconds is not None:
        planned = min(planned, max(1, int(budget_seconds / per_set)))
    if per_set is not None and progress:
        budget = "" if budget_seconds is None else f", within the budget of {duration(budget_seconds)}"
        notice(
            f"tune: up to {planned:,} candidate sets at {', '.join(policies)}, about {duration(planned * per_set)} "
            f"by a probe (assumes the machine stays as busy as during it){budget}"
        )

    def room(tried: int) -> int:
        """How many more sets the budget and the evaluations leave room for: at the rate so far
        (the root's games and the probe included), else at the probe's."""
        out = len(first_round) * (1 + beam * max_changes)  # more than the search can ask for
        rate = (time.perf_counter() - started) / tried if tried else per_set
        if budget_seconds is not None and rate:
            out = min(out, int((budget_seconds - (time.perf_counter() - started)) / rate))
        if evaluations is not None:
            out = min(out, evaluations - tried)
        return max(0, out)

    seen: set[frozenset] = set()
    frontier, best, rows = [root], root, []
    tried, stopped = 0, None
    with tqdm(total=planned, unit="set", desc="tune", disable=not progress, file=sys.stderr) as bar:
        for depth in range(1, max_changes + 1):
            children: list[Scored] = []
            for k, parent in enumerate(frontier):
                options = _options(parent, fields, sizes, names, seen, both_ways=both_ways, keep=keep)
                # The bar's total: what is left if every later parent and round is as wide as the
                # first round, within what the budget and the evaluations leave room for.
                later = (len(frontier) - k - 1 + beam * (max_changes - depth)) * len(first_round)
                bar.total = tried + min(len(options) + later, room(tried))
                bar.refresh()
                batch = WORKER_BATCH if (study.workers or os.cpu_count() or 1) > 1 else BATCH
                for i in range(0, len(options), batch):
                    chunk = options[i : i + batch][: room(tried)]
                    if not chunk:
                        if evaluations is not None and tried >= evaluations:
                            stopped = "stopped at the evaluations asked for"
                        else:
                            stopped = "stopped by the budget"
                        break
                    variants = [apply_changes(parent.cards, [c]) for c in chunk]
                    played = study.play_at(policies, variants, desc=f"tune: change {depth}")
                    for j, (change, cards) in enumerate(zip(chunk, variants, strict=True)):
                        games = {p: played[p][j] for p in policies}
                        children.append(
                            Scored((*parent.changes, change), cards, games, skill_distance(games, objective))
                        )
                        seen.add(_key(children[-1].changes))
                    tried += len(chunk)
                    bar.total = tried + min(len(options) - i - len(chunk) + later, room(tried))
                    bar.update(len(chunk))
                    bar.set_postfix_str(
                        f"best {100 * min([best, *children], key=lambda s: s.rank).distance:.1f} points"
                    )
                if stopped:
                    break
            if not children:
                break
            children.sort(key=lambda s: s.rank)
            frontier = children[:beam]
            if children[0].rank >= best.rank:
                break  # nothing better than fewer changes did
            best = children[0]
            rows.append(Row(depth, best.changes, best.distance))
            if stopped:
                break
    return Found(root.distance, tuple(rows), tried, stopped)


def _key(changes: Sequence[Change]) -> frozenset:
    return frozenset((c.card, c.field, c.new) for c in changes)


def _options(
    parent: Scored,
    fields: Sequence[str],
    sizes: Sequence[int],
    names: Sequence[str] | None,
    seen: set[frozenset],
    both_ways: bool = False,
    keep: CardSet | None = None,
) -> list[Change]:
    """The changes to try on ``parent``: toward 50% for their deck (either way with
    ``both_ways``: a deck near 50% overall may still win one pairing and lose another, and any
    card may move the first player's edge; either way for a change whose direction is unknown),
    new sets only, the deck furthest from 50% first, then the smaller change
    (:func:`~clashkit.studies.design.changes.change_size`); with ``keep``, only changes that
    keep each card's character in that set."""
    signed = _signed_distances(parent.played)
    deck_of = {c.name: c.deck for c in parent.cards}
    done = {(c.card, c.field) for c in parent.changes}
    out = []
    found = candidates(
        parent.cards, fields, sizes[0], names=names, done=done, sizes=sizes, keep_character=keep is not None, base=keep
    )
    for c in found:
        away = signed[deck_of[c.card]]
        want = 0 if away == 0 else (1 if away < 0 else -1)  # below 50%: strengthen it
        moves = direction(c)
        if (both_ways or want == 0 or moves in (0, want)) and _key((*parent.changes, c)) not in seen:
            out.append(c)
    return sorted(out, key=lambda c: (-abs(signed[deck_of[c.card]]), change_size(c)))


def _signed_distances(played: dict[str, pl.DataFrame]) -> dict[int, float]:
    """Per deck, its rate minus 50% at the strength where it is furthest from 50%."""
    rates: dict[int, list[float]] = {}
    for games in played.values():
        for row in deck_rates(matchups(games)).iter_rows(named=True):
            rates.setdefault(row["deck"], []).append(row["rate"] - 0.5)
    return {deck: max(rs, key=abs) for deck, rs in rates.items()}


def _seconds_per_set(study: Study, policies: Sequence[str], base: CardSet) -> float:
    """A timing probe: how long one candidate set takes at every strength (the pairings of one
    deck), on the engine that will play it."""
    deck = min(base.decks)
    jobs = [job for p in policies for job in study.at(p).jobs(base, decks={deck})]
    workers = study.workers or os.cpu_count() or 1
    games = sum(job.n for job in jobs)
    seconds = estimate_seconds(jobs, workers=1)
    return seconds / (workers if games * BATCH >= SMALL_BATCH else 1)
