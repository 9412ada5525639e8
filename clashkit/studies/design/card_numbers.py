"""Per-card numbers: how often each card is played, when, its deck's rate with and without
it, its owner's hand-health after it, and the change when it is removed (``clashkit card-
stats``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.rules import Rules
from ...base.stats import mean_exprs, wilson_exprs
from .jobs import Runner, _plays_of, run_jobs
from .matrix import card_set_of, make_study, on_cluster
from .study import Study, outcomes, paired_changes, sides
from .variants import replace_card, unknown_card, vanilla


@on_cluster
def card_stats(
    n: int = 2000,
    *,
    names: Sequence[str] | None = None,
    impact: bool = True,
    plays_n: int | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> pl.DataFrame:
    """Per card of the starter decks, over ``n`` games of every ordered pairing:

    * ``play_rate``: the share of its owner's games in which it was played (R3.2–R3.4);
    * ``first_turn``: the owner's turn (1 = the owner's first) of its first play, mean;
    * ``win_played`` / ``win_not_played``: its deck's rate in games where it was played and
      where it was not — correlation, not cause;
    * ``hand_health_after``: the owner's hand-health (R1.5) at the end of the turn after its
      first play, mean;
    * ``removed_change``: the change in its deck's rate when the card is replaced by a
      vanilla creature of cost 1, 0/1 (:func:`vanilla`), paired on the same seeds — cause.

    Each figure has its 95% interval (``…_low``, ``…_high``) and its count.  ``names``
    restricts the table (and the removal games) to some cards; ``impact=False`` skips the
    removal games.  The play numbers (they need events) are played on ``plays_n`` games a
    pairing (default ``n``), the removal games on ``n``, both on ``engine`` (``None``: the fast
    engine when the policy exists there).  ``cache`` (a dict, as for :func:`run_jobs`) reuses games already played.
    """
    base = card_set_of(cards)
    chosen = [str(x).strip().upper() for x in names] if names else None
    for name in chosen or ():
        if name not in base:
            raise unknown_card(name, base)
        if base.card(name).deck is None:
            raise OptionError(f"{name} is in no starter deck: it is never played (R7.1)")
    measured = chosen or [c.name for c in base if c.deck is not None]
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
        cache=cache,
    )
    plays_study = study if plays_n is None else dataclasses.replace(study, n=plays_n)
    jobs_events = plays_study.jobs(base, events=True)
    results = run_jobs(
        jobs_events, workers=study.workers, progress=progress, desc="card plays", runner=runner, cache=study.cache
    )
    plays = pl.concat(
        _plays_of(r).with_columns(pl.lit(j.deck_a, pl.Int8).alias("deck_a"), pl.lit(j.deck_b, pl.Int8).alias("deck_b"))
        for j, r in zip(jobs_events, results, strict=True)
    ).filter(pl.col("card").is_in(measured))
    table = _play_numbers(plays, base)
    if impact:
        table = table.join(_removal(base, measured, study), on="card", how="left")
    return table.sort("deck", "card")


def _play_numbers(plays: pl.DataFrame, cards: CardSet) -> pl.DataFrame:
    def rate(mask: pl.Expr, name: str) -> list[pl.Expr]:
        wins, games = (pl.col("won") & mask).sum(), mask.sum()
        low, high = wilson_exprs(wins, games)
        return [
            games.alias(f"games_{name}"),
            (wins / games).alias(f"win_{name}"),
            low.alias(f"win_{name}_low"),
            high.alias(f"win_{name}_high"),
        ]

    played = pl.col("played")
    play_low, play_high = wilson_exprs(played.sum(), pl.len())
    turn, turn_low, turn_high = mean_exprs(pl.col("first_turn").filter(played).cast(pl.Float64))
    health, health_low, health_high = mean_exprs(pl.col("hand_health_after").drop_nulls())
    table = plays.group_by("card").agg(
        pl.len().alias("games"),
        played.sum().alias("played"),
        (played.sum() / pl.len()).alias("play_rate"),
        play_low.alias("play_low"),
        play_high.alias("play_high"),
        turn.alias("first_turn"),
        turn_low.alias("first_turn_low"),
        turn_high.alias("first_turn_high"),
        *rate(played, "played"),
        *rate(~played, "not_played"),
        health.alias("hand_health_after"),
        health_low.alias("hand_health_after_low"),
        health_high.alias("hand_health_after_high"),
        pl.col("hand_health_after").drop_nulls().len().alias("hand_health_games"),
    )
    decks = pl.DataFrame(
        {"card": [c.name for c in cards], "deck": [c.deck for c in cards]},
        schema={"card": pl.String, "deck": pl.Int8},
    )
    table = table.with_columns(pl.col(pl.Float64).fill_nan(None), pl.col(pl.UInt32).cast(pl.Int64))
    return decks.join(table, on="card")


def _removal(base: CardSet, names: Sequence[str], study: Study) -> pl.DataFrame:
    """For each card, its deck's paired change when it is replaced by :func:`vanilla`."""
    baseline_jobs = study.jobs(base)
    variant_jobs = {}
    for name in names:
        card = base.card(name)
        assert card.deck is not None, "only the cards of a starter deck are measured (card_plays)"
        variant_jobs[name] = study.jobs(replace_card(base, vanilla(card)), decks={card.deck})
    flat = baseline_jobs + [j for jobs in variant_jobs.values() for j in jobs]
    results = run_jobs(
        flat, workers=study.workers, progress=study.progress, desc="removals", runner=study.runner, cache=study.cache
    )
    before = outcomes(baseline_jobs, results[: len(baseline_jobs)])
    rows, i = [], len(baseline_jobs)
    for name, jobs in variant_jobs.items():
        after = outcomes(jobs, results[i : i + len(jobs)])
        i += len(jobs)
        deck = base.card(name).deck
        change = paired_changes(before, after).filter(pl.col("deck") == deck).drop("sd")
        games = sides(after).filter(pl.col("deck") == deck).height
        rows.append(
            change.select(
                pl.lit(name).alias("card"),
                pl.col("change").alias("removed_change"),
                pl.col("change_low").alias("removed_low"),
                pl.col("change_high").alias("removed_high"),
                pl.lit(games, pl.Int64).alias("removed_games"),
            )
        )
    return pl.concat(rows)
