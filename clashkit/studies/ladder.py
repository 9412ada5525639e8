"""A rated ladder of policies: a balanced round robin and Bradley–Terry ratings on the Elo scale.

**The round robin.**  Every pair of policies plays every ordered pairing of
the starter decks (R7.1; 12 among four decks) in both seats: ``n`` games with
the first policy in seat A, and the same ``n`` deals (the same seeds) with the
policies swapped.  Seats, decks and the coin of the first player (R2.3) are
therefore balanced between every two policies, and a policy's edge is never
the deck's or the seat's.  Pair ``p`` of policies (in the order given) and
deck pairing ``k`` play master seed ``seed + 1000 p + k``
(:func:`clashkit.runs.simulate.game_seeds`), so the same seed gives the same games
and the same ratings.

**The ratings.**  A Bradley–Terry model: policy ``i`` beats ``j`` with
probability ``p_i / (p_i + p_j)``; an unfinished game (R10.1) counts half a
win to each.  It is fitted by the minorize–maximize iteration (Hunter 2004)
with one virtual drawn game between every two policies that met, so a policy
that won every game still gets a finite rating.  Ratings are on the Elo scale
(``400 log10 p``, so 200 points more is about 76% of the games won), their
mean at 1500.  The 95% intervals are percentile bootstrap intervals: the
games of each pair of policies are resampled (``bootstrap`` times, 400 by
default, with a generator seeded from ``seed``) and the model refitted.

**The ratings file.**  ``clashkit ladder --write-ratings FILE`` (:meth:`Ladder.write_ratings`)
keeps the ratings with the command that measured them and the commit it ran at.  The
bots' ladder of the documentation (``make figures FIGURES=ladder``) writes
:data:`RATINGS_FILE`, and balance by skill reads it (:func:`read_ratings`) to put each
policy's strength on the Elo scale: the ratings the guide shows are the ones the
balance curve uses.  Elo is relative to the field rated together (the mean is 1500),
so a rating from one ladder file is never mixed with another's.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ..base.cards import CardSet
from ..base.errors import InputError, OptionError
from ..base.files import write_text_atomically
from ..base.points import percent_text
from ..base.rules import Rules
from ..base.shipped import CHECKOUT, shipped_file
from ..policies import parse_policies
from .design import Job, Runner, Settings, card_set_of, on_cluster, outcomes, pairings, run_jobs

#: The Elo scale: ``SCALE * log10`` of a Bradley–Terry strength; ratings average ``MEAN``.
SCALE = 400.0
MEAN = 1500.0
#: Master seeds of policy pair ``p``: ``seed + SEEDS_PER_PAIR * p + k``.
SEEDS_PER_PAIR = 1000

#: The bots' ladder of the documentation, the strength axis of balance by skill.
RATINGS_FILE = "data/ladder.json"

#: The ratings frame.
RATINGS_SCHEMA = {
    "policy": pl.String,
    "rating": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "games": pl.Int64,
    "score": pl.Float64,
}


@dataclass(frozen=True)
class Ladder:
    """A played ladder: ``games`` (one row per game: ``policy_a``, ``policy_b``, ``deck_a``,
    ``deck_b``, ``game``, ``first_player``, ``winner``, ``turns``) and ``ratings``
    (:data:`RATINGS_SCHEMA`, best first)."""

    games: pl.DataFrame
    ratings: pl.DataFrame
    n: int
    seed: int
    bootstrap: int

    def to_dict(self) -> dict[str, Any]:
        """The object ``clashkit ladder --json`` prints."""
        return {
            "ratings": self.ratings.to_dicts(),
            "n": self.n,
            "seed": self.seed,
            "games": self.games.height,
            "bootstrap": self.bootstrap,
        }

    def __str__(self) -> str:
        lines = ["| policy | rating (Elo scale) | 95% interval | score | games |", "| --- | ---: | --- | ---: | ---: |"]
        for r in self.ratings.iter_rows(named=True):
            lines.append(
                f"| {r['policy']} | {r['rating']:.0f} | {r['low']:.0f}–{r['high']:.0f} | "
                f"{percent_text(r['score'])} | {r['games']:,} |"
            )
        return "\n".join(lines)

    def write_ratings(self, path: str | os.PathLike, *, command: str, commit: str) -> Path:
        """Write the ratings as a :data:`RATINGS_FILE`-style JSON file (read back by
        :func:`read_ratings`), with ``command`` (the command line that played them), the
        ``commit`` it ran at (:func:`checkout_commit`, taken before the games) and the date."""
        path = Path(path)
        data = {
            "command": command,
            "commit": commit,
            "date": datetime.date.today().isoformat(),
            "n": self.n,
            "seed": self.seed,
            "games": self.games.height,
            "bootstrap": self.bootstrap,
            "ratings": [_rounded(r) for r in self.ratings.iter_rows(named=True)],
        }
        return write_text_atomically(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def _rounded(row: dict[str, Any]) -> dict[str, Any]:
    """A ratings row as the file keeps it: Elo to a hundredth of a point (the intervals are tens
    of points wide), the score to four decimals."""
    return {**row, **{k: round(row[k], 2) for k in ("rating", "low", "high")}, "score": round(row["score"], 4)}


def checkout_commit(written: str | os.PathLike | None = None) -> str:
    """The commit of the checkout clashkit runs from, as the figures' stamps name it
    (``benchmarks/figures.py``): ``-dirty`` when files outside ``docs/`` and the file about
    to be ``written`` have changes; ``unknown`` outside a checkout."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=CHECKOUT, capture_output=True, text=True, check=True, timeout=30
        ).stdout.strip()

    if not (CHECKOUT / ".git").exists():  # an installed package: not a checkout of its own
        return "unknown"
    exclude = [":(exclude)docs"]
    if written is not None and Path(written).resolve().is_relative_to(CHECKOUT):
        exclude.append(f":(exclude){Path(written).resolve().relative_to(CHECKOUT).as_posix()}")
    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", *exclude)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}-dirty" if dirty else head


