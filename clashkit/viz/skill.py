"""Balance by skill, drawn: the win-rate matrix at each strength side by side, each deck's
rate as a curve over the strength of play (Elo on the bots' ladder), and each deck's paired
change from the weakest strength to the strongest (:class:`~clashkit.studies.skill.SkillBalance`, made by
:func:`~clashkit.studies.skill.balance_by_skill` or :func:`play_skill`).

Every strength plays the same deals and coin flips (R2.2, R2.3), so the change of a deck
between strengths is measured game by game: its interval is the paired one, narrower than
two independent rates would allow.

    >>> import clashkit.viz as viz
    >>> result = viz.play_skill(["greedy", "expert"], 500, seed=1)   # doctest: +SKIP
    >>> viz.chart_skill(result)                                       # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from ..base.points import interval_text, percent_text, points_expr, points_text_expr
from ..studies.analysis import deck_results
from ..studies.design import labelled_rates
from ..studies.skill import SkillBalance, balance_by_skill
from .charts import PERCENT, reference_line
from .paired import NOT_CLEAR


def play_skill(
    policies: Sequence[str] = ("greedy", "expert"),
    games_per_pairing: int = 2000,
    *,
    seed: int = 0,
    cards=None,
    progress: bool = True,
    jobs: int | None = 1,
) -> SkillBalance:
    """The balance of the starter decks at each of ``policies`` (weakest first) on the same
    seeds: :func:`~clashkit.studies.skill.balance_by_skill` with a progress bar, on the fast
    engine wherever the bots play there."""
    return balance_by_skill(list(policies), games_per_pairing, cards=cards, seed=seed, progress=progress, jobs=jobs)


def skill_matrices(result: SkillBalance) -> pl.DataFrame:
    """One row per strength, deck and opponent (both seats, mirrors left out): ``strength``,
    ``deck``, ``opponent``, ``games``, ``wins``, ``win_rate``, ``low``, ``high``, in the
    order of the strengths."""
    return pl.concat(
        labelled_rates(deck_results(b.matchups).filter(pl.col("deck") != pl.col("opponent")), strength=policy)
        for policy, b in result.balances.items()
    )


def skill_decks(result: SkillBalance) -> pl.DataFrame:
    """One row per strength and deck: ``strength``, ``deck``, ``games``, ``wins``, ``win_rate``,
    ``low``, ``high`` (the deck's rate against all opponents, 95% Wilson interval)."""
    return pl.concat(b.labelled_decks(strength=policy) for policy, b in result.balances.items())


def skill_table(result: SkillBalance) -> pl.DataFrame:
    """Each deck as a person reads it: its rate at each strength with its 95% interval, then
    its change from the weakest strength to the strongest (points) with the paired 95%
    interval, and whether the games tell it from 0."""
    decks = skill_decks(result).with_columns(
        pl.struct("win_rate", "low", "high")
        .map_elements(
            lambda r: f"{percent_text(r['win_rate'])} ({percent_text(r['low'], sign='')}–{percent_text(r['high'])})",
            return_dtype=pl.String,
        )
        .alias("text")
    )
    wide = decks.pivot(on="strength", index="deck", values="text").select(
        "deck", *[pl.col(p).alias(f"{p} (95% interval)") for p in result.balances]
    )
    changes = result.changes.select(
        pl.format("deck {}", "deck").alias("deck"),
        points_text_expr("change").alias(f"change {result.weak} → {result.strong} (points)"),
        pl.struct("change_low", "change_high")
        .map_elements(lambda r: interval_text(r["change_low"], r["change_high"]), return_dtype=pl.String)
        .alias("paired 95% interval"),
        pl.when(pl.col("clear")).then(pl.lit("yes")).otherwise(pl.lit(NOT_CLEAR)).alias("clear change"),
    )
    return wide.join(changes, on="deck").sort("deck")


def chart_skill_matrices(result: SkillBalance, *, size: int = 46) -> alt.FacetChart:
    """The win-rate matrix at each strength, side by side on one colour scale centred on 50%:
    the row deck's rate against the column deck, each cell labelled in points."""
    data = skill_matrices(result).with_columns(points_expr("win_rate").alias("points"))
    labels = sorted(set(data["deck"].to_list()))
    strengths = list(result.balances)
    n = len(labels)
    base = alt.Chart(width=size * n * 1.3, height=size * n * 0.6).encode(
        x=alt.X("opponent:N", title="against", sort=labels, axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("deck:N", title=None, sort=labels),
    )
    cells = base.mark_rect(stroke="#fff", strokeWidth=2).encode(
        color=alt.Color(
            "win_rate:Q",
            title="win rate",
            scale=alt.Scale(scheme="redblue", domain=[0.25, 0.75], domainMid=0.5, clamp=True),
            legend=alt.Legend(format=PERCENT, orient="bottom"),
        ),
        tooltip=[
            "strength:N",
            "deck:N",
            "opponent:N",
            alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("low:Q", format=".1%", title="95% low"),
            alt.Tooltip("high:Q", format=".1%", title="95% high"),
            "games:Q",
        ],
    )
    text = base.mark_text(fontSize=11).encode(text=alt.Text("points:Q", format=".1f"))
    return (
        alt.layer(cells, text, data=data)
        .facet(column=alt.Column("strength:N", title=None, sort=strengths, header=alt.Header(labelFontSize=13)))
        .properties(title="The row deck's win rate against the column deck at each strength (both seats, %)")
    )


def skill_strengths(result: SkillBalance) -> pl.DataFrame:
    """One row per strength, in the order given: ``strength``, ``elo``, ``elo_low``,
    ``elo_high`` (its Elo on the ladder the result read and the 95% interval; null when that
    ladder did not rate it)."""
    rows = [
        {"strength": p, **({"elo": e["elo"], "elo_low": e["low"], "elo_high": e["high"]} if e else {})}
        for p, e in result.strength().items()
    ]
    schema = {"strength": pl.String, "elo": pl.Float64, "elo_low": pl.Float64, "elo_high": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def chart_skill(result: SkillBalance, *, width: int = 360, height: int = 240) -> alt.LayerChart | alt.FacetChart:
    """Each deck's rate against all opponents as a curve over the strength of play: x is
    each strength's Elo on the bots' ladder (:meth:`~clashkit.studies.skill.SkillBalance.strength`),
    y the rate, one line per deck with its 95% interval as a band; the dashed line is 50%.
    Lines that spread apart to the right say the set is less balanced for strong players
    than for weak ones; where they run flat, more strength no longer moves the figure.

    A strength the ladder did not rate has no place on the Elo axis: it is left out, and the
    subtitle names it.  When none is rated, the strengths are spaced evenly in the order given."""
    strengths = skill_strengths(result)
    data = skill_decks(result).join(strengths, on="strength", how="left", maintain_order="left")
    rated = strengths.filter(pl.col("elo").is_not_null())
    unrated = strengths.filter(pl.col("elo").is_null())["strength"].to_list()
    subtitle = ["bands: 95% intervals; dashed: 50%"]
    if rated.is_empty():
        x = alt.X(
            "strength:N",
            title="strength of play (both players; no Elo)",
            sort=list(result.balances),
            axis=alt.Axis(labelAngle=0),
        )
        subtitle.append("no strength here is rated on the ladder: spaced evenly in the order given")
    else:
        data = data.filter(pl.col("elo").is_not_null())
        x = alt.X(
            "elo:Q",
            title="strength of play (both players), Elo on the bots' ladder",
            scale=alt.Scale(zero=False, nice=False, padding=12),
            axis=alt.Axis(values=rated["elo"].to_list(), format=".0f", labelAngle=0),
        )
        subtitle.insert(0, ", ".join(f"{r['strength']} {r['elo']:.0f}" for r in rated.iter_rows(named=True)) + " (Elo)")
        if unrated:
            subtitle.append(f"not rated on the ladder, left out: {', '.join(unrated)}")
    base = alt.Chart(data, width=width, height=height).encode(
        x=x, color=alt.Color("deck:N", title=None, legend=alt.Legend(orient="right"))
    )
    bands = base.mark_area(opacity=0.15).encode(
        y=alt.Y(
            "low:Q",
            title="win rate against all opponents",
            scale=alt.Scale(zero=False),
            axis=alt.Axis(format=PERCENT),
        ),
        y2="high:Q",
    )
    lines = base.mark_line(point=alt.OverlayMarkDef(filled=True, size=60)).encode(
        y="win_rate:Q",
        tooltip=[
            "deck:N",
            "strength:N",
            alt.Tooltip("elo:Q", format=".0f", title="Elo"),
            alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("low:Q", format=".1%", title="95% low"),
            alt.Tooltip("high:Q", format=".1%", title="95% high"),
            "games:Q",
        ],
    )
    title = alt.Title("Each deck's rate against the strength of play", subtitle=subtitle)
    return alt.layer(reference_line(0.5), bands, lines).properties(title=title)


__all__ = [
    "chart_skill",
    "chart_skill_matrices",
    "play_skill",
    "skill_decks",
    "skill_matrices",
    "skill_strengths",
    "skill_table",
]
