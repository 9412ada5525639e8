"""A whole meta study, small: its answers read off its own matrix, the same on every engine and
any number of workers, and its JSON in the documented shape."""

from __future__ import annotations

import pytest

from clashkit.base.errors import OptionError
from clashkit.studies.meta import meta

SMALL = dict(evaluations=40, n=6, value_games=1, top=4, search_games=4, seed=3)


@pytest.fixture(scope="module")
def study():
    return meta("greedy", **SMALL)


def without_time(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "seconds"}


def test_the_answers_come_from_the_round_robin(study):
    decks = study.decks()
    matrix = study.matrix()
    labels = study.labels()
    assert labels[4:] == ["starter 1", "starter 2", "starter 3", "starter 4"]
    assert len(study.played.field) == 8 and matrix.height == 8 * 7
    assert set(matrix["games"]) == {2 * SMALL["n"]}
    for row in decks.iter_rows(named=True):
        mine = matrix.filter(matrix["a"] == f"deck {row['deck']}")
        assert row["rate"] == pytest.approx(mine["score"].mean())
        starters = mine.filter(mine["b"].str.starts_with("starter"))
        assert row["vs_starters"] == pytest.approx(starters["score"].mean())
        assert row["low"] <= row["rate"] <= row["high"]
    assert decks["rate"].to_list() == sorted(decks["rate"].to_list(), reverse=True)
    assert sum(study.weights) == pytest.approx(1.0)
    for row in study.starters().iter_rows(named=True):
        against = matrix.filter(matrix["a"] == f"starter {row['starter']}")
        mixture = sum(
            w * against.filter(against["b"] == f"deck {i}")["score"].item() for i, w in enumerate(study.weights)
        )
        assert row["rate"] == pytest.approx(mixture)
        assert row["low"] <= row["rate"] <= row["high"]
    assert study.cards.height == len(study.space.cards)
    inclusion = dict(zip(study.cards["card"], study.cards["inclusion"], strict=True))
    for card, share in inclusion.items():
        holding = [
            w for w, deck in zip(study.weights, study.played.best, strict=True) if study.space.cards.id(card) in deck
        ]
        assert share == pytest.approx(sum(holding))


def test_the_json_shape(study):
    data = study.to_dict()
    assert set(data) >= {"decks", "equilibrium", "cards", "starters"}
    assert {"cards", "rate", "low", "high", "vs_starters"} <= set(data["decks"][0])
    assert len(data["decks"][0]["cards"]) == 8
    assert sorted(e["deck"] for e in data["equilibrium"]) == list(range(4))
    assert sum(e["weight"] for e in data["equilibrium"]) == pytest.approx(1.0)
    for e in data["equilibrium"]:
        assert 0 <= e["low"] <= e["high"] <= 1
    assert {"card", "value", "low", "high", "inclusion"} <= set(data["cards"][0])
    assert set(data["starters"]) == {"1", "2", "3", "4"}
    assert {"rate", "low", "high"} <= set(data["starters"]["1"])
    assert data["sizes"]["searched"] == 40


def test_the_same_answers_with_two_workers(study):
    assert without_time(meta("greedy", jobs=2, **SMALL).to_dict()) == without_time(study.to_dict())


def test_the_same_answers_on_the_reference_engine():
    tiny = dict(evaluations=8, n=2, value_games=1, top=2, search_games=1, seed=1)
    fast = meta("greedy", engine="fast", **tiny).to_dict()
    reference = meta("greedy", engine="reference", **tiny).to_dict()
    assert without_time(reference) == without_time(fast)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (dict(evaluations=0, n=2, value_games=1), "meta: evaluations: must be a whole number 1"),
        (dict(evaluations=5, n=2, value_games=1, top=1), "meta: top: must be a whole number 2…200"),
        (dict(evaluations=5, n=2), "give budget_seconds, or every size (value_games missing)"),
        (dict(budget_seconds=-1), "meta: budget_seconds: must be a number 0.001…604800"),
        (dict(evaluations=5, n=2, value_games=1, format="sealed"), "meta: format .sealed.: one of duel, constructed"),
        (dict(evaluations=5, n=2, value_games=1, policy="grredy"), "grredy"),
    ],
)
def test_bad_options_are_refused_before_any_game(options, words):
    with pytest.raises(OptionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        meta(**options)


def test_a_budget_sets_sizes_that_repeat_the_study_exactly():
    """--budget-seconds: a CPU probe sets the sizes (within their bounds); given back, the sizes
    repeat the study answer for answer, whatever the machine's speed was."""
    from clashkit.studies.meta.budget import LEAST_EVALUATIONS, N_RANGE, VALUE_GAMES_RANGE

    timed = meta("greedy", budget_seconds=0.5, top=3, seed=2)
    sizes = timed.sizes
    assert sizes.evaluations >= LEAST_EVALUATIONS and len(timed.played.archive.tried) == sizes.evaluations
    assert N_RANGE[0] <= sizes.n <= N_RANGE[1] and VALUE_GAMES_RANGE[0] <= sizes.value_games <= VALUE_GAMES_RANGE[1]
    again = meta("greedy", evaluations=sizes.evaluations, n=sizes.n, value_games=sizes.value_games, top=3, seed=2)
    assert without_time(again.to_dict()) == without_time(timed.to_dict())
