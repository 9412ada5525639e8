"""Any game of a batch, either engine's, played again with its events: in the reference engine
(:func:`replay`, the finished state) or in either (:func:`replay_frames`, its three frames).

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
    row, rules = _row_and_rules(games_row, rules)
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


def _row_and_rules(games_row, rules):
    """The games row as a dict, and the rules it was played with (read from its ``rules`` column)."""
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
    return row, rules


def replay_frames(games_row, *, cards=None, rules=None, engine: str = "fast"):
    """Replay one game of a batch (as :func:`replay`) in ``engine`` — ``fast`` by default, or
    ``reference`` — and return its :class:`~clashkit.runs.trace.Trace`: the events, turns and
    games frames of that one game, its ``game`` number kept.  Both engines give the same frames."""
    from .simulate import play_game
    from .spec import Matchup
    from .trace import TraceBuilder

    row, rules = _row_and_rules(games_row, rules)
    fmt = row["format"]
    solo = row["mode"] == "solo"
    if solo:
        deck_a, deck_b = ("draft" if fmt == "draft" else list(row["deck_a"])), None
    else:
        deck_a = fmt if fmt in ("draft", "constructed") else list(row["deck_a"])
        deck_b = fmt if fmt in ("draft", "constructed") else list(row["deck_b"])
    matchup = Matchup.build(
        deck_a,
        deck_b,
        row["policy_a"],
        None if solo else row["policy_b"],
        record_events=True,
        engine=engine,
        mode=row["mode"],
        cards=cards,
        rules=rules,
        mirror=deck_a == deck_b,
    )
    game, seed = int(row["game"]), int(row["seed"])
    if matchup.engine == "fast":
        from .fast_games import play_games

        records = play_games(matchup, game, [seed])
    else:
        from ..engine.records import GameRecords

        records = GameRecords()
        play_game(matchup, game, seed, records)
    builder = TraceBuilder(matchup.card_set)
    builder.add(records)
    return builder.trace()


def _dealt_order(cards, names):
    """A fixed deck in the order it is dealt: the games frame lists it in card-set order, which is a
    starter deck's order (R7.1); a custom list replays exactly when it was given in that order."""
    return names


__all__ = ["replay", "replay_frames"]
