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
            f"{self.card} (shipped: {shipped}); {self.n:,} games per ordered pairing, seeds {self.seed}+k; "
            "change against the shipped card on the same seeds (paired 95% interval)",
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


@on_cluster
def sweep(
    card: str,
    values: Mapping[str, Sequence[int]],
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
) -> Sweep:
    """Card ``card`` with each combination of ``values`` (``{"attack": [3, 4, 5]}``; several
    fields make a grid), every pairing on the same seeds as the card as shipped: each deck's
    rate and its paired change (R9.3)."""
    base = card_set_of(cards)
    name = str(card).strip().upper()
    if name not in base:
        raise unknown_card(str(card).upper(), base, asked=card)
    shipped_card = base.card(name)
    if shipped_card.deck is None:
        raise OptionError(f"{name} is in no starter deck: changing it changes no game (R7.1)")
    if not values:
        raise OptionError(f"sweep of {name}: no field to set (e.g. attack=3,4,5)")
    fields = tuple(values)
    for f, vs in values.items():
        if not list(vs):
            raise OptionError(f"sweep of {name}: no values for {f}")
    combos = list(itertools.product(*(values[f] for f in fields)))
    variants = [vary(base, name, **dict(zip(fields, combo, strict=True))) for combo in combos]
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
    played = study.play([base, *variants], desc=f"sweep {name}")
    shipped = tuple(field_value(shipped_card, f) for f in fields)
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
