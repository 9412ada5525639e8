"""The tuner: the smallest changes to the cards — their values and, if asked, what they do — that
balance the starter decks, checked on fresh seeds (``clashkit tune``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.limits import fraction
from ...base.points import percent_text, points_text
from ...base.rules import Rules
from ...base.suggest import did_you_mean
from ..analysis import first_player
from .changes import Change, apply_changes, size
from .jobs import Runner
from .matrix import Balance, card_set_of, make_study, on_cluster, rate_text
from .strengths import DECKS, Objective, distance_improvement, skill_distance, strengths
from .study import matchups
from .variants import FIELDS, TEXT_FIELDS, unknown_card

#: The fields :func:`tune` changes unless told otherwise.
TUNE_FIELDS = ("cost", "attack", "health")
#: Every field :func:`tune` can change: the numbers, then what a card does.
ALL_FIELDS = tuple(dict.fromkeys(f for fields in (*FIELDS.values(), *TEXT_FIELDS.values()) for f in fields))
#: :func:`tune` checks its proposal on master seeds ``seed + CHECK_SEED_OFFSET + k``.
CHECK_SEED_OFFSET = 1_000_000
#: What the tuner says when it proposes nothing (the command line and the notebooks).
NO_CHANGE_PROPOSED = "No change proposed: none improved the balance on fresh seeds."


@dataclass(frozen=True)
class ParetoRow:
    """The best set of at most ``limit`` changes the search found (``changes``; its ``search``
    distance on the search's seeds), checked on fresh seeds: the largest distance of any deck
    from 50% at any strength ``before`` and ``after`` the changes, and the paired 95%
    bootstrap interval of the ``improvement`` (``before − after``)."""

    limit: int
    changes: tuple[Change, ...]
    search: float
    before: float
    after: float
    improvement: float
    low: float | None
    high: float | None

    @property
    def size(self) -> int:
        return size(self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "changes": [c.to_dict() for c in self.changes],
            "size": self.size,
            "search": self.search,
            "before": self.before,
            "after": self.after,
            "improvement": self.improvement,
            "improvement_low": self.low,
            "improvement_high": self.high,
        }


@dataclass(frozen=True)
class Tuning:
    """What :func:`tune` proposes: ``changes`` (the Pareto row that is best on fresh seeds), the
    balance ``before`` and ``after`` on those fresh seeds at the first strength, and the search's
    own record.  ``at`` holds (before, after) at every strength, ``pareto`` the trade-off
    between the number of changes and the distance reached."""

    changes: tuple[Change, ...]
    before: Balance
    after: Balance
    cards: CardSet
    searched: tuple[Change, ...]
    search_distances: tuple[float, ...]
    check_distances: tuple[float, ...]
    candidates: int
    games: int
    check_seed: int
    at: dict[str, tuple[Balance, Balance]] = dataclasses.field(default_factory=dict)
    pareto: tuple[ParetoRow, ...] = ()
    stopped: str | None = None
    objective: Objective = DECKS

    @property
    def policies(self) -> list[str]:
        return list(self.at) or [self.before.policy]

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit tune --json`` prints (see ``clashkit COMMAND --help`` and docs/commands.md):
        for one strength ``{"changes", "before", "after", …}``; for several ``"before"`` and
        ``"after"`` are per strength, under ``"policies": {P: {"before", "after"}}``."""
        data: dict[str, Any] = {"changes": [c.to_dict() for c in self.changes]}
        if len(self.policies) == 1:
            data |= {"before": self.before.to_dict(), "after": self.after.to_dict()}
        else:
            data["policies"] = {p: {"before": b.to_dict(), "after": a.to_dict()} for p, (b, a) in self.at.items()}
            data["distance"] = dict(zip(("before", "after"), self.distances, strict=True))
        if self.objective.both_ways:
            data["objective"] = self.objective.to_dict()
        return data | {
            "searched": [c.to_dict() for c in self.searched],
            "search_distances": list(self.search_distances),
            "check_distances": list(self.check_distances),
            "check_seed": self.check_seed,
            "candidates": self.candidates,
            "games": self.games,
            "pareto": [r.to_dict() for r in self.pareto],
            "stopped": self.stopped,
        }

    @property
    def distances(self) -> tuple[float, float]:
        """The objective on the fresh seeds, before and after the proposal: the largest distance of
        any deck from 50% at any strength, with the terms :attr:`objective` weighs."""
        pairs = list(self.at.values()) or [(self.before, self.after)]
        return max(self.objective.of(b) for b, _ in pairs), max(self.objective.of(a) for _, a in pairs)

    def table(self, cards: CardSet | None = None) -> pl.DataFrame:
        """The proposal beside the shipped values: ``card``, ``field``, ``shipped``,
        ``proposed``; whole numbers when every change is a number's, else text (a card-file
        cell's, a number in digits)."""
        numbers = all(isinstance(v, int) for c in self.changes for v in (c.old, c.new))
        kind = pl.Int64 if numbers else pl.String
        return pl.DataFrame(
            [
                {"card": c.card, "field": c.field, "shipped": c.old, "proposed": c.new}
                if numbers
                else {"card": c.card, "field": c.field, "shipped": str(c.old), "proposed": str(c.new)}
                for c in self.changes
            ],
            schema={"card": pl.String, "field": pl.String, "shipped": kind, "proposed": kind},
        )

    def pareto_table(self) -> pl.DataFrame:
        """One row per number of changes: the best set found with at most that many, its
        distance on the search's seeds and on fresh ones, and the improvement's interval."""
        return pl.DataFrame(
            [
                {
                    "changes": r.limit,
                    "changed": "; ".join(map(str, r.changes)),
                    "size": r.size,
                    "search": r.search,
                    "fresh": r.after,
                    "improvement": r.improvement,
                    "improvement_low": r.low,
                    "improvement_high": r.high,
                }
                for r in self.pareto
            ],
            schema={
                "changes": pl.Int64,
                "changed": pl.String,
                "size": pl.Int64,
                "search": pl.Float64,
                "fresh": pl.Float64,
                "improvement": pl.Float64,
                "improvement_low": pl.Float64,
                "improvement_high": pl.Float64,
            },
        )

    def __str__(self) -> str:
        lines = []
        if self.changes:
            lines.append("Proposed changes:")
            lines += [f"  {c}" for c in self.changes]
        else:
            lines.append(NO_CHANGE_PROPOSED)
        dropped = [c for c in self.searched if c not in self.changes]
        if dropped:
            lines.append("Found by the search but not confirmed on fresh seeds: " + "; ".join(map(str, dropped)))
        names = self.policies
        at = f"at any of {', '.join(names)}" if len(names) > 1 else f"under {names[0]}"
        lines += [
            "",
            f"Checked on fresh seeds ({self.check_seed}+k): {self.objective.text()} {at} "
            f"{percent_text(self.distances[0], sign='')} → {percent_text(self.distances[1], sign='')} points.",
        ]
        lines.append(self.first_player_text())
        if self.search_distances:
            lines += ["", *self._pareto_lines()]
        if len(names) > 1:
            lines += ["", *self._strength_lines()]
        else:
            lines += ["", "Before:", str(self.before), "", "After:", str(self.after)]
        stop = f"; {self.stopped}" if self.stopped else ""
        lines += ["", f"({self.candidates:,} candidate sets tried, {self.games:,} games played{stop})"]
        return "\n".join(lines)

    def first_player_text(self) -> str:
        """The first player's rate (R2.3) on the fresh seeds, shipped → proposed, at each
        strength, with 95% intervals: what ``first_weight`` asks to bring near 50%."""
        pairs = self.at or {self.before.policy: (self.before, self.after)}
        parts = [
            " → ".join(rate_text(*first_player(b.matchups)) for b in pair) + f" under {policy}"
            for policy, pair in pairs.items()
        ]
        return "The first player's rate (R2.3), shipped → proposed: " + "; ".join(parts) + "."

    def _pareto_lines(self) -> list[str]:
        lines = [
            "Fewest changes against distance (search seeds, then fresh seeds; improvement with its paired 95% "
            "interval, bootstrap over the games):",
            "",
            "| at most | changes | search (points from 50%) | fresh | improvement (points) |",
            "| ---: | --- | ---: | ---: | --- |",
        ]
        lines.append(
            f"| 0 | — (as shipped) | {percent_text(self.search_distances[0], sign='')} | "
            f"{percent_text(self.check_distances[0], sign='')} | |"
        )
        for r in self.pareto:
            changed = "; ".join(map(str, r.changes))
            interval = "" if r.low is None else f" [{points_text(r.low)}, {points_text(r.high)}]"
            lines.append(
                f"| {r.limit} | {changed} | {percent_text(r.search, sign='')} | {percent_text(r.after, sign='')} | "
                f"{points_text(r.improvement)}{interval} |"
            )
        if not self.pareto:
            lines.append("(no set of changes tried did better than the set as shipped on the search's seeds)")
        return lines

    def _strength_lines(self) -> list[str]:
        names = list(self.at)
        lines = [
            "Each deck's rate on the fresh seeds, shipped → proposed:",
            "",
            "| deck | " + " | ".join(names) + " |",
            "| --- |" + " --- |" * len(names),
        ]
        decks = sorted(self.before.decks["deck"].to_list())
        rates = {p: (b.decks, a.decks) for p, (b, a) in self.at.items()}
        for deck in decks:
            cells = []
            for p in names:
                b, a = (float(f.filter(pl.col("deck") == deck)["rate"][0]) for f in rates[p])
                cells.append(f"{percent_text(b, sign='')} → {percent_text(a, sign='')}")
            lines.append(f"| deck {deck} | " + " | ".join(cells) + " |")
        return lines


@on_cluster
def tune(
    n: int = 200,
    max_changes: int = 3,
    *,
    fields: Sequence[str] = TUNE_FIELDS,
    step: int = 1,
    max_step: int | None = None,
    beam: int = 3,
    names: Sequence[str] | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    policies: Sequence[str] | str | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    check_seed: int | None = None,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    budget_seconds: float | None = None,
    evaluations: int | None = None,
    bootstrap: int = 1000,
    pairing_weight: float = 0.0,
    first_weight: float = 0.0,
    keep_character: bool = False,
) -> Tuning:
    """Search for the fewest changes to the cards of the starter decks that bring every deck
    near 50% at every strength, then check them on fresh seeds.

    The objective is the largest distance of any deck's overall rate from 50% at any of
    ``policies`` (or at ``policy``; :func:`~clashkit.studies.design.strengths.skill_distance`),
    then the number of changes, then their size.  With ``pairing_weight`` (0 … 1) an ordered
    pairing's distance from 50% counts too, times that weight (1/3: a pairing may stray three
    times as far as a deck), and with ``first_weight`` the first player's (R2.3); with either,
    the search tries changes either way (:class:`~clashkit.studies.design.strengths.Objective`).
    The search
    (:func:`~clashkit.studies.design.beam.beam_search`) adds one change a round to each of the
    ``beam`` best sets so far: every change of ``step``, ``2·step`` … ``max_step`` (default
    ``2·step``) to one of ``fields`` of a card of a starter deck that the card file allows, in
    the direction that brings its deck toward 50% at the strength where it is furthest, a
    (card, field) changed at most once.  ``fields`` may also name what a card does —
    ``ability``, ``aura``, ``effect``, ``target``
    (:func:`~clashkit.studies.design.changes.text_options`), tried either way — each weighing
    :data:`~clashkit.studies.design.changes.CHANGE_WEIGHT` in the size; no candidate breaks the
    card file's limits or R9.2.  With ``keep_character`` every change keeps its card's character
    (:func:`~clashkit.studies.design.changes.keeps_character`: cost ±1 at most, no ability or
    Aura taken away, an incantation meant for the same side).  Every candidate plays the same ``n`` games per pairing
    at every strength (master seeds ``seed + k``: common random numbers; only the pairings of
    the changed decks are played again), on the fast engine where the policies exist there.
    It stops after ``max_changes`` rounds, when a round finds nothing better, or when
    ``budget_seconds`` or ``evaluations`` (candidate sets tried) run out.

    The best set of at most 1, 2, … changes (the Pareto rows) is then played again on master
    seeds ``check_seed + k`` (default ``seed + CHECK_SEED_OFFSET``) with the shipped set, at
    every strength; each row gets the improvement of the distance with a paired bootstrap
    interval over the games, and the proposal is the row with the smallest distance there
    (the fewer changes on a tie; no change if none beats the shipped set), so a change that
    only fitted the search's seeds is dropped.
    """
    from .beam import beam_search

    chosen = strengths(policy, policies)
    base = card_set_of(cards)
    if isinstance(max_changes, bool) or not isinstance(max_changes, int) or max_changes < 0:
        raise OptionError(f"max changes {max_changes!r} must be a whole number ≥ 0")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise OptionError(f"step {step!r} must be a whole number ≥ 1")
    max_step = 2 * step if max_step is None else max_step
    if isinstance(max_step, bool) or not isinstance(max_step, int) or max_step < step:
        raise OptionError(f"max step {max_step!r} must be a whole number ≥ step ({step})")
    if isinstance(beam, bool) or not isinstance(beam, int) or beam < 1:
        raise OptionError(f"beam {beam!r} must be a whole number ≥ 1")
    objective = Objective(pairing_weight, first_weight)
    if budget_seconds is not None:
        budget_seconds = fraction(budget_seconds, "budget_seconds", "budget_seconds", OptionError)
    fields = tuple(dict.fromkeys(str(f).strip().lower() for f in fields))
    for f in fields:
        if f not in ALL_FIELDS:
            raise OptionError(f"unknown field {f!r} (one of {', '.join(ALL_FIELDS)}){did_you_mean(f, ALL_FIELDS)}")
    if not fields:
        raise OptionError(f"no field to tune (one of {', '.join(ALL_FIELDS)})")
    if names is not None:
        names = [str(x).strip().upper() for x in names]
        for name in names:
            if name not in base:
                raise unknown_card(name, base)
    study = make_study(
        n,
        seed=seed,
        policy=chosen[0],
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=False,
        runner=runner,
    )
    check_seed = seed + CHECK_SEED_OFFSET if check_seed is None else check_seed
    found = beam_search(
        study,
        chosen,
        base,
        max_changes,
        fields=fields,
        sizes=range(step, max_step + 1, step),
        names=names,
        beam=beam,
        budget_seconds=budget_seconds,
        evaluations=evaluations,
        progress=progress,
        objective=objective,
        keep_character=keep_character,
    )
    # The check: the shipped set and every Pareto row on fresh seeds, at every strength.
    rows = found.rows
    sets = [apply_changes(base, r.changes) for r in rows]
    checking = dataclasses.replace(study, progress=progress)  # its own bar, estimate and all strengths
    checked = checking.play_at(chosen, [base, *sets], seed=check_seed, desc="tune: check on fresh seeds")
    before = {p: games[0] for p, games in checked.items()}
    pareto = []
    for i, r in enumerate(rows):
        after = {p: games[1 + i] for p, games in checked.items()}
        gain, low, high = distance_improvement(before, after, seed=check_seed, bootstrap=bootstrap, objective=objective)
        pareto.append(
            ParetoRow(
                r.limit,
                r.changes,
                r.distance,
                skill_distance(before, objective),
                skill_distance(after, objective),
                gain,
                low,
                high,
            )
        )
    start = skill_distance(before, objective)
    best = min(
        [None, *range(len(pareto))],
        key=lambda k: (round(start if k is None else pareto[k].after, 12), 0 if k is None else pareto[k].limit),
    )
    kept = () if best is None else pareto[best].changes
    at = {
        p: (
            Balance(matchups(games[0]), n, check_seed, p),
            Balance(matchups(games[0 if best is None else 1 + best]), n, check_seed, p),
        )
        for p, games in checked.items()
    }
    first = at[chosen[0]]
    games_played = sum(key[3] for key in study.cache)  # Job.key's n
    searched = pareto[-1].changes if pareto else ()
    return Tuning(
        tuple(kept),
        first[0],
        first[1],
        apply_changes(base, kept),
        searched,
        (found.start, *(r.search for r in pareto)),
        (start, *(r.after for r in pareto)),
        found.evaluations,
        games_played,
        check_seed,
        at if len(chosen) > 1 else {},
        tuple(pareto),
        found.stopped,
        objective,
    )
