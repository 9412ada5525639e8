"""The tuner: the smallest changes to the card values that balance the starter decks, checked
on fresh seeds (``clashkit tune``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.points import percent_text
from ...base.rules import Rules
from ...base.suggest import did_you_mean
from .jobs import Runner
from .matrix import Balance, card_set_of, make_study, on_cluster
from .study import matchups
from .variants import _AMOUNT_EFFECTS, FIELDS, field_value, unknown_card, vary

#: The fields :func:`tune` changes unless told otherwise.
TUNE_FIELDS = ("cost", "attack", "health")
#: :func:`tune` checks its proposal on master seeds ``seed + CHECK_SEED_OFFSET + k``.
CHECK_SEED_OFFSET = 1_000_000
#: What the tuner says when it proposes nothing (the command line and the notebooks).
NO_CHANGE_PROPOSED = "No change proposed: none improved the balance on fresh seeds."


@dataclass(frozen=True, slots=True)
class Change:
    """One field of one card changed: ``card``'s ``field`` from ``old`` to ``new``."""

    card: str
    field: str
    old: int
    new: int

    def __str__(self) -> str:
        return f"{self.card} {self.field} {self.old} → {self.new}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "from": self.old, "to": self.new}


def apply_changes(cards: CardSet, changes: Iterable[Change]) -> CardSet:
    """``cards`` with every change made (in place, :func:`vary`)."""
    for change in changes:
        cards = vary(cards, change.card, **{change.field: change.new})
    return cards


