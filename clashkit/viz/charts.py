"""Charts of decks and games: ``chart_x(frame, *, ...)``, data first, options keyword-only.

Each function aggregates its frames with polars first (see
:mod:`clashkit.viz.summaries`) and hands altair only the summary, a few dozen
rows, never the raw events of a batch.  The summary travels inside the chart
(``chart.to_dict()["datasets"]``), so a test or a reader can check the numbers
that are drawn.

=============================  ===============================================
:func:`chart_mana_curve`       the cost histogram of decks (the mana curve)
:func:`chart_mana_per_turn`    mean mana gained and spent on each own turn
:func:`chart_hand_health`      hand-health over turns: median and spread, by keep
:func:`chart_matchups`         win-rate matrix of decks with 95% intervals
:func:`chart_first_player`     how often the first player wins (R2.3)
:func:`chart_card_numbers`     per card: win rate when played, damage, destroyed
:func:`chart_win_rate_shift`   deck win rates before and after a card change
=============================  ===============================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import polars as pl

from ..base import CardSet
from ..base.errors import OptionError
from . import frames as wanted
from . import rendering
from . import summaries as s
from .frames import needs

rendering.on_altair_loaded()

#: Colours shared by the charts and the board: the keep's two sides, the two players.
KEEP_COLOURS = {"bastion": "#d4a017", "fort": "#5f646b"}
KIND_COLOURS = {"creature": "#2f6db5", "incantation": "#8e5bb5"}
MEASURE_COLOURS = {"gained": "#3b7dd8", "spent": "#e67e22"}
#: An interval chart's rule and its estimate's point.
INTERVAL_COLOUR = "#555"
ESTIMATE_COLOUR = "#2f6db5"
PERCENT = ".0%"
#: A reference line (:func:`reference_line`): its colour and dash.
REFERENCE_COLOUR = "#999"
REFERENCE_DASH = [4, 3]
#: Panels per row of a chart split by deck or seat (wider would not fit a notebook).
FACET_COLUMNS = 2
#: A point of a curve over turns drawn from fewer games than this is drawn pale.
MIN_GAMES = 10
#: The opacity of such a point.
FEW_GAMES_OPACITY = 0.25


def reference_line(value: float, *, channel: str = "y") -> alt.Chart:
    """The dashed grey rule every chart draws at its reference value: an even game (0.5),
    the ladder's mean (1500).  ``channel`` is the axis the value is on (``"x"`` draws it
    upright)."""
    return (
        alt.Chart(pl.DataFrame({channel: [value]}))
        .mark_rule(color=REFERENCE_COLOUR, strokeDash=REFERENCE_DASH)
        .encode(**{channel: f"{channel}:Q"})
    )


def _fade_few(min_games: int, full: float = 1.0) -> alt.Opacity | alt.ValueDefWithCondition:
    """Points drawn from fewer than ``min_games`` games pale (late turns are reached by few)."""
    return alt.condition(f"datum.games < {int(min_games)}", alt.value(FEW_GAMES_OPACITY), alt.value(full))


def _few_games_note(min_games: int) -> str:
    return f"pale points: fewer than {min_games} games; hover a point for its value and game count"


def _scale(mapping: Mapping[str, str]) -> alt.Scale:
    return alt.Scale(domain=list(mapping), range=list(mapping.values()))


@needs(decks=wanted.DECK_CARDS)
def chart_mana_curve(
    decks: pl.DataFrame | None = None,
    *,
    cards: CardSet | None = None,
    width: int = 150,
    height: int = 140,
) -> alt.Chart:
    """The mana curve of each deck: how many cards cost 0, 1, 2 … mana, creatures and
    incantations stacked, one panel per deck.

    ``decks`` is :func:`~clashkit.viz.summaries.decks_frame` (any named decks) or
    :func:`~clashkit.viz.summaries.cards_frame` (the starter decks); by default
    the starter decks of ``cards``.
    """
    if decks is None:
        decks = s.cards_frame(cards)
    curve = s.mana_curve(decks)
    # polars types Series.max() as any scalar; an integer column's is an int (or None when empty).
    costs = list(range(0, int(curve["cost"].max() or 0) + 1))  # type: ignore[arg-type]
    return (
        alt.Chart(curve, width=width, height=height, title="Mana curve: cards by cost")
        .mark_bar()
        .encode(
            x=alt.X(
                "cost:O",
                title="cost (mana)",
                scale=alt.Scale(domain=costs),
                axis=alt.Axis(labelAngle=0),
            ),
            y=alt.Y("sum(cards):Q", title="cards", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color("kind:N", scale=_scale(KIND_COLOURS), title=None, legend=alt.Legend(orient="bottom")),
            column=alt.Column("deck:N", title=None),
            tooltip=["deck:N", "cost:O", "kind:N", "cards:Q", "names:N"],
        )
    )


@needs(turns=wanted.TURNS_MANA)
def chart_mana_per_turn(
    turns: pl.DataFrame,
    *,
    games: pl.DataFrame | None = None,
    by: str | None = None,
    max_turn: int = 15,
    decks: Mapping[str, Sequence[str]] | None = None,
    min_games: int = MIN_GAMES,
    width: int = 260,
    height: int = 180,
) -> alt.LayerChart | alt.FacetChart:
    """Mean mana gained (R3.1: the cards in hand) and spent on each of a player's own turns;
    the gap is mana left unspent.  ``by``: None, ``"player"``, ``"seat"``, ``"deck"``.
    A point's tooltip gives the mean and the number of games behind it; points from fewer
    than ``min_games`` games are pale."""
    data = s.mana_per_turn(turns, games=games, by=by, max_turn=max_turn, decks=decks)
    base = alt.Chart(data, width=width, height=height).encode(
        x=alt.X("own_turn:O", title="the player's turn", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("mana:Q", title="mean mana"),
        color=alt.Color("measure:N", scale=_scale(MEASURE_COLOURS), title=None),
    )
    line = base.mark_line(strokeWidth=1.5)
    points = base.mark_circle(size=45).encode(
        opacity=_fade_few(min_games),
        tooltip=[
            "group:N",
            alt.Tooltip("own_turn:O", title="the player's turn"),
            "measure:N",
            alt.Tooltip("mana:Q", format=".2f", title="mean mana"),
            alt.Tooltip("games:Q", title="games"),
            alt.Tooltip("turns:Q", title="turns averaged"),
        ],
    )
    title = alt.Title("Mana gained and spent per turn", subtitle=_few_games_note(min_games))
    layered = alt.layer(line, points)
    if by is None:
        return layered.properties(title=title)
    return layered.facet(facet=alt.Facet("group:N", title=None), columns=FACET_COLUMNS, title=title)


@needs(turns=wanted.TURNS_HEALTH)
def chart_hand_health(
    turns: pl.DataFrame,
    *,
    games: pl.DataFrame | None = None,
    by: str | None = None,
    max_turn: int = 15,
    spread: tuple[float, float] = (0.25, 0.75),
    decks: Mapping[str, Sequence[str]] | None = None,
    min_games: int = MIN_GAMES,
    width: int = 260,
    height: int = 180,
) -> alt.LayerChart | alt.FacetChart:
    """Hand-health at the end of each own turn across games: the median as a line, the
    ``spread`` quantiles as a band, coloured by the keep, so that the fall of the Bastion
    (R4.8) shows as the gold line giving way to the grey Fort line; a point's size is the
    share of games with that keep, its tooltip the values and the number of games behind
    them; points from fewer than ``min_games`` games are pale."""
    data = s.hand_health_over_turns(turns, games=games, by=by, max_turn=max_turn, spread=spread, decks=decks)
    lo, hi = spread
    base = alt.Chart(data, width=width, height=height).encode(
        x=alt.X("own_turn:O", title="the player's turn", axis=alt.Axis(labelAngle=0)),
        color=alt.Color("keep:N", scale=_scale(KEEP_COLOURS), title="keep"),
    )
    # The middle half as two thin dashed lines of the keep's colour, not two filled bands:
    # the Bastion's and the Fort's overlap on the turns the keep flips, and filled they mixed
    # into a colour of neither.
    quartiles = [
        base.mark_line(strokeDash=[3, 3], strokeWidth=1, opacity=0.8).encode(
            y=alt.Y(f"{bound}:Q", title="hand-health (end of turn)")
        )
        for bound in ("low", "high")
    ]
    line = base.mark_line(strokeWidth=2).encode(y=alt.Y("median:Q", title="hand-health (end of turn)"))
    points = base.mark_circle().encode(
        y="median:Q",
        opacity=_fade_few(min_games, 0.9),
        size=alt.Size("share:Q", title="share of games", scale=alt.Scale(domain=[0, 1], range=[8, 90])),
        tooltip=[
            "group:N",
            "own_turn:O",
            "keep:N",
            alt.Tooltip("median:Q", title="median"),
            alt.Tooltip("low:Q", title=f"{lo:.0%} quantile"),
            alt.Tooltip("high:Q", title=f"{hi:.0%} quantile"),
            alt.Tooltip("share:Q", format=PERCENT, title="share of games"),
            alt.Tooltip("games:Q", title="games"),
            alt.Tooltip("turns:Q", title="player-turns"),
        ],
    )
    layered = alt.layer(*quartiles, line, points)
    title = alt.Title(
        f"Hand-health over turns: median and {lo:.0%}–{hi:.0%} band",
        subtitle=[
            f"solid: the median; dashed: the {lo:.0%} and {hi:.0%} quantiles; gold: Bastion, grey: Fort (R4.8)",
            _few_games_note(min_games),
        ],
    )
    if by is None:
        return layered.properties(title=title)
    return layered.facet(facet=alt.Facet("group:N", title=None), columns=FACET_COLUMNS, title=title)


@needs(games=wanted.GAMES_RESULTS)
def chart_matchups(
    games: pl.DataFrame,
    *,
    decks: Mapping[str, Sequence[str]] | None = None,
    size: int = 70,
) -> alt.LayerChart | alt.FacetChart:
    """The win-rate matrix: the row deck's win rate against the column deck (both seats),
    coloured around 50%, each cell labelled with its 95% interval."""
    data = s.matchups(games, decks).with_columns(
        pl.format(
            "{}% ({}–{})",
            (pl.col("win_rate") * 100).round(0).cast(pl.Int64),
            (pl.col("low") * 100).round(0).cast(pl.Int64),
            (pl.col("high") * 100).round(0).cast(pl.Int64),
        ).alias("label")
    )
    labels = sorted(set(data["deck"].to_list()) | set(data["opponent"].to_list()))
    n = len(labels)
    base = alt.Chart(data, width=size * max(n, 1) * 1.4, height=size * max(n, 1) * 0.6).encode(
        x=alt.X("opponent:N", title="against", sort=labels, axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("deck:N", title="deck", sort=labels),
    )
    cells = base.mark_rect(stroke="#fff", strokeWidth=2).encode(
        color=alt.Color(
            "win_rate:Q",
            title="win rate",
            scale=alt.Scale(scheme="redblue", domain=[0.25, 0.75], domainMid=0.5, clamp=True),
            legend=alt.Legend(format=PERCENT),
        ),
        tooltip=[
            "deck:N",
            "opponent:N",
            alt.Tooltip("win_rate:Q", format=".1%"),
            alt.Tooltip("low:Q", format=".1%", title="95% low"),
            alt.Tooltip("high:Q", format=".1%", title="95% high"),
            "games:Q",
            "unfinished:Q",
        ],
    )
    text = base.mark_text(fontSize=11).encode(
        text="label:N",
        color=alt.condition("datum.win_rate < 0.36 || datum.win_rate > 0.64", alt.value("white"), alt.value("black")),
    )
    return alt.layer(cells, text).properties(title="Win rate of the row deck against the column deck")


def interval_rule(base: alt.Chart, title: str) -> alt.Chart:
    """Each row's 95% interval (``low`` to ``high``) as a rule across a 0–100% axis titled ``title``."""
    return base.mark_rule(strokeWidth=2, color=INTERVAL_COLOUR).encode(
        x=alt.X("low:Q", title=title, scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=PERCENT)),
        x2="high:Q",
    )


