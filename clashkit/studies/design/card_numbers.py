"""Per-card numbers: how often each card is played, when, its deck's rate with and without
it, its owner's hand-health after it, and the change when it is removed (``clashkit card-
stats``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.rules import Rules
from ...base.stats import mean_exprs, wilson_exprs
from .jobs import Job, Runner, _plays_of, run_jobs
from .matrix import card_set_of, make_study, on_cluster
from .strengths import no_changes, skill_changes, strengths
from .study import Study, outcomes, paired_changes, paired_contrast, sides
from .variants import replace_card, unknown_card, vanilla


@dataclass(frozen=True)
class SkillCardStats:
    """Card stats at several strengths on the same seeds (``tables``, weakest first, each as
    :func:`card_stats` returns it), each deck's paired change of rate from the first strength
    to each later one over the play numbers' games (``decks``,
    :func:`~clashkit.studies.design.strengths.skill_changes`)
    and, per card, how much more (or less) its removal changes its deck at the later strength
    (``removed``: ``card``, ``deck``, ``from``, ``to``, ``change``, ``change_low``,
    ``change_high``, ``clear``; a paired difference of two paired changes, game by game)."""

    tables: dict[str, pl.DataFrame]
    decks: pl.DataFrame
    removed: pl.DataFrame
    n: int
    seed: int

    def table(self) -> pl.DataFrame:
        """One row per card: ``play_rate <policy>``, ``removed_change <policy>`` at each strength
        and ``removed <to> − <from>`` for each later one."""
        out = None
        for policy, t in self.tables.items():
            cols = [pl.col("play_rate").alias(f"play_rate {policy}")]
            if "removed_change" in t.columns:
                cols.append(pl.col("removed_change").alias(f"removed_change {policy}"))
            part = t.select("card", "deck", *cols)
            out = part if out is None else out.join(part, on=["card", "deck"])
        assert out is not None, "skill card stats hold a table at each of their strengths"
        for (f, t), part in self.removed.group_by("from", "to", maintain_order=True):
            out = out.join(part.select("card", pl.col("change").alias(f"removed {t} − {f}")), on="card")
        return out.sort("deck", "card")

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit card-stats --json`` prints: for one strength ``{"n", "seed",
        "policy", "cards"}``; for several ``{"n", "seed", "policies": {P: <that object>},
        "decks": [<deck changes>], "removed": [<card changes>]}``."""
        per = {p: {"n": self.n, "seed": self.seed, "policy": p, "cards": t.to_dicts()} for p, t in self.tables.items()}
        if len(per) == 1:
            return next(iter(per.values()))
        return {
            "n": self.n,
            "seed": self.seed,
            "policies": per,
            "decks": self.decks.to_dicts(),
            "removed": self.removed.to_dicts(),
        }


@on_cluster
def card_stats(
    n: int = 2000,
    *,
    names: Sequence[str] | None = None,
    impact: bool = True,
    plays_n: int | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    policies: Sequence[str] | str | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> Any:
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

    A frame at ``policy``; with ``policies`` (weakest first) a :class:`SkillCardStats`: the
    table at each strength on the same seeds (each phase played as one list of jobs for all
    strengths), the decks' paired changes between strengths and each card's change of impact.
    """
    chosen_strengths = strengths(policy, policies)
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
        policy=chosen_strengths[0],
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=progress,
        runner=runner,
        cache=cache,
    )
    studies = {p: study if p == chosen_strengths[0] else study.at(p) for p in chosen_strengths}
    plays_jobs = {
        p: (s if plays_n is None else dataclasses.replace(s, n=plays_n)).jobs(base, events=True)
        for p, s in studies.items()
    }
    flat = [j for jobs in plays_jobs.values() for j in jobs]
    results = iter(
        run_jobs(flat, workers=study.workers, progress=progress, desc="card plays", runner=runner, cache=study.cache)
    )
    tables, games = {}, {}
    for p, jobs_events in plays_jobs.items():
        done = [next(results) for _ in jobs_events]
        games[p] = outcomes(jobs_events, done)
        plays = pl.concat(
            _plays_of(r).with_columns(
                pl.lit(j.deck_a, pl.Int8).alias("deck_a"), pl.lit(j.deck_b, pl.Int8).alias("deck_b")
            )
            for j, r in zip(jobs_events, done, strict=True)
        ).filter(pl.col("card").is_in(measured))
        tables[p] = _play_numbers(plays, base)
    played: dict[str, tuple[pl.DataFrame, dict[str, pl.DataFrame]]] = {}
    if impact:
        played = _removal_games(base, measured, studies)
        for p in tables:
            tables[p] = tables[p].join(_removal(base, *played[p]), on="card", how="left")
    tables = {p: t.sort("deck", "card") for p, t in tables.items()}
    if policies is None:
        return tables[chosen_strengths[0]]
    removed = _impact_changes(base, played) if impact else no_changes({"card": pl.String, "deck": pl.Int8})
    return SkillCardStats(tables, skill_changes(games), removed, n, seed)


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


def _removal_games(
    base: CardSet, names: Sequence[str], studies: Mapping[str, Study]
) -> dict[str, tuple[pl.DataFrame, dict[str, pl.DataFrame]]]:
    """At each strength, the outcomes of the set as it is and of the set with each card replaced
    by :func:`vanilla` (only the pairings of its deck), played as one list of jobs."""
    plan: list[tuple[str, str | None, list[Job]]] = []
    for p, study in studies.items():
        plan.append((p, None, study.jobs(base)))
        for name in names:
            card = base.card(name)
            assert card.deck is not None, "only the cards of a starter deck are measured (card_plays)"
            plan.append((p, name, study.jobs(replace_card(base, vanilla(card)), decks={card.deck})))
    first = next(iter(studies.values()))
    flat = [j for _, _, jobs in plan for j in jobs]
    results = run_jobs(
        flat, workers=first.workers, progress=first.progress, desc="removals", runner=first.runner, cache=first.cache
    )
    out: dict[str, tuple[pl.DataFrame, dict[str, pl.DataFrame]]] = {}
    i = 0
    for p, removed, jobs in plan:
        games = outcomes(jobs, results[i : i + len(jobs)])
        i += len(jobs)
        if removed is None:
            out[p] = (games, {})
        else:
            out[p][1][removed] = games
    return out


def _removal(base: CardSet, before: pl.DataFrame, removed: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """For each card, its deck's paired change when it is replaced by :func:`vanilla`."""
    rows = []
    for name, after in removed.items():
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


def _impact_changes(base: CardSet, played: Mapping[str, tuple[pl.DataFrame, dict[str, pl.DataFrame]]]) -> pl.DataFrame:
    """Per card and later strength: its removal's change at that strength minus at the first,
    paired game by game (:func:`paired_contrast`)."""
    names = list(played)
    weak_before, weak_removed = played[names[0]]
    rows = []
    for p in names[1:]:
        before, removed = played[p]
        for name, after in removed.items():
            deck = base.card(name).deck
            terms = [(1.0, after), (-1.0, before), (-1.0, weak_removed[name]), (1.0, weak_before)]
            change = paired_contrast(terms).filter(pl.col("deck") == deck).drop("sd")
            rows.append(
                change.select(
                    pl.lit(name).alias("card"),
                    "deck",
                    pl.lit(names[0]).alias("from"),
                    pl.lit(p).alias("to"),
                    pl.all().exclude("deck"),
                )
            )
    return pl.concat(rows) if rows else no_changes({"card": pl.String, "deck": pl.Int8})
