"""The deal in the games frame (``hand_a``, ``hand_b``; R2.2, R8.1): the same in both engines for
every format, the order the reference setup dealt, and what a replay deals again.

The fast engine reads the hands from its compiled state as each game begins
(``clashkit.fast.game.record_deal``); the reference engine records ``state.dealt`` in
``begin``.  Neither is computed from the other, so equal columns over many seeds are a check
of both.
"""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

from clashkit.base.rules import Rules
from clashkit.runs.game import new_game
from clashkit.runs.replay import dealt_order, replay, replay_frames
from clashkit.runs.simulate import game_seeds, simulate

#: (deck A, deck B, options): every way a game is dealt — fixed decks, draft, constructed, solo
#: fixed and drafted, the solo AI moving first (its first reveal comes after the deal).
DEALS = [
    ("1", "2", {}),
    ("4", "3", {}),
    ("draft", "draft", {}),
    ("constructed", "constructed", {}),
    ("2", None, {"mode": "solo"}),
    ("draft", None, {"mode": "solo"}),
    ("3", None, {"mode": "solo", "settings": {"ai_first": True}, "free_settings": True}),
]


def both(n, deck_a, deck_b, seed, policy="random", **options):
    kw = dict(seed=seed, record_events=False, progress=False, **options)
    ref = simulate(n, deck_a, deck_b, policy, engine="reference", **kw)
    fast = simulate(n, deck_a, deck_b, policy, engine="fast", **kw)
    return ref.games, fast.games


@pytest.mark.parametrize(("deck_a", "deck_b", "options"), DEALS, ids=lambda v: str(v))
def test_both_engines_record_the_same_deal_over_many_seeds(deck_a, deck_b, options):
    ref, fast = both(300, deck_a, deck_b, 40, **options)
    assert ref.select("hand_a", "hand_b").equals(fast.select("hand_a", "hand_b"))
    solo = options.get("mode") == "solo"
    assert ref["hand_a"].list.len().unique().to_list() == [8]
    assert ref["hand_b"].list.len().unique().to_list() == [24 if solo else 8]
    # The same cards as deck_a / deck_b (card-set order), in the order dealt: not sorted.
    for side in ("a", "b"):
        dealt = ref[f"hand_{side}"].list.sort().to_list()
        assert dealt == ref[f"deck_{side}"].list.sort().to_list()
    orders = set(map(tuple, ref["hand_a"].to_list()))
    assert len(orders) > 250  # 8! orders: 300 seeds deal nearly 300 different hands


def test_greedy_drafts_deal_the_same_in_both_engines():
    ref, fast = both(150, "draft", "draft", 9, policy="greedy")
    assert ref.select("hand_a", "hand_b").equals(fast.select("hand_a", "hand_b"))


def test_the_deal_is_the_reference_setups_hands_and_ai_pile():
    """R2.2: hand_a is the hand right of the keep as new_game dealt it; R8.1: the AI pile from the top."""
    games = simulate(5, "1", "2", "random", seed=3, engine="fast", record_events=False).games
    for row, seed in zip(games.iter_rows(named=True), game_seeds(3, 5), strict=True):
        state, _ = new_game("1", "2", seed=seed)
        names = state.cards.names
        assert row["hand_a"] == [names[c] for c in state.hands[0][1:]]
        assert row["hand_b"] == [names[c] for c in state.hands[1][1:]]
    from clashkit.engine.solo_setup import solo_setup

    solo = simulate(3, "4", None, "random", seed=8, mode="solo", engine="fast", record_events=False).games
    for row, seed in zip(solo.iter_rows(named=True), game_seeds(8, 3), strict=True):
        state = solo_setup(4, seed=seed).state
        names = state.cards.names
        assert row["hand_b"] == [names[c] for c in state.pile[:-1]]