def _interval_chart(
    data: pl.DataFrame, *, y: str, title: str, y_title: str | None, width: int, sort=None
) -> alt.LayerChart | alt.FacetChart:
    base = alt.Chart(data, width=width).encode(y=alt.Y(f"{y}:N", title=y_title, sort=sort))
    even = reference_line(0.5, channel="x")
    bars = interval_rule(base, "win rate (95% interval)")
    points = base.mark_point(filled=True, size=70, color=ESTIMATE_COLOUR).encode(
        x="win_rate:Q",
        tooltip=[
            f"{y}:N",
            alt.Tooltip("win_rate:Q", format=".1%"),
            alt.Tooltip("low:Q", format=".1%", title="95% low"),
            alt.Tooltip("high:Q", format=".1%", title="95% high"),
            "games:Q",
            "wins:Q",
        ],
    )
    return alt.layer(even, bars, points).properties(title=title)


@needs(games=wanted.GAMES_FIRST)
def chart_first_player(
    games: pl.DataFrame,
    *,
    by: str | None = "pairing",
    decks: Mapping[str, Sequence[str]] | None = None,
    width: int = 320,
) -> alt.LayerChart | alt.FacetChart:
    """How often the first player (R2.3, 6 mana on the first turn) wins, with 95% intervals,
    per pairing of decks and overall; the dashed line is an even game."""
    data = s.first_player_advantage(games, by=by, decks=decks)
    order = data["group"].to_list()
    return _interval_chart(data, y="group", title="First-player win rate", y_title=None, width=width, sort=order)