@dataclass(frozen=True)
class LadderRatings:
    """Ratings read back from a file :meth:`Ladder.write_ratings` wrote: ``ratings``
    (:data:`RATINGS_SCHEMA`, best first), the ``command`` that measured them, the ``commit``
    and ``date`` it ran at, and the ``file`` they were read from."""

    ratings: pl.DataFrame
    command: str
    commit: str
    date: str
    file: str

    def elo(self, policy: str) -> dict[str, float] | None:
        """``{"elo", "low", "high"}`` of ``policy`` written as the ladder names it
        (``search:budget=64,fair``), or None when the ladder did not rate it."""
        rows = self.ratings.filter(pl.col("policy") == policy)
        if rows.is_empty():
            return None
        r = rows.row(0, named=True)
        return {"elo": r["rating"], "low": r["low"], "high": r["high"]}

    def source(self) -> dict[str, str]:
        """Where the ratings come from: ``{"file", "command", "commit", "date"}``."""
        return {"file": self.file, "command": self.command, "commit": self.commit, "date": self.date}

    def source_text(self) -> str:
        """Where the ratings come from, in one sentence."""
        return f"the ladder of {self.file} (`{self.command}`, measured at commit {self.commit} on {self.date})"


def read_ratings(path: str | os.PathLike | None = None) -> LadderRatings:
    """The ratings of a file written by ``clashkit ladder --write-ratings`` (default: the
    bots' ladder of the documentation, :data:`RATINGS_FILE`).  A missing or malformed file
    is an :class:`~clashkit.base.errors.InputError` naming it."""
    file = shipped_file(RATINGS_FILE) if path is None else Path(path)
    shown = RATINGS_FILE if path is None else str(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"{shown}: cannot read the ladder's ratings ({e.strerror or e})") from None
    except ValueError as e:
        raise InputError(f"{shown}: not a ratings file of clashkit ladder --write-ratings ({e})") from None
    try:
        rows = data["ratings"]
        frame = pl.DataFrame([{k: row[k] for k in RATINGS_SCHEMA} for row in rows], schema=RATINGS_SCHEMA, orient="row")
        return LadderRatings(frame, str(data["command"]), str(data["commit"]), str(data["date"]), shown)
    except (KeyError, TypeError, ValueError, pl.exceptions.PolarsError) as e:
        raise InputError(
            f"{shown}: not a ratings file of clashkit ladder --write-ratings (missing or bad {e})"
        ) from None


def fit(scores: np.ndarray, games: np.ndarray, *, prior: float = 1.0, iterations: int = 10_000) -> np.ndarray:
    """Bradley–Terry strengths' logarithms (base 10, mean 0) from ``scores[i, j]`` (i's wins
    over j, half for an unfinished game) and ``games[i, j]``, with ``prior`` virtual drawn
    games between every two policies that met."""
    met = games > 0
    wins = scores + np.where(met, prior / 2, 0.0)
    n = games + np.where(met, prior, 0.0)
    total = wins.sum(axis=1)
    p = np.ones(len(total))
    for _ in range(iterations):
        denominator = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total / np.where(denominator > 0, denominator, 1), p)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    logs = np.log10(p)
    return logs - logs.mean()