def test_a_custom_list_in_any_order_replays_its_recorded_deal():
    """The shuffle depends on the order a list is given in (R2.2); the recorded deal gives it back."""
    deck_a = ["TROLL", "BARON", "PARTISAN", "ANNIHILATION", "REVENANT", "CARAPACE", "BOOM!", "BRUTE"]
    deck_b = list(reversed(["ALPHA", "GRRR", "LIEUTENANT", "MICROCTOPUS", "OGRE", "SCRIBE", "SHAMAN", "GNOME"]))
    trace = simulate(6, deck_a, deck_b, "greedy", seed=12, engine="fast", record_events=False)
    games = trace.games
    assert games["format"].unique().to_list() == ["custom"]
    for game in range(6):
        row = games.row(game, named=True)
        order_a, order_b = dealt_order(row)
        assert Counter(order_a) == Counter(deck_a) and Counter(order_b) == Counter(deck_b)
        state = replay(row)
        winner = None if row["winner"] is None else "AB".index(row["winner"])
        assert state.turn == row["turns"] and state.winner == winner
        again = replay_frames(games.slice(game, 1), engine="reference")
        assert again.games.drop("engine").equals(games.slice(game, 1).drop("engine"))
        assert again.turns.equals(trace.turns.filter(pl.col("game") == game))


@pytest.mark.parametrize("deck", ["1", "draft"])
def test_a_replay_that_deals_other_hands_than_recorded_says_so(deck):
    """R10.2: a starter deck or a draft is dealt by the seed alone; a deal that differs from the
    recorded one (another card file, other rules) is refused rather than played as if it were it."""
    from clashkit.base.errors import OptionError

    row = simulate(1, deck, "2" if deck == "1" else deck, "random", seed=5, engine="fast").games.row(0, named=True)
    assert replay(row).turn == row["turns"]
    row["hand_a"] = list(reversed(row["hand_a"]))
    with pytest.raises(OptionError, match="dealt other hands than the run recorded"):
        replay(row, rules=Rules())


def test_win_rate_by_position_counts_each_side_holding_the_card_at_its_dealt_place():
    """A hand-made games frame: BARON at place 1 for A in two games (one won), at place 3 for B in
    one game B won, and in solo the AI pile's BARON is not counted (R8.1)."""
    from clashkit.studies.analysis import position_markdown, win_rate_by_position

    baron, other = ["BARON", "X", "Y"], ["X", "Y", "Z"]
    games = pl.DataFrame(
        {
            "mode": ["duel", "duel", "duel", "solo"],
            "hand_a": [baron, baron, other, other],
            "hand_b": [other, other, ["X", "Y", "BARON"], baron],
            "winner": ["A", "B", "B", None],
        }
    )
    table = win_rate_by_position(games, "BARON")
    assert table.select("position", "games", "wins", "rate").rows() == [(1, 2, 1, 0.5), (3, 1, 1, 1.0)]
    text = position_markdown(table, "BARON").splitlines()
    assert text[2].startswith("| 1 | yes | 2 | 50.0% (") and text[3].startswith("| 3 | yes | 1 | 100.0% (")


def test_a_run_folder_from_before_the_deal_reads_with_null_hands(tmp_path, monkeypatch):
    """Frames version 4 had no hand_a / hand_b: such a run reads with them null, the rest as written."""
    from clashkit.runs import output
    from clashkit.runs.reading import DEAL_VERSION
    from clashkit.runs.schemas import DEAL_COLUMNS
    from clashkit.runs.trace import FRAMES_VERSION, Trace

    trace = simulate(4, "1", "2", "greedy", seed=2, engine="reference", record_events=False)
    old = Trace(trace.events, trace.turns, trace.games.drop(DEAL_COLUMNS))
    monkeypatch.setattr(output, "FRAMES_VERSION", 4)  # as the clashkit before the deal was recorded wrote it
    old.write_parquet(tmp_path, events=False)
    monkeypatch.undo()
    back = Trace.read_parquet(tmp_path)
    assert DEAL_VERSION == FRAMES_VERSION == 5
    assert back.games.columns == trace.games.columns
    assert back.games["hand_a"].null_count() == back.games["hand_b"].null_count() == 4
    assert back.games.drop(DEAL_COLUMNS).equals(old.games) and back.turns.equals(trace.turns)
    assert win_rate_by_position_rows(back.games) == []


def win_rate_by_position_rows(games):
    from clashkit.studies.analysis import win_rate_by_position

    return win_rate_by_position(games, "BARON").rows()
