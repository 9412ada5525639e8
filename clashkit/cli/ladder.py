"""``clashkit ladder``: a balanced round robin of policies, rated on the Elo scale."""

from __future__ import annotations

import click

from .design_options import cards_option, cluster_option, emit, out_options, study_output, timed
from .numbers import Whole

DEFAULT = "random,greedy,search:budget=4,search:budget=16,search:fair,expert"


@click.command("ladder")
@click.option(
    "--policies",
    default=DEFAULT,
    show_default=True,
    metavar="P1,P2,…",
    help="The policies to rate (at least two; a policy's options follow it: search:budget=4,fair).",
)
@click.option(
    "-n",
    "n",
    type=Whole("games", low=1),
    default=2,
    show_default=True,
    help="Games per ordered pairing of the starter decks, per pair of policies and seat.",
)
@click.option("--seed", type=Whole("seed"), default=0, show_default=True, help="Master seed.")
@cards_option()
@click.option("--rules", "rules_text", default=None, metavar="K=V,…", help="Rules options of R10.3.")
@click.option(
    "--engine",
    type=click.Choice(["fast", "reference"]),
    default=None,
    help="The simulation engine (default: simulate's).",
)
@click.option(
    "--bootstrap",
    type=Whole("bootstrap"),
    default=400,
    show_default=True,
    help="Bootstrap resamples of the 95% intervals.",
)
@click.option("--jobs", type=Whole("jobs"), default=0, show_default=True, help="Worker processes (0: one per core).")
@cluster_option()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on one line.")
@out_options("Also write the games and the ratings as Parquet files in DIR.")
@click.option(
    "--write-ratings",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Also write the ratings, the command and the commit it ran at as JSON to FILE "
    "(data/ladder.json is the strength axis of balance --policies).",
)
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def command(
    policies,
    n,
    seed,
    cards_file,
    rules_text,
    engine,
    bootstrap,
    jobs,
    cluster,
    as_json,
    out,
    force,
    write_ratings,
    no_progress,
) -> None:
    """Rate policies against each other.

    Every pair of policies plays N games of every ordered pairing of the
    starter decks (R7.1) in both seats, on the same deals, so seats, decks and
    the first player (R2.3) are balanced.  Bradley–Terry ratings on the Elo
    scale (mean 1500; 200 points ≈ 76% of the games), with 95% bootstrap
    intervals over the games; an unfinished game (R10.1) counts half to each.
    The same seed gives the same ratings.  Before it starts, a timing probe
    estimates the run time (shown in the progress bar).

    The bots' ladder of the documentation writes its ratings with
    --write-ratings data/ladder.json: balance --policies reads each policy's
    Elo from there.
    """

    from ..base.errors import OptionError, OutputError
    from ..base.files import file_to_write
    from ..base.rules import Rules, parse_settings
    from ..studies.ladder import checkout_commit, ladder, parse_policies

    names = parse_policies(policies)
    if write_ratings is not None:
        file_to_write(write_ratings, "--write-ratings", OptionError)
    measured_at = checkout_commit(write_ratings) if write_ratings is not None else None
    rules = Rules.from_mapping(parse_settings(rules_text, where="--rules"), where="--rules") if rules_text else None
    asked = {
        "policies": names,
        "n": n,
        "seed": seed,
        "cards_file": cards_file,
        "rules_text": rules_text,
        "engine": engine,
        "bootstrap": bootstrap,
        "force": force,
    }
    with study_output(out, "ladder", asked, ("games", "ratings")) as save:
        result, seconds = timed(ladder)(
            names,
            n,
            cards=cards_file,
            rules=rules,
            seed=seed,
            engine=engine,
            bootstrap=bootstrap,
            jobs=jobs or None,
            progress=not no_progress,
            cluster=cluster,
        )
        save({"games": result.games, "ratings": result.ratings})
    text = (
        f"{len(names)} policies, {n} game(s) per deck pairing, pair and seat; seed {seed} "
        f"({result.games.height:,} games in {seconds:.1f} s)\n\n{result}"
    )
    if write_ratings is not None:
        try:
            result.write_ratings(write_ratings, command=_command_line(asked), commit=str(measured_at))
        except OSError as e:
            raise OutputError(f"--write-ratings: cannot write {write_ratings} ({e.strerror or e})") from None
        text += f"\n\nRatings written to {write_ratings}."
    emit({**result.to_dict(), "seconds": seconds}, text, as_json=as_json)


def _command_line(asked: dict) -> str:
    """The ladder's command line as the ratings file records it: what changes the ratings."""
    words = ["clashkit ladder", f"--policies {','.join(asked['policies'])}", f"-n {asked['n']}"]
    words.append(f"--seed {asked['seed']}")
    if asked["cards_file"] is not None:
        words.append(f"--cards {asked['cards_file']}")
    if asked["rules_text"] is not None:
        words.append(f"--rules {asked['rules_text']}")
    if asked["engine"] is not None:
        words.append(f"--engine {asked['engine']}")
    words.append(f"--bootstrap {asked['bootstrap']}")
    return " ".join(words)