@needs(ratings=wanted.RATINGS)
def chart_ladder(ratings: pl.DataFrame, *, width: int = 320) -> alt.LayerChart | alt.FacetChart:
    """A ladder's ratings (:func:`clashkit.studies.ladder.ladder`'s ``ratings`` frame): each policy's
    Bradley–Terry rating on the Elo scale with its 95% interval, best at the top; the dashed
    line is the mean (1500)."""
    from ..studies import MEAN

    order = ratings.sort("rating", descending=True)["policy"].to_list()
    base = alt.Chart(ratings, width=width).encode(y=alt.Y("policy:N", title=None, sort=order))
    mean = reference_line(MEAN, channel="x")
    bars = base.mark_rule(strokeWidth=2, color=INTERVAL_COLOUR).encode(
        x=alt.X("low:Q", title="rating, Elo scale (95% interval)", scale=alt.Scale(zero=False)), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70, color=ESTIMATE_COLOUR).encode(
        x="rating:Q",
        tooltip=[
            "policy:N",
            alt.Tooltip("rating:Q", format=".0f"),
            alt.Tooltip("low:Q", format=".0f"),
            alt.Tooltip("high:Q", format=".0f"),
            "games:Q",
            alt.Tooltip("score:Q", format=".1%"),
        ],
    )
    return alt.layer(mean, bars, points).properties(title="Ladder of the bots")


