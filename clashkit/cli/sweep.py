"""``clashkit sweep``: one card's field set to several values, every change measured on the same
seeds as the card as shipped (R9.3), at one strength or several side by side."""

from __future__ import annotations

import click

from ..base.errors import OptionError
from .design_options import (
    asked_check,
    check_options,
    emit,
    labelled,
    run_check,
    strengths,
    study_kwargs,
    study_options,
    study_output,
    timed,
    with_check,
)


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
@check_options
@study_options(default_n=2000)
def command(card, settings, check_strength, check_policy, check_n, as_json, out, **options) -> None:
    """Each deck's rate for each value of a card's field, and its change against the card as shipped.

    Every value plays the same seeds (common random numbers), so the 95%
    interval of a change comes from the per-game differences: a change the
    games cannot tell from 0 is said so.

    With --policies greedy,expert (weakest first) the sweep is played at each
    strength on the same seeds and shown side by side, with each deck's paired
    change from the first strength to each later one (JSON: {"policies": {P:
    <the sweep object>}, "changes": [{FIELD, "deck", "from", "to", "change",
    "change_low", "change_high", "clear"}, …]}; one strength prints the sweep
    object itself).

    With --check-strength each value's change at the strongest policy is played
    again by the arbiter on fewer of the same games (JSON: "check", its figure
    the change; "decks" holds each deck's value the two differ most on, "rows"
    every value).
    """
    from ..studies.design import parse_values, sweep, sweep_variants

    values: dict[str, list[int]] = {}
    for text in settings:
        field, vs = parse_values(text)
        if field in values:
            raise OptionError(f"--set {field}: the field is given twice")
        values[field] = vs
    policies = strengths(options)
    ask = asked_check(check_strength, check_policy, check_n, options["n"])
    several = len(policies) > 1
    asked = {**options, "card": card, "set": values, **({"policies": policies} if several else {})}
    if ask is not None:
        asked["check"] = {"policy": ask.policy, "n": ask.n}
    files: tuple[str, ...] = ("sweep", "matchups", "changes") if several else ("sweep", "matchups")
    files += ("check",) if ask else ()
    with study_output(out, "sweep", asked, files) as save:
        result, seconds = timed(sweep)(card, values, **study_kwargs(**options), policies=policies)
        check = None
        if ask is not None:
            base, _name, combos, variants = sweep_variants(card, values, options["cards_file"])
            labels = [dict(zip(values, combo, strict=True)) for combo in combos]
            pairs = [(base, v) for v in variants]
            check = run_check(ask, pairs, options, against=policies[-1], labels=labels)
        extra = {} if check is None else {"check": check.rows}
        if several:
            save(
                {
                    "sweep": labelled({p: s.rows for p, s in result.sweeps.items()}),
                    "matchups": labelled({p: s.matchups for p, s in result.sweeps.items()}),
                    "changes": result.changes,
                }
                | extra
            )
        else:
            save({"sweep": result.first.rows, "matchups": result.first.matchups} | extra)
    text = f"{result}\n\n({seconds:.1f} s)"
    emit(*with_check({**result.to_dict(), "seconds": seconds}, text, check), as_json=as_json)
