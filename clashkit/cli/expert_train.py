"""``clashkit expert-train``: fit ``expert``'s evaluation and write its weights file."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import OptionError
from .design_options import cards_option
from .numbers import Whole

#: The generator seeds of ``make expert``'s card sets (``--sets``): with the fitting set, 1,000
#: sets, and 13,000 games a round play every set's 13 pairings once.
SETS = 333


@click.command("expert-train")
@click.option("--games", type=Whole("games", low=1), default=13_000, show_default=True, help="Self-play games a round.")
@click.option(
    "--rounds",
    type=Whole("rounds", low=1),
    default=2,
    show_default=True,
    help="Rounds: greedy's games first, then expert's with the last round's weights.",
)
@click.option("--seed", type=Whole("seed"), default=1, show_default=True, help="The first game's seed.")
@click.option(
    "--sets",
    type=Whole("sets", low=0),
    default=SETS,
    show_default=True,
    help="Generator seeds 1..N of the card sets drawn from data/expert-fit-cards.csv "
    "(each: every value moved, a random set, a designer's new card; 0: that file alone).",
)
@cards_option("Fit on this card file's decks alone instead of the drawn sets.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    required=True,
    metavar="FILE",
    help="The weights file to write (`make expert` writes the shipped data/expert.json).",
)
def command(games, rounds, seed, sets, cards_file, out) -> None:
    """Fit expert's evaluation on self-play positions (clashkit.studies.expert_fit) and write FILE.

    The same options give the same file, byte for byte; the shipped
    data/expert.json is `make expert`'s (the other options at their defaults).
    FILE is always named: no command writes over the shipped weights unasked."""
    from ..base.cards import load_cards
    from ..base.files import file_to_write
    from ..studies.expert_fit import dumps, fit

    file_to_write(out, "--out", OptionError)  # before the fit, which takes minutes
    cards = None if cards_file is None else load_cards(cards_file)
    data = fit(games, rounds, seed, log=lambda line: click.echo(line, err=True), cards=cards, sets=sets)
    from ..base.files import write_text_atomically

    try:
        write_text_atomically(Path(out), dumps(data))
    except OSError as e:
        raise OptionError(f"--out {out}: cannot write ({e.strerror})") from None
    click.echo(f"wrote {out}")
