"""``expert`` on card sets its weights were never fitted on: the ladder of greedy, search:fair and expert on each.

    .venv/bin/python benchmarks/unseen_sets.py [-n N]

The sets are the ones ``tests/fast/test_expert_games.py`` plays (its generators,
imported from the tests, so the figure and the test play the same cards): the
fitting set (``data/expert-fit-cards.csv``) with every value moved, and two
random files of 32 cards in four decks (the differential tests' generator,
seeds 501 and 500).  Each ladder is ``clashkit ladder --policies
greedy,search:fair,expert -n N`` on that set, seed 0, on the fast engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path[:0] = [str(TESTS), str(TESTS / "fast")]

from test_expert_games import dealt_random_cards, shifted_cards  # noqa: E402

from clashkit.studies.expert_fit import fit_cards  # noqa: E402
from clashkit.studies.ladder import ladder  # noqa: E402

POLICIES = ("greedy", "search:fair", "expert")


def sets():
    """(name, card set) of each set played."""
    return [
        ("the fitting set, every value moved", shifted_cards(fit_cards())),
        ("a random file (seed 501)", dealt_random_cards(501)),
        ("a random file (seed 500)", dealt_random_cards(500)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="games per deck pairing and seat (default 5)")
    args = parser.parse_args()
    for name, cards in sets():
        started = time.perf_counter()
        rated = ladder(POLICIES, args.n, cards=cards, seed=0, engine="fast")
        print(f"{name}: {rated.games.height:,} games in {time.perf_counter() - started:.1f} s\n")
        print(rated)
        print()


if __name__ == "__main__":
    main()
