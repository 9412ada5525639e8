"""The deck space drawn for a designer: the search's map, the meta-game's equilibrium, the cards'
values and the starter decks' standing, from a meta study (:class:`~clashkit.studies.meta.Meta`,
made by :func:`clashkit.studies.meta.meta`).

=============================  ===============================================
:func:`deck_map`               the MAP-Elites map: the best deck of each cell
:func:`equilibrium_chart`      the best decks' equilibrium weights, intervals
:func:`card_values_chart`      each card's value with its interval, by inclusion
:func:`starters_chart`         each starter deck against the equilibrium (R7.1)
:func:`meta_report`            the four charts, one under the other
:func:`top_decks_table`        the best decks as a person reads them
:func:`card_change_table`      one card's place in the meta, before and after
=============================  ===============================================

Each chart draws one frame (:func:`map_cells`, :func:`equilibrium_frame`, :func:`values_frame`,
:func:`starters_frame`), and the frame travels inside the chart (``chart.to_dict()["datasets"]``).
The best decks carry the same number everywhere: their rank by score against the field, as in the
study's text report and :meth:`~clashkit.studies.meta.Meta.decks`.  A score counts a win 1 and an
unfinished game ½ (R10.1), so a rate here is a mean score.

    >>> import clashkit.viz as viz
    >>> from clashkit.studies.meta import meta
    >>> study = meta("greedy", evaluations=200, n=64, value_games=8, top=6)   # doctest: +SKIP
    >>> viz.deck_map(study)                                                    # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter

import altair as alt
import polars as pl

from ..base.errors import OptionError
from ..base.points import change_text, percent_text, points_expr
from ..studies.meta import Meta
from ..studies.meta.space import COST_STEP
from . import rendering
from .charts import ESTIMATE_COLOUR, INTERVAL_COLOUR, PERCENT, interval_rule, reference_line

rendering.on_altair_loaded()

#: Cards named in a best deck's short label (its rarest among the best decks); the rest in its tooltip.
LABEL_CARDS = 3
#: A rate's colour scale, red below an even score, blue above: the matchup matrix's.
_RATE_SCALE = alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)
#: How each card's value was measured (:mod:`clashkit.studies.meta.values`), as its legend says it.
MEASURED = {"out": "swapped out of the best decks holding it", "in": "swapped into the best decks"}


# --- Frames ---------------------------------------------------------------------------------


def _ranks(meta: Meta) -> dict[int, int]:
    """Best deck's index in the search's ranking → its rank in the field's (1 = the best)."""
    return {index: rank for rank, index in enumerate(meta.decks()["deck"].to_list(), 1)}


def deck_labels(meta: Meta, *, cards: int = LABEL_CARDS) -> list[str]:
    """Each best deck's short label, by rank (``1. ASSASSIN, MARTYR, PARTISAN …``): its rank and
    the ``cards`` of it that fewest best decks hold (ties in the card set's order), so that decks
    sharing most of their cards still read apart."""
    best = meta.played.best
    held = Counter(card for deck in best for card in deck)
    labels = {}
    for index, rank in _ranks(meta).items():
        rarest = sorted(best[index], key=lambda card: (held[card], card))[:cards]
        names = meta.space.names(tuple(sorted(rarest)))
        labels[rank] = f"{rank}. {', '.join(names)}{' …' if len(best[index]) > cards else ''}"
    return [labels[rank] for rank in sorted(labels)]


