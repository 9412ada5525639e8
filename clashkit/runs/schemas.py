"""The frames' schemas (events, turns, games), declared once, and the columns every turns frame
gets from its games frame (:func:`turn_context`): what both the frames' builder
(:mod:`clashkit.runs.trace`) and the reader of run folders, older frames versions included
(:mod:`clashkit.runs.reading`), need.  Dtypes are as narrow as the ranges of
``clashkit.base.limits`` allow."""

from __future__ import annotations

import numpy as np
import polars as pl

from ..base.cards import KEEP_NAMES, CardSet
from ..base.limits import TURN_COUNTS, Limit
from ..base.vocab import LANES, PLAYERS, Keep, Mode
from ..engine.events import EVENT_KINDS
from ..engine.records import TERMINATIONS
from ..engine.state import PHASES
from ..engine.turn import TURN_FIELDS

# FRAMES_VERSION (clashkit.base.rules, beside RULES_VERSION) is raised whenever a schema below changes.

PLAYER = pl.Enum([p.value for p in PLAYERS])
LANE = pl.Enum([lane.value for lane in LANES])
PHASE = pl.Enum([p.value for p in PHASES])
KIND = pl.Enum([k.value for k in EVENT_KINDS])
KEEP_SIDE = pl.Enum([k.value for k in Keep])
MODE = pl.Enum([m.value for m in Mode])
FORMATS = ("preconstructed", "draft", "constructed", "custom")
FORMAT = pl.Enum(list(FORMATS))
#: The engines that play games (the reference engine, and clashkit.fast).
ENGINES = ("reference", "fast")
ENGINE = pl.Enum(list(ENGINES))


def card_enum(cards: CardSet) -> pl.Enum:
    """The card-name dtype of a card set: its names, then ``BASTION`` and ``FORT``."""
    return pl.Enum([*cards.names, *KEEP_NAMES])


def events_schema(cards: CardSet) -> pl.Schema:
    card = card_enum(cards)
    return pl.Schema(
        {  # type: ignore[arg-type]  # mypy joins the dtype classes and pl.Enum values to object
            "game": pl.UInt32,
            "step": pl.UInt32,
            "turn": pl.UInt16,
            "player": PLAYER,
            "phase": PHASE,
            "kind": KIND,
            "card": card,
            "lane": LANE,
            "position": pl.Int8,
            "target_player": PLAYER,
            "target_card": card,
            "amount": pl.Int32,
            "mana_left": pl.Int8,
            "hand_health_a": pl.Int8,
            "hand_health_b": pl.Int8,
            "keep_a": KEEP_SIDE,
            "keep_b": KEEP_SIDE,
        }
    )


#: Each integer dtype's numpy type (the raw buffers are cast to it, checked).
NUMPY_TYPES: dict[type[pl.DataType], type[np.integer]] = {
    pl.UInt16: np.uint16,
    pl.UInt32: np.uint32,
    pl.UInt64: np.uint64,
    pl.Int8: np.int8,
    pl.Int16: np.int16,
    pl.Int32: np.int32,
}


def _narrowest(limit: Limit) -> type[pl.DataType]:
    """The narrowest signed integer type that holds ``limit``'s range."""
    for dtype in (pl.Int8, pl.Int16, pl.Int32):
        info = np.iinfo(NUMPY_TYPES[dtype])
        if info.min <= limit.low and limit.high <= info.max:
            return dtype
    raise ValueError(f"no integer column holds {limit.low}…{limit.high}")


#: The turns frame's columns that are not counts; each count is as narrow as its range in
#: ``clashkit.base.limits.TURN_COUNTS`` allows.
_TURN_CODES: dict[str, pl.DataType | type[pl.DataType]] = {"turn": pl.UInt16, "player": PLAYER, "keep_end": KEEP_SIDE}


def _turn_column(name: str) -> pl.DataType | type[pl.DataType]:
    return _TURN_CODES[name] if name in _TURN_CODES else _narrowest(TURN_COUNTS[name])


#: The turns frame's columns the engines write, one turn row each (:func:`turns_from_buffer`).
RAW_TURNS_SCHEMA = pl.Schema({"game": pl.UInt32, **{name: _turn_column(name) for name in TURN_FIELDS}})
#: Whether the turn's player moved first (R2.3) or second.
SEAT = pl.Enum(["first", "second"])
#: The columns :func:`turn_context` adds from the games frame: what an explorer groups turns by.
TURN_CONTEXT_SCHEMA = pl.Schema(
    {"own_turn": pl.UInt16, "seat": SEAT, "deck": pl.Int8}  # type: ignore[arg-type]  # mypy joins dtype classes and values to object
)
TURNS_SCHEMA = pl.Schema({**RAW_TURNS_SCHEMA, **TURN_CONTEXT_SCHEMA})

