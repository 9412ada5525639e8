"""Card design at scale (``clashkit.studies.design``): balance, sweeps with paired intervals, card stats,
the tuner, and the jobs they are played as (R7.1, R9.3)."""

from __future__ import annotations

import os

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clashkit.base.cards import Card, CardSet, load_cards, starter_set
from clashkit.base.errors import CardFileError, OptionError
from clashkit.base.stats import unpaired_change
from clashkit.base.vocab import Ability, Effect, Kind, TargetSide
from clashkit.runs.simulate import simulate
from clashkit.studies import design
from clashkit.studies.analysis import deck_matchups

# --- Card files: writing and reloading ---------------------------------------------------------

_names = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ!", min_size=1, max_size=10).filter(lambda n: n not in ("BASTION", "FORT"))
_notes = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=30).filter(
    lambda t: t == "" or t.strip() != ""  # a file reads blank-only notes as none
)


@st.composite
def _card(draw, name: str) -> Card:
    deck = draw(st.none() | st.integers(1, 4))
    notes = draw(_notes)
    if draw(st.booleans()):
        abilities = tuple(draw(st.lists(st.sampled_from(list(Ability)), unique=True, max_size=3)))
        return Card(
            name,
            Kind.CREATURE,
            draw(st.integers(0, 20)),
            draw(st.integers(0, 20)),
            draw(st.integers(1, 20)),
            abilities,
            deck=deck,
            notes=notes,
        )
    effect = draw(st.sampled_from([Effect.DAMAGE, Effect.DESTROY, Effect.SHIFT]))
    amount = draw(st.integers(0, 9)) if effect is Effect.DAMAGE else 0
    return Card(
        name,
        Kind.INCANTATION,
        draw(st.integers(0, 20)),
        effect=effect,
        amount=amount,
        target=draw(st.sampled_from(list(TargetSide))),
        deck=deck,
        notes=notes,
    )


@st.composite
def _card_sets(draw) -> CardSet:
    names = draw(st.lists(_names, min_size=1, max_size=6, unique=True))
    return CardSet(draw(_card(name)) for name in names)


@settings(max_examples=40, deadline=None)
@given(cards=_card_sets())
def test_to_csv_round_trips(tmp_path_factory, cards):
    path = tmp_path_factory.mktemp("cards") / "cards.csv"
    assert cards.to_csv(path) == path
    assert load_cards(path).cards == cards.cards


def test_the_shipped_set_round_trips_and_says_its_file(tmp_path):
    shipped = starter_set()
    assert shipped.source is not None and shipped.source.name == "cards.csv"
    assert starter_set() is shipped  # not read again while the file is unchanged
    copy = load_cards(shipped.to_csv(tmp_path / "copy.csv"))
    assert copy.cards == shipped.cards and copy.source == tmp_path / "copy.csv"


def test_a_card_file_changed_on_disk_is_read_again(tmp_path):
    path = starter_set().to_csv(tmp_path / "cards.csv")
    first = load_cards(path)
    assert load_cards(path) is first
    design.vary(first, "OGRE", attack=7).to_csv(path)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert load_cards(path).card("OGRE").attack == 7


def test_to_csv_into_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(CardFileError, match="cannot write"):
        starter_set().to_csv(tmp_path / "no" / "cards.csv")


# --- Changing a card -------------------------------------------------------------------------


def test_vary_changes_one_field_in_place():
    shipped = starter_set()
    varied = design.vary(shipped, "OGRE", attack=6, cost=2)
    assert varied.names == shipped.names and varied.decks == shipped.decks
    assert (varied.card("OGRE").attack, varied.card("OGRE").cost) == (6, 2)
    assert design.vary(shipped, "METEORITE", amount=4).card("METEORITE").effect_text == "damage 4"


@pytest.mark.parametrize(
    ("name", "values", "message"),
    [
        ("NOPE", {"attack": 1}, "unknown card 'NOPE'"),
        ("OGRE", {"speed": 1}, "unknown field 'speed'"),
        ("OGRE", {"health": 0}, "OGRE health=0: column health: health must be at least 1, not 0"),
        ("OGRE", {"cost": -1}, "cost must be at least 0"),
        ("METEORITE", {"attack": 2}, "METEORITE is an incantation: unknown field 'attack'"),
        ("VORTEX", {"amount": 2}, "takes no amount"),
    ],
)
def test_vary_refuses_what_the_card_file_refuses(name, values, message):
    with pytest.raises(OptionError, match=message):
        design.vary(starter_set(), name, **values)


def test_parse_values():
    assert design.parse_values("attack=3..5,7") == ("attack", [3, 4, 5, 7])
    for text, message in [("attack=", "no values"), ("attack", "FIELD=V1"), ("attack=x", "not a whole number")]:
        with pytest.raises(OptionError, match=message):
            design.parse_values(text)


