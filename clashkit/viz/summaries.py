"""The numbers behind the charts: small polars frames aggregated from the trace frames.

Every chart of :mod:`clashkit.viz.charts` draws one of these summaries, never
raw events: a batch of games holds hundreds of thousands of event rows, and a
summary holds a few dozen.  Each function takes the trace frames of
:mod:`clashkit.runs.trace` (``events``, ``turns``, ``games``) — or a card set — and
returns a plain ``polars.DataFrame`` whose columns are documented on the
function, so the numbers can be read, tested and exported on their own.

Rates follow :mod:`clashkit.base.stats`: every game counts in the denominator and
an unfinished game (R10.1) is never a win.  Intervals are 95% Wilson score
intervals (:func:`clashkit.base.stats.wilson_exprs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import polars as pl

from ..base import CardSet, rate_exprs, starter_set
from ..base.errors import OptionError, UnknownCardError
from ..base.suggest import did_you_mean
from ..studies import deck_results, pairing_counts
from . import frames as wanted
from .frames import needs

#: Grouping choices for the per-turn summaries.
GROUPINGS = (None, "player", "seat", "deck")


# --- Decks and cards ----------------------------------------------------------------


def cards_frame(cards: CardSet | None = None) -> pl.DataFrame:
    """One row a card: ``name``, ``deck`` (``"deck 1"`` … or null), ``kind``, ``cost``,
    ``attack``, ``health``, ``abilities`` (text), ``aura``, ``effect``, ``target``."""
    cards = cards if cards is not None else starter_set()
    return pl.DataFrame(
        {
            "name": [c.name for c in cards],
            "deck": [f"deck {c.deck}" if c.deck is not None else None for c in cards],
            "kind": [str(c.kind) for c in cards],
            "cost": [c.cost for c in cards],
            "attack": [c.attack for c in cards],
            "health": [c.health for c in cards],
            "abilities": [";".join(str(a) for a in c.abilities) for c in cards],
            "aura": [str(c.aura) if c.aura is not None else "" for c in cards],
            "effect": [c.effect_text for c in cards],
            "target": [str(c.target) if c.target is not None else "" for c in cards],
        },
        schema_overrides={"cost": pl.Int16, "attack": pl.Int16, "health": pl.Int16},
    )


def starter_deck_names(cards: CardSet | None = None) -> dict[str, list[str]]:
    """``{"deck 1": [names…], …}``: the preconstructed decks (R7.1) of a card set."""
    cards = cards if cards is not None else starter_set()
    return {f"deck {number}": names for number, names in cards.decks.items()}


def decks_frame(decks: Mapping[str, Sequence[str]], cards: CardSet | None = None) -> pl.DataFrame:
    """One row per card of each named deck: ``deck``, ``name``, ``kind``, ``cost``.

    ``decks_frame({"mine": [...8 names...], **starter_deck_names()})``.
    """
    table = cards_frame(cards).select("name", "kind", "cost")
    rows = pl.DataFrame(
        {
            "deck": [deck for deck, names in decks.items() for _ in names],
            "name": [name for names in decks.values() for name in names],
        }
    )
    out = rows.join(table, on="name", how="left", maintain_order="left")
    unknown = out.filter(pl.col("kind").is_null())["name"].to_list()
    if unknown:
        raise UnknownCardError(f"unknown card {unknown[0]!r}{did_you_mean(str(unknown[0]), table['name'].to_list())}")
    return out


@needs(decks=wanted.DECK_CARDS)
def mana_curve(decks: pl.DataFrame) -> pl.DataFrame:
    """The mana curve: ``deck``, ``cost``, ``kind``, ``cards`` (how many), ``names`` (joined).

    ``decks`` is a :func:`decks_frame` (or :func:`cards_frame`, whose ``deck``
    column names the starter decks); rows without a deck are left out.
    """
    return (
        decks.filter(pl.col("deck").is_not_null())
        .group_by("deck", "cost", "kind")
        .agg(
            pl.len().cast(pl.Int32).alias("cards"),
            pl.col("name").sort().str.join(", ").alias("names"),
        )
        .sort("deck", "cost", "kind")
    )


# --- Labels for games ------------------------------------------------------------------


def _deck_key(column: str) -> pl.Expr:
    return pl.col(column).list.eval(pl.element().cast(pl.String)).list.sort().list.join("|")


#: The label of the solo AI's cards (R8.1) in the per-deck views.
AI_LABEL = "AI pile"


def own_label(side: str) -> pl.Expr:
    """The label of side ``side`` (``"a"`` or ``"b"``) of each game of a games frame by its own
    cards, for a deck that is no named deck: a custom list is its card names in card-set order
    (``"BARON, GNOME, …"``); a draft's or the constructed format's hand, whose cards change
    from game to game, is its format (``draft``, ``constructed``, R7.2, R7.3); the solo AI's
    cards are ``AI pile`` (R8.1)."""
    fmt = pl.col("format").cast(pl.String)
    label = pl.when(fmt.is_in(["draft", "constructed"])).then(fmt).otherwise(pl.col(f"deck_{side}").list.join(", "))
    if side == "b":
        label = pl.when(pl.col("mode").cast(pl.String) == "solo").then(pl.lit(AI_LABEL)).otherwise(label)
    return label


@needs(games=wanted.LABELLED)
def label_decks(
    games: pl.DataFrame,
    decks: Mapping[str, Sequence[str]] | None = None,
    *,
    other: str | None = None,
) -> pl.DataFrame:
    """``games`` with ``label_a`` and ``label_b``: each side's deck by name.

    ``decks`` maps a label to its 8 card names (default: the starter decks,
    ``"deck 1"`` …); the order of the names does not matter.  A deck that
    matches none is labelled by its own cards (:func:`own_label`: a custom list
    by its names, a drafted hand ``draft``), or ``other`` when given.
    """
    if decks is None:
        decks = starter_deck_names()
    keys = {"|".join(sorted(names)): label for label, names in decks.items()}

    def label(side: str) -> pl.Expr:
        named = _deck_key(f"deck_{side}").replace_strict(keys, default=None, return_dtype=pl.String)
        return named.fill_null(own_label(side) if other is None else pl.lit(other)).alias(f"label_{side}")

    return games.with_columns(label("a"), label("b"))


def _labelled(games: pl.DataFrame, decks) -> pl.DataFrame:
    if "label_a" in games.columns and "label_b" in games.columns and decks is None:
        return games
    return label_decks(games, decks)


def _sides(games: pl.DataFrame) -> pl.DataFrame:
    """Two rows per game, one per player: ``game``, ``player``, ``deck``, ``opponent``,
    ``first`` (moved first), ``finished``, ``won``."""
    cols = ["game", "first_player", "winner", "finished", "label_a", "label_b"]
    g = games.select(cols).with_columns(pl.col("first_player").cast(pl.String), pl.col("winner").cast(pl.String))
    a = g.select(
        "game",
        pl.lit("A").alias("player"),
        pl.col("label_a").alias("deck"),
        pl.col("label_b").alias("opponent"),
        (pl.col("first_player") == "A").alias("first"),
        "finished",
        (pl.col("winner") == "A").fill_null(False).alias("won"),
    )
    b = g.select(
        "game",
        pl.lit("B").alias("player"),
        pl.col("label_b").alias("deck"),
        pl.col("label_a").alias("opponent"),
        (pl.col("first_player") == "B").alias("first"),
        "finished",
        (pl.col("winner") == "B").fill_null(False).alias("won"),
    )
    return pl.concat([a, b])


# --- Matchups ----------------------------------------------------------------------------


@needs(games=wanted.GAMES_RESULTS)
def matchups(games: pl.DataFrame, decks: Mapping[str, Sequence[str]] | None = None) -> pl.DataFrame:
    """The win-rate matrix: ``deck``, ``opponent``, ``games``, ``wins``, ``win_rate``, ``low``,
    ``high``, ``unfinished``.

    Each game counts once for each side, whatever its seat; an unfinished game
    (R10.1) is a game that neither side won.  Mirror matches are left out.
    """
    labelled = _labelled(games, decks).with_columns(deck_a=pl.col("label_a"), deck_b=pl.col("label_b"))
    return (
        deck_results(pairing_counts(labelled))
        .filter(pl.col("deck") != pl.col("opponent"))
        .select(
            "deck",
            "opponent",
            pl.col("games").cast(pl.Int64),
            pl.col("wins").cast(pl.Int64),
            pl.col("rate").alias("win_rate"),
            "low",
            "high",
            pl.col("unfinished").cast(pl.Int64),
        )
    )


@needs(games=wanted.GAMES_RESULTS)
def matchups_readable(games: pl.DataFrame, decks: Mapping[str, Sequence[str]] | None = None) -> pl.DataFrame:
    """:func:`matchups` as a person reads it: the row deck's win rate against the column deck
    and its 95% interval in points (one decimal), the games, and the unfinished ones only
    when there are any."""
    from ..base.points import percent_text

    m = matchups(games, decks)
    out = m.select(
        "deck",
        pl.col("opponent").alias("against"),
        pl.col("win_rate").map_elements(percent_text, return_dtype=pl.String).alias("win rate"),
        pl.struct("low", "high")
        .map_elements(lambda r: f"{percent_text(r['low'], sign='')}–{percent_text(r['high'])}", return_dtype=pl.String)
        .alias("95% interval"),
        "games",
        "unfinished",
    )
    return out if int(out["unfinished"].sum()) else out.drop("unfinished")


@needs(games=wanted.GAMES_FIRST)
def first_player_advantage(
    games: pl.DataFrame,
    *,
    by: str | None = "pairing",
    decks: Mapping[str, Sequence[str]] | None = None,
) -> pl.DataFrame:
    """How often the first player (R2.3) wins: ``group``, ``games``, ``wins``, ``win_rate``,
    ``low``, ``high``.

    ``by="pairing"`` gives one row per pair of decks (``deck 1 vs deck 2``,
    either seat) plus the row ``all``; ``by=None`` only ``all``; ``by="deck"``
    one row per deck of the first player.
    """
    sides = _sides(_labelled(games, decks)).filter(pl.col("first"))
    if by == "pairing":
        low = pl.min_horizontal("deck", "opponent")
        high = pl.max_horizontal("deck", "opponent")
        sides = sides.with_columns(pl.concat_str(low, pl.lit(" vs "), high).alias("group"))
    elif by == "deck":
        sides = sides.with_columns(pl.col("deck").alias("group"))
    elif by is None:
        sides = sides.with_columns(pl.lit("all").alias("group"))
    else:
        raise OptionError(f"by must be 'pairing', 'deck' or None, not {by!r}")

    def agg(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.group_by("group").agg(
            pl.len().cast(pl.Int64).alias("games"), pl.col("won").sum().cast(pl.Int64).alias("wins")
        )

    parts = [agg(sides).sort("group")]
    if by is not None:
        parts.append(agg(sides.with_columns(pl.lit("all").alias("group"))))
    return pl.concat(parts).with_columns(rate_exprs("wins", "games", "win_rate"))


# --- Per turn -----------------------------------------------------------------------------


def _with_groups(turns: pl.DataFrame, games: pl.DataFrame | None, by: str | None, decks) -> pl.DataFrame:
    """``group`` (per ``by``) beside the turns frame's ``own_turn``, ``seat`` and ``deck``
    (:func:`clashkit.runs.trace.turn_context`).  By deck, a starter deck's turns are
    ``deck N`` (whatever the format, read from the turns frame); any other cards' turns are
    labelled from the games frame (:func:`own_label`), and so are all turns when
    ``decks=`` names decks of its own."""
    if by not in GROUPINGS:
        raise OptionError(f"by must be one of {GROUPINGS}, not {by!r}")
    t = turns.with_columns(pl.col("own_turn").cast(pl.Int32), pl.col("player").cast(pl.String))
    if by is None:
        return t.with_columns(pl.lit("all").alias("group"))
    if by == "player":
        return t.with_columns(pl.concat_str(pl.lit("player "), pl.col("player")).alias("group"))
    if by == "seat":
        return t.with_columns(pl.format("{} player", pl.col("seat").cast(pl.String)).alias("group"))
    if decks is None:
        t = t.with_columns(pl.format("deck {}", "deck").alias("group"))  # null where no starter deck
        if not t["group"].null_count():
            return t
        if games is None:
            raise OptionError(
                "by='deck': some turns are not a starter deck's (R7.1); pass games= to label them by their cards"
            )
        own = _sides(label_decks(games, {})).select("game", "player", pl.col("deck").alias("own"))
        joined = t.join(own, on=["game", "player"], how="left", maintain_order="left")
        return joined.with_columns(pl.coalesce("group", "own").alias("group")).drop("own")
    if games is None:
        raise OptionError("by='deck' with named decks needs the games frame")
    sides = _sides(_labelled(games, decks)).select("game", "player", pl.col("deck").alias("group"))
    return t.join(sides, on=["game", "player"], how="left")


@needs(turns=wanted.TURNS_MANA)
def mana_per_turn(
    turns: pl.DataFrame,
    *,
    games: pl.DataFrame | None = None,
    by: str | None = None,
    max_turn: int = 15,
    decks: Mapping[str, Sequence[str]] | None = None,
) -> pl.DataFrame:
    """Mean mana gained and spent on each of a player's turns: ``group``, ``own_turn``,
    ``measure`` (``gained`` / ``spent``), ``mana`` (mean), ``turns`` (how many turns averaged),
    ``games`` (how many games they come from: late turns come from few games).

    ``own_turn`` counts a player's own turns (their 1st, 2nd …); ``by`` splits
    by ``"player"``, ``"seat"`` (first / second player) or ``"deck"``
    (the last two need ``games``).
    """
    t = _with_groups(turns, games, by, decks).filter(pl.col("own_turn") <= max_turn)
    wide = t.group_by("group", "own_turn").agg(
        pl.col("mana_gained").cast(pl.Float64).mean().alias("gained"),
        pl.col("mana_spent").cast(pl.Float64).mean().alias("spent"),
        pl.len().cast(pl.Int64).alias("turns"),
        pl.col("game").n_unique().cast(pl.Int64).alias("games"),
    )
    return (
        wide.unpivot(
            ["gained", "spent"],
            index=["group", "own_turn", "turns", "games"],
            variable_name="measure",
            value_name="mana",
        )
        .sort("group", "own_turn", "measure")
        .select("group", "own_turn", "measure", "mana", "turns", "games")
    )


@needs(turns=wanted.TURNS_HEALTH)
def hand_health_over_turns(
    turns: pl.DataFrame,
    *,
    games: pl.DataFrame | None = None,
    by: str | None = None,
    max_turn: int = 15,
    spread: tuple[float, float] = (0.25, 0.75),
    decks: Mapping[str, Sequence[str]] | None = None,
) -> pl.DataFrame:
    """Hand-health at the end of each of a player's turns, across games, split by the keep
    (Bastion or Fort, R4.8): ``group``, ``own_turn``, ``keep``, ``median``, ``low``, ``high``
    (the ``spread`` quantiles), ``turns`` (how many player-turns), ``games`` (how many games
    they come from), ``share`` (of the player-turns at that ``own_turn`` in that group with
    this keep)."""
    t = _with_groups(turns, games, by, decks).filter(pl.col("own_turn") <= max_turn)
    lo, hi = spread
    out = (
        t.with_columns(pl.col("keep_end").cast(pl.String).alias("keep"))
        .group_by("group", "own_turn", "keep")
        .agg(
            pl.col("hand_health_end").cast(pl.Float64).median().alias("median"),
            pl.col("hand_health_end").cast(pl.Float64).quantile(lo, interpolation="linear").alias("low"),
            pl.col("hand_health_end").cast(pl.Float64).quantile(hi, interpolation="linear").alias("high"),
            pl.len().cast(pl.Int64).alias("turns"),
            pl.col("game").n_unique().cast(pl.Int64).alias("games"),
        )
        .with_columns((pl.col("turns") / pl.col("turns").sum().over("group", "own_turn")).alias("share"))
    )
    return out.sort("group", "own_turn", "keep")


@needs(turns=wanted.TURNS_HEALTH)
def hand_health_readable(
    turns: pl.DataFrame,
    *,
    games: pl.DataFrame | None = None,
    by: str | None = None,
    max_turn: int = 15,
    spread: tuple[float, float] = (0.25, 0.75),
    decks: Mapping[str, Sequence[str]] | None = None,
) -> pl.DataFrame:
    """:func:`hand_health_over_turns` as a person reads it: the group, the player's turn, the
    keep, the median and the middle-half band of hand-health (one decimal), the share of
    games with that keep in points, and the games behind each row."""
    from ..base.points import percent_text

    data = hand_health_over_turns(turns, games=games, by=by, max_turn=max_turn, spread=spread, decks=decks)
    lo, hi = spread
    return data.select(
        pl.col("group").alias(by or "group"),
        pl.col("own_turn").alias("the player's turn"),
        "keep",
        pl.col("median").round(1).alias("median hand-health"),
        pl.format("{}–{}", pl.col("low").round(1), pl.col("high").round(1)).alias(
            f"{percent_text(lo, 0, '')}–{percent_text(hi, 0, '')}% band"
        ),
        pl.col("share").map_elements(percent_text, return_dtype=pl.String).alias("share of games"),
        pl.col("games"),
    )


# --- Per card -------------------------------------------------------------------------------


@needs(events=wanted.EVENTS_NUMBERS, games=wanted.GAMES_OUTCOMES)
def card_numbers(events: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Per card: ``card``, ``played_in`` (player-games in which its owner played it at least
    once), ``wins`` and ``win_rate`` / ``low`` / ``high`` (of those player-games),
    ``creature_damage`` and ``keep_damage`` (mean damage it dealt per player-game
    played: to creatures, R4.3 and R5.5, and to the keep, R4.7), ``destroyed`` (times it was
    destroyed, R4.3) and ``destroyed_per_game``.

    A card's owner is the player who played it (the AI for ``ai_reveal``); damage
    is counted for the player whose turn it was, who owns the attacker or the
    incantation.
    """
    e = events.select(
        "game",
        pl.col("player").cast(pl.String),
        pl.col("kind").cast(pl.String),
        pl.col("card").cast(pl.String),
        pl.col("target_player").cast(pl.String),
        pl.col("target_card").cast(pl.String),
        pl.col("amount").cast(pl.Int64),
    )
    played = (
        e.filter(pl.col("kind").is_in(["card_played", "ai_reveal"]) & pl.col("card").is_not_null())
        .select("game", "player", "card")
        .unique()
    )
    result = games.select(
        "game",
        pl.col("winner").cast(pl.String),
        "finished",
    )
    played = played.join(result, on="game", how="left").with_columns(
        (pl.col("winner") == pl.col("player")).fill_null(False).alias("won")
    )
    per_card = played.group_by("card").agg(
        pl.len().cast(pl.Int64).alias("played_in"),
        pl.col("won").sum().cast(pl.Int64).alias("wins"),
    )
    keep_names = ["BASTION", "FORT"]
    damage = (
        e.filter(
            (pl.col("kind") == "damage") | ((pl.col("kind") == "attack") & pl.col("target_card").is_in(keep_names))
        )
        .filter(pl.col("card").is_not_null())
        .group_by("card")
        .agg(
            pl.col("amount").filter(pl.col("kind") == "damage").sum().alias("creature_damage_total"),
            pl.col("amount").filter(pl.col("kind") == "attack").sum().alias("keep_damage_total"),
        )
    )
    destroyed = (
        e.filter((pl.col("kind") == "creature_destroyed") & pl.col("target_card").is_not_null())
        .group_by(pl.col("target_card").alias("card"))
        .agg(pl.len().cast(pl.Int64).alias("destroyed"))
    )
    out = (
        per_card.join(damage, on="card", how="left")
        .join(destroyed, on="card", how="left")
        .with_columns(
            pl.col("creature_damage_total", "keep_damage_total", "destroyed").fill_null(0),
        )
        .with_columns(
            (pl.col("creature_damage_total") / pl.col("played_in")).alias("creature_damage"),
            (pl.col("keep_damage_total") / pl.col("played_in")).alias("keep_damage"),
            (pl.col("destroyed") / pl.col("played_in")).alias("destroyed_per_game"),
            *rate_exprs("wins", "played_in", "win_rate"),
        )
    )
    return out.select(
        "card",
        "played_in",
        "wins",
        "win_rate",
        "low",
        "high",
        "creature_damage",
        "keep_damage",
        "destroyed",
        "destroyed_per_game",
    ).sort("win_rate", "card", descending=[True, False], nulls_last=True)


