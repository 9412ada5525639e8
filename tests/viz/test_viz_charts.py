"""Every chart function: its spec (marks, encodings, the aggregated data it carries) and one
PNG render through vl-convert."""

from __future__ import annotations

import math

import altair as alt
import polars as pl
import pytest

from clashkit.viz import charts as c
from clashkit.viz import summaries as s
from clashkit.viz.rendering import to_png


def walk(spec, key):
    """Every value stored under ``key`` anywhere in a spec."""
    if isinstance(spec, dict):
        for k, v in spec.items():
            if k == key:
                yield v
            yield from walk(v, key)
    elif isinstance(spec, list):
        for v in spec:
            yield from walk(v, key)


def marks(spec) -> set[str]:
    return {m if isinstance(m, str) else m["type"] for m in walk(spec, "mark")}


def fields(spec) -> dict[str, set[str]]:
    """channel → the fields it encodes, across layers, facets and concatenations."""
    out: dict[str, set[str]] = {}
    for encoding in walk(spec, "encoding"):
        for channel, definition in encoding.items():
            if isinstance(definition, dict) and "field" in definition:
                out.setdefault(channel, set()).add(definition["field"])
            elif isinstance(definition, list):
                out.setdefault(channel, set()).update(d["field"] for d in definition if "field" in d)
    return out


def carried(spec, frame: pl.DataFrame) -> list[dict]:
    """The dataset of ``spec`` that has ``frame``'s columns and length (the chart's summary)."""
    for values in spec.get("datasets", {}).values():
        if len(values) == frame.height and values and set(frame.columns) <= set(values[0]):
            return values
    raise AssertionError(f"no dataset with columns {frame.columns} and {frame.height} rows")


def same(records: list[dict], frame: pl.DataFrame) -> bool:
    expected = frame.to_dicts()
    for got, want in zip(records, expected, strict=True):
        for key, value in want.items():
            if isinstance(value, float) and math.isnan(value):
                value = None
            if isinstance(value, float):
                if got[key] is None or not math.isclose(got[key], value, rel_tol=1e-9):
                    return False
            elif got[key] != value:
                return False
    return True


def test_mana_curve_spec():
    chart = c.chart_mana_curve()
    spec = chart.to_dict()
    assert isinstance(chart, alt.Chart)
    assert marks(spec) == {"bar"}
    f = fields(spec)
    assert f["x"] == {"cost"} and f["y"] == {"cards"} and f["color"] == {"kind"} and f["column"] == {"deck"}
    assert same(carried(spec, s.mana_curve(s.cards_frame())), s.mana_curve(s.cards_frame()))
    assert spec["encoding"]["y"]["aggregate"] == "sum"


def test_mana_per_turn_spec(turns, games):
    chart = c.chart_mana_per_turn(turns, games=games, by="seat")
    spec = chart.to_dict()
    assert marks(spec) == {"line", "circle"}
    f = fields(spec)
    assert f["x"] == {"own_turn"} and f["y"] == {"mana"} and f["color"] == {"measure"}
    assert spec["facet"]["field"] == "group" and spec["columns"] == 2
    assert same(
        carried(spec, s.mana_per_turn(turns, games=games, by="seat")),
        s.mana_per_turn(turns, games=games, by="seat"),
    )
    assert "facet" not in c.chart_mana_per_turn(turns).to_dict()


def test_hand_health_spec(turns, games):
    spec = c.chart_hand_health(turns).to_dict()
    # No filled band: the Bastion's and the Fort's overlapped into a colour of neither.
    assert marks(spec) == {"line", "circle"}
    f = fields(spec)
    assert f["y"] == {"low", "high", "median"} and "y2" not in f and f["color"] == {"keep"}
    dashed = [layer for layer in spec["layer"] if layer["mark"].get("strokeDash")]
    assert len(dashed) == 2 and "dashed: the 25% and 75% quantiles" in spec["title"]["subtitle"][0]
    assert f["size"] == {"share"}
    summary = s.hand_health_over_turns(turns)
    assert same(carried(spec, summary), summary)
    colours = next(walk(spec, "color"))["scale"]
    assert colours["domain"] == ["bastion", "fort"]
    faceted = c.chart_hand_health(turns, games=games, by="deck")
    assert isinstance(faceted, alt.FacetChart)
    assert faceted.to_dict()["facet"]["field"] == "group" and faceted.to_dict()["columns"] == 2


def test_matchups_spec(games):
    spec = c.chart_matchups(games).to_dict()
    assert marks(spec) == {"rect", "text"}
    f = fields(spec)
    assert f["x"] == {"opponent"} and f["y"] == {"deck"} and f["color"] == {"win_rate"} and f["text"] == {"label"}
    data = carried(spec, s.matchups(games))
    assert [(r["deck"], r["opponent"], r["wins"], r["games"]) for r in data] == [
        ("deck 1", "deck 2", 1, 4),
        ("deck 2", "deck 1", 2, 4),
    ]
    assert data[0]["label"] == "25% (5–70)"


