"""Any game of a batch, either engine's, played again in the reference engine with its events.

A games frame row holds what a game needs to be played again: its seed,
mode, format, decks, policies and rules options (R10.2: the same seed and the
same decisions give the same game).  A custom deck list replays exactly when
it was given in card-set order, the order the games frame lists it in.
"""

from __future__ import annotations

from ..base.errors import OptionError
from ..base.rules import Rules, SoloSettings, parse_settings
from ..engine.solo_setup import solo_setup
from ..policies import get_policy
from .game import new_game, play


def replay(games_row, *, cards=None, rules=None, record: bool = True):
    """Replay one game of a batch in the reference engine, from its seed, with its events.

    ``games_row``: one row of a games frame (a dict, or a one-row frame) of a
    simulation with fixed decks (R7.1 or custom), a draft or the constructed
    format, duel or solo; ``cards`` and ``rules`` as in that simulation
    (default: the shipped set; the rules are read from the row's ``rules``
    column).  Returns the finished :class:`~clashkit.engine.state.GameState`
    (``state.log`` holds its events; :func:`clashkit.runs.trace.game_frames` makes its frames).
    """
    if hasattr(games_row, "row") and hasattr(games_row, "height"):
        if games_row.height != 1:
            raise OptionError(f"replay takes one game, not {games_row.height}")
        games_row = games_row.row(0, named=True)
    row = dict(games_row)
    if rules is None:
        values = parse_settings(row.get("rules") or "", where="rules")
        solo_names = set(SoloSettings.__dataclass_fields__)
        solo = {k: v for k, v in values.items() if k in solo_names}
        rules = Rules.from_mapping({k: v for k, v in values.items() if k not in solo_names})
        if solo:
            rules = rules.replace(solo=SoloSettings.from_mapping(solo))
    policy_a = get_policy(row["policy_a"])
    policy_b = get_policy(row["policy_b"] if row["mode"] == "duel" else row["policy_a"])
    seed = int(row["seed"])
    fmt = row["format"]
    if row["mode"] == "solo":
        deck = "draft" if fmt == "draft" else list(row["deck_a"])
        state = solo_setup(deck, policy_a, rules=rules, cards=cards, seed=seed, record=record).state
    else:
        deck_a = fmt if fmt in ("draft", "constructed") else list(row["deck_a"])
        deck_b = fmt if fmt in ("draft", "constructed") else list(row["deck_b"])
        state, _ = new_game(
            deck_a,
            deck_b,
            policy_a,
            policy_b,
            cards=cards,
            rules=rules,
            seed=seed,
            record=record,
            mirror=deck_a == deck_b,
        )
    return play(state, policy_a, policy_b)


def _dealt_order(cards, names):
    """A fixed deck in the order it is dealt: the games frame lists it in card-set order, which is a
    starter deck's order (R7.1); a custom list replays exactly when it was given in that order."""
    return names


__all__ = ["replay"]
