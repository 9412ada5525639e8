"""Sweeps: a card's field set to each of several values, each deck's change against the card
as shipped with a paired interval (``clashkit sweep``)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.limits import whole_number
from ...base.rules import Rules
from ..analysis import deck_rates, deck_results
from .jobs import Runner
from .matrix import card_set_of, make_study, on_cluster, percent_text, points_text
from .strengths import skill_changes, strengths
from .study import matchups, paired_changes
from .variants import field_value, unknown_card, vary


@dataclass(frozen=True)
class Sweep:
    """A card's fields set to each combination of values: ``rows`` (one per combination and
    deck), ``matchups`` (:data:`~clashkit.studies.analysis.MATCHUPS_SCHEMA` with the fields'
    columns first) and ``cells`` (one per combination and cell of the balance matrix: the
    row deck's paired change against the column deck, both seats)."""

    card: str
    fields: tuple[str, ...]
    shipped: tuple[int, ...]
    rows: pl.DataFrame
    matchups: pl.DataFrame
    n: int
    seed: int
    cells: pl.DataFrame | None = None

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit sweep --json`` prints (see ``clashkit COMMAND --help`` and docs/commands.md)."""
        one = len(self.fields) == 1
        rows = []
        for row in self.rows.iter_rows(named=True):
            values = {f: row[f] for f in self.fields}
            rows.append(
                {
                    "value": values[self.fields[0]] if one else [values[f] for f in self.fields],
                    "values": values,
                    "deck": row["deck"],
                    "games": row["games"],
                    "rate": row["rate"],
                    "low": row["low"],
                    "high": row["high"],
                    "change": row["change"],
                    "change_low": row["change_low"],
                    "change_high": row["change_high"],
                    "clear": row["clear"],
                }
            )
        return {
            "card": self.card,
            "field": ",".join(self.fields),
            "shipped": dict(zip(self.fields, self.shipped, strict=True)),
            "n": self.n,
            "seed": self.seed,
            "rows": rows,
        }

    def __str__(self) -> str:
        shipped = ", ".join(f"{f} {v}" for f, v in zip(self.fields, self.shipped, strict=True))
        head = " ".join(f"{f:>7}" for f in self.fields)
        lines = [
            f"{self.card} (in the card file: {shipped}); {self.n:,} games per ordered pairing, seeds "
            f"{self.seed}+k; change against the card file's {self.card} on the same seeds (paired 95% interval)",
            "",
            f"{head}  deck  {'rate':>6}  {'95% interval':<14} {'games':>6}  change (points)",
        ]
        for row in self.rows.iter_rows(named=True):
            values = " ".join(f"{row[f]:>7}" for f in self.fields)
            low, high = points_text(row["change_low"]), points_text(row["change_high"])
            verdict = f"{points_text(row['change'])} [{low}, {high}]"
            if not row["clear"]:
                verdict += "  cannot be told from 0"
            if row["change_low"] == row["change_high"] == 0:
                verdict = "±0 (no game changed)"
            lines.append(
                f"{values}  {row['deck']:>4}  {percent_text(row['rate']):>6}  "
                f"{percent_text(row['low'], 1, '') + '–' + percent_text(row['high'], 1, '') + '%':<14} "
                f"{row['games']:>6}  {verdict}"
            )
        return "\n".join(lines)


def parse_values(text: str, *, where: str = "--set") -> tuple[str, list[int]]:
    """``attack=3,4,5`` (or ``attack=3..7``) as ``("attack", [3, 4, 5])``."""
    name, sep, rest = str(text).partition("=")
    name = name.strip().lower()
    if not sep or not name:
        raise OptionError(f"{where} {text!r}: write FIELD=V1,V2,… (e.g. attack=3,4,5)")
    values: list[int] = []
    for part in (p.strip() for p in rest.split(",")):
        if not part:
            continue
        low, dots, high = part.partition("..")
        # Each bound has at most two digits (clashkit.base.limits), so a range is short.
        bounds = [whole_number(b, "sweep", f"{where} {name}", OptionError) for b in ((low, high) if dots else (part,))]
        if bounds[0] > bounds[-1]:
            raise OptionError(
                f"{where} {name}={part}: the range is reversed (from {bounds[0]} down to {bounds[-1]}); "
                f"write it low..high: {name}={bounds[-1]}..{bounds[0]}"
            )
        values.extend(range(bounds[0], bounds[-1] + 1))
    if not values:
        raise OptionError(f"{where} {name}: no values given (e.g. {name}=3,4,5)")
    return name, list(dict.fromkeys(values))


@dataclass(frozen=True)
class SkillSweep:
    """A sweep at several strengths on the same seeds (``sweeps``, weakest first) and, per
    combination of values and deck, the paired change of the deck's rate from the first
    strength to each later one (``changes``: the fields, ``from``, ``to``, ``deck``,
    ``change``, ``change_low``, ``change_high``, ``clear``)."""

    sweeps: dict[str, Sweep]
    changes: pl.DataFrame

    @property
    def first(self) -> Sweep:
        return next(iter(self.sweeps.values()))

    def table(self) -> pl.DataFrame:
        """One row per combination and deck: ``rate <policy>`` and ``change <policy>`` (against
        the shipped card) at each strength, then ``<to> − <from>`` (the paired change between
        strengths) for each later strength."""
        keys = [*self.first.fields, "deck"]
        out = None
        for policy, s in self.sweeps.items():
            part = s.rows.select(
                *keys, pl.col("rate").alias(f"rate {policy}"), pl.col("change").alias(f"change {policy}")
            )
            out = part if out is None else out.join(part, on=keys)
        assert out is not None, "a skill sweep holds a sweep at each of its strengths"
        for (f, t), part in self.changes.group_by("from", "to", maintain_order=True):
            out = out.join(part.select(*keys, pl.col("change").alias(f"{t} − {f}")), on=keys)
        return out.sort(keys)

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit sweep --json`` prints: for one strength the sweep's own
        (:meth:`Sweep.to_dict`); for several ``{"card", "field", "shipped", "n", "seed",
        "policies": {P: <the sweep object>}, "changes": [{<fields>, "deck", "from", "to",
        "change", "change_low", "change_high", "clear"}, …]}``."""
        if len(self.sweeps) == 1:
            return self.first.to_dict()
        one = self.first.to_dict()
        return {
            **{k: one[k] for k in ("card", "field", "shipped", "n", "seed")},
            "policies": {p: s.to_dict() for p, s in self.sweeps.items()},
            "changes": self.changes.to_dicts(),
        }

    def __str__(self) -> str:
        if len(self.sweeps) == 1:
            return str(self.first)
        s, names = self.first, list(self.sweeps)
        shipped = ", ".join(f"{f} {v}" for f, v in zip(s.fields, s.shipped, strict=True))
        later = names[1:]
        keys = " ".join(f"{f:>7}" for f in s.fields) + "  deck"
        top = " " * len(keys) + "".join(f"  {p[:28]:<28}" for p in names)
        top += "".join(f"  {(t + ' − ' + names[0])[:24]:<24}" for t in later)
        head = (keys + f"  {'rate':>6}  {'change':<20}" * len(names) + f"  {'change':<24}" * len(later)).rstrip()
        lines = [
            f"{s.card} (in the card file: {shipped}); {s.n:,} games per ordered pairing at each strength, seeds "
            f"{s.seed}+k, the same seeds for every value and strength.",
            f"At each strength: each deck's rate and its change against the card file's {s.card}; then each deck's "
            f"change from {names[0]} to each later strength (points, paired 95% intervals).",
            "",
            top.rstrip(),
            head,
        ]
        rows = {
            p: {tuple(r[f] for f in [*s.fields, "deck"]): r for r in x.rows.iter_rows(named=True)}
            for p, x in self.sweeps.items()
        }
        skill = {(r["to"], *(r[f] for f in [*s.fields, "deck"])): r for r in self.changes.iter_rows(named=True)}
        for key in rows[names[0]]:
            line = " ".join(f"{v:>7}" for v in key[:-1]) + f"  {key[-1]:>4}"
            for p in names:
                r = rows[p][key]
                line += f"  {percent_text(r['rate']):>6}  {_change_text(r):<20}"
            for t in later:
                line += f"  {_change_text(skill[(t, *key)]):<24}"
            lines.append(line.rstrip())
        return "\n".join(lines)


def _change_text(row: Mapping[str, Any]) -> str:
    """``+2.1 [+1.6, +2.6]``, ``±0`` when no game changed."""
    if row["change_low"] == row["change_high"] == 0:
        return "±0"
    return f"{points_text(row['change'])} [{points_text(row['change_low'])}, {points_text(row['change_high'])}]"


@on_cluster
def sweep(
    card: str,
    values: Mapping[str, Sequence[int]],
    n: int = 2000,
    *,
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
) -> Any:
    """Card ``card`` with each combination of ``values`` (``{"attack": [3, 4, 5]}``; several
    fields make a grid), every pairing on the same seeds as the card as shipped: each deck's
    rate and its paired change (R9.3).

    A :class:`Sweep` at ``policy``; with ``policies`` (weakest first, ``["greedy",
    "expert"]``) a :class:`SkillSweep`: the sweep at each strength on the same seeds, all of
    it played as one list of jobs, and each deck's paired change between strengths."""
    names = strengths(policy, policies)
    base, name, combos, variants = sweep_variants(card, values, cards)
    fields = tuple(values)
    shipped_card = base.card(name)
    study = make_study(
        n,
        seed=seed,
        policy=names[0],
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=progress,
        runner=runner,
    )
    played = study.play_at(names, [base, *variants], desc=f"sweep {name}")
    shipped = tuple(field_value(shipped_card, f) for f in fields)
    sweeps = {p: _sweep_of(name, fields, shipped, combos, games, n, seed) for p, games in played.items()}
    if policies is None:
        return sweeps[names[0]]
    changes = [
        skill_changes(
            {p: games[1 + i] for p, games in played.items()},
            labels=[pl.lit(v, pl.Int32).alias(f) for f, v in zip(fields, combo, strict=True)],
        )
        for i, combo in enumerate(combos)
    ]
    return SkillSweep(sweeps, pl.concat(changes))


def sweep_variants(
    card: str, values: Mapping[str, Sequence[int]], cards: CardSet | str | os.PathLike | None = None
) -> tuple[CardSet, str, list[tuple[int, ...]], list[CardSet]]:
    """What a sweep plays: the card set as given, the card's name, each combination of
    ``values`` (in the order of ``values``' fields) and the set with the card changed to it
    (in place, :func:`vary`); a card outside the starter decks or an empty field refused."""
    base = card_set_of(cards)
    name = str(card).strip().upper()
    if name not in base:
        raise unknown_card(str(card).upper(), base, asked=card)
    if base.card(name).deck is None:
        raise OptionError(f"{name} is in no starter deck: changing it changes no game (R7.1)")
    if not values:
        raise OptionError(f"sweep of {name}: no field to set (e.g. attack=3,4,5)")
    fields = tuple(values)
    for f, vs in values.items():
        if not list(vs):
            raise OptionError(f"sweep of {name}: no values for {f}")
    combos = list(itertools.product(*(values[f] for f in fields)))
    return base, name, combos, [vary(base, name, **dict(zip(fields, combo, strict=True))) for combo in combos]


def _sweep_of(name, fields, shipped, combos, played: Sequence[pl.DataFrame], n: int, seed: int) -> Sweep:
    """The sweep of one strength from its outcomes: the shipped set first, then each combination."""
    rows, matrices, cells = [], [], []
    for combo, games in zip(combos, played[1:], strict=True):
        labels = [pl.lit(v, pl.Int32).alias(f) for f, v in zip(fields, combo, strict=True)]
        m = matchups(games)
        matrices.append(m.select(*labels, pl.all()))
        rates = deck_rates(m).select("deck", "games", "rate", "low", "high")
        change = paired_changes(played[0], games).drop("sd")
        rows.append(rates.join(change, on="deck").select(*labels, pl.all()))
        keys = ["deck", "opponent"]
        cell = (
            deck_results(m)
            .select(*keys, "games", "rate")
            .join(paired_changes(played[0], games, by=keys).drop("sd"), on=keys)
        )
        cells.append(cell.select(*labels, pl.all()))
    return Sweep(name, fields, shipped, pl.concat(rows), pl.concat(matrices), n, seed, pl.concat(cells))
