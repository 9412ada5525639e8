"""Frames for the chart and summary tests: tiny hand-made ones whose numbers are known, and
one small batch of real games."""

from __future__ import annotations

import polars as pl
import pytest

from clashkit.base.cards import starter_decks, starter_set
from clashkit.base.rules import RULES_VERSION
from clashkit.runs.schemas import GAMES_SCHEMA, TURNS_SCHEMA, events_schema

D1, D2 = starter_decks()[1], starter_decks()[2]


def _game(game, deck_a, deck_b, first, winner, turns):
    return {
        "game": game,
        "seed": game,
        "mode": "duel",
        "format": "preconstructed",
        "deck_a": sorted(deck_a),
        "deck_b": sorted(deck_b),
        "policy_a": "greedy",
        "policy_b": "greedy",
        "first_player": first,
        "winner": winner,
        "turns": turns,
        "finished": winner is not None,
        "termination": "turn_limit" if winner is None else "fort_fell",
        "rules_version": RULES_VERSION,
        "rules": "",
        "level": None,
    }


@pytest.fixture(scope="session")
def games() -> pl.DataFrame:
    """Deck 1 against deck 2: A wins, B wins (B first), A wins (deck 2 in seat A), unfinished."""
    return pl.DataFrame(
        [
            _game(0, D1, D2, "A", "A", 4),
            _game(1, D1, D2, "B", "B", 3),
            _game(2, D2, D1, "A", "A", 5),
            _game(3, D2, D1, "B", None, 200),
        ],
        schema=GAMES_SCHEMA,
    )


def _turn(game, turn, player, gained, spent, health, keep):
    first = player == ("A" if game == 0 else "B")  # game 0: A first; game 1: B first (the games fixture)
    return {
        "game": game,
        "turn": turn,
        "player": player,
        "mana_gained": gained,
        "mana_spent": spent,
        "cards_played": 1,
        "hand_size_start": 9,
        "hand_health_start": 8,
        "hand_size_end": 8,
        "hand_health_end": health,
        "keep_end": keep,
        "creatures_a": 1,
        "creatures_b": 1,
        "keep_damage": 0,
        "creatures_destroyed": 0,
        "own_turn": (turn + 1) // 2 if first else turn // 2,
        "seat": "first" if first else "second",
        "deck": 1 if player == "A" else 2,  # deck 1 in seat A in both games
    }


@pytest.fixture(scope="session")
def turns() -> pl.DataFrame:
    """Game 0 (A first): four turns, B's Bastion falls on turn 4; game 1 (B first): three turns."""
    return pl.DataFrame(
        [
            _turn(0, 1, "A", 6, 4, 7, "bastion"),
            _turn(0, 2, "B", 9, 9, 5, "bastion"),
            _turn(0, 3, "A", 8, 6, 3, "bastion"),
            _turn(0, 4, "B", 6, 2, 6, "fort"),
            _turn(1, 1, "B", 6, 6, 6, "bastion"),
            _turn(1, 2, "A", 9, 7, 4, "bastion"),
            _turn(1, 3, "B", 7, 5, 2, "bastion"),
        ],
        schema=TURNS_SCHEMA,
    )


def _event(game, step, kind, player="A", card=None, target_player=None, target_card=None, amount=0):
    return {
        "game": game,
        "step": step,
        "turn": 1,
        "player": player,
        "phase": "siege",
        "kind": kind,
        "card": card,
        "lane": "upper",
        "position": 0,
        "target_player": target_player,
        "target_card": target_card,
        "amount": amount,
        "mana_left": 0,
        "hand_health_a": 5,
        "hand_health_b": 5,
        "keep_a": "bastion",
        "keep_b": "bastion",
    }


@pytest.fixture(scope="session")
def events() -> pl.DataFrame:
    """BRUTE played by A in games 0 (won) and 1 (lost): 4 + 2 damage to creatures, 3 to the
    keep, destroyed once; METEORITE played once in game 0 (won) for 3 damage."""
    rows = [
        _event(0, 0, "card_played", card="BRUTE"),
        _event(0, 1, "card_played", card="METEORITE"),
        _event(0, 2, "damage", card="BRUTE", target_player="B", target_card="TROLL", amount=4),
        _event(0, 3, "attack", card="BRUTE", target_player="B", target_card="BASTION", amount=3),
        _event(0, 4, "damage", card="METEORITE", target_player="B", target_card="OGRE", amount=3),
        _event(
            0,
            5,
            "creature_destroyed",
            player="B",
            card="OGRE",
            target_player="A",
            target_card="BRUTE",
        ),
        _event(1, 0, "card_played", card="BRUTE"),
        _event(1, 1, "damage", card="BRUTE", target_player="B", target_card="OGRE", amount=2),
    ]
    return pl.DataFrame(rows, schema=events_schema(starter_set()))


@pytest.fixture(scope="session")
def batch():
    """Three random games of each ordered pairing of the starter decks (36 games)."""
    from clashkit.viz.runs import play_matchups

    return play_matchups(games_per_pairing=3, policy="random", seed=5, progress=False, record_events=True)
