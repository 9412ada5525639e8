"""How often is ``expert``'s best candidate ``deep``'s choice?  A cheap screen of expert's features.

    .venv/bin/python benchmarks/choice_match.py [-n N] [--fit-sets K] [--sets K] [--first-seed S]
                                                [--features NAME[,NAME…]] [--json]

``deep`` looks through the opponent's next turn; ``expert`` scores the
position where that turn begins.  Where the two disagree about a card set's
decks (``benchmarks/agreement.py``) they have disagreed about decisions
first, and a decision is far cheaper to check than a deck's rate.  So:

1. **Decisions.**  ``deep`` plays itself, ``n`` games on each card set (game
   ``g`` plays pairing ``g mod 13`` of :data:`~clashkit.studies.expert_fit.PAIRINGS`,
   seed ``g``), every decision made by the compiled engine
   (:func:`clashkit.fast.search.search_decision` on the position converted
   with :func:`clashkit.fast.from_state`; what the player has seen of the
   opponent's cards, R1.7, and the incantations it has cast this turn, R5.3,
   carried from decision to decision as the fast engine's player carries
   them).  At each decision with more than one candidate, ``expert``'s
   machinery (reference engine; the same candidates in the same order, checked
   against the compiled engine's choice, and the same determinization) plays
   every candidate to the position where the opponent's turn begins (the
   **leaf**); each feature set's numbers of each leaf are kept with ``deep``'s
   choice, its totals (step 4) and the choice ``deep`` makes on the same
   position from another draw of its guesses.
2. **Training and test sets.**  The decisions on the ``fit`` set and on the
   ``moved`` and ``random`` sets of the shipped fit's first ``--fit-sets``
   generator seeds train; those on the ``moved`` and ``random`` sets of
   ``--sets`` seeds from ``--first-seed`` on, none a seed of the shipped fit,
   test (``benchmarks/agreement.py`` checks the same unseen sets).
3. **Choice match**, on each test set, of: ``deep`` from another guess (how
   far the target itself is a matter of the guess); greedy's choice (the first
   candidate); ``expert`` with the shipped weights; and for each feature set
   (:data:`FEATURE_SETS`, each beginning with expert's own) the weights of a
   conditional logit — a candidate ``deep``'s choice with odds
   ``exp(weights · features(leaf))`` — fitted on the training decisions
   (Newton's method, a small ridge), once as they are and once with one more
   column marking greedy's choice (a preference expert's decision rule would
   need: a leaf does not show which candidate it came from).  Expert's choice
   is the best score, a later candidate only when more than ``1e-9`` better.
4. **Loss**: a match counts every other choice alike, but a choice a hair
   worse than ``deep``'s differs from a blunder.  So each line also gives what
   its choices lose by ``deep``'s own totals (:func:`loss`), and how often it
   changes a game ``deep`` sees won or lost: the nearer a bot plays to
   ``deep``, the smaller both.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from clashkit.base.shipped import shipped_file
from clashkit.base.vocab import BLOODLUST, PIERCE, PROTECTION
from clashkit.engine.actions import Play
from clashkit.engine.legality import proceed_action
from clashkit.engine.loop import run
from clashkit.engine.state import GameState
from clashkit.fast import from_state, search_params
from clashkit.fast.convert import capacity
from clashkit.fast.legality import A_CREATURE, A_PROCEED, A_SPELL
from clashkit.fast.search import new_work, search_decision
from clashkit.fast.state import P_CAST_TURN, P_CASTS, legal_rows
from clashkit.fast.tables import card_tables, rules_array
from clashkit.policies import expert as expert_module
from clashkit.policies import sight
from clashkit.policies.deep import BUDGET
from clashkit.policies.expert import FEATURES, WIN, ExpertPolicy, shipped_weights
from clashkit.policies.expert import features as expert_features
from clashkit.policies.greedy import GreedyPolicy
from clashkit.runs.game import new_game
from clashkit.studies.card_sets import draw
from clashkit.studies.expert_fit import PAIRINGS, fit_seeds

#: The ridge of the conditional logit (per decision).
RIDGE = 1e-4
#: Newton steps.
STEPS = 30
#: Another generator state for deep's second guess: the game's times this odd number.
GOLDEN = 0x9E3779B97F4A7C15


class _Leaves(ExpertPolicy):
    """Expert's machinery with its scores replaced by a record of the leaves it reaches."""

    def __init__(self) -> None:
        super().__init__()
        self.leaves: list[GameState] = []
        self.found: list = []

    def score(self, state: GameState, player: int) -> float:
        self.leaves.append(state)
        return 0.0

    def opening(self, state, cards=None):
        decided, candidates = super().opening(state, cards)
        self.found = candidates
        return decided, candidates


