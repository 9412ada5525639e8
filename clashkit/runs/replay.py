"""Any game of a batch, either engine's, played again with its events: in the reference engine
(:func:`replay`, the finished state) or in either (:func:`replay_frames`, its three frames).

A games frame row holds what a game needs to be played again: its seed,
mode, format, decks, policies and rules options (R10.2: the same seed and the
same decisions give the same game).  The deal of a fixed deck (R2.2) depends on
the order the list was given in, which the games frame's ``deck_a`` (card-set
order) does not keep; its ``hand_a`` and ``hand_b`` (frames version 5 on) do, and
:func:`dealt_order` finds from them the order that deals the same hands, so a
custom list given in any order replays exactly.  Without them (an older run) a
list replays exactly when it was given in card-set order.
"""

from __future__ import annotations

from ..base.cards import starter_set
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
    deck_a, deck_b = dealt_order(row, cards=cards, rules=rules)
    state = _set_up(row, deck_a, deck_b, cards, rules, record)
    _check_deal(row, state)
    return play(state, policy_a, policy_b)


def _set_up(row, deck_a, deck_b, cards, rules, record: bool = False):
    """The game of ``row`` set up in the reference engine (R2, R7, R8.1), its first turn begun."""
    policy_a = get_policy(row["policy_a"])
    policy_b = get_policy(row["policy_b"] if row["mode"] == "duel" else row["policy_a"])
    seed = int(row["seed"])
    if row["mode"] == "solo":
        return solo_setup(deck_a, policy_a, rules=rules, cards=cards, seed=seed, record=record).state
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
    return state


def _recorded_deal(row, cards) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The deal the games row records (``hand_a``, ``hand_b``) as card ids, or ``None`` without one."""
    hands = row.get("hand_a"), row.get("hand_b")
    if hands[0] is None or hands[1] is None:
        return None
    cards = cards if cards is not None else starter_set()
    unknown = [name for hand in hands for name in hand if name not in cards]
    if unknown:
        raise OptionError(f"game {row.get('game')}: its deal holds {unknown[0]!r}, a card this card set lacks")
    return tuple(cards.ids(list(hands[0]))), tuple(cards.ids(list(hands[1])))


def _check_deal(row, state) -> None:
    """R10.2: the replayed game must have been dealt as the row records it."""
    recorded = _recorded_deal(row, state.cards)
    if recorded is not None and state.dealt != recorded:
        raise OptionError(
            f"game {row.get('game')}: replayed, it is dealt other hands than the run recorded "
            "(R2.2, R10.2): give the card set and rules the run was played with"
        )


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
    solo = row["mode"] == "solo"
    deck_a, deck_b = dealt_order(row, cards=cards, rules=rules)
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


def dealt_order(games_row, *, cards=None, rules=None) -> tuple:
    """The decks to set the game of ``games_row`` up with: ``draft`` / ``constructed`` as
    they are (the seed makes the same choices), a starter deck in card-set order (its order,
    R7.1), a custom list in the order that deals the hands the row records (``hand_a``,
    ``hand_b``; R2.2).

    The shuffle of a hand moves places, not cards: the same seed deals the list given in any
    order through the same permutation (R10.2).  The game is set up once from the lists in
    card-set order to learn that permutation; each recorded hand's cards are then put back
    where the permutation takes them from.  ``deck_b`` is ``None`` in solo (the AI's cards
    follow from the player's, R8.1).  Without a recorded deal, or for a solo list that names
    a card twice (which of the two went where is not recorded), the lists in card-set order.
    """
    row, rules = _row_and_rules(games_row, rules)
    fmt, solo = row["format"], row["mode"] == "solo"
    if solo:
        deck_a, deck_b = ("draft" if fmt == "draft" else list(row["deck_a"])), None
    else:
        deck_a = fmt if fmt in ("draft", "constructed") else list(row["deck_a"])
        deck_b = fmt if fmt in ("draft", "constructed") else list(row["deck_b"])
    recorded = _recorded_deal(row, cards)
    repeats = len(set(row["deck_a"])) < len(row["deck_a"])  # a solo list may repeat a card: places are ambiguous
    if recorded is None or fmt != "custom" or repeats:  # a starter deck is dealt from card-set order
        return deck_a, deck_b
    lists: list[list[str]] = [list(row["deck_a"])] + ([] if solo else [list(row["deck_b"])])
    dealt = _set_up(row, lists[0], None if solo else lists[1], cards, rules).dealt
    assert dealt is not None  # recorded as the first turn began
    names = (cards if cards is not None else starter_set()).names
    ordered = []
    for listed, made, wanted in zip(lists, dealt, recorded, strict=False):
        # The card dealt at place i was listed at listed.index(name of made[i]): put the card
        # recorded at place i there instead, and the same shuffle deals it at place i.
        order = list(listed)
        for place, card in enumerate(wanted):
            order[listed.index(names[made[place]])] = names[card]
        ordered.append(order)
    return ordered[0], (None if solo else ordered[1])


__all__ = ["dealt_order", "replay", "replay_frames"]
