"""Traces as polars frames (``interfaces.md`` §4): events, turns, games.

The schemas are declared here, once.  Closed vocabularies are ``pl.Enum``;
card names are a ``pl.Enum`` of the card set's names plus the keep's
(``BASTION``, ``FORT``), so a frame's card columns depend on its card set —
:func:`events_schema` and :func:`turns_schema` take it.
"""

from __future__ import annotations

import polars as pl

from .cards import KEEP_NAMES, CardSet
from .events import EVENT_KINDS
from .state import PHASES
from .vocab import LANES, PLAYERS, Keep, Mode

PLAYER = pl.Enum([p.value for p in PLAYERS])
LANE = pl.Enum([lane.value for lane in LANES])
PHASE = pl.Enum([p.value for p in PHASES])
KIND = pl.Enum([k.value for k in EVENT_KINDS])
KEEP_SIDE = pl.Enum([k.value for k in Keep])
MODE = pl.Enum([m.value for m in Mode])
FORMAT = pl.Enum(["preconstructed", "draft", "constructed", "custom"])


def card_enum(cards: CardSet) -> pl.Enum:
    """The card-name dtype of a card set: its names, then ``BASTION`` and ``FORT``."""
    return pl.Enum([*cards.names, *KEEP_NAMES])


def events_schema(cards: CardSet) -> pl.Schema:
    card = card_enum(cards)
    return pl.Schema(
        {
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
            "amount": pl.Int16,
            "mana_left": pl.Int16,
            "hand_health_a": pl.Int16,
            "hand_health_b": pl.Int16,
            "keep_a": KEEP_SIDE,
            "keep_b": KEEP_SIDE,
        }
    )


TURNS_SCHEMA = pl.Schema(
    {
        "game": pl.UInt32,
        "turn": pl.UInt16,
        "player": PLAYER,
        "mana_gained": pl.Int16,
        "mana_spent": pl.Int16,
        "cards_played": pl.Int16,
        "hand_size_start": pl.Int16,
        "hand_health_start": pl.Int16,
        "hand_size_end": pl.Int16,
        "hand_health_end": pl.Int16,
        "keep_end": KEEP_SIDE,
        "creatures_a": pl.Int16,
        "creatures_b": pl.Int16,
        "keep_damage": pl.Int16,
        "creatures_destroyed": pl.Int16,
    }
)

GAMES_SCHEMA = pl.Schema(
    {
        "game": pl.UInt32,
        "seed": pl.UInt64,
        "mode": MODE,
        "format": FORMAT,
        "deck_a": pl.List(pl.String),
        "deck_b": pl.List(pl.String),
        "policy_a": pl.String,
        "policy_b": pl.String,
        "first_player": PLAYER,
        "winner": PLAYER,
        "turns": pl.UInt16,
        "finished": pl.Boolean,
        "rules_version": pl.UInt16,
        "level": pl.Int8,
    }
)
