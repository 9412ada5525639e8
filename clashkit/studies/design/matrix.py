"""Balance: every ordered pairing of the starter decks (R7.1), each deck's overall rate, the
first player's (``clashkit balance``)."""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from ...base.cards import CardSet, load_cards, starter_set
from ...base.errors import OptionError
from ...base.points import percent_text, points_text  # noqa: F401  (re-exported by clashkit.studies.design)
from ...base.rules import Rules
from ...base.stats import farthest_from_even, wilson
from ..analysis import SEATS, balance_markdown, deck_rates, deck_results, first_player, seat_rates
from .jobs import Runner, Settings, play_job
from .study import Study, matchups


def labelled_rates(rates: pl.DataFrame, **labels: str) -> pl.DataFrame:
    """Win rates (``deck``, ``opponent`` if there, ``games``, ``wins``, ``rate``, ``low``,
    ``high``) as tables and charts show them: a column per label (``strength="expert"``), then
    ``deck`` ("deck 2"), ``opponent`` ("deck 3") if there, ``games``, ``wins``, ``win_rate``,
    ``low``, ``high``."""
    decks = ["deck", "opponent"] if "opponent" in rates.columns else ["deck"]
    return rates.select(
        *(pl.lit(value).alias(name) for name, value in labels.items()),
        *(pl.format("deck {}", column).alias(column) for column in decks),
        pl.col("games").cast(pl.Int64),
        pl.col("wins").cast(pl.Int64),
        pl.col("rate").alias("win_rate"),
        "low",
        "high",
    )


def rate_text(rate: float | None, low: float | None, high: float | None) -> str:
    """A rate with its 95% interval, as the balance tables print it: ``55.9% (53.7–58.0)``."""
    return f"{percent_text(rate)} ({percent_text(low, 1, '')}–{percent_text(high, 1, '')})"


@dataclass(frozen=True)
class Balance:
    """The balance of a card set: :data:`~clashkit.studies.analysis.MATCHUPS_SCHEMA` rows, one per
    ordered pairing, and what follows from them."""

    matchups: pl.DataFrame
    n: int
    seed: int
    policy: str = "greedy"

    @property
    def decks(self) -> pl.DataFrame:
        """Each deck's overall rate with its 95% interval (:func:`~clashkit.studies.analysis.deck_rates`)."""
        return deck_rates(self.matchups)

    @property
    def seats(self) -> pl.DataFrame:
        """Each deck's rate moving first and moving second (R2.3), with 95% intervals
        (:func:`~clashkit.studies.analysis.seat_rates`)."""
        return seat_rates(self.matchups)

    def labelled_decks(self, **labels: str) -> pl.DataFrame:
        """:attr:`decks` as tables and charts show them (:func:`labelled_rates`)."""
        return labelled_rates(self.decks, **labels)

    @property
    def distance(self) -> float:
        """The largest distance of any deck's overall rate from 50% (what :func:`tune` lowers)."""
        return farthest_from_even(self.decks["rate"].to_list())

    @property
    def pairing_distance(self) -> float:
        """The largest distance from 50% of any ordered pairing's rate (the first deck's wins as A
        over the pairing's games)."""
        return farthest_from_even(self.a_rates)

    @property
    def a_rates(self) -> list[float]:
        """Each ordered pairing's rate: the first deck's wins as A over the pairing's games."""
        return (self.matchups["wins_a"] / self.matchups["games"]).to_list()

    @property
    def first_distance(self) -> float:
        """The distance of the first player's win rate from 50% (R2.3)."""
        return farthest_from_even([first_player(self.matchups)[0]])

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit balance --json`` prints (see ``clashkit COMMAND --help`` and docs/commands.md)."""
        seats = {(r["deck"], r["seat"]): r for r in self.seats.iter_rows(named=True)}
        decks = {
            str(row["deck"]): {
                "rate": row["rate"],
                "low": row["low"],
                "high": row["high"],
                "games": row["games"],
                "wins": row["wins"],
                **{seat: {k: seats[row["deck"], seat][k] for k in ("rate", "low", "high", "games")} for seat in SEATS},
            }
            for row in self.decks.iter_rows(named=True)
        }
        matrix = []
        for row in self.matchups.iter_rows(named=True):
            low, high = wilson(row["wins_a"], row["games"])
            matrix.append(
                {
                    "a": row["deck_a"],
                    "b": row["deck_b"],
                    "games": row["games"],
                    "rate_a": row["wins_a"] / row["games"],
                    "low": low,
                    "high": high,
                    "wins_a": row["wins_a"],
                    "wins_b": row["wins_b"],
                    "unfinished": row["unfinished"],
                }
            )
        rate, low, high = first_player(self.matchups)
        cells = [
            {
                "deck": r["deck"],
                "opponent": r["opponent"],
                "games": r["games"],
                "rate": r["rate"],
                "low": r["low"],
                "high": r["high"],
            }
            for r in deck_results(self.matchups).iter_rows(named=True)
        ]
        games = int(self.matchups["games"].sum())
        return {
            "decks": decks,
            "matrix": matrix,
            "first_player": {"rate": rate, "low": low, "high": high, "games": games},
            "cells": cells,
            "distance": self.distance,
            "n": self.n,
            "seed": self.seed,
            "policy": self.policy,
            "games": games,
            "unfinished": int(self.matchups["unfinished"].sum()),
        }

    def __str__(self) -> str:
        lines = [balance_markdown(self.matchups), "", "| deck | overall | games |", "| --- | --- | ---: |"]
        for row in self.decks.iter_rows(named=True):
            rate = rate_text(row["rate"], row["low"], row["high"])
            lines.append(f"| deck {row['deck']} | {rate} | {row['games']:,} |")
        lines.append(
            f"\nLargest distance of a deck's overall rate from 50%: {percent_text(self.distance, sign='')} points."
        )
        return "\n".join([*lines, "", *self.seat_lines()])

    def seat_lines(self) -> list[str]:
        """Each deck's rate moving first and moving second (R2.3) as a Markdown table."""
        seats = {(r["deck"], r["seat"]): r for r in self.seats.iter_rows(named=True)}
        lines = [
            "Each deck moving first and moving second (R2.3), 95% intervals:",
            "",
            "| deck | moving first | moving second |",
            "| --- | --- | --- |",
        ]
        for deck in sorted({d for d, _ in seats}):
            lines.append(f"| deck {deck} | " + " | ".join(seat_text(seats[deck, s]) for s in SEATS) + " |")
        return lines