#: A narrow panel's value axis: a few round ticks whose labels never run into each other.
_SPARSE_AXIS = alt.Axis(tickCount=4, labelOverlap="greedy", labelAngle=0, format="~g")


@needs(events=wanted.EVENTS_NUMBERS, games=wanted.GAMES_OUTCOMES)
def chart_card_numbers(
    events: pl.DataFrame,
    games: pl.DataFrame,
    *,
    top: int | None = None,
    width: int = 190,
) -> alt.HConcatChart:
    """Per card, sorted by win rate: the win rate of a player who played it (95% interval),
    the mean damage it dealt per game played (to creatures and to the keep), and how often
    it was destroyed per game played."""
    data = s.card_numbers(events, games)
    if top is not None:
        data = data.head(top)
    order = data["card"].to_list()
    height = max(160, 16 * len(order))
    y = alt.Y("card:N", sort=order, title=None)
    win = _interval_chart(
        data.rename({"card": "card", "played_in": "games"}),
        y="card",
        title="Win rate when played",
        y_title=None,
        width=width,
        sort=order,
    ).properties(height=height)
    damage = (
        data.select("card", "creature_damage", "keep_damage")
        .unpivot(
            ["creature_damage", "keep_damage"],
            index="card",
            variable_name="to",
            value_name="damage",
        )
        .with_columns(pl.col("to").replace({"creature_damage": "creatures", "keep_damage": "keep"}))
    )
    dealt = (
        alt.Chart(damage, width=width, height=height, title="Damage dealt per game played")
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("damage:Q", title="mean damage", axis=_SPARSE_AXIS),
            color=alt.Color(
                "to:N",
                title="to",
                scale=_scale({"creatures": "#c0392b", "keep": "#d4a017"}),
                legend=alt.Legend(orient="bottom", direction="horizontal"),
            ),
            tooltip=["card:N", "to:N", alt.Tooltip("damage:Q", format=".2f")],
        )
    )
    destroyed = (
        alt.Chart(
            data.select("card", "destroyed", "destroyed_per_game", "played_in"),
            width=width,
            height=height,
            title="Destroyed per game played",
        )
        .mark_bar(color="#5f646b")
        .encode(
            y=alt.Y("card:N", sort=order, title=None, axis=None),
            x=alt.X("destroyed_per_game:Q", title="times destroyed", axis=_SPARSE_AXIS),
            tooltip=[
                "card:N",
                alt.Tooltip("destroyed_per_game:Q", format=".2f"),
                "destroyed:Q",
                "played_in:Q",
            ],
        )
    )
    return alt.hconcat(win, dealt, destroyed).resolve_scale(color="independent")


