"""The decks the bots build in constructed (R7.3): how many different ones, and how strong.

    .venv/bin/python benchmarks/deck_building.py [-n N] [--policy P] [--seed S]

Two parts, printed as Markdown:

- **variety**: ``N`` constructed games of ``P`` against itself (the fast engine), and the number
  of different eights played, both seats counted;
- **strength**: on each of ``N`` seeds, a constructed deal between ``P``'s choices and the rule of
  thumb the bots followed before they drew their ten by the fitted card values (the ten best
  cards by :func:`clashkit.policies.greedy.card_value`'s formula, at most three incantations;
  bans of the opponent's best card by it); the two eights dealt then play each other under ``P``
  on that seed in both seats (custom lists, the fast engine).  The score of the new decks (a win
  1, an unfinished game 1/2) with its 95% interval.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clashkit.base.cards import starter_set
from clashkit.base.rng import Rng
from clashkit.base.stats import Z95
from clashkit.engine import formats
from clashkit.policies import get_policy
from clashkit.policies.card_values import INCANTATIONS_KEPT
from clashkit.policies.greedy import card_value, tables
from clashkit.runs.outcomes import A_WON, B_WON, Pairings
from clashkit.runs.simulate import pool_seed_array, seed_pool, simulate
from clashkit.runs.spec import Matchup


def rule_of_thumb_ten(cards, rng) -> list[int]:
    """The ten the bots chose before: the kit's best by the formula, at most three incantations."""
    ranked = sorted(formats.kit(cards), key=lambda c: -card_value(cards, c))
    spells = [c for c in ranked if not cards.is_creature[c]][:INCANTATIONS_KEPT]
    return [c for c in ranked if cards.is_creature[c] or c in spells][: formats.CONSTRUCTED_CHOICE]


def rule_of_thumb_ban(cards, theirs, mine, rng) -> int:
    """The ban the bots made before: the opponent's best card by the formula."""
    return max(theirs, key=lambda c: card_value(cards, c))


def variety(policy: str, n: int, seed: int) -> list[str]:
    cards = starter_set()
    started = time.perf_counter()
    games = simulate(
        n, "constructed", "constructed", policy, policy, seed=seed, jobs=None, engine="fast", record_events=False
    ).games
    keep = set(cards.names)
    decks = {
        tuple(sorted(name for name in hand if name in keep))
        for column in ("hand_a", "hand_b")
        for hand in games[column].to_list()
    }
    seconds = time.perf_counter() - started
    fitted = "fitted card values" if tables(cards).fitted else "the formula's values (no fitted values)"
    return [
        f"**Variety.** {n:,} constructed games of `{policy}` against itself (seed {seed}, {fitted}): "
        f"**{len(decks):,} different decks** of eight played ({seconds:.0f} s).",
    ]


def strength(policy: str, n: int, seed: int) -> list[str]:
    cards = starter_set()
    bot = get_policy(policy)
    seeds = pool_seed_array(seed_pool(seed), 0, n)
    started = time.perf_counter()
    matchup = Matchup.build("1", "2", policy, policy, record_events=False, engine="fast", cards=cards)
    games = Pairings(matchup)
    scores = []
    new_decks, old_decks = set(), set()
    for s in seeds:
        deal = formats.constructed(
            cards, (bot.choose_ten, rule_of_thumb_ten), (bot.ban, rule_of_thumb_ban), Rng(int(s))
        )
        new, old = deal.a, deal.b
        new_decks.add(tuple(sorted(new)))
        old_decks.add(tuple(sorted(old)))
        as_a = int(games.winners(new, old, [s])[0])
        as_b = int(games.winners(old, new, [s])[0])
        scores += [1.0 if as_a == A_WON else 0.0 if as_a == B_WON else 0.5]
        scores += [1.0 if as_b == B_WON else 0.0 if as_b == A_WON else 0.5]
    values = np.array(scores)
    rate = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(len(values))
    seconds = time.perf_counter() - started
    old_names = ", ".join(cards.sorted_names(next(iter(old_decks)))) if len(old_decks) == 1 else "several"
    return [
        f"**Strength.** On {n:,} seeds, `{policy}`'s constructed choices against the rule of thumb's "
        f"({len(new_decks):,} different eights against {len(old_decks):,}: {old_names}), "
        f"each deal played in both seats under `{policy}`: the new decks score "
        f"**{rate:.1%}** (95% interval {rate - half:.1%} – {rate + half:.1%}) over {len(values):,} games "
        f"({seconds:.0f} s).",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="games of the variety, deals of the strength")
    parser.add_argument("--policy", default="expert")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lines = variety(args.policy, args.n, args.seed) + [""] + strength(args.policy, args.n, args.seed)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
