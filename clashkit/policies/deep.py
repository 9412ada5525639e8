"""``deep``: fair search through the opponent's whole next turn, over several guesses at the hidden cards.

``expert`` looks one turn ahead: each candidate play, the rest of its own
turn played by ``greedy``, scored where the opponent's turn begins.  What it
cannot see is the answer: which of the opponent's cards are playable next
turn (the four leftmost, R3.2, in a hidden order, R2.2) and what they do to
the position.  ``deep`` plays that turn too.

At each decision it takes ``search``'s candidates
(:meth:`~clashkit.policies.search.SearchPolicy.candidates`: greedy's choice,
moving on, the other legal plays, incantations only on their declared side,
R5.5, at most ``casts_per_turn`` a turn, R5.3).  Then, ``budget`` times, it
draws one **determinization** — the hidden slots of the opponent's hand (in
solo, of the AI pile) shuffled, as ``search:fair`` does
(:mod:`clashkit.policies.sight`) — and from that same guess plays every
candidate: the candidate, the rest of its own turn by ``greedy``, then the
opponent's whole turn by the **model** of the opponent (``model=expert``,
the default: ``expert`` reading the guessed state, every one of its
candidates tried; ``model=greedy``: ``greedy``), until its own next turn
begins.  The position there is scored by the **leaf** evaluation:

* ``leaf=expert`` (default): expert's fitted evaluation
  (:func:`clashkit.policies.expert.value`) from the opponent's view,
  negated.  The weights are fitted on positions at the start of a turn
  from the view of the player who has just moved — here the opponent —
  as the log-odds that they win, so minus that is this player's;
* ``leaf=plain``: ``search``'s weight-free share of the life left
  (:func:`clashkit.policies.search.evaluate`).

A game won scores :data:`~clashkit.policies.expert.WIN` (1 with the plain
leaf), a game lost ``-WIN`` (0).  Each candidate's scores are added over
the determinizations and the best total is played, a later candidate only
when more than ``1e-9`` better, so ties go to greedy's choice.
``deep:leaf=plain,model=greedy`` reads no fitted weight at all: beside
``deep`` it shows what ``deep`` inherits from ``expert``.

It is fair (R1.7) as ``search:fair`` is: the hidden slots are written in
card-id order before it decides, every guess is drawn from a 64-bit seed
taken from the game's generator (R10.2), and the opponent's model reads
only the guessed state.  Format choices (draft, constructed, bans, R4.6
returns) are greedy's.

**Exactly what a decision does** (the fast engine,
:func:`clashkit.fast.search.deep_choose`, does the same, draw for draw):

1. As ``search``'s steps 1–3 (its module docstring): the hidden slots
   written in card-id order, greedy's loop check in the summon phase, the
   candidates; one candidate is played without a draw.
2. One 64-bit word is drawn from the game's generator (``seed``).
3. For ``b`` in ``0 … budget - 1``: a copy of the state without turn
   records, its generator seeded with ``seed + b`` (modulo ``2**64``), the
   hidden slots sampled from it (a shuffle of their sorted cards).  For each
   candidate in order: a copy of that copy; the candidate carried out; the
   game loop run until turn ``turn + 2`` begins, this player a fresh
   ``greedy``, the opponent a fresh model (for ``model=expert``, an
   :class:`~clashkit.policies.expert.ExpertPolicy` that reads the whole
   state, ``fair=False``).  Its score is added to the candidate's total.
4. The best total wins, a later candidate only when more than ``1e-9``
   higher.  An incantation played counts toward this turn's casts.
"""

from __future__ import annotations

from ..base.errors import OptionError
from ..base.limits import whole_number
from ..engine.actions import Action
from ..engine.loop import returns_asker, run
from ..engine.state import GameState
from ..engine.transition import apply_unchecked
from . import sight
from .expert import WIN, ExpertPolicy, shipped_weights, value
from .greedy import GreedyPolicy
from .search import SearchPolicy, best, evaluate

