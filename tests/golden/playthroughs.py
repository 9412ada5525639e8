"""Golden playthroughs: seeded games written out step by step, to diff against.

Each golden file is the readable account of one whole game — every event as a
sentence, then the final table — played by the ``random`` policy (whose only
input is the game's generator, R10.2) on the frozen card set
``tests/golden/cards.csv``, so that tuning the shipped values never touches
them.  A change to the engine that changes any game shows up as a diff here.

Regenerate after a deliberate change of behaviour (and bump RULES_VERSION)::

    .venv/bin/python tests/golden/playthroughs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from clashkit.base.cards import load_cards
from clashkit.base.rules import Rules, SoloSettings
from clashkit.engine.solo_setup import solo_setup
from clashkit.policies import get_policy
from clashkit.runs.game import new_game, play
from clashkit.show.render import describe_event, describe_state, event_dicts

HERE = Path(__file__).resolve().parent
CARDS = load_cards(HERE / "cards.csv")


def duel(seed: int, deck_a: str, deck_b: str, rules: Rules | None = None):
    state, _ = new_game(deck_a, deck_b, "random", "random", cards=CARDS, rules=rules, seed=seed)
    return play(state, "random", "random")


def solo(seed: int, deck: str, settings: SoloSettings | None = None):
    rules = Rules(solo=settings or SoloSettings())
    state = solo_setup(deck, get_policy("random"), rules=rules, cards=CARDS, seed=seed).state
    return play(state, "random")


#: name → how to play it.  Together they cross every ability and effect of the set.
GAMES = {
    "duel_1v2_seed7": lambda: duel(7, "1", "2"),
    "duel_3v4_seed11": lambda: duel(11, "3", "4"),
    "duel_draft_seed5": lambda: duel(5, "draft", "draft"),
    "duel_options_seed3": lambda: duel(
        3, "4", "1", Rules(protection="first_damage", bloodlust_trigger="any", incantations_in_siege=False)
    ),
    "solo_quick_seed2": lambda: solo(2, "2"),
    "solo_hard_seed9": lambda: solo(
        9, "draft", SoloSettings(ai_fixed_mana=8, ai_ability="bloodlust", ai_pile_damage="one")
    ),
}


def account(state) -> str:
    """The game as text: one numbered line per event, then the final table."""
    lines = [f"{e['step']:4} t{e['turn']:<3} {describe_event(e)}" for e in event_dicts(state)]
    return "\n".join([*lines, "", describe_state(state), ""])


def path(name: str) -> Path:
    return HERE / f"{name}.txt"


def regenerate() -> None:
    for name, game in GAMES.items():
        path(name).write_text(account(game()), encoding="utf-8")
        print(f"wrote {path(name).relative_to(Path.cwd()) if path(name).is_relative_to(Path.cwd()) else path(name)}")


if __name__ == "__main__":
    regenerate()
    sys.exit(0)
