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
the "Balance of the starter set" page of the documentation (docs/guide/balance.md).
"""

from __future__ import annotations

import polars as pl

from ..base.cards import CardSet, starter_set
from ..base.points import percent_text
from ..base.rules import Rules
from ..base.stats import rate_exprs, wilson
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
        "a_first": pl.UInt32,
        "a_first_wins": pl.UInt32,
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
        rows.append(pairing_counts(trace.games.with_columns(deck_a=pl.lit(a), deck_b=pl.lit(b))))
    return pl.concat(rows) if rows else MATCHUPS_SCHEMA.to_frame()


def pairing_counts(games: pl.DataFrame) -> pl.DataFrame:
    """:data:`MATCHUPS_SCHEMA`'s rows of a games frame: one per ordered pairing (``deck_a``,
    ``deck_b``) in the order the pairings first appear, with its games, each seat's wins,
    the unfinished games (R10.1), the first player's wins, the games A moved first
    (``a_first``) and A's wins in them (``a_first_wins``; R2.3), and the mean length.

    The one count behind every balance table: :func:`deck_matchups`, the design
    studies and the notebooks' matchup charts.  The deck columns keep their type
    (starter deck numbers, or the notebooks' deck labels)."""
    counts = [c for c in MATCHUPS_SCHEMA if c not in ("deck_a", "deck_b")]
    return (
        games.group_by("deck_a", "deck_b", maintain_order=True)
        .agg(
            pl.len().alias("games"),
            (pl.col("winner") == "A").sum().alias("wins_a"),
            (pl.col("winner") == "B").sum().alias("wins_b"),
            pl.col("winner").is_null().sum().alias("unfinished"),
            (pl.col("winner") == pl.col("first_player")).sum().alias("first_player_wins"),
            (pl.col("first_player") == "A").sum().alias("a_first"),
            ((pl.col("first_player") == "A") & (pl.col("winner") == "A")).sum().alias("a_first_wins"),
            pl.col("turns").mean().alias("mean_turns"),
        )
        .cast({c: MATCHUPS_SCHEMA[c] for c in counts})
    )


def deck_results(matchups: pl.DataFrame) -> pl.DataFrame:
    """One row per (deck, opponent): wins, games and unfinished games over both seats, the
    rate and its 95% Wilson interval."""
    seats = [
        matchups.select(
            pl.col(f"deck_{me}").alias("deck"),
            pl.col(f"deck_{them}").alias("opponent"),
            pl.col(f"wins_{me}").alias("wins"),
            "games",
            "unfinished",
        )
        for me, them in (("a", "b"), ("b", "a"))
    ]
    return (
        pl.concat(seats)
        .group_by("deck", "opponent")
        .agg(pl.col("wins").sum(), pl.col("games").sum(), pl.col("unfinished").sum())
        .sort("deck", "opponent")
        .with_columns(rate_exprs("wins", "games"))
    )


def deck_rates(matchups: pl.DataFrame) -> pl.DataFrame:
    """One row per deck: its wins and games against every opponent, both seats, with the
    overall rate and its 95% Wilson interval (a mirror game counts once for each side)."""
    return (
        deck_results(matchups)
        .group_by("deck")
        .agg(pl.col("wins").sum(), pl.col("games").sum())
        .sort("deck")
        .with_columns(rate_exprs("wins", "games"))
    )


#: The two seats of R2.3 as :func:`seat_rates` names them.
SEATS = ("first", "second")


def seat_rates(matchups: pl.DataFrame) -> pl.DataFrame:
    """One row per deck and seat (R2.3): ``deck``, ``seat`` (``"first"``: the deck moved first,
    ``"second"``: its opponent did), ``wins``, ``games`` and the rate with its 95% Wilson
    interval, over every opponent and both places (A and B).  A mirror game counts once for
    each side, as in :func:`deck_rates`; an unfinished game (R10.1) is no one's win."""
    a_second = pl.col("games") - pl.col("a_first")
    b_first_wins = pl.col("first_player_wins") - pl.col("a_first_wins")
    rows = [
        # Deck A moving first, then second; deck B moving first (A did not), then second.
        ("deck_a", "first", pl.col("a_first"), pl.col("a_first_wins")),
        ("deck_a", "second", a_second, pl.col("wins_a") - pl.col("a_first_wins")),
        ("deck_b", "first", a_second, b_first_wins),
        ("deck_b", "second", pl.col("a_first"), pl.col("wins_b") - b_first_wins),
    ]
    parts = [
        matchups.select(
            pl.col(deck).alias("deck"),
            pl.lit(seat).alias("seat"),
            wins.cast(pl.Int64).alias("wins"),
            games.cast(pl.Int64).alias("games"),
        )
        for deck, seat, games, wins in rows
    ]
    return (
        pl.concat(parts)
        .group_by("deck", "seat")
        .agg(pl.col("wins").sum(), pl.col("games").sum())
        .with_columns(pl.col("seat").cast(pl.Enum(SEATS)))
        .sort("deck", "seat")
        .with_columns(rate_exprs("wins", "games"))
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
        (d, o): f"{percent_text(r)} ({percent_text(lo, sign='')}–{percent_text(hi, sign='')})"
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
        f"First player wins {percent_text(rate)} (95% CI {percent_text(low, sign='')}–{percent_text(high, sign='')}) "
        f"of {games:,} games; {unfinished} unfinished; {turns:.1f} turns a game on average.",
    ]
    return "\n".join(lines)


# --- The dealt order ----------------------------------------------------------------------


def win_rate_by_position(games: pl.DataFrame, card: str) -> pl.DataFrame:
    """How often a player wins by the place ``card`` was dealt in their hand (R2.2), from a
    games frame's ``hand_a`` and ``hand_b``: ``position`` (1 next to the keep … 8 rightmost),
    ``games``, ``wins``, ``rate``, ``low``, ``high`` (95% Wilson), one row a position dealt.

    Every duel side holding ``card`` counts, A's and B's; in solo only the player's (B's
    ``hand_b`` is the AI pile).  Positions 1–4 are the playable cards of the first turn
    (R3.2); a card dealt further right waits for cards to its left to be played.  An
    unfinished game (R10.1) is never a win.  Games without a recorded deal (a run of frames
    version 4 or older) are left out.
    """
    sides = []
    for player, column in (("A", "hand_a"), ("B", "hand_b")):
        held = games.filter(pl.col(column).list.contains(card))
        if player == "B":
            held = held.filter(pl.col("mode").cast(pl.String) == "duel")
        sides.append(
            held.select(
                (pl.col(column).list.eval((pl.element() == card).arg_max()).list.first() + 1)
                .cast(pl.Int8)
                .alias("position"),
                (pl.col("winner").cast(pl.String) == player).fill_null(False).alias("won"),
            )
        )
    return (
        pl.concat(sides)
        .group_by("position")
        .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("won").sum().cast(pl.Int64).alias("wins"))
        .sort("position")
        .with_columns(rate_exprs("wins", "games"))
    )


def position_markdown(by_position: pl.DataFrame, card: str) -> str:
    """:func:`win_rate_by_position` as a Markdown table: each place, whether it is playable on the
    first turn (R3.2), the games and the win rate with its 95% interval."""
    lines = [
        f"| {card} dealt at | playable on turn 1 (R3.2) | games | win rate (95% interval) |",
        "| --- | --- | --- | --- |",
    ]
    for position, games, rate, low, high in by_position.select("position", "games", "rate", "low", "high").rows():
        interval = f"{percent_text(low, sign='')}–{percent_text(high)}"
        playable = "yes" if position <= 4 else "no"
        lines.append(f"| {position} | {playable} | {games:,} | {percent_text(rate)} ({interval}) |")
    return "\n".join(lines)


__all__ = [
    "MATCHUPS_SCHEMA",
    "position_markdown",
    "win_rate_by_position",
    "balance_markdown",
    "balance_matrix",
    "deck_matchups",
    "deck_rates",
    "deck_results",
    "pairing_counts",
    "first_player",
    "seat_rates",
    "SEATS",
]