@needs(comparison=wanted.COMPARISON)
def chart_win_rate_shift(
    comparison: pl.DataFrame,
    *,
    width: int = 320,
) -> alt.LayerChart | alt.FacetChart:
    """Deck win rates of several versions of the card set side by side (95% intervals), from
    :func:`~clashkit.viz.summaries.compare_win_rates`: did the change move the balance?"""
    versions = list(dict.fromkeys(comparison["version"].to_list()))
    palette = ["#9e9e9e", "#e65100", "#2f6db5", "#2e7d32"]
    colour = alt.Color("version:N", sort=versions, scale=alt.Scale(domain=versions, range=palette[: len(versions)]))
    base = alt.Chart(comparison, width=width).encode(
        y=alt.Y("deck:N", title=None), yOffset=alt.YOffset("version:N", sort=versions), color=colour
    )
    even = reference_line(0.5, channel="x")
    rules = base.mark_rule(strokeWidth=2).encode(
        x=alt.X(
            "low:Q",
            title="win rate (95% interval)",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format=PERCENT),
        ),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70).encode(
        x="win_rate:Q",
        tooltip=["version:N", "deck:N", alt.Tooltip("win_rate:Q", format=".1%"), "games:Q"],
    )
    return alt.layer(even, rules, points).properties(title="Deck win rates before and after")


@needs(events=wanted.EVENTS_HEALTH)
def hand_health_track(events: pl.DataFrame, *, game: int | None = None) -> pl.DataFrame:
    """Both players' hand-health and keep through one game, one row per change:
    ``step``, ``turn``, ``player``, ``hand_health``, ``keep`` (plus the first and last step)."""
    if game is not None:
        events = events.filter(pl.col("game") == game)
    if events.height and events["game"].n_unique() > 1:
        raise OptionError("these events hold several games: pick one with game=")
    parts = []
    for p in ("A", "B"):
        side = events.select(
            pl.col("step").cast(pl.Int64),
            pl.col("turn").cast(pl.Int64),
            pl.lit(p).alias("player"),
            pl.col(f"hand_health_{p.lower()}").cast(pl.Int64).alias("hand_health"),
            pl.col(f"keep_{p.lower()}").cast(pl.String).alias("keep"),
        )
        changed = (
            (pl.col("hand_health") != pl.col("hand_health").shift(1))
            | (pl.col("keep") != pl.col("keep").shift(1))
            | (pl.int_range(pl.len()) == 0)
            | (pl.int_range(pl.len()) == pl.len() - 1)
        )
        parts.append(side.sort("step").filter(changed.fill_null(True)))
    return pl.concat(parts)


@needs(events=wanted.EVENTS_HEALTH)
def chart_hand_health_track(
    events: pl.DataFrame,
    *,
    game: int | None = None,
    width: int = 420,
    height: int = 160,
) -> alt.LayerChart | alt.FacetChart:
    """Hand-health of both players through one game (or one siege), step by step; a square
    marks a step with the keep on its Fort side (R4.8)."""
    data = hand_health_track(events, game=game)
    colours = {"A": "#2f6db5", "B": "#b5452f"}
    whole = alt.Axis(format="d", tickMinStep=1)
    base = alt.Chart(data, width=width, height=height).encode(
        x=alt.X("step:Q", title="event step", axis=whole),
        y=alt.Y("hand_health:Q", title="hand-health", scale=alt.Scale(domainMin=0), axis=whole),
        color=alt.Color("player:N", scale=_scale(colours), title="player", legend=alt.Legend(orient="bottom")),
    )
    line = base.mark_line(interpolate="step-after")
    points = base.mark_point(filled=True, size=45).encode(
        shape=alt.Shape(
            "keep:N",
            scale=alt.Scale(domain=["bastion", "fort"], range=["circle", "square"]),
            legend=alt.Legend(orient="bottom"),
        ),
        tooltip=["player:N", "turn:Q", "step:Q", "hand_health:Q", "keep:N"],
    )
    return alt.layer(line, points).properties(title="Hand-health, step by step")


__all__ = [
    "chart_card_numbers",
    "chart_first_player",
    "chart_hand_health",
    "chart_hand_health_track",
    "chart_mana_curve",
    "chart_mana_per_turn",
    "chart_matchups",
    "chart_win_rate_shift",
]