#: The leaf evaluations, the default first.
LEAVES = ("expert", "plain")
#: The models of the opponent, the default first.
MODELS = ("expert", "greedy")
#: Turns a look-ahead plays: the rest of this one and the opponent's next.
HORIZON = 2
#: Determinizations a decision by default: on the ladder 2, 4 and 8 rate alike, and a strength
#: check of one card change (7,200 games of ``deep`` against itself) stays within minutes.
BUDGET = 2


class DeepPolicy(SearchPolicy):
    """Fair search through the opponent's next turn; see the module docstring.

    ``budget``: determinizations a decision; ``leaf``: ``expert`` or ``plain``; ``model``:
    ``expert`` or ``greedy``; ``weights``: expert's weights for the leaf and the model (the
    shipped ones by default).  Its format choices (R7.2, R7.3) are greedy's, by the fitted card
    values (:mod:`clashkit.policies.card_values`)."""

    name = "deep"
    code_only_options = ("weights",)

    def __init__(self, budget: int = BUDGET, leaf: str = "expert", model: str = "expert", weights=None) -> None:
        budget = whole_number(budget, "determinizations", "deep: budget", OptionError)
        leaf = _one_of(leaf, LEAVES, "deep: leaf")
        model = _one_of(model, MODELS, "deep: model")
        super().__init__(budget=budget, horizon=HORIZON, noise=0.0, fair=True)
        self.leaf = leaf
        self.model = model
        self.weights = tuple(float(w) for w in weights) if weights is not None else shipped_weights()
        options = [f"budget={budget}"] if budget != BUDGET else []
        options += [f"leaf={leaf}"] if leaf != LEAVES[0] else []
        options += [f"model={model}"] if model != MODELS[0] else []
        self.name = "deep" + (":" + ",".join(options) if options else "")

    def opponent(self) -> GreedyPolicy:
        """A fresh model of the opponent for one look-ahead (step 3)."""
        if self.model == "greedy":
            return GreedyPolicy()
        return ExpertPolicy(weights=self.weights, fair=False)

    def _decide(self, state: GameState, cards, slots: list[int] | None) -> Action:
        decided, candidates = self.opening(state, cards)
        if decided is not None:
            return decided
        assert slots is not None  # deep is always fair
        me = state.active
        seed = state.rng.getrandbits(64)
        totals = [0.0] * len(candidates)
        for b in range(self.budget):
            guess = state.clone(record=False)
            guess.turn_log = None
            guess.rng.seed(seed + b)
            sight.sample(guess, me, slots, guess.rng)
            for j, action in enumerate(candidates):
                totals[j] += self.look_ahead(guess, action, state.turn + HORIZON)
        return candidates[best(totals)]

    def look_ahead(self, guess: GameState, action: Action, until: int) -> float:
        """Step 3 for one candidate: ``action`` on a copy of ``guess``, then the game loop until
        turn ``until`` begins (this player greedy, the opponent its model); the leaf's score."""
        self.rollouts += 1
        me = guess.active
        sim = guess.clone(record=False)
        sim.turn_log = None
        mine, theirs = GreedyPolicy(), self.opponent()
        players = (mine, theirs) if me == 0 else (theirs, mine)
        apply_unchecked(sim, action, returns_asker(players))
        run(sim, *players, until_turn=until)
        return self.score(sim, me)

    def score(self, state: GameState, player: int) -> float:
        """The leaf's score of a look-ahead's last position (see the module docstring)."""
        plain = self.leaf == "plain"
        if state.winner is not None:
            won = state.winner == player
            return (1.0 if won else 0.0) if plain else (WIN if won else -WIN)
        if plain:
            return evaluate(state, player)
        return -value(state, 1 - player, self.weights)


def _one_of(value: object, choices: tuple[str, ...], where: str) -> str:
    word = str(value).strip().lower()
    if word not in choices:
        raise OptionError(f"{where}: one of {', '.join(choices)}, not {value!r}")
    return word


__all__ = ["BUDGET", "HORIZON", "LEAVES", "MODELS", "DeepPolicy"]