def seat_text(row: Mapping[str, Any]) -> str:
    """One row of :func:`~clashkit.studies.analysis.seat_rates` as the tables print it:
    ``55.9% (53.7–58.0) of 2,980``."""
    return f"{rate_text(row['rate'], row['low'], row['high'])} of {row['games']:,}"


def on_cluster(study):
    """``study`` with a ``cluster=`` keyword: its jobs played on Dask (:mod:`clashkit.runs.cluster`).

    The cluster is started (or connected) only when the first jobs are
    played, so every option is checked before, and closed when the study ends.
    """

    @functools.wraps(study)
    def wrapper(*args, cluster: Any = None, **kwargs):
        if cluster is None:
            return study(*args, **kwargs)
        if kwargs.get("runner") is not None:
            raise OptionError("give cluster= or runner=, not both")
        from ...runs.cluster import Runner

        with Runner(cluster, play_job, weight=lambda job: job.n, progress=bool(kwargs.get("progress"))) as runner:
            return study(*args, **{**kwargs, "runner": runner})

    signature = inspect.signature(study)
    cluster = inspect.Parameter("cluster", inspect.Parameter.KEYWORD_ONLY, default=None)
    # inspect.signature reads __signature__; typeshed's functools._Wrapped does not declare it.
    wrapper.__signature__ = signature.replace(parameters=[*signature.parameters.values(), cluster])  # type: ignore[attr-defined]
    return wrapper


def make_study(n, *, seed, policy, rules, engine, mirror, jobs, progress, runner, cache=None) -> Study:
    """The :class:`Study` a study function's options describe; an unknown policy or rules option
    is refused before any game.  ``cache`` (a dict) keeps results between calls."""
    _check_policy(policy)
    if rules is not None and not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules, where="rules")
    study = Study(n, seed, Settings(str(policy), rules, engine), mirror, jobs, progress, runner)
    return study if cache is None else replace(study, cache=cache)


def card_set_of(cards: CardSet | str | os.PathLike | None) -> CardSet:
    if cards is None:
        return starter_set()
    return cards if isinstance(cards, CardSet) else load_cards(cards)


def _check_policy(policy: str) -> None:
    from ...policies import get_policy

    get_policy(policy)  # an unknown policy is refused before any game


@on_cluster
def balance(
    n: int = 2000,
    *,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Balance:
    """``n`` games of every ordered pairing of the starter decks between two copies of
    ``policy``: the matrix, each deck's overall rate and the first player's, with 95%
    intervals.  Without mirrors it equals :func:`clashkit.studies.analysis.deck_matchups`."""
    cards = card_set_of(cards)
    study = make_study(
        n,
        seed=seed,
        policy=policy,
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=progress,
        runner=runner,
    )
    (games,) = study.play([cards], desc="balance")
    return Balance(matchups(games), n, seed, str(policy))
