"""Balance of a card set: every starter deck against every other (R7.1, R9.1).

:func:`deck_matchups` plays ``n`` games of each ordered pairing of the
starter decks (deck X as A against deck Y as B, and the other way round, so
each deck sits in both seats) between two copies of one policy, and returns
one row per ordered pairing; :func:`balance_matrix` folds the two seats
together into a deck × deck table of win rates, and :func:`first_player`
gives the first player's win rate over all of them, each with its 95% Wilson
interval::

    >>> from clashkit.studies.analysis import balance_matrix, deck_matchups, first_player
    >>> games = deck_matchups(n=2000, jobs=2)            # doctest: +SKIP
    >>> balance_matrix(games)                            # doctest: +SKIP
    >>> first_player(games)                              # doctest: +SKIP

An unfinished game (R10.1) is never a win: it counts in every denominator.
``clashkit balance`` (:func:`clashkit.studies.design.balance`) prints the table of
the README's "Balance of the starter set" section.
"""

from __future__ import annotations

import polars as pl

from ..base.cards import CardSet, starter_set
from ..base.rules import Rules
from ..base.stats import wilson
from ..runs.simulate import simulate

#: The columns of :func:`deck_matchups`.
MATCHUPS_SCHEMA = pl.Schema(
    {
        "deck_a": pl.Int8,
        "deck_b": pl.Int8,
        "games": pl.UInt32,
        "wins_a": pl.UInt32,
        "wins_b": pl.UInt32,
        "unfinished": pl.UInt32,
        "first_player_wins": pl.UInt32,
        "mean_turns": pl.Float64,
    }
)


def deck_matchups(
    n: int = 2000,
    *,
    policy: str = "greedy",
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int | None = None,
    progress: bool = False,
) -> pl.DataFrame:
    """``n`` games of every ordered pairing of two different starter decks (R7.1).

    Pairing ``k`` (in the order deck 1 vs 2, 1 vs 3, …, 4 vs 3) is simulated
    with master seed ``seed + k`` (:func:`clashkit.runs.simulate.simulate`), so the
    table is reproducible and any one game can be replayed.
    """
    cards = cards if cards is not None else starter_set()
    decks = sorted(cards.decks)
    rows = []
    pairings = [(a, b) for a in decks for b in decks if a != b]
    for k, (a, b) in enumerate(pairings):
        trace = simulate(
            n,
            str(a),
            str(b),
            policy,
            policy,
            seed=seed + k,
            jobs=jobs,
            record_events=False,
            cards=cards,
            rules=rules,
            progress=progress,
        )
        games = trace.games
        winner = games["winner"].cast(pl.String)
        first = games["first_player"].cast(pl.String)
        rows.append(
            {
                "deck_a": a,
                "deck_b": b,
                "games": games.height,
                "wins_a": int((winner == "A").sum()),
                "wins_b": int((winner == "B").sum()),
                "unfinished": int(winner.is_null().sum()),
                "first_player_wins": int((winner == first).sum()),
                "mean_turns": float(games["turns"].mean()) if games.height else 0.0,
            }
        )
    return pl.DataFrame(rows, schema=MATCHUPS_SCHEMA)


def deck_results(matchups: pl.DataFrame) -> pl.DataFrame:
    """One row per (deck, opponent): wins and games over both seats, rate and 95% interval."""
    as_a = matchups.select(
        pl.col("deck_a").alias("deck"), pl.col("deck_b").alias("opponent"),
        pl.col("wins_a").alias("wins"), "games",
    )  # fmt: skip
    as_b = matchups.select(
        pl.col("deck_b").alias("deck"), pl.col("deck_a").alias("opponent"),
        pl.col("wins_b").alias("wins"), "games",
    )  # fmt: skip
    both = (
        pl.concat([as_a, as_b])
        .group_by("deck", "opponent")
        .agg(pl.col("wins").sum(), pl.col("games").sum())
        .sort("deck", "opponent")
    )
    intervals = [wilson(w, g) for w, g in both.select("wins", "games").iter_rows()]
    return both.with_columns(
        (pl.col("wins") / pl.col("games")).alias("rate"),
        pl.Series("low", [lo for lo, _ in intervals], pl.Float64),
        pl.Series("high", [hi for _, hi in intervals], pl.Float64),
    )


def deck_rates(matchups: pl.DataFrame) -> pl.DataFrame:
    """One row per deck: its wins and games against every opponent, both seats, with the
    overall rate and its 95% Wilson interval (a mirror game counts once for each side)."""
    totals = (
        deck_results(matchups)
        .group_by("deck")
        .agg(pl.col("wins").sum(), pl.col("games").sum())
        .sort("deck")
    )
    intervals = [wilson(w, g) for w, g in totals.select("wins", "games").iter_rows()]
    return totals.with_columns(
        (pl.col("wins") / pl.col("games")).alias("rate"),
        pl.Series("low", [lo for lo, _ in intervals], pl.Float64),
        pl.Series("high", [hi for _, hi in intervals], pl.Float64),
    )


def balance_matrix(matchups: pl.DataFrame) -> pl.DataFrame:
    """The row deck's win rate against the column deck, both seats together."""
    results = deck_results(matchups)
    decks = sorted(set(results["deck"].to_list()))
    rates = {(d, o): r for d, o, r in results.select("deck", "opponent", "rate").iter_rows()}
    return pl.DataFrame(
        {
            "deck": decks,
            **{f"vs {o}": [rates.get((d, o)) for d in decks] for o in decks},
        },
        schema={"deck": pl.Int8, **{f"vs {o}": pl.Float64 for o in decks}},
    )


def first_player(matchups: pl.DataFrame) -> tuple[float, float, float]:
    """The first player's win rate over every game, with its 95% Wilson interval."""
    wins = int(matchups["first_player_wins"].sum())
    games = int(matchups["games"].sum())
    low, high = wilson(wins, games)
    return (wins / games if games else 0.0), low, high


def balance_markdown(matchups: pl.DataFrame) -> str:
    """The matrix as a Markdown table (rates with their 95% intervals), then the first player."""
    results = deck_results(matchups)
    decks = sorted(set(results["deck"].to_list()))
    cell = {
        (d, o): f"{100 * r:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"
        for d, o, r, lo, hi in results.select("deck", "opponent", "rate", "low", "high").iter_rows()
    }
    lines = [
        "| deck | " + " | ".join(f"vs deck {o}" for o in decks) + " |",
        "| --- | " + " | ".join("---" for _ in decks) + " |",
    ]
    for d in decks:
        row = [cell.get((d, o), "—") for o in decks]
        lines.append(f"| deck {d} | " + " | ".join(row) + " |")
    rate, low, high = first_player(matchups)
    games = int(matchups["games"].sum())
    unfinished = int(matchups["unfinished"].sum())
    turns = float((matchups["mean_turns"] * matchups["games"]).sum() / games) if games else 0.0
    lines += [
        "",
        f"First player wins {100 * rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}) "
        f"of {games:,} games; {unfinished} unfinished; {turns:.1f} turns a game on average.",
    ]
    return "\n".join(lines)


__all__ = [
    "MATCHUPS_SCHEMA",
    "balance_markdown",
    "balance_matrix",
    "deck_matchups",
    "deck_rates",
    "deck_results",
    "first_player",
]
