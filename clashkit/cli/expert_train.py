"""``clashkit expert-train``: fit ``expert``'s evaluation and write its weights file."""

from __future__ import annotations

import click

from .numbers import Whole


@click.command("expert-train")
@click.option("--games", type=Whole("games", low=1), default=3000, show_default=True, help="Self-play games a round.")
@click.option(
    "--rounds",
    type=Whole("rounds", low=1),
    default=1,
    show_default=True,
    help="Rounds: greedy's games first, then expert's with the last round's weights.",
)
@click.option("--seed", type=Whole("seed"), default=1, show_default=True, help="The first game's seed.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default="data/expert.json",
    show_default=True,
    metavar="FILE",
    help="The weights file to write (the shipped one by default).",
)
def command(games, rounds, seed, out) -> None:
    """Fit expert's evaluation on self-play positions (clashkit.studies.expert_fit) and write FILE.

    The same options give the same file, byte for byte; the shipped
    data/expert.json is `make expert`'s (the defaults)."""
    from ..studies.expert_fit import dumps, fit

    data = fit(games, rounds, seed, log=lambda line: click.echo(line, err=True))
    with open(out, "w", encoding="utf-8") as f:
        f.write(dumps(data))
    click.echo(f"wrote {out}")