def map_cells(meta: Meta) -> pl.DataFrame:
    """One row a cell of the search's map, the deck that holds it (its elite): the cell's mean-cost
    column (``cost_low`` up to ``cost_high``, a step of
    :data:`~clashkit.studies.meta.space.COST_STEP`) and ``creatures``, the deck's ``fitness``
    (score against the starter decks in the search), ``mean_cost``, ``cards`` (text),
    ``generation``, and ``rank`` among the best decks (null for a deck the field did not measure)."""
    space = meta.space
    ranks = _ranks(meta)
    best = {deck: ranks[i] for i, deck in enumerate(meta.played.best)}
    rows = [
        {
            "cost_low": space.cost_of_column(column),
            "cost_high": space.cost_of_column(column + 1),
            "creatures": creatures,
            "fitness": elite.fitness,
            "mean_cost": space.mean_cost(elite.deck),
            "cards": ", ".join(space.names(elite.deck)),
            "generation": elite.generation,
            "rank": best.get(elite.deck),
        }
        for (column, creatures), elite in sorted(meta.played.archive.elites.items())
    ]
    schema = {
        "cost_low": pl.Float64,
        "cost_high": pl.Float64,
        "creatures": pl.Int64,
        "fitness": pl.Float64,
        "mean_cost": pl.Float64,
        "cards": pl.String,
        "generation": pl.Int64,
        "rank": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def equilibrium_frame(meta: Meta) -> pl.DataFrame:
    """One row a best deck, by rank: ``rank``, ``label`` (:func:`deck_labels`), ``cards`` (text),
    its equilibrium ``weight`` with the bootstrap interval ``low``/``high``, and its ``rate``
    against the field."""
    decks = meta.decks()
    return pl.DataFrame(
        {
            "rank": range(1, decks.height + 1),
            "label": deck_labels(meta),
            "cards": [", ".join(cards) for cards in decks["cards"].to_list()],
            "weight": decks["weight"],
            "low": decks["weight_low"],
            "high": decks["weight_high"],
            "rate": decks["rate"],
        },
        schema_overrides={"rank": pl.Int64},
    )


def values_frame(meta: Meta) -> pl.DataFrame:
    """The study's card values (:attr:`~clashkit.studies.meta.Meta.cards`, most valuable first)
    with the value and its interval in points (``value_points``, ``low_points``,
    ``high_points``) and how it was measured in words (``measured_as``, :data:`MEASURED`)."""
    return meta.cards.with_columns(
        points_expr("value").alias("value_points"),
        points_expr("low").alias("low_points"),
        points_expr("high").alias("high_points"),
        pl.col("measured").replace_strict(MEASURED, return_dtype=pl.String).alias("measured_as"),
    )


def starters_frame(meta: Meta) -> pl.DataFrame:
    """Each starter deck (R7.1): ``deck`` (``deck 1`` …), its score against the equilibrium mixture
    (``rate``, ``low``, ``high``) and against the whole field (``field_rate``)."""
    starters = meta.starters()
    return starters.select(pl.format("deck {}", "starter").alias("deck"), "rate", "low", "high", "field_rate")


# --- Charts ---------------------------------------------------------------------------------


def deck_map(meta: Meta, *, width: int = 380, height: int = 240) -> alt.LayerChart | alt.FacetChart:
    """The search's map (MAP-Elites): mean cost across, creatures up, one rectangle a cell that
    the search filled, coloured by the score of the best deck found in it against the starter
    decks (its fitness, in the search's games; blue above an even score, red below).  A number
    marks a best deck, by rank: the decks the field measured again.  A cell's tooltip lists its
    deck's cards.  Empty cells are shapes no deck tried had; a deck holds eight different cards
    (R2.1), so creatures run from 0 to 8."""
    cells = map_cells(meta).with_columns(((pl.col("cost_low") + pl.col("cost_high")) / 2).alias("cost_mid"))
    creatures = alt.Y(
        "creatures:O",
        title="creatures (the rest: incantations)",
        sort="descending",
        scale=alt.Scale(domain=list(range(meta.space.size, -1, -1))),
    )
    columns = sorted(meta.played.archive.elites)
    edges = [meta.space.cost_of_column(c) for c in range(columns[0][0], columns[-1][0] + 2)] if columns else []
    base = alt.Chart(cells, width=width, height=height).encode(y=creatures)
    rects = base.mark_rect(stroke="#fff", strokeWidth=1).encode(
        x=alt.X(
            "cost_low:Q",
            title=f"mean cost (mana), in steps of {COST_STEP}",
            scale=alt.Scale(zero=False, nice=False),
            axis=alt.Axis(values=edges, format="~g"),
        ),
        x2="cost_high:Q",
        color=alt.Color(
            "fitness:Q",
            title="score vs starters",
            scale=_RATE_SCALE,
            legend=alt.Legend(format=PERCENT),
        ),
        tooltip=[
            alt.Tooltip("cards:N", title="deck"),
            alt.Tooltip("fitness:Q", format=".1%", title="score vs starters (search)"),
            alt.Tooltip("mean_cost:Q", format=".3f", title="mean cost"),
            "creatures:Q",
            alt.Tooltip("generation:Q", title="found in generation"),
            alt.Tooltip("rank:Q", title="rank among the best"),
        ],
    )
    ranks = (
        base.transform_filter("datum.rank != null")
        .mark_text(fontSize=11, fontWeight="bold")
        .encode(
            x="cost_mid:Q",
            text="rank:Q",
            color=alt.condition("datum.fitness < 0.3 || datum.fitness > 0.7", alt.value("white"), alt.value("black")),
        )
    )
    searched = len(meta.played.archive.tried)
    title = alt.Title(
        "The deck space: the best deck of each cell",
        subtitle=[
            f"{searched:,} decks searched, {cells.height} cells filled; colour: score against the starter decks "
            "in the search (R7.1)",
            "numbers: the best decks by rank, measured again against the field; hover a cell for its cards",
        ],
    )
    return alt.layer(rects, ranks).properties(title=title)


def equilibrium_chart(meta: Meta, *, width: int = 320) -> alt.LayerChart | alt.FacetChart:
    """The meta-game's equilibrium (:mod:`clashkit.studies.meta.equilibrium`): each best deck's
    weight in the mixture no deck beats, with its 95% bootstrap interval (the games drawn again),
    best deck first.  A weight of 0 is a deck no equilibrium of the measured game needs; a wide
    interval, a weight the games cannot pin down."""
    data = equilibrium_frame(meta)
    order = data["label"].to_list()
    base = alt.Chart(data, width=width, height=max(80, 22 * data.height)).encode(
        y=alt.Y("label:N", title=None, sort=order, axis=alt.Axis(labelLimit=320))
    )
    bars = base.mark_rule(strokeWidth=2, color=INTERVAL_COLOUR).encode(
        x=alt.X("low:Q", title="weight in the equilibrium (95% bootstrap interval)", scale=alt.Scale(domain=[0, 1])),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70, color=ESTIMATE_COLOUR).encode(
        x="weight:Q",
        tooltip=[
            alt.Tooltip("rank:Q", title="rank"),
            alt.Tooltip("cards:N", title="deck"),
            alt.Tooltip("weight:Q", format=".2f"),
            alt.Tooltip("low:Q", format=".2f", title="95% low"),
            alt.Tooltip("high:Q", format=".2f", title="95% high"),
            alt.Tooltip("rate:Q", format=".1%", title="score vs the field"),
        ],
    )
    title = alt.Title(
        "The meta-game's equilibrium among the best decks",
        subtitle="each deck's weight in the mixture no deck beats; labels: rank and its rarest cards",
    )
    return alt.layer(bars, points).properties(title=title)


def card_values_chart(meta: Meta, *, width: int = 320) -> alt.LayerChart | alt.FacetChart:
    """Each card's value (:mod:`clashkit.studies.meta.values`): a best deck's score with the card
    minus without it, in points, with its 95% interval, most valuable first; coloured by the card's
    inclusion (the equilibrium weight of the best decks holding it); a circle for a card swapped out
    of the decks holding it, a triangle for one no best deck holds, swapped in.  The dashed line is
    no value."""
    data = values_frame(meta)
    order = data["card"].to_list()
    base = alt.Chart(data, width=width, height=max(120, 14 * data.height)).encode(
        y=alt.Y("card:N", title=None, sort=order)
    )
    bars = base.mark_rule(strokeWidth=1.5, color=INTERVAL_COLOUR).encode(
        x=alt.X("low_points:Q", title="value (points of score, 95% interval)"), x2="high_points:Q"
    )
    points = base.mark_point(filled=True, size=60, stroke=INTERVAL_COLOUR, strokeWidth=0.5).encode(
        x="value_points:Q",
        color=alt.Color(
            "inclusion:Q",
            title="inclusion",
            scale=alt.Scale(scheme=alt.SchemeParams("blues", extent=[0.2, 1]), domain=[0, 1]),
            legend=alt.Legend(format=".1f"),
        ),
        shape=alt.Shape(
            "measured_as:N",
            title="measured",
            scale=alt.Scale(domain=list(MEASURED.values()), range=["circle", "triangle-up"]),
            legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=300),
        ),
        tooltip=[
            "card:N",
            alt.Tooltip("value_points:Q", format="+.1f", title="value (points)"),
            alt.Tooltip("low_points:Q", format="+.1f", title="95% low"),
            alt.Tooltip("high_points:Q", format="+.1f", title="95% high"),
            alt.Tooltip("inclusion:Q", format=".2f"),
            alt.Tooltip("measured_as:N", title="measured"),
            alt.Tooltip("decks:Q", title="best decks compared"),
            "games:Q",
        ],
    )
    title = alt.Title(
        "What each card is worth in the best decks",
        subtitle="a deck's score with the card minus without it; colour: the card's share of the equilibrium",
    )
    return alt.layer(reference_line(0.0, channel="x"), bars, points).properties(title=title)