# --- Before and after a change -----------------------------------------------------------


@needs(games=wanted.GAMES_RESULTS)
def deck_win_rates(games: pl.DataFrame, decks: Mapping[str, Sequence[str]] | None = None) -> pl.DataFrame:
    """Each deck's overall win rate against the others: ``deck``, ``games``, ``wins``,
    ``win_rate``, ``low``, ``high`` (mirror matches left out)."""
    m = matchups(games, decks)
    return (
        m.group_by("deck")
        .agg(pl.col("games").sum(), pl.col("wins").sum())
        .with_columns(rate_exprs("wins", "games", "win_rate"))
        .sort("deck")
    )


def compare_win_rates(frames: Mapping[str, pl.DataFrame], decks=None) -> pl.DataFrame:
    """:func:`deck_win_rates` of several batches stacked, with a ``version`` column
    (``{"before": games0, "after": games1}``), in the order given."""
    parts: Iterable[pl.DataFrame] = (
        deck_win_rates(games, decks).with_columns(pl.lit(version).alias("version")) for version, games in frames.items()
    )
    return pl.concat(list(parts)).select("version", "deck", "games", "wins", "win_rate", "low", "high")


__all__ = [
    "card_numbers",
    "cards_frame",
    "compare_win_rates",
    "deck_win_rates",
    "decks_frame",
    "first_player_advantage",
    "hand_health_over_turns",
    "hand_health_readable",
    "label_decks",
    "mana_curve",
    "mana_per_turn",
    "matchups",
    "matchups_readable",
    "own_label",
    "starter_deck_names",
]
