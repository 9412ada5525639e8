"""``clashkit meta``: the deck space searched, its best decks, the meta-game's equilibrium, each
card's value and the starter decks' standing (R2.1, R7.1)."""

from __future__ import annotations

import click

from ..base.errors import OptionError
from ..base.files import file_to_write
from ..base.limits import LIMITS, fraction
from .design_options import (
    asked_check,
    check_options,
    emit,
    strengths,
    study_kwargs,
    study_options,
    study_output,
    with_check,
)
from .numbers import Whole


@click.command("meta")
@check_options
@study_options(default_n=200)
@click.option(
    "--format",
    "deck_format",
    type=click.Choice(["duel", "constructed"]),
    default="duel",
    show_default=True,
    help="The decks searched: duel, eight different cards of the set against the starter decks (R7.1); "
    "constructed, the ten a player brings (R7.3), two banned by the opponent's policy before each game, "
    "against the tens the policy itself builds.",
)
@click.option(
    "--budget-seconds",
    default="60",
    show_default=True,
    metavar="S",
    help="About how long the study takes, 0.001…604800 (shared evenly by --policies): a timing probe sets "
    "--evaluations, -n and --value-games from it, unless given.",
)
@click.option(
    "--evaluations", type=Whole("evaluations", low=1), default=None, metavar="E", help="Decks the search tries."
)
@click.option(
    "--value-games",
    type=Whole("games", low=1),
    default=None,
    metavar="G",
    help="Games a pairing, in each seat, for the card values.",
)
@click.option(
    "--top",
    type=Whole("top"),
    default=16,
    show_default=True,
    help="The best decks found that play the field's round robin and the meta-game.",
)
@click.option(
    "--write-values",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Also write the card values as CSV (card, value, low, high, inclusion, …, card_set: the card set's "
    "digest, which the bots check before building decks by them), the same bytes for the same study; with "
    "--policies, the strongest's.",
)
def command(
    as_json,
    out,
    deck_format,
    budget_seconds,
    evaluations,
    value_games,
    top,
    write_values,
    check_strength,
    check_policy,
    check_n,
    **options,
) -> None:
    """Search the deck space and read its meta-game, under --policy or each of --policies.

    A MAP-Elites search tries decks of eight different cards, keeping the best
    of each mean cost × creature count, each played against the four starter
    decks on the same seeds.  The --top best decks found and the starter decks
    then play a round robin on fresh seeds, -n games a pairing in each seat:
    each deck's score against the field and against the starter decks, with
    95% intervals.  The best decks' matrix is a zero-sum game: its equilibrium
    mixture (linear programming), each weight with a bootstrap interval, and
    each starter deck's score against that mixture.  Each card's value is the
    paired change in a best deck's score with the card and without it.  A win
    scores 1, an unfinished game 1/2.

    With --check-strength the best decks' scores against the starter decks
    are played again by the arbiter (deep, or --check-policy) on the first
    --check-n of the same field games, under the strongest policy, and each is
    said to agree or not (JSON: "check").

    --budget-seconds sets the sizes by a timing probe and prints them; give
    --evaluations, -n and --value-games to repeat a study exactly on any
    machine.

    JSON (last line): {"decks": [{"cards", "rate", "low", "high",
    "vs_starters", …}, …], "equilibrium": [{"deck", "weight", "low", "high"},
    …], "cards": [{"card", "value", "low", "high", "inclusion", …}, …],
    "starters": {"1": {"rate", "low", "high"}, …}}; with several policies
    {"policies": {P: …}}.
    """
    from ..studies.meta import metas

    if options["mirror"]:
        raise OptionError("--mirror: meta plays every pair of different decks already")
    ctx = click.get_current_context()
    given_n = ctx.get_parameter_source("n") is not click.core.ParameterSource.DEFAULT
    budget = fraction(budget_seconds, "budget_seconds", "--budget-seconds", OptionError)
    # -n is known only after the probe when it is not given: --check-n is held to it then.
    ask = asked_check(check_strength, check_policy, check_n, options["n"] if given_n else LIMITS["games"].high)
    if write_values is not None:
        file_to_write(write_values, "--write-values", OptionError)
    policies = strengths(options)
    kwargs = study_kwargs(**options)
    for key in ("policy", "mirror"):
        kwargs.pop(key)
    kwargs["n"] = options["n"] if given_n else None
    asked = {
        **options,
        "policies": policies,
        "format": deck_format,
        "budget_seconds": budget,
        "evaluations": evaluations,
        "value_games": value_games,
        "top": top,
        "write_values": write_values,
    }
    if ask is not None:
        asked["check"] = {"policy": ask.policy, "n": check_n}
    files = ("decks", "cards", "starters", "matrix", "candidates", *(("check",) if ask else ()))
    with study_output(out, "meta", asked, files) as save:
        results = metas(
            policies,
            budget_seconds=budget,
            evaluations=evaluations,
            value_games=value_games,
            top=top,
            format=deck_format,
            **kwargs,
        )
        check = None
        if ask is not None:
            from ..studies.design.check import check_games
            from ..studies.meta.check import check_meta

            strongest = results[policies[-1]]
            check = check_meta(
                strongest,
                check_games(strongest.sizes.n, check_n),
                policy=ask.policy,
                jobs=kwargs["jobs"],
                cluster=kwargs["cluster"],
                progress=kwargs["progress"],
            )
        frames = _frames(results)
        if check is not None:
            import polars as pl

            frames["check"] = pl.DataFrame(check.rows)
        save(frames)
        if write_values is not None:
            from ..base.files import write_text_atomically
            from ..studies.meta.values import values_csv

            strongest = results[policies[-1]]
            write_text_atomically(write_values, values_csv(strongest.cards, strongest.space.cards))
    text = "\n\n".join(str(r) for r in results.values())
    seconds = sum(r.seconds for r in results.values())
    if len(results) == 1:
        (result,) = results.values()
        data = {**result.to_dict(), "seconds": seconds}
    else:
        data = {"policies": {p: r.to_dict() for p, r in results.items()}, "seconds": seconds}
    data, text = with_check(data, text, check)
    emit(data, f"{text}\n\n({seconds:.1f} s)", as_json=as_json)


def _frames(results) -> dict:
    """Each frame of every policy's study, with a ``policy`` column first."""
    from .design_options import labelled

    frames = {p: r.frames() for p, r in results.items()}
    names = next(iter(frames.values()))
    return {name: labelled({p: f[name] for p, f in frames.items()}) for name in names}