def starters_chart(meta: Meta, *, width: int = 320) -> alt.LayerChart | alt.FacetChart:
    """Each starter deck (R7.1) against the meta: its score against the equilibrium mixture of the
    best decks with its 95% interval (filled), and against the whole field (hollow); the dashed
    line is an even score."""
    data = starters_frame(meta)
    order = data["deck"].to_list()
    base = alt.Chart(data, width=width).encode(y=alt.Y("deck:N", title=None, sort=order))
    bars = interval_rule(base, "score against the equilibrium (95% interval)")
    tooltip = [
        "deck:N",
        alt.Tooltip("rate:Q", format=".1%", title="vs the equilibrium"),
        alt.Tooltip("low:Q", format=".1%", title="95% low"),
        alt.Tooltip("high:Q", format=".1%", title="95% high"),
        alt.Tooltip("field_rate:Q", format=".1%", title="vs the whole field"),
    ]
    points = base.mark_point(filled=True, size=70, color=ESTIMATE_COLOUR).encode(x="rate:Q", tooltip=tooltip)
    field = base.mark_point(filled=False, size=70, color=ESTIMATE_COLOUR).encode(x="field_rate:Q", tooltip=tooltip)
    title = alt.Title(
        "The starter decks against the meta",
        subtitle="filled: against the equilibrium mixture; hollow: against the whole field; dashed: 50%",
    )
    return alt.layer(reference_line(0.5, channel="x"), bars, field, points).properties(title=title)


