"""``clashkit card-stats``: per card, how it is played and what it is worth to its deck."""

from __future__ import annotations

import click

from ..base.points import percent_text, points_text
from .design_options import emit, policy_list, study_kwargs, study_options, study_output, timed


@click.command("card-stats")
@click.option("--card", "names", multiple=True, metavar="NAME", help="Only this card (repeatable).")
@click.option("--no-impact", is_flag=True, help="Skip the removal games (the impact column).")
@study_options(default_n=2000)
def command(names, no_impact, as_json, out, **options) -> None:
    """Per card of the starter decks, across every pairing.

    How often it is played, its owner's turn when first played, its deck's rate
    in games where it was played and where it was not, its owner's hand-health
    at the end of the turn after (R1.5), and its impact: the change in its deck's
    rate when it is replaced by a vanilla 0/1 creature of cost 1, measured on the
    same seeds.  Every figure with its 95% interval and its game count.  With
    --policies, the table at each strength on the same seeds (JSON:
    {"policies": {P: <the card-stats object>}}).
    """
    from ..studies.design import card_stats

    policies = policy_list(options)
    if policies is not None:
        import polars as pl

        kwargs = study_kwargs(**options)
        asked = {**options, "cards": list(names), "impact": not no_impact, "policies": policies}
        with study_output(out, "card-stats", asked, ("card_stats",)) as save:
            tables, seconds = timed(
                lambda: {
                    p: card_stats(names=list(names) or None, impact=not no_impact, **{**kwargs, "policy": p})
                    for p in policies
                }
            )()
            save({"card_stats": pl.concat([t.select(pl.lit(p).alias("policy"), pl.all()) for p, t in tables.items()])})
        data = {
            "policies": {
                p: {"n": kwargs["n"], "seed": kwargs["seed"], "policy": p, "cards": t.to_dicts()}
                for p, t in tables.items()
            },
            "seconds": seconds,
        }
        emit(data, "\n\n".join(f"{p}:\n{_text(t, seconds)}" for p, t in tables.items()), as_json=as_json)
        return

    asked = {**options, "cards": list(names), "impact": not no_impact}
    with study_output(out, "card-stats", asked, ("card_stats",)) as save:
        table, seconds = timed(card_stats)(names=list(names) or None, impact=not no_impact, **study_kwargs(**options))
        save({"card_stats": table})
    kw = study_kwargs(**options)
    data = {"n": kw["n"], "seed": kw["seed"], "policy": kw["policy"], "cards": table.to_dicts(), "seconds": seconds}
    emit(data, _text(table, seconds), as_json=as_json)


def _text(table, seconds: float) -> str:
    def pct(x):
        return percent_text(x)

    def num(x):
        return "—" if x is None else f"{x:.1f}"

    def pts(x):
        return points_text(x)

    impact = "removed_change" in table.columns
    head = (
        f"{'card':<13}{'deck':>4}  {'played':>7}  {'1st turn':>8}  {'win played':>17}  "
        f"{'win not played':>17}  {'hand-health after':>17}"
    )
    if impact:
        head += f"  {'removed: change (95% CI)':>26}"
    lines = [head]
    for r in table.iter_rows(named=True):
        health = f"{num(r['hand_health_after'])} ({num(r['hand_health_after_low'])}–{num(r['hand_health_after_high'])})"
        line = (
            f"{r['card']:<13}{r['deck']:>4}  {pct(r['play_rate']):>7}  {num(r['first_turn']):>8}  "
            f"{pct(r['win_played']) + ' of ' + format(r['games_played'], ','):>17}  "
            f"{pct(r['win_not_played']) + ' of ' + format(r['games_not_played'], ','):>17}  {health:>17}"
        )
        if impact:
            removed = f"{pts(r['removed_change'])} [{pts(r['removed_low'])}, {pts(r['removed_high'])}]"
            line += f"  {removed:>26}"
        lines.append(line)
    games = int(table["games"].max()) if table.height else 0
    lines.append(
        f"\n{games:,} games of each card's deck; rates over those games; the removal change is in points of "
        f"the deck's rate (negative: the deck is worse without the card). ({seconds:.1f} s)"
    )
    return "\n".join(lines)
