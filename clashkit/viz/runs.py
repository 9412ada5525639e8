"""Batches of games for the notebooks: every pairing of a few decks, one progress bar.

:func:`play_matchups` calls :func:`clashkit.runs.simulate.simulate` once per
ordered pairing of decks (both seats), numbers the games of the batch
``0 … n-1`` and shows one ``tqdm.auto`` bar counted by finished games, which a
notebook draws as a widget.  The games are played on the fast engine when both
bots exist there, with or without events: 2,000 games a pairing (24,000 among
the four starter decks) take a second or two without them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

import polars as pl

from ..base import CardSet, starter_set
from ..policies import POLICIES
from ..runs import Trace
from .summaries import starter_deck_names


def default_policy() -> str:
    """The strongest cheap bot shipped: ``greedy`` when present, else ``random``."""
    return "greedy" if "greedy" in POLICIES else "random"


def play_matchups(
    decks: Mapping[str, Sequence[str]] | None = None,
    *,
    games_per_pairing: int = 2000,
    policy: str | None = None,
    policy_b: str | None = None,
    seed: int = 0,
    cards: CardSet | None = None,
    pairings: Sequence[tuple[str, str]] | None = None,
    progress: bool = True,
    desc: str = "games",
    jobs: int = 1,
    record_events: bool = False,
    engine: str | None = None,
) -> Trace:
    """Play ``games_per_pairing`` games for each ordered pairing of ``decks`` (so both seats).

    ``decks`` maps a label to 8 card names (default: the starter decks of
    ``cards``, ``"deck 1"`` …, played by their numbers, so the games frame's
    ``format`` is ``preconstructed``); ``pairings`` restricts the pairings (labels,
    ``(a, b)`` with ``a`` in seat A).  Either way a starter deck's turns carry its
    number in the turns frame's ``deck`` (R7.1), whatever the values of its cards.
    Pairing ``k`` is seeded ``seed + k``, so two batches with the same arguments and
    different card values play comparable games.  Returns the frames of the whole batch; label its games
    with :func:`~clashkit.viz.summaries.label_decks` and the same ``decks``.

    ``record_events=True`` fills the events frame (per-card numbers need it), in either
    engine.  ``engine`` is
    :func:`~clashkit.runs.simulate.simulate`'s (``None``: fast when it can).
    """
    from tqdm.auto import tqdm

    from ..runs.simulate import simulate

    cards = cards if cards is not None else starter_set()
    if decks is None:
        decks = starter_deck_names(cards)
        played: dict[str, str | list[str]] = {f"deck {number}": str(number) for number in cards.decks}
    else:
        decks = dict(decks)
        played = {label: list(names) for label, names in decks.items()}
    policy = policy or default_policy()
    if pairings is None:
        pairings = list(permutations(decks, 2))
    unknown = [label for pair in pairings for label in pair if label not in decks]
    if unknown:
        raise KeyError(f"unknown deck {unknown[0]!r} (known: {', '.join(decks)})")
    traces: list[Trace] = []
    offset = 0
    total = games_per_pairing * len(pairings)
    with tqdm(total=total, unit="game", desc=desc, disable=not progress) as bar:
        for k, (a, b) in enumerate(pairings):
            trace = simulate(
                games_per_pairing,
                played[a],
                played[b],
                policy,
                policy_b or policy,
                seed=seed + k,
                cards=cards,
                jobs=jobs,
                record_events=record_events,
                engine=engine,
                progress=False,
            )
            traces.append(_renumber(trace, offset))
            offset += games_per_pairing
            bar.update(games_per_pairing)
    return Trace.concat(traces)


def _renumber(trace: Trace, offset: int) -> Trace:
    if not offset:
        return trace
    shift = pl.col("game") + pl.lit(offset, dtype=pl.UInt32)
    return Trace(*(frame.with_columns(shift.alias("game")) for frame in trace))


__all__ = ["default_policy", "play_matchups"]
