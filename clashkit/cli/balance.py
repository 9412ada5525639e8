"""``clashkit balance``: every starter deck against every other, with 95% intervals (R7.1)."""

from __future__ import annotations

import click

from .design_options import (
    asked_check,
    check_options,
    emit,
    labelled,
    policy_list,
    run_check,
    study_kwargs,
    study_options,
    study_output,
    timed,
    with_check,
)


@click.command("balance")
@check_options
@study_options(default_n=2000)
def command(check_strength, check_policy, check_n, as_json, out, **options) -> None:
    """The balance matrix of the starter decks.

    Plays N games of every ordered pairing (each deck in both seats) and prints
    the row deck's rate against the column deck, each deck's overall rate, the
    first player's, and each deck's rate moving first and moving second (R2.3;
    JSON: "first" and "second" per deck), all with 95% Wilson intervals.  The
    first turn's mana is a rules option: --rules first_turn_mana=5.  Unfinished games
    (R10.1) count as no one's win.  The same seed gives the same figures.

    With --policies (weakest first) it plays the matrix at each strength on the
    same seeds, side by side: each deck's paired change from the first policy
    to the last, and the rank correlation of the decks' rates between them
    (Spearman and Kendall, 95% bootstrap intervals over the games).

    With --check-strength each deck's overall rate at the strongest policy is
    played again by the arbiter on fewer of the same games (JSON: "check").
    """
    from ..studies.design import balance

    ask = asked_check(check_strength, check_policy, check_n, options["n"])
    policies = policy_list(options)
    if policies is not None:
        return _by_skill(policies, as_json, out, options, ask)

    asked = options if ask is None else {**options, "check": {"policy": ask.policy, "n": ask.n}}
    files = ("matchups", "decks", *(("check",) if ask else ()))
    with study_output(out, "balance", asked, files) as save:
        result, seconds = timed(balance)(**study_kwargs(**options))
        check = _check(ask, options, result.policy)
        save({"matchups": result.matchups, "decks": result.decks} | ({} if check is None else {"check": check.rows}))
    games = int(result.matchups["games"].sum())
    text = (
        f"{result.policy} vs {result.policy}, {result.n:,} games per ordered pairing, seeds "
        f"{result.seed}+k ({games:,} games in {seconds:.1f} s):\n\n{result}"
    )
    emit(*with_check({**result.to_dict(), "seconds": seconds}, text, check), as_json=as_json)


def _check(ask, options, against):
    """The strength check of each deck's overall rate at ``against`` (``None`` when not asked)."""
    from ..studies.design import card_set_of

    if ask is None:
        return None
    return run_check(ask, [card_set_of(options["cards_file"])], options, against=against)


def _by_skill(policies, as_json, out, options, ask) -> None:
    from ..base.errors import OptionError
    from ..studies.skill import balance_by_skill

    if len(policies) < 2:
        raise OptionError("--policies: name at least 2 policies for balance by skill (e.g. greedy,search:fair)")
    kwargs = study_kwargs(**options)
    kwargs.pop("policy")
    asked = {**options, "policies": policies}
    if ask is not None:
        asked["check"] = {"policy": ask.policy, "n": ask.n}
    files = ("matchups", "decks", "changes", *(("check",) if ask else ()))
    with study_output(out, "balance", asked, files) as save:
        result, seconds = timed(balance_by_skill)(policies, **kwargs)
        check = _check(ask, options, policies[-1])
        save(
            {
                "matchups": labelled({p: b.matchups for p, b in result.balances.items()}),
                "decks": labelled({p: b.decks for p, b in result.balances.items()}),
                "changes": result.changes,
            }
            | ({} if check is None else {"check": check.rows})
        )
    text = (
        f"{', '.join(policies)}: {kwargs['n']:,} games per ordered pairing each, seeds {kwargs['seed']}+k "
        f"({seconds:.1f} s)\n\n{result}"
    )
    emit(*with_check({**result.to_dict(), "seconds": seconds}, text, check), as_json=as_json)
