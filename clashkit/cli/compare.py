"""``clashkit compare``: a new card file against the base one, every deck and every ordered pairing
on the same seeds, with paired changes (R7.1, R9.3)."""

from __future__ import annotations

import click

from ..base.errors import OptionError
from .design_options import (
    asked_check,
    check_options,
    emit,
    run_check,
    strengths,
    study_kwargs,
    study_options,
    study_output,
    timed,
    with_check,
)


@click.command("compare")
@click.option(
    "--base",
    "base_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="The card file the new one is compared with (default: the shipped set).",
)
@check_options
@study_options(default_n=2000)
def command(base_file, check_strength, check_policy, check_n, as_json, out, **options) -> None:
    """Compare a new card file (--cards NEW.csv) with the base set, deck by deck and pairing by pairing.

    Plays N games of every ordered pairing of the starter decks under the base
    set (--base, default the shipped one) and under the new one, on the same
    seeds: each deck's rate before and after and its paired change with a 95%
    interval, and the same for seat A's rate in each ordered pairing.  With
    --policies (weakest first) at each strength, on the same seeds.

    The new file must keep at least three of the base's four starter decks
    identical (the same card names): a file that changes more is a different
    game, not a change, and is refused naming the decks that differ.  Keep a
    changed card in the place of the card it changes, so the decks deal as
    before and the change is measured most precisely.

    JSON: {"policies": {P: {"decks": {"1": {"before", "after", "change",
    "change_low", "change_high", "games", …}, …}, "matrix": [{"a", "b",
    "before", "after", "change", "change_low", "change_high", …}, …]}}}, with
    one policy too.
    """
    from ..studies.design import card_set_of, check_comparable, compare

    if options["cards_file"] is None:
        raise OptionError("compare: name the new card file with --cards NEW.csv (docs/cards.md)")
    policies = strengths(options)
    ask = asked_check(check_strength, check_policy, check_n, options["n"])
    before = card_set_of(base_file)
    after = card_set_of(options["cards_file"])
    check_comparable(before, after)
    kwargs = study_kwargs(**options)
    kwargs.pop("cards")
    kwargs.pop("policy")
    asked = {**options, "base": base_file, "policies": policies}
    if ask is not None:
        asked["check"] = {"policy": ask.policy, "n": ask.n}
    files = ("decks", "matrix", "cells", *(("check",) if ask else ()))
    with study_output(out, "compare", asked, files) as save:
        result, seconds = timed(compare)(before, after, policies=policies, **kwargs)
        check = None if ask is None else run_check(ask, [before, after], options, against=policies[-1])
        frames = {"decks": result.table(), "matrix": result.pairing_table(), "cells": result.matrix()}
        save(frames | ({} if check is None else {"check": check.rows}))
    head = (
        f"{options['cards_file']} against {base_file or 'the shipped set'}: {options['n']:,} games per ordered "
        f"pairing{' at each strength' if len(policies) > 1 else ''}, seeds {options['seed']}+k for both sets "
        f"({seconds:.1f} s)"
    )
    data, text = with_check({**result.to_dict(), "seconds": seconds}, f"{head}\n\n{result}", check)
    emit(data, text, as_json=as_json)