# --- Balance ------------------------------------------------------------------------------------


def test_balance_is_deck_matchups_and_its_json_has_the_fixed_shape():
    result = design.balance(3, seed=4)
    assert result.matchups.equals(deck_matchups(3, seed=4, jobs=1))
    data = result.to_dict()
    assert sorted(data["decks"]) == ["1", "2", "3", "4"]
    assert all({"rate", "low", "high", "games"} <= set(d) for d in data["decks"].values())
    assert all(d["games"] == 18 for d in data["decks"].values())  # 6 ordered pairings × 3 games
    assert len(data["matrix"]) == 12
    assert all({"a", "b", "games", "rate_a", "low", "high"} <= set(m) for m in data["matrix"])
    assert [(m["a"], m["b"]) for m in data["matrix"]][:3] == [(1, 2), (1, 3), (1, 4)]
    assert {"rate", "low", "high"} <= set(data["first_player"])
    wins = sum(d["wins"] for d in data["decks"].values())
    assert wins == sum(m["wins_a"] + m["wins_b"] for m in data["matrix"])


def test_mirrors_only_when_asked():
    result = design.balance(2, mirror=True)
    pairs = list(result.matchups.select("deck_a", "deck_b").iter_rows())
    assert len(pairs) == 16 and pairs[12:] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert result.matchups.head(12).equals(deck_matchups(2, jobs=1))  # the same seeds as without mirrors


# --- Sweeps: common seeds and paired intervals ------------------------------------------------


def test_the_shipped_value_changes_nothing_and_untouched_pairings_are_played_once():
    played: list[design.Job] = []

    def runner(jobs):
        played.extend(jobs)
        return [design.play_job(job) for job in jobs]

    result = design.sweep("OGRE", {"attack": [5, 6]}, 4, seed=2, runner=runner)
    # 12 pairings of the shipped set, then only the 6 pairings of OGRE's deck 2 with attack 6.
    assert len(played) == 18
    assert sorted((j.deck_a, j.deck_b) for j in played[12:]) == [(1, 2), (2, 1), (2, 3), (2, 4), (3, 2), (4, 2)]
    shipped = result.rows.filter(pl.col("attack") == 5)
    assert shipped["change"].to_list() == [0.0] * 4
    assert shipped["change_low"].to_list() == [0.0] * 4 and not shipped["clear"].any()
    data = result.to_dict()
    assert data["card"] == "OGRE" and data["field"] == "attack" and len(data["rows"]) == 8
    keys = {"value", "deck", "rate", "low", "high", "change", "change_low", "change_high"}
    assert all(keys <= set(row) for row in data["rows"])
    assert [row["value"] for row in data["rows"]] == [5] * 4 + [6] * 4


def test_a_pairing_the_change_does_not_touch_plays_the_same_games():
    varied = design.vary(starter_set(), "OGRE", attack=9)
    same = [
        simulate(6, "1", "3", "greedy", seed=11, cards=c, record_events=False).games for c in (starter_set(), varied)
    ]
    assert same[0].drop("deck_a", "deck_b").equals(same[1].drop("deck_a", "deck_b"))


def test_a_paired_interval_is_narrower_than_the_unpaired_one_on_a_small_change():
    shipped = starter_set().card("GNOME").health  # the sweep's changes are against the shipped card
    result = design.sweep("GNOME", {"health": [shipped, shipped + 1]}, 30, seed=5)
    rows = result.rows
    for deck in (1, 2, 3, 4):
        before = rows.filter((pl.col("health") == shipped) & (pl.col("deck") == deck)).row(0, named=True)
        after = rows.filter((pl.col("health") == shipped + 1) & (pl.col("deck") == deck)).row(0, named=True)
        wins0, wins1 = round(before["rate"] * before["games"]), round(after["rate"] * after["games"])
        change, low, high = unpaired_change(wins0, before["games"], wins1, after["games"])
        assert after["change"] == pytest.approx(change)
        paired = after["change_high"] - after["change_low"]
        # Common seeds cancel the luck both versions share; least so for GNOME's own deck 3.
        assert paired < (0.75 if deck == 3 else 0.5) * (high - low), (deck, paired, high - low)


def test_grid_of_two_fields():
    result = design.sweep("GNOME", {"attack": [1, 2], "cost": [1, 2]}, 2)
    assert result.rows.height == 16
    data = result.to_dict()
    assert data["field"] == "attack,cost"
    assert data["rows"][0]["value"] == [1, 1] and data["rows"][-1]["values"] == {"attack": 2, "cost": 2}


