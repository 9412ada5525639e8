"""``clashkit tune``: the smallest changes to the shipped cards that balance the starter decks."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import OptionError
from ..base.points import percent_text
from .design_options import emit, policy_list, study_kwargs, study_options, study_output, timed
from .numbers import Whole


@click.command("tune")
@click.option(
    "--max-changes",
    type=Whole("changes"),
    default=3,
    show_default=True,
    metavar="K",
    help="At most K single-field changes.",
)
@click.option(
    "--fields",
    default="cost,attack,health",
    show_default=True,
    metavar="F,…",
    help="The fields it may change (cost, attack, health, amount).",
)
@click.option(
    "--card",
    "cards",
    multiple=True,
    metavar="NAME",
    help="Only change this card (repeatable; default: every card of a starter deck).",
)
@click.option("--step", type=Whole("step"), default=1, show_default=True, help="The size of a change.")
@click.option(
    "--write-cards",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write the tuned set as a card file.",
)
@study_options(default_n=200)
def command(max_changes, fields, cards, step, write_cards, as_json, out, **options) -> None:
    """Propose up to K changes of ±STEP to single fields of the starter decks' cards that bring
    the largest distance of any deck's overall rate from 50% down most.

    A greedy search on N games per pairing, checked on fresh seeds before it is
    reported: the matrix before and after on those seeds is printed.

    It balances the set for the strength of --policy.  With --policies
    (weakest first) it targets the last one — the strength to balance at —
    and shows what the proposal does at each of the others, on the same fresh
    seeds (JSON: "target" and "at": {P: {"before", "after"}}, each the largest
    distance of a deck's rate from 50%).
    """
    from ..studies.design import card_set_of, compare, tune

    policies = policy_list(options)
    if policies is not None:
        options = {**options, "policy": policies[-1]}

    if write_cards is not None and not Path(write_cards).resolve().parent.is_dir():
        raise OptionError(f"--write-cards: no directory for {write_cards}")
    names = [f for f in (part.strip() for part in fields.split(",")) if f]
    asked = {**options, "max_changes": max_changes, "fields": names, "step": step, "cards": list(cards)}
    with study_output(out, "tune", asked, ("changes", "before", "after")) as save:
        result, seconds = timed(tune)(
            max_changes=max_changes, fields=names, step=step, names=list(cards) or None, **study_kwargs(**options)
        )
        at = {}
        for policy in (policies or [])[:-1]:
            kw = {**study_kwargs(**options), "policy": policy}
            kw.pop("n")
            kw.pop("seed")
            base = kw.pop("cards")
            shown = compare(card_set_of(base), result.cards, options["n"], seed=result.check_seed, **kw)
            at[policy] = {"before": shown.before.distance, "after": shown.after.distance}
        if write_cards is not None:
            result.cards.to_csv(write_cards)
        save({"changes": result.table(), "before": result.before.matchups, "after": result.after.matchups})
    text = f"{result}\n({seconds:.1f} s)"
    extra = {}
    if policies is not None:
        extra = {"target": policies[-1], "at": at}
        text += f"\nTuned at {policies[-1]}."
        for policy, d in at.items():
            text += (
                f"\nAt {policy}, on the same fresh seeds: largest distance from 50% "
                f"{percent_text(d['before'], sign='')} → {percent_text(d['after'], sign='')} points."
            )
    if write_cards is not None:
        text += f"\nwrote {write_cards}"
    emit({**result.to_dict(), **extra, "seconds": seconds}, text, as_json=as_json)