def meta_report(meta: Meta) -> alt.VConcatChart:
    """The study's four charts one under the other: the map, the equilibrium, the card values,
    the starter decks.  One chart, so it draws the same in JupyterLab, on a static page and in a
    picture (:func:`~clashkit.viz.rendering.to_png`)."""
    charts = (deck_map(meta), equilibrium_chart(meta), card_values_chart(meta), starters_chart(meta))
    return (
        alt.vconcat(*charts, spacing=30)
        .resolve_scale(color="independent", shape="independent")
        .properties(title=alt.Title(f"Meta study under {meta.policy}", fontSize=16))
    )


# --- Tables ---------------------------------------------------------------------------------


def _rate_text(rate: float, low: float, high: float) -> str:
    return f"{percent_text(rate)} ({percent_text(low, sign='')}–{percent_text(high)})"


def top_decks_table(meta: Meta) -> pl.DataFrame:
    """The best decks by rank: score against the field and against the starter decks with their 95%
    intervals, equilibrium weight, mean cost, creatures and cards."""
    rows = [
        {
            "rank": rank,
            "vs the field (95%)": _rate_text(row["rate"], row["low"], row["high"]),
            "vs starters (95%)": _rate_text(row["vs_starters"], row["vs_starters_low"], row["vs_starters_high"]),
            "weight": f"{row['weight']:.2f}",
            "mean cost": row["mean_cost"],
            "creatures": row["creatures"],
            "cards": ", ".join(row["cards"]),
        }
        for rank, row in enumerate(meta.decks().iter_rows(named=True), 1)
    ]
    return pl.DataFrame(rows)


def _holding(meta: Meta, card: str) -> list[int]:
    """The ranks of the best decks that hold ``card``."""
    decks = meta.decks()
    return [rank for rank, cards in enumerate(decks["cards"].to_list(), 1) if card in cards]


def card_change_table(before: Meta, after: Meta, card: str) -> pl.DataFrame:
    """``card``'s place in the meta after it joined the card set (``after``), beside the study
    without it (``before``; the same sizes and seed): the best deck's score against the starter
    decks (the same opponents in both studies, so the two read side by side) and against its own
    field, the starter decks' mean score against the equilibrium, and, after, the card's value,
    its inclusion and the best decks holding it.  Each study searched its own deck space, so a
    difference also holds the searches' own luck."""
    values = after.cards.filter(pl.col("card") == card)
    if values.is_empty():
        raise OptionError(f"card_change_table: {card!r} is not a card of the study after the change")
    rows: list[dict[str, str]] = []

    def row(measure: str, first: str, second: str) -> None:
        rows.append({"measure": measure, "before": first, "after": second})

    def best(meta: Meta) -> dict:
        return meta.decks().row(0, named=True)

    def mean_starter(meta: Meta) -> str:
        return percent_text(meta.starters()["rate"].mean())  # type: ignore[arg-type]

    b, a = best(before), best(after)
    row(
        "best deck vs starters (95%)",
        _rate_text(b["vs_starters"], b["vs_starters_low"], b["vs_starters_high"]),
        _rate_text(a["vs_starters"], a["vs_starters_low"], a["vs_starters_high"]),
    )
    row(
        "best deck vs its field (95%)",
        _rate_text(b["rate"], b["low"], b["high"]),
        _rate_text(a["rate"], a["low"], a["high"]),
    )
    row(f"best deck holds {card}", "—", "yes" if card in a["cards"] else "no")
    holding = _holding(after, card)
    row(
        f"best decks holding {card}",
        "—",
        f"{len(holding)} of {len(after.played.best)}" + (f" (ranks {', '.join(map(str, holding))})" if holding else ""),
    )
    value = values.row(0, named=True)
    row(f"{card}'s value (points, 95%)", "—", change_text(value["value"], value["low"], value["high"]))
    row(f"{card}'s inclusion", "—", f"{value['inclusion']:.2f}")
    row("starter decks vs the equilibrium (mean)", mean_starter(before), mean_starter(after))
    return pl.DataFrame(rows)


__all__ = [
    "MEASURED",
    "card_change_table",
    "card_values_chart",
    "deck_labels",
    "deck_map",
    "equilibrium_chart",
    "equilibrium_frame",
    "map_cells",
    "meta_report",
    "starters_chart",
    "starters_frame",
    "top_decks_table",
    "values_frame",
]