def test_first_player_spec(games):
    spec = c.chart_first_player(games).to_dict()
    assert marks(spec) == {"rule", "point"}
    f = fields(spec)
    assert f["x"] == {"x", "low", "win_rate"} and f["x2"] == {"high"} and f["y"] == {"group"}
    assert same(carried(spec, s.first_player_advantage(games)), s.first_player_advantage(games))


def test_card_numbers_spec(events, games):
    chart = c.chart_card_numbers(events, games)
    spec = chart.to_dict()
    assert isinstance(chart, alt.HConcatChart) and len(spec["hconcat"]) == 3
    assert marks(spec) == {"rule", "point", "bar"}
    f = fields(spec)
    assert {"win_rate", "damage", "destroyed_per_game"} <= f["x"] and f["y"] == {"card"}
    # The legend below its own panel (not between the second and the third), sparse labels.
    dealt, destroyed = spec["hconcat"][1], spec["hconcat"][2]
    assert dealt["encoding"]["color"]["legend"]["orient"] == "bottom"
    for panel in (dealt, destroyed):
        axis = panel["encoding"]["x"]["axis"]
        assert axis["labelOverlap"] == "greedy" and axis["tickCount"] == 4 and axis["labelAngle"] == 0
    damage = [v for v in spec["datasets"].values() if v and "to" in v[0]][0]
    assert sorted((r["card"], r["to"], r["damage"]) for r in damage) == [
        ("BRUTE", "creatures", 3.0),
        ("BRUTE", "keep", 1.5),
        ("METEORITE", "creatures", 3.0),
        ("METEORITE", "keep", 0.0),
    ]
    assert len(c.chart_card_numbers(events, games, top=1).to_dict()["hconcat"]) == 3


def test_win_rate_shift_spec(games):
    comparison = s.compare_win_rates({"before": games, "after": games.head(2)})
    spec = c.chart_win_rate_shift(comparison).to_dict()
    assert marks(spec) == {"rule", "point"}
    f = fields(spec)
    assert f["y"] == {"deck"} and f["yOffset"] == {"version"} and f["color"] == {"version"}
    assert same(carried(spec, comparison), comparison)


def test_hand_health_track_spec(batch):
    events = batch.events
    spec = c.chart_hand_health_track(events, game=0).to_dict()
    assert marks(spec) == {"line", "point"}
    f = fields(spec)
    assert f["x"] == {"step"} and f["y"] == {"hand_health"} and f["shape"] == {"keep"}
    track = c.hand_health_track(events, game=0)
    assert same(carried(spec, track), track)
    # Only the changes are carried, not every event of the game.
    assert track.height < 2 * events.filter(pl.col("game") == 0).height
    with pytest.raises(ValueError, match="several games"):
        c.hand_health_track(events)


def test_charts_never_carry_raw_events(batch):
    events, turns, games = batch
    for chart in (
        c.chart_card_numbers(events, games),
        c.chart_hand_health(turns, games=games, by="deck"),
        c.chart_mana_per_turn(turns, games=games, by="deck"),
    ):
        sizes = [len(v) for v in chart.to_dict()["datasets"].values()]
        assert max(sizes) < 200 < events.height


def all_charts(events, turns, games, batch):
    comparison = s.compare_win_rates({"before": games, "after": games})
    return {
        "mana_curve": c.chart_mana_curve(),
        "mana_per_turn": c.chart_mana_per_turn(batch.turns, games=batch.games, by="deck"),
        "hand_health": c.chart_hand_health(batch.turns, games=batch.games, by="seat"),
        "matchups": c.chart_matchups(batch.games),
        "first_player": c.chart_first_player(batch.games),
        "card_numbers": c.chart_card_numbers(batch.events, batch.games),
        "win_rate_shift": c.chart_win_rate_shift(comparison),
        "hand_health_track": c.chart_hand_health_track(batch.events, game=1),
    }


def test_every_chart_function_is_covered_here():
    assert {
        f"chart_{name}"
        for name in (
            "mana_curve",
            "mana_per_turn",
            "hand_health",
            "matchups",
            "first_player",
            "card_numbers",
            "win_rate_shift",
            "hand_health_track",
        )
    } == set(c.__all__)


@pytest.mark.parametrize(
    "name",
    [
        "mana_curve",
        "mana_per_turn",
        "hand_health",
        "matchups",
        "first_player",
        "card_numbers",
        "win_rate_shift",
        "hand_health_track",
    ],
)
def test_png_render(name, events, turns, games, batch):
    png = to_png(all_charts(events, turns, games, batch)[name])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) > 5_000