@dataclass
class Decision:
    """One decision of ``deep`` with more than one candidate: each feature set's rows (one a
    candidate, from expert's leaves), deep's choice, deep's choice from another guess, and deep's
    totals (one a candidate, added over its guesses)."""

    rows: dict[str, np.ndarray]
    choice: int
    again: int
    totals: np.ndarray


class DeepRecorder(GreedyPolicy):
    """Plays as ``deep`` (the compiled engine decides) and records expert's leaves at each decision
    with a choice (see the module docstring, step 1).  The draft (R7.2) is made before, by greedy."""

    def __init__(self, state: GameState, features: dict, spec: str = "deep") -> None:
        super().__init__()
        self.cap = capacity(state) + 4
        self.tables = card_tables(state.cards)
        self.rules = rules_array(state.rules, solo=False)
        self.legal = legal_rows(self.cap)
        self.work = new_work(self.cap, state.rules.turn_limit, search_params([spec, spec]))
        self.seen: tuple[set[int], set[int]] = (set(), set())
        self.cast = [(0, 0), (0, 0)]  # (turn, casts) a player
        self.features = features
        self.decisions: list[Decision] = []

    def _deep(self, state: GameState, casts: int, rng: int | None = None) -> tuple[tuple[int, ...], int]:
        """Deep's decision, compiled, on ``state`` converted (with what the player has seen and the
        incantations it has cast this turn; ``rng``: another generator state); the generator after."""
        p = state.active
        s = from_state(state, cap=self.cap)
        for card in self.seen[p]:
            s.sight[p, card] = 1
        s.pol[p, P_CAST_TURN], s.pol[p, P_CASTS] = state.turn, casts
        if rng is not None:
            s.rng[0] = np.uint64(rng)
        row = _same(search_decision(s, self.tables, self.rules, self.legal, self.work))
        return row, int(s.rng[0])

    def decide(self, state: GameState, cards=None):
        p = state.active
        for lane in state.lanes[1 - p]:
            for creature in lane:
                self.seen[p].add(creature.card)
        turn, casts = self.cast[p]
        casts = casts if turn == state.turn else 0
        again, _ = self._deep(state, casts, (state.rng.getstate() * GOLDEN + 1) % 2**64)
        row, after = self._deep(state, casts)
        # expert's leaves, on a copy with the game's generator as it was
        copy = state.clone(record=False)
        copy.turn_log = None
        leaves = _Leaves()
        leaves._cast_state, leaves._cast_turn, leaves._casts = copy, copy.turn, casts
        slots = sight.hidden_slots(copy, p, self.seen[p])
        sight.canonical(copy, p, slots)
        action = leaves._decide(copy, cards, slots)
        state.rng.setstate(after)  # the game goes on as deep's would
        if len(leaves.found) > 1:
            rows = [_row(a) for a in leaves.found]
            choice = rows.index(row)
            action = leaves.found[choice]
            features = {name: np.array([f(leaf, p) for leaf in leaves.leaves]) for name, f in self.features.items()}
            totals = self.work.top.scores[: len(rows)].copy()
            self.decisions.append(Decision(features, choice, rows.index(again), totals))
        if row != _row(action):
            raise AssertionError(f"the engines differ at turn {state.turn}: {row} against {action}")
        if type(action) is Play and action.target is not None:
            self.cast[p] = (state.turn, casts + 1)
        return action


def _same(row) -> tuple[int, ...]:
    """A fast engine's action row with what does not tell actions apart left out (``same_action``)."""
    kind = int(row[0])
    if kind == A_PROCEED:
        return (A_PROCEED, 0, 0, 0, 0)
    if kind == A_CREATURE:
        return (A_CREATURE, int(row[1]), int(row[2]), 0, 0)
    return tuple(int(x) for x in row)


def _row(action) -> tuple[int, ...]:
    """A reference action as the fast engine's row (kind, index, a, b, c)."""
    if type(action) is not Play:
        return (A_PROCEED, 0, 0, 0, 0)
    if action.target is None:
        return (A_CREATURE, action.index, action.lane, 0, 0)
    return (A_SPELL, action.index, *action.target)


