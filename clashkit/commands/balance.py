"""``clashkit balance``: every starter deck against every other, with 95% intervals (R7.1)."""

from __future__ import annotations

import click

from .design_options import emit, study_kwargs, study_options, study_output, timed


@click.command("balance")
@study_options(default_n=2000)
def command(as_json, out, **options) -> None:
    """The balance matrix of the starter decks.

    Plays N games of every ordered pairing (each deck in both seats) and prints
    the row deck's rate against the column deck, each deck's overall rate and
    the first player's, all with 95% Wilson intervals.  Unfinished games
    (R10.1) count as no one's win.  The same seed gives the same figures.
    """
    from ..design import balance

    with study_output(out, "balance", options, ("matchups", "decks")) as save:
        result, seconds = timed(balance)(**study_kwargs(**options))
        save({"matchups": result.matchups, "decks": result.decks})
    games = int(result.matchups["games"].sum())
    text = (
        f"{result.policy} vs {result.policy}, {result.n:,} games per ordered pairing, seeds "
        f"{result.seed}+k ({games:,} games in {seconds:.1f} s):\n\n{result}"
    )
    emit({**result.to_dict(), "seconds": seconds}, text, as_json=as_json)
