"""``clashkit tune``: the fewest changes to the shipped cards that balance the starter decks, at
one strength of play or at several at once."""

from __future__ import annotations

import click

from ..base.errors import OptionError
from ..base.files import file_to_write
from ..base.limits import fraction
from ..studies.design.changes import weights_text
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
from .numbers import Whole


@click.command("tune")
@click.option(
    "--max-changes",
    type=Whole("changes"),
    default=3,
    show_default=True,
    metavar="K",
    help="At most K changes, each of one field of one card.",
)
@click.option(
    "--fields",
    default="cost,attack,health",
    show_default=True,
    metavar="F,…",
    help="The fields it may change: the numbers cost, attack, health, amount, and what a card does: ability "
    "(give a creature one ability of R6 or take one away), aura (give, change or remove a creature's Aura, R6.8), "
    "effect (another effect for an incantation, meant for the same side, R5.5), target (the side an "
    f"incantation is meant for). A change of a number weighs |new − old| in the size of a proposal; "
    f"{weights_text()}.",
)
@click.option(
    "--keep-character",
    is_flag=True,
    default=False,
    help="Only changes that keep each card's character: its cost moves by 1 at most, it loses no ability and "
    "no Aura, an incantation stays meant for the same side (ally, or enemy/any).",
)
@click.option(
    "--card",
    "cards",
    multiple=True,
    metavar="NAME",
    help="Only change this card (repeatable; default: every card of a starter deck).",
)
@click.option("--step", type=Whole("step"), default=1, show_default=True, help="The smallest change of a value.")
@click.option(
    "--max-step",
    type=Whole("step"),
    default=None,
    help="The largest change of a value, in steps of --step (default: 2 × --step).",
)
@click.option(
    "--beam",
    type=Whole("beam", low=1),
    default=3,
    show_default=True,
    help="The best sets of changes each round goes on from (1: plain greedy).",
)
@click.option(
    "--budget-seconds",
    default=None,
    metavar="S",
    help="Stop the search after about S seconds, 0.001…604800 (the check on fresh seeds comes after).",
)
@click.option(
    "--evaluations",
    type=Whole("evaluations", low=1),
    default=None,
    metavar="E",
    help="Stop the search after E candidate sets.",
)
@click.option(
    "--pairing-weight",
    "pairing_weight",
    default="0",
    show_default=True,
    metavar="W",
    help="Also bring every ordered pairing near 50%: its distance counts W times (0…1; 0.33 lets a pairing "
    "stray three times as far as a deck), and changes are tried either way.",
)
@click.option(
    "--first-weight",
    "first_weight",
    default="0",
    show_default=True,
    metavar="W",
    help="Also bring the first player's rate near 50%: its distance counts W times (0…1), and changes are "
    "tried either way.",
)
@click.option(
    "--write-cards",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write the tuned set as a card file.",
)
@check_options
@study_options(default_n=200)
def command(
    max_changes,
    fields,
    keep_character,
    cards,
    step,
    max_step,
    beam,
    budget_seconds,
    evaluations,
    pairing_weight,
    first_weight,
    write_cards,
    check_strength,
    check_policy,
    check_n,
    as_json,
    out,
    **options,
) -> None:
    """Propose the fewest changes to single fields of the starter decks' cards that bring every
    deck's overall rate near 50%, at every strength of --policies at once.
    Besides numbers, --fields may let it change what cards do (ability, aura,
    effect, target); no proposal breaks the card file's limits or R9.2 (every
    ability of R6 on a creature, every Aura direction on an Aura).

    The objective is the largest distance of any deck's rate from 50% at any
    strength, then the number and the size of the changes (see --fields for
    what each change weighs).  A beam search
    (--beam sets go on each round) over changes of --step … --max-step, toward
    50% for the changed card's deck, on N games per pairing at every strength,
    the same seeds for every candidate, within --budget-seconds or
    --evaluations if given.  With --pairing-weight W, an ordered pairing's
    distance from 50% counts too, W times; with --first-weight, the first
    player's (whose rate it prints before and after the proposal in any
    case).  The best set of at most 1, 2, … changes (the Pareto table) is then
    checked on fresh seeds, with a paired interval on its improvement; the
    proposal is the row best there.

    JSON: {"changes", "before", "after", "pareto", …} for one strength; for
    several, "before" and "after" per strength under "policies": {P: …}.

    With --check-strength the proposal's change of each deck's rate at the
    strongest policy is played again by the arbiter on fewer of the fresh seeds'
    games (JSON: "check", its figure the change).
    """
    policies = strengths(options)
    ask = asked_check(check_strength, check_policy, check_n, options["n"])
    weight = fraction(pairing_weight, "pairing_weight", "--pairing-weight", OptionError)
    first = fraction(first_weight, "first_weight", "--first-weight", OptionError)
    if budget_seconds is not None:
        budget_seconds = fraction(budget_seconds, "budget_seconds", "--budget-seconds", OptionError)
    if write_cards is not None:
        file_to_write(write_cards, "--write-cards", OptionError)
    names = [f for f in (part.strip() for part in fields.split(",")) if f]
    several = len(policies) > 1
    asked = {
        **options,
        "max_changes": max_changes,
        "fields": names,
        "keep_character": keep_character,
        "step": step,
        "max_step": max_step,
        "beam": beam,
        "budget_seconds": budget_seconds,
        "evaluations": evaluations,
        "pairing_weight": weight,
        "first_weight": first,
        "cards": list(cards),
        **({"policies": policies} if several else {}),
        **({} if ask is None else {"check": {"policy": ask.policy, "n": ask.n}}),
    }
    from ..studies.design import card_set_of, tune

    files = ("changes", "before", "after", "pareto", *(("check",) if ask else ()))
    with study_output(out, "tune", asked, files) as save:
        result, seconds = timed(tune)(
            max_changes=max_changes,
            fields=names,
            keep_character=keep_character,
            step=step,
            max_step=max_step,
            beam=beam,
            names=list(cards) or None,
            budget_seconds=budget_seconds,
            evaluations=evaluations,
            pairing_weight=weight,
            first_weight=first,
            **study_kwargs(**options),
            policies=policies,
        )
        if write_cards is not None:
            result.cards.to_csv(write_cards)
        if several:
            before = labelled({p: b.matchups for p, (b, _) in result.at.items()})
            after = labelled({p: a.matchups for p, (_, a) in result.at.items()})
        else:
            before, after = result.before.matchups, result.after.matchups
        check = None
        if ask is not None:
            pair = [(card_set_of(options["cards_file"]), result.cards)]
            check = run_check(ask, pair, options, against=policies[-1], seed=result.check_seed)
        frames = {"changes": result.table(), "before": before, "after": after, "pareto": result.pareto_table()}
        save(frames | ({} if check is None else {"check": check.rows}))
    text = f"{result}\n({seconds:.1f} s)"
    if write_cards is not None:
        text += f"\nwrote {write_cards}"
    emit(*with_check({**result.to_dict(), "seconds": seconds}, text, check), as_json=as_json)
