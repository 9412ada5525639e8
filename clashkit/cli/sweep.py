"""``clashkit sweep``: one card's field set to several values, every change measured on the same
seeds as the card as shipped (R9.3)."""

from __future__ import annotations

import click

from ..base.errors import OptionError
from .design_options import emit, policy_list, study_kwargs, study_options, study_output, timed


@click.command("sweep")
@click.option("--card", "card", required=True, metavar="NAME", help="The card to change.")
@click.option(
    "--set",
    "settings",
    multiple=True,
    required=True,
    metavar="FIELD=V1,V2,…",
    help="A field (cost, attack, health; amount of an incantation's effect) and its values "
    "(3,4,5 or 3..7); several --set make a grid.",
)
@study_options(default_n=2000)
def command(card, settings, as_json, out, **options) -> None:
    """Each deck's rate for each value of a card's field, and its change against the card as shipped.

    Every value plays the same seeds (common random numbers), so the 95%
    interval of a change comes from the per-game differences: a change the
    games cannot tell from 0 is said so.  With --policies, the sweep at each
    strength on the same seeds (JSON: {"policies": {P: <the sweep object>}}).
    """
    from ..studies.design import parse_values, sweep

    values: dict[str, list[int]] = {}
    for text in settings:
        field, vs = parse_values(text)
        if field in values:
            raise OptionError(f"--set {field}: the field is given twice")
        values[field] = vs
    policies = policy_list(options)
    if policies is not None:
        import polars as pl

        kwargs = study_kwargs(**options)
        asked = {**options, "card": card, "set": values, "policies": policies}
        with study_output(out, "sweep", asked, ("sweep", "matchups")) as save:
            results, seconds = timed(lambda: {p: sweep(card, values, **{**kwargs, "policy": p}) for p in policies})()
            save(
                {
                    "sweep": pl.concat(
                        [r.rows.select(pl.lit(p).alias("policy"), pl.all()) for p, r in results.items()]
                    ),
                    "matchups": pl.concat(
                        [r.matchups.select(pl.lit(p).alias("policy"), pl.all()) for p, r in results.items()]
                    ),
                }
            )
        text = "\n\n".join(f"{p}:\n{r}" for p, r in results.items()) + f"\n\n({seconds:.1f} s)"
        data = {"policies": {p: r.to_dict() for p, r in results.items()}, "seconds": seconds}
        emit(data, text, as_json=as_json)
        return
    with study_output(out, "sweep", {**options, "card": card, "set": values}, ("sweep", "matchups")) as save:
        result, seconds = timed(sweep)(card, values, **study_kwargs(**options))
        save({"sweep": result.rows, "matchups": result.matchups})
    text = f"{result}\n\n({seconds:.1f} s)"
    emit({**result.to_dict(), "seconds": seconds}, text, as_json=as_json)