def _counts(games: pl.DataFrame, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``counts[i, j]``: games of ``i`` against ``j`` that ``i`` won (``counts[i, i]`` unused);
    ``unfinished[i, j]`` is in :func:`_unfinished`."""
    index = {name: i for i, name in enumerate(names)}
    won = np.zeros((len(names), len(names)))
    unfinished = np.zeros((len(names), len(names)))
    for row in games.group_by("policy_a", "policy_b", "winner").len().iter_rows(named=True):
        a, b = index[row["policy_a"]], index[row["policy_b"]]
        if row["winner"] == "A":
            won[a, b] += row["len"]
        elif row["winner"] == "B":
            won[b, a] += row["len"]
        else:
            unfinished[a, b] += row["len"]
            unfinished[b, a] += row["len"]
    return won, unfinished


def ratings(games: pl.DataFrame, names: Sequence[str], *, seed: int = 0, bootstrap: int = 400) -> pl.DataFrame:
    """:data:`RATINGS_SCHEMA` from a ladder's games (see the module docstring), best first."""
    names = list(names)
    won, unfinished = _counts(games, names)
    played = won + won.T + unfinished
    scores = won + unfinished / 2
    point = MEAN + SCALE * fit(scores, played)
    rng = np.random.default_rng(seed)
    draws = np.empty((bootstrap, len(names)))
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names)) if played[i, j] > 0]
    for b in range(bootstrap):
        resampled = np.zeros_like(scores)
        for i, j in pairs:  # the pair's games resampled: i's wins, j's wins, unfinished games
            total = int(played[i, j])
            shares = np.array([won[i, j], won[j, i], unfinished[i, j]]) / total
            k = rng.multinomial(total, shares)
            resampled[i, j], resampled[j, i] = k[0] + k[2] / 2, k[1] + k[2] / 2
        draws[b] = MEAN + SCALE * fit(resampled, played)
    low = np.percentile(draws, 2.5, axis=0) if bootstrap else point
    high = np.percentile(draws, 97.5, axis=0) if bootstrap else point
    games_of = played.sum(axis=1)
    score = np.divide(scores.sum(axis=1), games_of, out=np.zeros(len(names)), where=games_of > 0)
    frame = pl.DataFrame(
        {
            "policy": names,
            "rating": point,
            "low": np.minimum(low, point),
            "high": np.maximum(high, point),
            "games": games_of.astype(np.int64),
            "score": score,
        },
        schema=RATINGS_SCHEMA,
    )
    return frame.sort("rating", descending=True, maintain_order=True)


def round_robin(
    policies: Sequence[str],
    n: int,
    cards: CardSet,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    engine: str | None = None,
) -> list[Job]:
    """The round robin's jobs: every pair of policies, every ordered deck pairing, both seats
    on the same seeds."""
    out = []
    pairs = [(a, b) for i, a in enumerate(policies) for b in policies[i + 1 :]]
    for p, (first, second) in enumerate(pairs):
        for k, (deck_a, deck_b) in enumerate(pairings(cards)):
            master = seed + SEEDS_PER_PAIR * p + k
            for a, b in ((first, second), (second, first)):
                out.append(Job(deck_a, deck_b, master, n, cards, Settings(a, rules, engine, b)))
    return out


@on_cluster
def ladder(
    policies: str | Sequence[str] = (
        "random",
        "greedy",
        "search:budget=4",
        "search:budget=16",
        "search:fair",
        "expert",
    ),
    n: int = 2,
    *,
    cards: CardSet | str | os.PathLike | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    engine: str | None = None,
    bootstrap: int = 400,
    jobs: int | None = 1,
    progress: bool = False,
    runner: Runner | None = None,
) -> Ladder:
    """Play the balanced round robin of ``policies``, ``n`` games per deck pairing and seat,
    and rate them (see the module docstring).  The same seed gives the same ratings."""
    names = parse_policies(policies)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise OptionError(f"n = {n!r}: games per deck pairing and seat must be a whole number ≥ 1")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"seed {seed!r} must be a whole number ≥ 0")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise OptionError(f"bootstrap {bootstrap!r} must be a whole number ≥ 0")
    if rules is not None and not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules, where="rules")
    cards = card_set_of(cards)
    todo = round_robin(names, n, cards, seed=seed, rules=rules, engine=engine)
    results = run_jobs(todo, workers=jobs, progress=progress, desc="ladder", runner=runner)
    frames = [
        outcomes([job], [result]).select(
            pl.lit(job.settings.policy).alias("policy_a"), pl.lit(job.settings.opponent).alias("policy_b"), pl.all()
        )
        for job, result in zip(todo, results, strict=True)
    ]
    games = pl.concat(frames)
    return Ladder(games, ratings(games, names, seed=seed, bootstrap=bootstrap), n, seed, bootstrap)


__all__ = [
    "RATINGS_FILE",
    "RATINGS_SCHEMA",
    "Ladder",
    "LadderRatings",
    "checkout_commit",
    "fit",
    "ladder",
    "parse_policies",
    "ratings",
    "read_ratings",
    "round_robin",
]