#: R3.8, R4.9, R8.7, R10.1: how each game ended (``clashkit.engine.outcome.Termination``); null while running.
TERMINATION = pl.Enum([t.value for t in TERMINATIONS])

GAMES_SCHEMA = pl.Schema(
    {  # type: ignore[arg-type]  # mypy joins the dtype classes and pl.Enum values to object
        "game": pl.UInt32,
        "seed": pl.UInt64,
        "mode": MODE,
        "format": FORMAT,
        "deck_a": pl.List(pl.String),
        "deck_b": pl.List(pl.String),
        "hand_a": pl.List(pl.String),
        "hand_b": pl.List(pl.String),
        "policy_a": pl.String,
        "policy_b": pl.String,
        "first_player": PLAYER,
        "winner": PLAYER,
        "turns": pl.UInt16,
        "finished": pl.Boolean,
        "termination": TERMINATION,
        "rules_version": pl.UInt16,
        "rules": pl.String,
        "level": pl.Int8,
        "engine": ENGINE,
    }
)


#: The games frame's columns of the deal (R2.2, R8.1): each hand as dealt, the solo AI's pile.
DEAL_COLUMNS = ("hand_a", "hand_b")


def starter_numbers(cards: CardSet) -> dict[tuple[str, ...], int]:
    """Each starter deck's number (R7.1) by its card names, sorted: the one test of whether a
    player's cards are a starter deck, by names alone, whatever the cards' values (a designer's
    deck 3 with a dearer card is still deck 3) and whatever the format the game was set up in
    (a deck given by its number, as a list of its names, or dealt by a draft)."""
    return {tuple(sorted(names)): number for number, names in cards.decks.items()}


def turn_context(turns: pl.DataFrame, games: pl.DataFrame, cards: CardSet) -> pl.DataFrame:
    """The turns frame with what it says about each turn's player, from the games frame:

    * ``own_turn``: the player's own turn number, from 1 (turns alternate, R1.6, and turn 1
      is the first player's, R2.3: the first player's turn ``t`` is their ``(t + 1) // 2``-th,
      the second player's their ``t // 2``-th);
    * ``seat``: ``first`` or ``second`` (R2.3);
    * ``deck``: the number of the starter deck (R7.1) whose cards the player plays
      (:func:`starter_numbers`), in any format; null for any other cards and for the solo AI.

    The one place both engines' turns frames get these columns (:func:`build_trace`), and
    where a run folder of an older frames version gets them when it is read."""
    starter = starter_numbers(cards)

    def deck_of(column: str) -> pl.Expr:
        listed = pl.col(column).list.sort().list.join("\x1f")
        mapping = {"\x1f".join(k): v for k, v in starter.items()}
        return listed.replace_strict(mapping, default=None, return_dtype=pl.Int8).alias(column)

    sides = games.select("game", "first_player", deck_of("deck_a"), deck_of("deck_b")).with_columns(
        pl.col("game").cast(pl.UInt32)
    )
    first = pl.col("player") == pl.col("first_player")
    turn = pl.col("turn").cast(pl.Int32)
    return (
        turns.select(list(RAW_TURNS_SCHEMA))
        .join(sides, on="game", how="left", maintain_order="left")
        .with_columns(
            pl.when(first).then((turn + 1) // 2).otherwise(turn // 2).cast(pl.UInt16).alias("own_turn"),
            pl.when(first).then(pl.lit("first")).otherwise(pl.lit("second")).cast(SEAT).alias("seat"),
            pl.when(pl.col("player") == "A").then(pl.col("deck_a")).otherwise(pl.col("deck_b")).alias("deck"),
        )
        .select(list(TURNS_SCHEMA))
    )


__all__ = [
    "DEAL_COLUMNS",
    "ENGINE",
    "ENGINES",
    "FORMAT",
    "FORMATS",
    "NUMPY_TYPES",
    "GAMES_SCHEMA",
    "KEEP_SIDE",
    "KIND",
    "LANE",
    "MODE",
    "PHASE",
    "PLAYER",
    "RAW_TURNS_SCHEMA",
    "SEAT",
    "TERMINATION",
    "TURNS_SCHEMA",
    "TURN_CONTEXT_SCHEMA",
    "card_enum",
    "events_schema",
    "starter_numbers",
    "turn_context",
]
