"""Card design at scale: the balance matrix, sweeps of a card's values, per-card numbers and a
tuner that proposes changes (R7.1, R9.1, R9.3).

The four questions a designer asks, each one function:

* :func:`balance` — is the set balanced?  Every ordered pairing of the starter
  decks (R7.1), each deck's overall rate, the first player's.
* :func:`sweep` — what does this change do?  A card's field set to each of
  several values; each deck's rate and its **change** against the card as
  shipped, with a paired interval.
* :func:`card_stats` — which cards carry their decks?  Per card: how often it
  is played, when, its deck's rate with and without it played, its owner's
  hand-health after it, and the change when it is removed.
* :func:`tune` — what is the smallest change that would balance the set?
* :func:`compare` — what does a new card file change?  Every deck's and every ordered
  pairing's rate under both sets on the same seeds, with each paired change.

**The strength check.**  A strong-play verdict depends on which strong bot plays;
:func:`check_strength` plays it again with the arbiter (``deep``) on fewer of the same
games and says, deck by deck, whether the two agree (:mod:`~clashkit.studies.design.check`).

**Strengths.**  Each takes ``policies=["greedy", "expert"]`` (weakest first) besides
``policy=``: the study at each strength on the same seeds, played as one list of jobs,
with each deck's paired change from the first strength to the later ones
(:mod:`~clashkit.studies.design.strengths`); :func:`tune` then balances every strength at
once (its objective: the largest distance of any deck from 50% at any strength).

**Common random numbers.**  Ordered pairing ``k`` of the starter decks (1 vs 2,
1 vs 3, …, 4 vs 3, then the mirrors when asked for) plays games ``0 … n-1`` of
master seed ``seed + k`` (:func:`clashkit.runs.simulate.game_seeds`), whatever the
card values.  Two versions of a card set therefore play the same deals and the
same coin flips, and the change between them is measured game by game: the
interval of a change comes from the per-game differences
(:func:`clashkit.base.stats.mean_exprs`), not from two independent rates, and is
several times narrower.  A card is changed *in place* (:func:`vary`), so decks
keep their order and their deals.

**Jobs.**  All games are played as a list of :class:`Job` — one pairing, one
card set, one seed range — through :func:`run_jobs`.  A job is plain data
(picklable), :func:`play_job` plays one, and ``runner=`` takes any function
that maps a list of jobs to their results in order (a process pool by default),
so a cluster can play them: every study takes ``cluster=`` (``"local:N"``,
``"tcp://HOST:PORT"`` or a ``distributed.Client``), which plays its jobs on Dask
(:class:`clashkit.runs.cluster.Runner`) with the same results.  Jobs that would play the same games (a pairing of
two decks that the change does not touch) are played once.

An unfinished game (R10.1) is never a win: it counts in every denominator.
"""

from __future__ import annotations

from .card_numbers import SkillCardStats, card_stats
from .changes import Change, apply_changes, candidates
from .check import CHECK_POLICY, StrengthCheck, agrees, check_games, check_strength
from .comparison import (
    HALF_WIDTH,
    SAME_DECKS,
    Comparison,
    SkillComparison,
    check_comparable,
    compare,
    games_for_half_width,
    seat_a_changes,
)
from .files import write_parquet
from .jobs import (
    FAST_PROBE_GAMES,
    FAST_PROBE_GAMES_LARGE,
    PROBE_PAIRINGS,
    PROBE_SECONDS,
    SMALL_BATCH,
    Job,
    JobResult,
    Runner,
    Settings,
    duration,
    estimate_seconds,
    play_job,
    play_local,
    plays_search,
    run_jobs,
)
from .matrix import (
    Balance,
    balance,
    card_set_of,
    labelled_rates,
    make_study,
    on_cluster,
    percent_text,
    points_text,
    seat_text,
)
from .strengths import Objective, distance_improvement, skill_changes, skill_distance, strengths
from .study import Study, matchups, outcomes, paired_changes, paired_contrast, pairings, sides
from .sweeps import SkillSweep, Sweep, parse_values, sweep, sweep_variants
from .tuning import CHECK_SEED_OFFSET, TUNE_FIELDS, ParetoRow, Tuning, tune
from .variants import FIELDS, field_value, replace_card, vanilla, vary

__all__ = [
    "Balance",
    "CHECK_POLICY",
    "CHECK_SEED_OFFSET",
    "Change",
    "Comparison",
    "FAST_PROBE_GAMES",
    "FAST_PROBE_GAMES_LARGE",
    "PROBE_PAIRINGS",
    "PROBE_SECONDS",
    "FIELDS",
    "HALF_WIDTH",
    "Job",
    "Objective",
    "ParetoRow",
    "JobResult",
    "Runner",
    "SAME_DECKS",
    "SMALL_BATCH",
    "Settings",
    "SkillCardStats",
    "SkillComparison",
    "SkillSweep",
    "StrengthCheck",
    "Study",
    "Sweep",
    "TUNE_FIELDS",
    "Tuning",
    "agrees",
    "apply_changes",
    "balance",
    "candidates",
    "card_set_of",
    "card_stats",
    "check_comparable",
    "check_games",
    "check_strength",
    "compare",
    "distance_improvement",
    "duration",
    "estimate_seconds",
    "field_value",
    "games_for_half_width",
    "labelled_rates",
    "make_study",
    "matchups",
    "on_cluster",
    "outcomes",
    "paired_changes",
    "paired_contrast",
    "pairings",
    "parse_values",
    "percent_text",
    "seat_text",
    "play_job",
    "play_local",
    "plays_search",
    "points_text",
    "replace_card",
    "run_jobs",
    "seat_a_changes",
    "sides",
    "skill_changes",
    "skill_distance",
    "strengths",
    "sweep",
    "sweep_variants",
    "tune",
    "vanilla",
    "vary",
    "write_parquet",
]
