"""A fingerprint of many varied games: one hash of their events, turns and games frames.

    python benchmarks/fingerprint.py          # prints the hash and the number of games

Plays about 1,500 seeded games — duels of starter decks, drafts and
constructed decks, solo games at several levels, under the default rules and
every reading of R10.3/R10.4, with ``random``, ``greedy`` and a few
``search:budget=4`` players — and hashes the three frames.  A change to the
engine that must not change any game (a refactor) must leave the hash as it
was.  Columns added to the frames later are left out (``termination``), so
the hash compares the same data before and after.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import polars as pl  # noqa: E402

from clashkit.runs.simulate import simulate  # noqa: E402

#: Columns that did not exist when the fingerprint was first taken.
LATER_COLUMNS = {"termination"}

RULES = [
    {},
    {"incantations_in_siege": False},
    {"protection": "first_damage"},
    {"protection": "first_hit"},
    {"bloodlust_trigger": "any"},
    {"bloodlust_trigger": "per_creature"},
    {"keep_distance": "attack"},
    {"aura": "until_holder_moves"},
    {"siege_order": "fixed"},
    {"turn_limit": 30},
]

#: (n, keyword arguments of simulate)
RUNS: list[tuple[int, dict]] = []
for i, rules in enumerate(RULES):
    RUNS += [
        (40, dict(deck_a="1", deck_b="2", policy_a="greedy", policy_b="greedy", rules=rules, seed=i)),
        (25, dict(deck_a="3", deck_b="4", policy_a="random", policy_b="greedy", rules=rules, seed=100 + i)),
        (20, dict(deck_a="draft", deck_b="draft", policy_a="greedy", policy_b="random", rules=rules, seed=200 + i)),
        (
            15,
            dict(
                deck_a="constructed",
                deck_b="constructed",
                policy_a="random",
                policy_b="random",
                rules=rules,
                seed=300 + i,
            ),
        ),
        (20, dict(mode="solo", deck_a="2", deck_b=None, policy_a="greedy", level=i % 6, rules=rules, seed=400 + i)),
        (
            10,
            dict(
                mode="solo",
                deck_a="draft",
                deck_b=None,
                policy_a="random",
                level=(i + 3) % 6,
                rules=rules,
                seed=500 + i,
            ),
        ),
    ]
RUNS += [
    (
        20,
        dict(
            mode="solo",
            deck_a="1",
            deck_b=None,
            policy_a="greedy",
            settings={"ai_pile_damage": "minus_one", "ai_reduced_scope": "all"},
            free_settings=True,
            seed=600,
        ),
    ),
    (
        20,
        dict(
            mode="solo",
            deck_a="4",
            deck_b=None,
            policy_a="greedy",
            settings={"ai_first": True},
            free_settings=True,
            rules={"solo_player_first_mana": "six", "ai_last_turn": "current"},
            seed=601,
        ),
    ),
    (
        20,
        dict(
            mode="solo",
            deck_a="3",
            deck_b=None,
            policy_a="random",
            rules={"ai_incantation_side": "either"},
            level=3,
            seed=602,
        ),
    ),
    (30, dict(deck_a="1", deck_b="1", mirror=True, policy_a="greedy", policy_b="greedy", seed=603)),
    (
        30,
        dict(
            deck_a="draft",
            deck_b="draft",
            policy_a="greedy",
            policy_b="greedy",
            rules={"first_player": "last_drafter"},
            seed=604,
        ),
    ),
    (6, dict(deck_a="2", deck_b="3", policy_a="search:budget=4", policy_b="greedy", seed=605)),
    (4, dict(mode="solo", deck_a="1", deck_b=None, policy_a="search:budget=4", level=1, seed=606)),
]


def frame_bytes(frame) -> bytes:
    keep = [c for c in frame.columns if c not in LATER_COLUMNS]
    # Nested columns (lists, structs) as their JSON text, so the frame writes as CSV.
    frame = frame.select(keep)
    nested = [c for c, t in frame.schema.items() if t.is_nested()]
    if nested:
        frame = frame.with_columns(pl.col(c).map_elements(repr, return_dtype=pl.String) for c in nested)
    return frame.write_csv().encode()


def fingerprint() -> tuple[str, int]:
    digest = hashlib.sha256()
    games = 0
    for n, kwargs in RUNS:
        trace = simulate(n, jobs=1, progress=False, **kwargs)
        for frame in (trace.events, trace.turns, trace.games):
            digest.update(frame_bytes(frame))
        games += n
    return digest.hexdigest(), games


if __name__ == "__main__":
    value, games = fingerprint()
    print(f"{value} {games} games")
