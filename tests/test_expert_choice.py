"""``benchmarks/choice_match.py``: deep's decisions recorded beside expert's leaves, and the screen's parts.

Deep's decisions come from the compiled engine and expert's candidates from
the reference engine: the recorder checks, decision by decision, that deep's
choice is one of expert's candidates (the same candidates in the same order),
so a game that plays to its end is itself a check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from clashkit.engine.state import Creature
from clashkit.policies.deep import BUDGET
from clashkit.policies.expert import FEATURES, WIN
from clashkit.runs.game import new_game
from clashkit.studies.card_sets import fit_set

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import choice_match  # noqa: E402

CARDS = fit_set()


def plain(attack: int, health: int) -> int:
    """A creature of the fitting set with these values and no ability or Aura."""
    for c in range(len(CARDS)):
        if CARDS.is_creature[c] and not CARDS.mask[c] and not CARDS.aura_mask[c]:
            if (CARDS.attack[c], CARDS.health[c]) == (attack, health):
                return c
    raise AssertionError(f"no plain {attack}/{health} creature")


def test_a_siege_as_if_it_began_now():
    """R3.9: the farthest attacks first; R4.3: damage adds up until the creature is destroyed; R4.2:
    an empty side lets the attack hit the keep."""
    state, _ = new_game("1", "2", seed=1, cards=CARDS, record=False)
    state.lanes = [[[], []], [[], []]]
    state.lanes[0][0] = [Creature(CARDS, plain(5, 3)), Creature(CARDS, plain(1, 2))]
    state.lanes[0][1] = [Creature(CARDS, plain(5, 6))]
    state.lanes[1][0] = [Creature(CARDS, plain(5, 6))]
    # A's upper lane: the 1/2 (farthest) leaves the 5/6 at 5, the 5/3 destroys it; A's lower lane
    # hits B's keep for 5.
    assert choice_match.siege(state, 0) == (5, 1, 0)
    # B's 5/6 destroys A's front 5/3; the 1/2 and the 5/6 of the other lane are left (6 attack).
    assert choice_match.siege(state, 1) == (0, 1, 6)
    health = state.hand_health(1)
    assert choice_match.threat_features(state, 1) == [min(5, health), float(5 >= health), 1, 0, 0, 0.0, 1, 6]


def test_passing_a_turn_plays_no_card_and_ends_it():
    state, _ = new_game("1", "2", seed=2, cards=CARDS, record=False)
    hands = [list(h) for h in state.hands]
    after = choice_match.passed(state)
    assert after.turn == state.turn + 1 and after.active != state.active
    assert after.hands[state.active] == hands[state.active]
    assert state.hands == hands  # the position itself is not changed
    assert len(choice_match.passed_features(state, 1 - state.active)) == len(FEATURES)


def test_a_conditional_logit_finds_a_linear_chooser():
    """Decisions whose choice is the best of a known linear score: the fitted weights choose the same."""
    rng = np.random.default_rng(3)
    truth = np.array([1.0, -2.0, 0.5])
    decided = []
    for _ in range(400):
        x = rng.normal(size=(int(rng.integers(2, 6)), 3))
        decided.append((x, int(np.argmax(x @ truth))))
    weights = choice_match.fit_choice(decided)
    assert choice_match.match(decided, weights) == 1.0
    assert choice_match.match(decided, -truth) < 0.5


def test_deep_s_decisions_beside_expert_s_leaves():
    """One game of deep against itself: every decision's leaves have one row a candidate, deep's
    choice is the best of its totals (ties to the earlier: deep's step 4) and a second
    recording gives the same decisions."""
    features = {"base": choice_match.base_features, "threat": choice_match.FEATURE_SETS["threat"]}
    first = choice_match.decisions(CARDS, 1, features)
    again = choice_match.decisions(CARDS, 1, features)
    assert len(first) > 10
    for d, e in zip(first, again, strict=True):
        m = len(d.totals)
        assert m > 1 and d.rows["base"].shape == (m, len(FEATURES)) and d.rows["threat"].shape == (m, len(FEATURES) + 8)
        assert d.choice == choice_match._best(d.totals) and 0 <= d.again < m
        assert choice_match.loss(d, d.choice) == 0.0
        assert (d.choice, d.again, d.totals.tolist()) == (e.choice, e.again, e.totals.tolist())
        assert np.array_equal(d.rows["threat"], e.rows["threat"])


def test_a_loss_is_a_guess_s_worth_and_a_game_won_or_lost_is_apart():
    d = choice_match.Decision({}, 0, 0, np.array([WIN + 1.0, WIN + 0.5, 0.25, -WIN]))
    assert choice_match.loss(d, 1) == 0.5 / BUDGET  # both won in one guess: the other guess tells
    assert choice_match.loss(d, 2) is None and choice_match.loss(d, 3) is None