def test_a_card_in_no_deck_or_no_values_is_refused():
    extra = CardSet([*starter_set(), Card("WISP", Kind.CREATURE, 1, 1, 1)])
    with pytest.raises(OptionError, match="in no starter deck"):
        design.sweep("WISP", {"attack": [2]}, 2, cards=extra)
    with pytest.raises(OptionError, match="no values for attack"):
        design.sweep("OGRE", {"attack": []}, 2)


# --- Card stats ---------------------------------------------------------------------------------


def test_card_stats_counts_and_a_vanilla_card_removed_changes_nothing():
    cards = design.replace_card(starter_set(), design.vanilla(starter_set().card("GNOME")))
    table = design.card_stats(3, names=["GNOME", "OGRE"], cards=cards, seed=1)
    assert table["card"].to_list() == ["OGRE", "GNOME"]  # by deck
    assert table["games"].to_list() == [18, 18]  # 6 ordered pairings × 3 games
    assert (table["games_played"] + table["games_not_played"]).to_list() == [18, 18]
    gnome = table.row(1, named=True)
    assert (gnome["removed_change"], gnome["removed_low"], gnome["removed_high"]) == (0.0, 0.0, 0.0)
    assert gnome["removed_games"] == 18
    assert 0 <= gnome["play_low"] <= gnome["play_rate"] <= gnome["play_high"] <= 1


def test_card_stats_first_turn_and_hand_health_follow_the_events():
    """Game 0 of pairing 0 (deck 1 as A, deck 2 as B), read by hand from its events: OGRE's
    owner's own turn of its first play and the owner's hand-health at the end of the next
    turn (R1.5)."""
    trace = simulate(1, "1", "2", "greedy", seed=0)
    events = trace.events
    first = trace.games["first_player"].cast(pl.String)[0]
    turn = int(events.filter((pl.col("kind") == "card_played") & (pl.col("card") == "OGRE"))["turn"].min())
    own = (turn + 1) // 2 if first == "B" else turn // 2
    after = events.filter(pl.col("turn") == turn + 1)["hand_health_b"][-1]
    plays = design.play_job(design.Job(1, 2, 0, 1, starter_set(), events=True)).plays
    assert plays.height == 16  # eight cards dealt to each player
    row = plays.filter(pl.col("card") == "OGRE").row(0, named=True)
    assert (row["player"], row["played"], row["first_turn"], row["hand_health_after"]) == ("B", True, own, after)
    assert row["won"] == (trace.games["winner"].cast(pl.String)[0] == "B")
    table = design.card_stats(1, names=["OGRE"], impact=False, seed=0)
    assert table.columns[:4] == ["card", "deck", "games", "played"] and "removed_change" not in table.columns
    assert table["games"][0] == 6


# --- Tune -----------------------------------------------------------------------------------------


def test_tune_improves_balance_on_seeds_it_did_not_use(tmp_path):
    # A set put out of balance on purpose: deck 4's CARNIVORE and MUTANT lose most of their attack.
    weak = design.vary(design.vary(starter_set(), "CARNIVORE", attack=1), "MUTANT", attack=0)
    deck4 = weak.deck(4)
    result = design.tune(20, 1, fields=["attack"], names=deck4, cards=weak, seed=3)
    assert len(result.changes) == 1 and result.changes[0].card in deck4
    assert result.after.distance < result.before.distance
    fresh = [design.balance(40, cards=c, seed=4242) for c in (weak, result.cards)]
    assert fresh[1].distance < fresh[0].distance
    data = result.to_dict()
    assert set(data["changes"][0]) == {"card", "field", "from", "to"}
    assert {"decks", "matrix", "first_player"} <= set(data["before"]) and "decks" in data["after"]


def test_tune_refuses_bad_options():
    with pytest.raises(OptionError, match="unknown field 'speed'"):
        design.tune(2, 1, fields=["speed"])
    with pytest.raises(OptionError, match="unknown card 'NOPE'"):
        design.tune(2, 1, names=["NOPE"])
    with pytest.raises(OptionError, match="step 0"):
        design.tune(2, 1, step=0)


def test_candidates_stay_inside_the_card_file_rules():
    changes = design.candidates(starter_set(), ["cost", "attack", "health"], 1)
    keys = {(c.card, c.field, c.new) for c in changes}
    assert ("MACHINE", "attack", -1) not in keys and ("MACHINE", "attack", 1) in keys
    assert ("DISCIPLE", "cost", -1) not in keys and ("DISCIPLE", "health", 0) not in keys
    assert not any(c.card == "METEORITE" and c.field != "cost" for c in changes)


def test_games_for_half_width():
    assert design.games_for_half_width(0.0) == 1
    # sd 0.3: (1.96 × 0.3 / 0.015)² = 1536.6 deck games, over 6 pairings → 257 a pairing
    assert design.games_for_half_width(0.3) == 257
