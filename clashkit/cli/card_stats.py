"""``clashkit card-stats``: per card, how it is played and what it is worth to its deck."""

from __future__ import annotations

import click

from ..base.points import percent_text, points_text
from .design_options import (
    asked_check,
    check_options,
    emit,
    labelled,
    run_check,
    strengths,
    study_kwargs,
    study_options,
    study_output,
    timed,
    with_check,
)


@click.command("card-stats")
@click.option("--card", "names", multiple=True, metavar="NAME", help="Only this card (repeatable).")
@click.option("--no-impact", is_flag=True, help="Skip the removal games (the impact column).")
@check_options
@study_options(default_n=2000)
def command(names, no_impact, check_strength, check_policy, check_n, as_json, out, **options) -> None:
    """Per card of the starter decks, across every pairing.

    How often it is played, its owner's turn when first played, its deck's rate
    in games where it was played and where it was not, its owner's hand-health
    at the end of the turn after (R1.5), and its impact: the change in its deck's
    rate when it is replaced by a vanilla 0/1 creature of cost 1, measured on the
    same seeds.  Every figure with its 95% interval and its game count.

    With --policies greedy,expert (weakest first) the table is played at each
    strength on the same seeds and shown side by side, with each card's change
    of impact and each deck's paired change of rate from the first strength to
    each later one (JSON: {"policies": {P: <the card-stats object>}, "decks":
    […], "removed": […]}; one strength prints the card-stats object itself).

    With --check-strength each deck's overall rate at the strongest policy (the
    games every card's figures come from) is played again by the arbiter on
    fewer of the same games (JSON: "check").
    """
    from ..studies.design import card_set_of, card_stats

    policies = strengths(options)
    ask = asked_check(check_strength, check_policy, check_n, options["n"])
    several = len(policies) > 1
    kwargs = study_kwargs(**options)
    asked = {**options, "cards": list(names), "impact": not no_impact, **({"policies": policies} if several else {})}
    files: tuple[str, ...] = ("card_stats", "decks", "removed") if several else ("card_stats",)
    if ask is not None:
        asked["check"] = {"policy": ask.policy, "n": ask.n}
        files += ("check",)
    with study_output(out, "card-stats", asked, files) as save:
        result, seconds = timed(card_stats)(
            names=list(names) or None, impact=not no_impact, **kwargs, policies=policies
        )
        check = None
        if ask is not None:
            check = run_check(ask, [card_set_of(options["cards_file"])], options, against=policies[-1])
        extra = {} if check is None else {"check": check.rows}
        if several:
            save({"card_stats": labelled(result.tables), "decks": result.decks, "removed": result.removed} | extra)
        else:
            save({"card_stats": result.tables[policies[0]]} | extra)
    if several:
        text = _side_by_side(result) + "".join(f"\n\n{p}:\n{_text(t)}" for p, t in result.tables.items())
    else:
        text = _text(result.tables[policies[0]])
    emit(*with_check({**result.to_dict(), "seconds": seconds}, f"{text}\n({seconds:.1f} s)", check), as_json=as_json)


def _change(r) -> str:
    return f"{points_text(r['change'])} [{points_text(r['change_low'])}, {points_text(r['change_high'])}]"


def _side_by_side(result) -> str:
    """Each card at each strength (played, impact), the change of its impact between strengths,
    and each deck's paired change of rate between strengths."""
    names = list(result.tables)
    later = names[1:]
    rows = {p: {r["card"]: r for r in t.iter_rows(named=True)} for p, t in result.tables.items()}
    removed = {(r["to"], r["card"]): r for r in result.removed.iter_rows(named=True)}
    impact = bool(removed)
    head = f"{'card':<13}{'deck':>4}"
    for p in names:
        head += f"  {(p + ': played')[:16]:>16}" + (f"  {'removed (points)':>22}" if impact else "")
    if impact:
        head += "".join(f"  {('removed ' + t + ' − ' + names[0])[:28]:<28}" for t in later)
        head = head.rstrip()
    lines = [
        f"Each card at {', '.join(names)}, on the same seeds: how often its owner played it and, with the "
        "impact, its deck's paired change when it is replaced by a vanilla 0/1 of cost 1; then how much "
        "that change moves from the first strength to each later one (points, paired 95%).",
        "",
        head,
    ]
    for card, r0 in rows[names[0]].items():
        line = f"{card:<13}{r0['deck']:>4}"
        for p in names:
            r = rows[p][card]
            line += f"  {percent_text(r['play_rate']):>16}"
            if impact:
                cell = f"{points_text(r['removed_change'])} [{points_text(r['removed_low'])}, " + (
                    f"{points_text(r['removed_high'])}]"
                )
                line += f"  {cell:>22}"
        if impact:
            line += "".join(f"  {_change(removed[(t, card)]):<28}" for t in later)
        lines.append(line.rstrip())
    lines += ["", f"Each deck's rate from {names[0]} to " + ", ".join(later) + " (points, paired 95%):"]
    for r in result.decks.iter_rows(named=True):
        clear = "" if r["clear"] else "  cannot be told from 0"
        lines.append(f"  deck {r['deck']}  {r['to']}: {_change(r)}{clear}")
    return "\n".join(lines)


def _text(table) -> str:
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
        f"the deck's rate (negative: the deck is worse without the card)."
    )
    return "\n".join(lines)
