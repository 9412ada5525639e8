"""The golden OpenSpiel playthrough of ``python_clash_of_decks``: one seeded random game, every state's
legal actions, strings and tensors, as OpenSpiel's own playthrough generator writes it.

Regenerate after a deliberate change: ``.venv/bin/python tests/interop/playthrough.py``.
"""

from __future__ import annotations

from pathlib import Path

#: A short duel (decks 3 and 4, three turns) and the seed of the playthrough's random choices.
GAME = "python_clash_of_decks(deck_a=3,deck_b=4,turn_limit=3)"
SEED = 7
PATH = Path(__file__).with_name("python_clash_of_decks.txt")


def playthrough() -> str:
    from open_spiel.python.algorithms import generate_playthrough

    import clashkit.openspiel  # noqa: F401  (registers the game)

    return generate_playthrough.playthrough(GAME, None, seed=SEED)


if __name__ == "__main__":
    PATH.write_text(playthrough(), encoding="utf-8")
    print(f"wrote {PATH}")
