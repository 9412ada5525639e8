"""``clashkit balance``: every starter deck against every other, with 95% intervals (R7.1)."""

from __future__ import annotations

import click

from .design_options import emit, labelled, policy_list, study_kwargs, study_options, study_output, timed


@click.command("balance")
@study_options(default_n=2000)
def command(as_json, out, **options) -> None:
    """The balance matrix of the starter decks.

    Plays N games of every ordered pairing (each deck in both seats) and prints
    the row deck's rate against the column deck, each deck's overall rate and
    the first player's, all with 95% Wilson intervals.  Unfinished games
    (R10.1) count as no one's win.  The same seed gives the same figures.

    With --policies (weakest first) it plays the matrix at each strength on the
    same seeds, side by side: each deck's paired change from the first policy
    to the last, and the rank correlation of the decks' rates between them
    (Spearman and Kendall, 95% bootstrap intervals over the games).
    """
    from ..studies.design import balance

    policies = policy_list(options)
    if policies is not None:
        return _by_skill(policies, as_json, out, options)

    with study_output(out, "balance", options, ("matchups", "decks")) as save:
        result, seconds = timed(balance)(**study_kwargs(**options))
        save({"matchups": result.matchups, "decks": result.decks})
    games = int(result.matchups["games"].sum())
    text = (
        f"{result.policy} vs {result.policy}, {result.n:,} games per ordered pairing, seeds "
        f"{result.seed}+k ({games:,} games in {seconds:.1f} s):\n\n{result}"
    )
    emit({**result.to_dict(), "seconds": seconds}, text, as_json=as_json)


def _by_skill(policies, as_json, out, options) -> None:
    from ..base.errors import OptionError
    from ..studies.skill import balance_by_skill

    if len(policies) < 2:
        raise OptionError("--policies: name at least 2 policies for balance by skill (e.g. greedy,search:fair)")
    kwargs = study_kwargs(**options)
    kwargs.pop("policy")
    asked = {**options, "policies": policies}
    with study_output(out, "balance", asked, ("matchups", "decks", "changes")) as save:
        result, seconds = timed(balance_by_skill)(policies, **kwargs)

        save(
            {
                "matchups": labelled({p: b.matchups for p, b in result.balances.items()}),
                "decks": labelled({p: b.decks for p, b in result.balances.items()}),
                "changes": result.changes,
            }
        )
    text = (
        f"{', '.join(policies)}: {kwargs['n']:,} games per ordered pairing each, seeds {kwargs['seed']}+k "
        f"({seconds:.1f} s)\n\n{result}"
    )
    emit({**result.to_dict(), "seconds": seconds}, text, as_json=as_json)