def decisions(cards, games: int, features: dict, spec: str = "deep") -> list[Decision]:
    """Deep's decisions in ``games`` self-play games on ``cards`` (step 1): for each, the ``features``
    (by name, functions of leaf and mover) of expert's leaves, one row a candidate, deep's choice
    and its choice from another guess."""
    out = []
    for g in range(games):
        a, b = PAIRINGS[g % len(PAIRINGS)]
        greedy = GreedyPolicy()
        state, _ = new_game(a, b, greedy, greedy, cards=cards, seed=g, record=False)
        player = DeepRecorder(state, features, spec)
        run(state, player, player)
        out += player.decisions
    return out


# --- Features --------------------------------------------------------------------------------------


def base_features(state: GameState, player: int) -> list[float]:
    """Expert's own :func:`~clashkit.policies.expert.features`."""
    return [float(x) for x in expert_features(state, player)]


def siege(state: GameState, attacker: int) -> tuple[int, int, int]:
    """``attacker``'s siege as if it began now, every creature attacking (none is new at the start
    of a turn, R3.12), lane by lane, from the farthest to the nearest (R3.9): each attack hits the
    front opposing creature (R4.1), Protection stops the first (R6.4), Pierce hits the one behind
    (R6.2), the destroyed leave (R4.3, R4.5), Bloodlust attacks again (R6.6), and an empty side
    lets the attack hit the keep (R4.2).  Splash, Sprint and Aura grants are left out.  Returns the
    keep damage, the creatures destroyed and the attack of the defender's creatures left."""
    cards = state.cards
    defender = 1 - attacker
    keep = kills = left = 0
    for lane in range(2):
        hp = [cards.health[c.card] - c.damage for c in state.lanes[defender][lane]]
        shield = [bool(cards.mask[c.card] & PROTECTION) and not c.protection_used for c in state.lanes[defender][lane]]
        attack = [cards.attack[c.card] for c in state.lanes[defender][lane]]
        for c in reversed(state.lanes[attacker][lane]):
            damage = cards.attack[c.card]
            mask = cards.mask[c.card]
            while True:
                if not hp:
                    keep += damage
                    break
                hit = 0 if shield[0] else damage
                shield[0] = False
                hp[0] -= hit
                if mask & PIERCE and len(hp) > 1:
                    hp[1] -= damage
                gone = [i for i in range(min(2, len(hp))) if hp[i] <= 0]
                first = bool(gone) and gone[0] == 0
                for i in reversed(gone):
                    del hp[i], shield[i], attack[i]
                    kills += 1
                if not (first and mask & BLOODLUST):
                    break
        left += sum(attack)
    return keep, kills, left


def threat_features(state: GameState, player: int) -> list[float]:
    """Both sides' sieges as if they began now (:func:`siege`), the opponent's first: the keep
    damage within the hand-health (R4.7), whether it reaches the rightmost place (R4.8, R4.9),
    the creatures destroyed and the attack left."""
    out: list[float] = []
    for attacker in (1 - player, player):
        keep, kills, left = siege(state, attacker)
        health = state.hand_health(1 - attacker)
        out += [min(keep, health), float(keep >= health), kills, left]
    return out


class _Passive(GreedyPolicy):
    """Plays no card: moves the turn on at every choice (its returns are greedy's, R4.6)."""

    def decide(self, state: GameState, cards=None):
        return proceed_action(state)


def passed(state: GameState) -> GameState:
    """The position after the player to move has passed their whole turn: no card played, the
    siege run by the engine (R3.9–R3.12), until the next turn begins."""
    after = state.clone(record=False)
    after.turn_log = None
    passive = _Passive()
    run(after, passive, passive, until_turn=state.turn + 1)
    return after


def passed_features(state: GameState, player: int) -> list[float]:
    """Expert's features from the opponent's view once the opponent has passed their turn
    (:func:`passed`): what their creatures already in play do to this player's, with no card of
    their hidden hand.  A game over: the first feature ±100 (lost, won by the opponent), the rest 0."""
    after = passed(state)
    if after.winner is not None:
        return [-100.0 if after.winner == player else 100.0] + [0.0] * (len(FEATURES) - 1)
    return base_features(after, 1 - player)


def _joined(*parts: Callable[[GameState, int], list[float]]) -> Callable[[GameState, int], list[float]]:
    def joined(state: GameState, player: int) -> list[float]:
        return [x for part in parts for x in part(state, player)]

    return joined


