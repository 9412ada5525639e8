"""The strength check: a strong-play figure played again by a stronger arbiter on the same seeds.

A study's verdict at strong play depends on which strong bot plays.  The check
plays the same study with the arbiter (:data:`CHECK_POLICY`, ``deep``: a fair
search that looks through the opponent's next turn) on fewer games, games
``0 … m-1`` of the study's own master seeds (pairing ``k`` plays master seed
``seed + k`` whatever the policy, R2.2, R2.3), and plays the study's bot again on
those same ``m`` games, so the two figures are compared game by game:

* a **rate** figure (``balance``, ``card-stats``): each deck's overall rate;
* a **change** figure (``sweep``, ``compare``, ``tune``): each deck's paired change
  of rate from one card set to another (:func:`~clashkit.studies.design.paired_changes`).

The **difference** is the arbiter's figure minus the study bot's on the common
games, with its paired 95% interval (for a change, a difference of two changes,
:func:`~clashkit.studies.design.paired_contrast` of four outcome frames).  The two
figures **agree** when they differ by less than the larger of
:data:`AGREE_POINTS` and the half-width of that interval (:func:`agrees`): a
difference the games cannot tell from noise is not a disagreement, and neither is
one too small to change a designer's decision.  Every command and the card
designer call :func:`check_strength` and print :meth:`StrengthCheck.sentences`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ...base.cards import CardSet
from ...base.errors import OptionError
from ...base.points import interval_text, percent_text, points_text
from ...base.rules import Rules
from ..analysis import deck_rates
from .jobs import Runner
from .matrix import make_study, on_cluster
from .study import matchups, paired_changes, paired_contrast

#: The arbiter of strong play: the policy ``--check-strength`` plays unless ``--check-policy`` names another.
CHECK_POLICY = "deep"

#: Two figures closer than this (2 points) agree, whatever their interval.
AGREE_POINTS = 0.02

#: The check's games per pairing by default: a quarter of the study's, at most this many.
CHECK_GAMES_MAX = 500

#: What a checked figure is: a deck's overall rate, or a deck's paired change between two card sets.
FIGURES = ("rate", "change")


def check_games(n: int, given: int | None = None) -> int:
    """The check's games per pairing: ``given`` (at most the study's ``n``, so every check game is
    one of the study's), else a quarter of ``n`` rounded up, at most :data:`CHECK_GAMES_MAX`.

    >>> check_games(2000), check_games(200), check_games(3), check_games(200, 50)
    (500, 50, 1, 50)
    """
    if given is None:
        return max(1, min(math.ceil(n / 4), CHECK_GAMES_MAX))
    if isinstance(given, bool) or not isinstance(given, int) or given < 1:
        raise OptionError(f"--check-n {given!r}: games per pairing must be a whole number ≥ 1")
    if given > n:
        raise OptionError(
            f"--check-n {given} is more than -n {n}: the check plays some of the study's own games, so at most {n}"
        )
    return given


def agrees(difference: float | None, low: float | None, high: float | None) -> bool:
    """Whether two figures agree: they differ by less than the larger of :data:`AGREE_POINTS` and
    the half-width of the difference's own 95% interval (``low``, ``high``; none with fewer than
    two games: then 2 points alone).

    >>> agrees(0.018, 0.010, 0.026)   # 1.8 points: under 2
    True
    >>> agrees(-0.05, -0.11, 0.01)    # 5 points, but the interval is ±6: noise
    True
    >>> agrees(-0.214, -0.247, -0.181)
    False
    """
    if difference is None or (isinstance(difference, float) and math.isnan(difference)):
        return True
    half = 0.0 if low is None or high is None else (high - low) / 2
    if math.isnan(half):
        half = 0.0
    return abs(difference) < max(AGREE_POINTS, half)


def sentence(label: str, study: str, arbiter: str, figure: str, row: Mapping[str, Any]) -> str:
    """One plain sentence on one checked figure: ``row`` holds ``study`` (the study bot's figure),
    ``rate``, ``low``, ``high`` (the arbiter's), ``difference``, ``difference_low``,
    ``difference_high`` and ``agree`` (the columns of :attr:`StrengthCheck.rows`).

    >>> row = dict(study=0.326, rate=0.112, low=0.079, high=0.145, difference=-0.214,
    ...            difference_low=-0.25, difference_high=-0.18, agree=False)
    >>> sentence("deck 3", "expert", "deep", "change", row)
    'deck 3: expert +32.6, deep +11.2 [+7.9, +14.5]: they disagree; trust deep'
    >>> sentence("deck 3", "expert", "deep", "rate", row)
    'deck 3: expert 32.6%, deep 11.2% [7.9%, 14.5%]: they disagree; trust deep'
    >>> sentence("deck 1", "expert", "deep", "rate", {**row, "difference": 0.018, "agree": True})
    'deck 1: expert and deep agree within 1.8 points'
    >>> sentence("deck 2", "expert", "deep", "rate", {**row, "difference": 0.05, "difference_low": -0.01,
    ...                                                "difference_high": 0.11, "agree": True})
    'deck 2: expert and deep differ by 5.0 points, within the noise of the games (±6.0): they agree'
    """
    difference = abs(row["difference"] or 0.0)
    if row["agree"]:
        if difference < AGREE_POINTS:
            return f"{label}: {study} and {arbiter} agree within {points_text(difference, signed=False)} points"
        half = (row["difference_high"] - row["difference_low"]) / 2
        return (
            f"{label}: {study} and {arbiter} differ by {points_text(difference, signed=False)} points, within the "
            f"noise of the games (±{points_text(half, signed=False)}): they agree"
        )
    if figure == "change":
        shown = f"{study} {points_text(row['study'])}, {arbiter} {points_text(row['rate'])} "
        shown += interval_text(row["low"], row["high"])
    else:
        shown = f"{study} {percent_text(row['study'])}, {arbiter} {percent_text(row['rate'])} "
        shown += f"[{percent_text(row['low'])}, {percent_text(row['high'])}]"
    return f"{label}: {shown}: they disagree; trust {arbiter}"


@dataclass(frozen=True)
class StrengthCheck:
    """A study's strong-play figures beside the arbiter's on the same games.

    ``rows``: one per checked figure, its labels first (``deck``; ``value`` of a sweep,
    ``card`` of card-stats), then ``study`` (the study bot's figure on the check's games),
    ``rate``, ``low``, ``high`` (the arbiter's figure with its 95% interval: Wilson for a
    rate, paired for a change), ``difference``, ``difference_low``, ``difference_high``
    (arbiter minus study bot, paired) and ``agree`` (:func:`agrees`)."""

    policy: str
    against: str
    figure: str
    n: int
    seed: int
    rows: pl.DataFrame

    @property
    def labels(self) -> list[str]:
        """The columns that name a figure (``deck`` last)."""
        return self.rows.columns[: self.rows.columns.index("deck") + 1]

    def deck_rows(self) -> dict[int, dict[str, Any]]:
        """One row a deck: the deck's own figure, or with several figures a deck (a sweep's
        values, card-stats' cards) the one the two bots differ most on."""
        out: dict[int, dict[str, Any]] = {}
        for row in self.rows.iter_rows(named=True):
            kept = out.get(row["deck"])
            if kept is None or _worse(row, kept):
                out[row["deck"]] = row
        return dict(sorted(out.items()))

    @property
    def agree(self) -> bool:
        """Whether every checked figure agrees."""
        return bool(self.rows["agree"].all())

    def to_dict(self) -> dict[str, Any]:
        """The ``"check"`` object of a study's JSON: ``policy``, ``against``, ``figure``, ``n``,
        ``seed``, ``agree``, ``decks`` (``{"1": {"rate", "low", "high", "difference",
        "difference_low", "difference_high", "agree", "study", …}}``, see :meth:`deck_rows`),
        and, when a deck has several figures, ``rows`` (every one)."""
        data: dict[str, Any] = {
            "policy": self.policy,
            "against": self.against,
            "figure": self.figure,
            "n": self.n,
            "seed": self.seed,
            "agree": self.agree,
            "decks": {str(d): {k: v for k, v in r.items() if k != "deck"} for d, r in self.deck_rows().items()},
        }
        if len(self.labels) > 1:
            data["rows"] = self.rows.to_dicts()
        return data

    def sentences(self) -> list[str]:
        """One sentence a checked figure (:func:`sentence`)."""
        out = []
        for row in self.rows.iter_rows(named=True):
            label = ", ".join(f"{k} {row[k]}" for k in reversed(self.labels))
            out.append(sentence(label, self.against, self.policy, self.figure, row))
        return out

    def __str__(self) -> str:
        what = "overall rate" if self.figure == "rate" else "change (points, paired)"
        head = (
            f"Strength check: each deck's {what} at {self.against} and at {self.policy} on the same "
            f"{self.n:,} game{'s' * (self.n != 1)} a pairing (games 0…{self.n - 1} of seeds {self.seed}+k); "
            f"they agree when they differ by less than {points_text(AGREE_POINTS, signed=False)} points or "
            "the half-width of the difference's paired 95% interval."
        )
        return "\n".join([head, *self.sentences()])


def _worse(row: Mapping[str, Any], kept: Mapping[str, Any]) -> bool:
    """Whether ``row`` speaks for its deck before ``kept``: a disagreement first, then the larger difference."""
    if row["agree"] != kept["agree"]:
        return not row["agree"]
    return abs(row["difference"] or 0.0) > abs(kept["difference"] or 0.0)


def rate_rows(studied: pl.DataFrame, checked: pl.DataFrame) -> pl.DataFrame:
    """Each deck's overall rate by the study bot and by the arbiter (:func:`outcomes` of the same
    games) and their paired difference (the columns of :attr:`StrengthCheck.rows`)."""
    study = deck_rates(matchups(studied)).select("deck", pl.col("rate").alias("study"))
    rates = deck_rates(matchups(checked)).select("deck", "rate", "low", "high")
    return _with_difference(study.join(rates, on="deck"), paired_changes(studied, checked))


def change_rows(studied: tuple[pl.DataFrame, pl.DataFrame], checked: tuple[pl.DataFrame, pl.DataFrame]) -> pl.DataFrame:
    """Each deck's paired change from ``before`` to ``after`` (each a pair of :func:`outcomes` of
    the same games) by the study bot and by the arbiter, and the paired difference of the two
    changes (the columns of :attr:`StrengthCheck.rows`)."""
    (sb, sa), (cb, ca) = studied, checked
    study = paired_changes(sb, sa).select("deck", pl.col("change").alias("study"))
    change = paired_changes(cb, ca).select(
        "deck", pl.col("change").alias("rate"), pl.col("change_low").alias("low"), pl.col("change_high").alias("high")
    )
    difference = paired_contrast([(1.0, ca), (-1.0, cb), (-1.0, sa), (1.0, sb)])
    return _with_difference(study.join(change, on="deck"), difference)


def _with_difference(figures: pl.DataFrame, difference: pl.DataFrame) -> pl.DataFrame:
    d = difference.select(
        "deck",
        pl.col("change").alias("difference"),
        pl.col("change_low").alias("difference_low"),
        pl.col("change_high").alias("difference_high"),
    )
    rows = figures.join(d, on="deck").sort("deck")
    agree = [agrees(*r) for r in rows.select("difference", "difference_low", "difference_high").iter_rows()]
    return rows.with_columns(pl.Series("agree", agree, dtype=pl.Boolean))


@on_cluster
def check_strength(
    variants: Sequence[CardSet] | Sequence[Sequence[CardSet]],
    n: int,
    *,
    against: str,
    policy: str = CHECK_POLICY,
    labels: Sequence[Mapping[str, Any]] | None = None,
    rules: Rules | Mapping[str, Any] | None = None,
    seed: int = 0,
    engine: str | None = None,
    mirror: bool = False,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
    cache: dict | None = None,
) -> StrengthCheck:
    """Play a study's figures at ``against`` (the study's strongest bot) and at ``policy`` (the
    arbiter) on ``n`` games a pairing of master seed ``seed`` (the study's seeds), and compare them.

    ``variants`` is ``[cards]`` for a rate figure (each deck's overall rate), ``[before,
    after]`` for a change figure, or a list of such pairs (a sweep's values, card-stats'
    removals: ``[(shipped, varied), …]``), each labelled by the same item of ``labels``
    (``{"value": 5}``; the labels come before ``deck`` in :attr:`StrengthCheck.rows`).  All of
    it is played as one list of jobs; a card set played twice is played once."""
    from ...policies import get_policy

    pairs: list[tuple[CardSet, ...]]
    if variants and isinstance(variants[0], CardSet):
        pairs = [tuple(variants)]  # type: ignore[arg-type]
    else:
        pairs = [tuple(p) for p in variants]
    sizes = {len(p) for p in pairs}
    if not pairs or not sizes <= {1, 2} or len(sizes) != 1:
        raise ValueError("variants: one card set (a rate), or pairs of card sets (changes)")
    labels = list(labels) if labels is not None else [{} for _ in pairs]
    if len(labels) != len(pairs):
        raise ValueError("labels: one mapping for each pair of card sets")
    study = make_study(
        n,
        seed=seed,
        policy=against,
        rules=rules,
        engine=engine,
        mirror=mirror,
        jobs=jobs,
        progress=progress,
        runner=runner,
        cache=cache,
    )
    get_policy(policy)  # an unknown arbiter is refused before any game
    flat = [cards for pair in pairs for cards in pair]
    played = study.play_at([against, policy], flat, desc=f"check at {policy}")
    size = sizes.pop()
    frames = []
    for i, label in enumerate(labels):
        s, c = played[against][i * size : (i + 1) * size], played[policy][i * size : (i + 1) * size]
        rows = rate_rows(s[0], c[0]) if size == 1 else change_rows((s[0], s[1]), (c[0], c[1]))
        frames.append(rows.select(*(pl.lit(v).alias(k) for k, v in label.items()), pl.all()))
    return StrengthCheck(str(policy), str(against), FIGURES[size - 1], n, seed, pl.concat(frames))