@dataclass(frozen=True)
class Tuning:
    """What :func:`tune` proposes: ``changes`` (kept after the check on fresh seeds), the
    balance ``before`` and ``after`` on those fresh seeds, and the search's own record."""

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

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit tune --json`` prints (see ``clashkit COMMAND --help`` and docs/commands.md)."""
        return {
            "changes": [c.to_dict() for c in self.changes],
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "searched": [c.to_dict() for c in self.searched],
            "search_distances": list(self.search_distances),
            "check_distances": list(self.check_distances),
            "check_seed": self.check_seed,
            "candidates": self.candidates,
            "games": self.games,
        }

    def table(self, cards: CardSet | None = None) -> pl.DataFrame:
        """The proposal beside the shipped values: ``card``, ``field``, ``shipped``,
        ``proposed``."""
        return pl.DataFrame(
            [{"card": c.card, "field": c.field, "shipped": c.old, "proposed": c.new} for c in self.changes],
            schema={"card": pl.String, "field": pl.String, "shipped": pl.Int64, "proposed": pl.Int64},
        )

    def __str__(self) -> str:
        lines = []
        if self.changes:
            lines.append("Proposed changes:")
            lines += [f"  {c}" for c in self.changes]
        else:
            lines.append(NO_CHANGE_PROPOSED)
        dropped = self.searched[len(self.changes) :]
        if dropped:
            lines.append("Found by the search but not confirmed on fresh seeds: " + "; ".join(map(str, dropped)))
        lines += [
            "",
            f"Checked on fresh seeds ({self.check_seed}+k): largest distance from 50% "
            f"{percent_text(self.before.distance, sign='')} → {percent_text(self.after.distance, sign='')} points.",
            "",
            "Before:",
            str(self.before),
            "",
            "After:",
            str(self.after),
            "",
            f"({self.candidates:,} candidate changes tried, {self.games:,} games played)",
        ]
        return "\n".join(lines)


def candidates(
    cards: CardSet,
    fields: Sequence[str],
    step: int,
    *,
    names: Sequence[str] | None = None,
    done: Iterable[tuple[str, str]] = (),
) -> list[Change]:
    """Every single-field change of ±``step`` to a card of a starter deck that the card file
    allows (cost ≥ 0, health ≥ 1, …), fields already changed (``done``) left out."""
    done = set(done)
    out = []
    for card in cards:
        if card.deck is None or (names is not None and card.name not in names):
            continue
        for f in fields:
            if f not in FIELDS[card.kind] or (card.name, f) in done:
                continue
            if f == "amount" and card.effect not in _AMOUNT_EFFECTS:
                continue
            value = field_value(card, f)
            for new in (value - step, value + step):
                try:
                    vary(cards, card.name, **{f: new})
                except OptionError:
                    continue
                out.append(Change(card.name, f, value, new))
    return out


@on_cluster
def tune(
    n: int = 200,
    max_changes: int = 3,
    *,
    fields: Sequence[str] = TUNE_FIELDS,
    step: int = 1,
    names: Sequence[str] | None = None,
    cards: CardSet | str | os.PathLike | None = None,
    policy: str = "greedy",
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    check_seed: int | None = None,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Tuning:
    """Search for up to ``max_changes`` single-field changes of ±``step`` to the cards of the
    starter decks that bring the largest distance of any deck's overall rate from 50% down
    most, then check them on fresh seeds.

    The search is greedy: each round tries every candidate (:func:`candidates`) on the same
    ``n`` games per pairing (master seeds ``seed + k``; only the pairings of the changed
    card's deck are played again) and keeps the one with the smallest largest distance, if
    it beats the set without it; a (card, field) is changed at most once.  The check plays
    the whole matrix after each number of changes on master seeds ``check_seed + k``
    (default ``seed + CHECK_SEED_OFFSET``) and keeps the prefix of the changes with the
    smallest distance there, so a change that only fitted the search's seeds is dropped.
    """
    base = card_set_of(cards)
    if isinstance(max_changes, bool) or not isinstance(max_changes, int) or max_changes < 0:
        raise OptionError(f"max changes {max_changes!r} must be a whole number ≥ 0")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise OptionError(f"step {step!r} must be a whole number ≥ 1")
    known = sorted({f for fs in FIELDS.values() for f in fs})
    fields = tuple(dict.fromkeys(str(f).strip().lower() for f in fields))
    for f in fields:
        if f not in known:
            raise OptionError(f"unknown field {f!r} (one of {', '.join(known)}){did_you_mean(f, known)}")
    if not fields:
        raise OptionError("no field to tune (cost, attack, health, amount)")
    if names is not None:
        names = [str(x).strip().upper() for x in names]
        for name in names:
            if name not in base:
                raise unknown_card(name, base)
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
    check_seed = seed + CHECK_SEED_OFFSET if check_seed is None else check_seed

    def distance(games: pl.DataFrame) -> float:
        return Balance(matchups(games), n, seed).distance

    current = base
    (games_now,) = study.play([current], desc="tune: the set as it is")
    found: list[Change] = []
    distances = [distance(games_now)]
    tried = 0
    for round_ in range(max_changes):
        options = candidates(current, fields, step, names=names, done={(c.card, c.field) for c in found})
        if not options:
            break
        tried += len(options)
        variants = [apply_changes(current, [c]) for c in options]
        played = study.play(variants, desc=f"tune: change {round_ + 1} of {max_changes}")
        scored = [(distance(g), i) for i, g in enumerate(played)]
        best, i = min(scored)
        if best >= distances[-1]:
            break
        found.append(options[i])
        current, games_now = variants[i], played[i]
        distances.append(best)
    prefixes = [apply_changes(base, found[:k]) for k in range(len(found) + 1)]
    checked = study.play(prefixes, seed=check_seed, desc="tune: check on fresh seeds")
    check = [Balance(matchups(g), n, check_seed, str(policy)) for g in checked]
    keep = min(range(len(check)), key=lambda k: (round(check[k].distance, 12), k))
    games_played = sum(key[3] for key in study.cache)  # Job.key's n
    return Tuning(
        tuple(found[:keep]),
        check[0],
        check[keep],
        prefixes[keep],
        tuple(found),
        tuple(distances),
        tuple(c.distance for c in check),
        tried,
        games_played,
        check_seed,
    )