#: The feature sets screened, by name: a function of (leaf, mover) to a list of numbers; each
#: begins with expert's own (``base``).
FEATURE_SETS: dict[str, Callable[[GameState, int], list[float]]] = {
    "base": base_features,
    "threat": _joined(base_features, threat_features),
    "passed": _joined(base_features, passed_features),
    "both": _joined(base_features, threat_features, passed_features),
}


def _groups(decided: list[tuple[np.ndarray, int]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The decisions grouped by their number of candidates: (features, choices) a group."""
    by: dict[int, list] = {}
    for x, choice in decided:
        by.setdefault(len(x), []).append((x, choice))
    return [(np.stack([x for x, _ in g]), np.array([c for _, c in g])) for _, g in sorted(by.items())]


def fit_choice(train: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """A conditional logit's weights: deep's choice the likeliest candidate (step 3)."""
    rows = np.concatenate([x for x, _ in train])
    spread = rows.std(axis=0)
    spread[spread == 0] = 1.0
    groups = [(x / spread, c) for x, c in _groups(train)]
    k = rows.shape[1]
    n = len(train)
    w = np.zeros(k)
    for _ in range(STEPS):
        grad = RIDGE * n * w
        hess = np.eye(k) * RIDGE * n
        for z, choice in groups:
            u = z @ w
            u -= u.max(axis=1, keepdims=True)
            e = np.exp(u)
            prob = e / e.sum(axis=1, keepdims=True)
            mean = np.einsum("nm,nmk->nk", prob, z)
            grad += mean.sum(axis=0) - z[np.arange(len(choice)), choice].sum(axis=0)
            centred = (z - mean[:, None, :]).reshape(-1, k)
            hess += (centred * prob.reshape(-1, 1)).T @ centred
        w = w - np.linalg.solve(hess, grad)
    return w / spread


def _best(scores) -> int:
    """Expert's choice among scores: the best, a later one only when more than ``1e-9`` better."""
    best = 0
    for j in range(1, len(scores)):
        if scores[j] > scores[best] + 1e-9:
            best = j
    return best


def match(test: list[tuple[np.ndarray, int]], weights) -> float:
    """The share of decisions where expert's choice by ``weights`` (:func:`_best`) is deep's."""
    return sum(_best(x @ np.asarray(weights)) == choice for x, choice in test) / len(test)


def _with_first(x: np.ndarray) -> np.ndarray:
    """A candidate's rows with one more column: 1 for greedy's choice (the first candidate)."""
    first = np.zeros((len(x), 1))
    first[0] = 1.0
    return np.hstack([x, first])


def _rows(name: str, first: bool) -> Callable[[Decision], np.ndarray]:
    """A decision's rows of feature set ``name``, with :func:`_with_first`'s column if ``first``."""
    if first:
        return lambda d: _with_first(d.rows[name])
    return lambda d: d.rows[name]


def _chooser(rows: Callable[[Decision], np.ndarray], weights: np.ndarray) -> Callable[[Decision], int]:
    """Expert's choice in a decision by ``weights`` on its ``rows``."""
    return lambda d: _best(rows(d) @ weights)


def loss(d: Decision, pick: int, budget: int = BUDGET) -> float | None:
    """What choosing candidate ``pick`` loses by ``deep``'s own totals, a guess's worth (its total
    over ``budget`` guesses): 0 for deep's choice; ``None`` where the two totals differ by a game won
    or lost in a guess (:data:`~clashkit.policies.expert.WIN`), which no difference of values measures."""
    lost = float(d.totals[d.choice] - d.totals[pick])
    return None if abs(lost) >= WIN / 2 else lost / budget


def screen(train: dict[str, list[Decision]], test: dict[str, list[Decision]], names: list[str]) -> list[dict]:
    """Every line of the table (step 3): its choice match on each test set (``sets``), their mean
    and the share of all test decisions (``pooled``), and the mean :func:`loss` (``loss``; over the
    sets, and the share of decisions where the choice changes a game won or lost, ``decided``)."""

    def line(name: str, pick: Callable[[Decision], int], **extra) -> dict:
        sets, losses, decided = {}, [], []
        for label, ds in test.items():
            picks = [pick(d) for d in ds]
            sets[label] = sum(p == d.choice for p, d in zip(picks, ds, strict=True)) / len(ds)
            lost = [loss(d, p) for p, d in zip(picks, ds, strict=True)]
            known = [x for x in lost if x is not None]
            losses.append(sum(known) / len(known) if known else 0.0)
            decided.append(sum(x is None for x in lost) / len(ds))
        pooled = sum(sets[label] * len(ds) for label, ds in test.items()) / sum(len(ds) for ds in test.values())
        return {
            "line": name,
            **extra,
            "sets": sets,
            "mean": sum(sets.values()) / len(sets),
            "pooled": pooled,
            "loss": sum(losses) / len(losses),
            "decided": sum(decided) / len(decided),
        }

    weights = np.array(shipped_weights())
    lines = [
        line("deep from another guess", lambda d: d.again),
        line("greedy's choice", lambda d: 0),
        line("expert (shipped weights)", lambda d: _best(d.rows["base"] @ weights)),
    ]
    for name in names:
        for first in (False, True):
            rows = _rows(name, first)
            fitted = fit_choice([(rows(d), d.choice) for ds in train.values() for d in ds])
            label = f"{name}, fitted" + (", with a preference for greedy's choice" if first else "")
            lines.append(line(label, _chooser(rows, fitted), features=len(fitted)))
    return lines


def card_sets(fit_sets: int, sets: int, first_seed: int) -> tuple[list, list]:
    """The training sets (the fitting set, then ``moved`` and ``random`` of the shipped fit's first
    ``fit_sets`` seeds) and the test sets (``moved`` and ``random`` of ``sets`` seeds from
    ``first_seed`` on that the shipped fit did not use)."""
    avoid = fit_seeds(json.loads(shipped_file(expert_module.SHIPPED).read_text()))
    train = [draw("fit")] + [draw(k, s) for s in sorted(avoid)[:fit_sets] for k in ("moved", "random")]
    test, seed = [], first_seed
    while len(test) < 2 * sets:
        if seed not in avoid:
            test += [draw("moved", seed), draw("random", seed)]
        seed += 1
    return train, test


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=52, help="games a card set (default 52)")
    parser.add_argument("--fit-sets", type=int, default=3, help="fitting seeds whose sets train (default 3)")
    parser.add_argument("--sets", type=int, default=3, help="unseen seeds whose sets test (default 3)")
    parser.add_argument("--first-seed", type=int, default=10_001, help="the first unseen seed (default 10001)")
    parser.add_argument("--features", default=",".join(FEATURE_SETS), help="feature sets to fit (default all)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    names = [n.strip() for n in args.features.split(",") if n.strip()]
    unknown = [n for n in names if n not in FEATURE_SETS]
    if unknown:
        parser.error(f"--features: {', '.join(unknown)} not among {', '.join(FEATURE_SETS)}")
    if args.n < 1 or args.sets < 1 or args.fit_sets < 0:
        parser.error("-n and --sets must be at least 1, --fit-sets at least 0")
    started = time.perf_counter()
    features = {name: FEATURE_SETS[name] for name in {"base", *names}}
    training, unseen = card_sets(args.fit_sets, args.sets, args.first_seed)
    train = {d.label: decisions(d.cards, args.n, features) for d in training}
    test = {d.label: decisions(d.cards, args.n, features) for d in unseen}
    played = time.perf_counter() - started
    lines = screen(train, test, names)
    result = {
        "games": args.n,
        "decisions": {"train": {k: len(v) for k, v in train.items()}, "test": {k: len(v) for k, v in test.items()}},
        "lines": lines,
        "seconds": {"play": played, "all": time.perf_counter() - started},
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"Choice match: how often each line's choice is deep's, on deep's decisions with more than one candidate, "
        f"{args.n} games of deep against itself a set"
    )
    print()
    print(f"Training sets: {', '.join(f'{k} ({v})' for k, v in result['decisions']['train'].items())}")
    print(f"Test sets: {', '.join(f'{k} ({v})' for k, v in result['decisions']['test'].items())}")
    print()
    print("| line | features | " + " | ".join(test) + " | mean of the sets | all decisions | loss | decided |")
    print("| --- | ---: | " + " | ".join("---:" for _ in test) + " | ---: | ---: | ---: | ---: |")
    for line in lines:
        cells = " | ".join(f"{100 * v:.1f}%" for v in line["sets"].values())
        shares = f"{100 * line['mean']:.1f}% | {100 * line['pooled']:.1f}%"
        lost = f"{line['loss']:.3f} | {100 * line['decided']:.2f}%"
        print(f"| {line['line']} | {line.get('features', '')} | {cells} | {shares} | {lost} |")
    print()
    print("loss: what the line's choice loses by deep's own totals, a guess's worth in expert's log-odds")
    print("(mean over the sets); decided: the share of decisions where it changes a game won or lost in a guess.")
    print(f"({result['seconds']['all']:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
