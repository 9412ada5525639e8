"""The entry points: :func:`meta` (one policy) and :func:`metas` (several, on the same seeds)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.limits import fraction
from ...base.rules import Rules
from ...runs.simulate import usable_jobs
from ..design.jobs import duration, notice
from ..design.matrix import card_set_of
from .budget import SEARCH_GAMES, TOP, Sizes, from_budget, probe, seconds_for
from .formats import FORMATS, meta_format
from .games import Arena
from .space import DeckSpace
from .study import Meta, plan, planned_games, read


def _rules(rules: Rules | Mapping[str, Any] | None) -> Rules | None:
    if rules is None or isinstance(rules, Rules):
        return rules
    return Rules.from_mapping(rules, where="rules")


def _sizes(
    space: DeckSpace,
    gauntlet: dict,
    arena: Arena,
    *,
    seed: int,
    workers: int,
    budget_seconds: float | None,
    evaluations: int | None,
    n: int | None,
    value_games: int | None,
    top: int,
    search_games: int,
    progress: bool,
) -> Sizes:
    """The study's sizes: as given, the rest from ``budget_seconds`` by a timing probe."""
    given = {"evaluations": evaluations, "n": n, "value_games": value_games}
    if all(value is not None for value in given.values()):
        return Sizes(evaluations, n, value_games, search_games, top)  # type: ignore[arg-type]
    if budget_seconds is None:
        missing = ", ".join(name for name, value in given.items() if value is None)
        raise OptionError(f"meta: give budget_seconds, or every size ({missing} missing)")
    budget_seconds = fraction(budget_seconds, "budget_seconds", "meta: budget_seconds", OptionError)
    cost = probe(space, arena.shared, seed, list(gauntlet.values()), arena.dealt)
    planned = from_budget(
        budget_seconds, cost, workers=workers, cards=len(space.cards), gauntlet=len(gauntlet), top=top
    )
    sizes = Sizes(
        planned.evaluations if evaluations is None else evaluations,
        planned.n if n is None else n,
        planned.value_games if value_games is None else value_games,
        search_games,
        top,
    )
    if progress:
        expected = seconds_for(sizes, cost, workers=workers, cards=len(space.cards), gauntlet=len(gauntlet))
        notice(
            f"meta {arena.shared[1]}: about {duration(expected)} on {workers} core{'s' if workers > 1 else ''} "
            f"by a CPU probe (longer while the machine is busy), "
            f"{planned_games(space, sizes, len(gauntlet)):,} games at most; "
            f"repeat exactly with --seed {seed} {sizes.options()}"
        )
    return sizes


def meta(
    policy: str = "greedy",
    *,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    budget_seconds: float | None = None,
    evaluations: int | None = None,
    n: int | None = None,
    value_games: int | None = None,
    top: int = TOP,
    search_games: int = SEARCH_GAMES,
    format: str = "duel",
    engine: str | None = None,
    jobs: int | None = 1,
    progress: bool = False,
    cluster: Any = None,
) -> Meta:
    """A meta study of the duel's deck space under ``policy`` (both players): see
    :mod:`clashkit.studies.meta.study`.  Its size is ``evaluations`` decks searched, ``n`` games a
    pairing of the field and ``value_games`` for the card values, each set from
    ``budget_seconds`` (a timing probe) when not given; the same sizes and seed give the same
    answers on any machine, with any ``jobs`` or ``cluster``."""
    from ...policies import get_policy

    kind = meta_format(format)
    get_policy(policy)  # an unknown policy is refused before any game
    space = kind.space(card_set_of(cards))
    rules = _rules(rules)
    workers = usable_jobs(jobs)
    gauntlet = kind.gauntlet(space, str(policy), seed)
    started = time.perf_counter()
    with _client(cluster) as client:
        arena = Arena(
            space.cards,
            str(policy),
            seed=seed,
            rules=rules,
            engine=engine,
            jobs=workers,
            cluster=client,
            progress=progress,
            desc=f"meta {policy}",
            dealer=kind.dealer(space, str(policy), seed),
        )
        sizes = _sizes(
            space,
            gauntlet,
            arena,
            seed=seed,
            workers=workers,
            budget_seconds=budget_seconds,
            evaluations=evaluations,
            n=n,
            value_games=value_games,
            top=top,
            search_games=search_games,
            progress=progress,
        )
        played = arena.run(plan(space, sizes, seed, gauntlet), planned_games(space, sizes, len(gauntlet)))
    result = read(str(policy), space, sizes, seed, played)
    result.seconds = time.perf_counter() - started
    result.games = arena.games
    result.rules = rules
    result.format = kind
    return result


@contextlib.contextmanager
def _client(cluster: Any):
    if cluster is None:
        yield None
        return
    from ...runs.cluster import connect

    with connect(cluster) as client:
        yield client


def metas(policies: Sequence[str], *, budget_seconds: float | None = None, **options: Any) -> dict[str, Meta]:
    """:func:`meta` at each of ``policies`` on the same seeds, the budget shared evenly."""
    if not policies:
        raise OptionError("meta: name at least one policy")
    if budget_seconds is not None:
        budget_seconds = fraction(budget_seconds, "budget_seconds", "meta: budget_seconds", OptionError)
    share = None if budget_seconds is None else budget_seconds / len(policies)
    return {str(p): meta(p, budget_seconds=share, **options) for p in policies}


__all__ = ["FORMATS", "meta", "metas"]
