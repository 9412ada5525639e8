"""``search``: Monte Carlo rollouts over its own candidate plays, ``greedy`` playing them out.

At each decision it takes its candidates — the greedy choice first, then
moving the turn on, then the other legal plays (incantations only on their
declared side, R5.5) — and for each one plays the game on from a copy of the
state (``state.clone(record=False)``) with ``greedy`` for both players, up to
``horizon`` turns ahead.  A rollout scores 1 for a win, 0 for a loss, and in
between for a game still running at the horizon, by how much more life
(hand-health, plus the hand a Bastion still protects) each side has left.
The candidate with the best mean score is played; ties go to the earlier
candidate, so with nothing to gain it plays like ``greedy``.

``budget`` (``search:budget=N``) is the number of rollouts per decision.
With fewer rollouts than candidates the first ``budget`` candidates are tried;
with more, the spare rollouts replay the candidates with a little noise
(``noise``: the chance that a rollout player makes a random legal play
instead of the greedy one), drawn from a generator seeded from the game's
(R10.2), so the same seed gives the same game.

Like ``greedy`` it remembers the positions that begin its turns from turn 16
on, and leaves a loop (the same position again) with a play drawn from the
game's generator.  Format choices (draft, constructed, bans, R4.6 returns)
are greedy's.

**Fair search** (``search:fair``, or ``search:budget=N,fair=true``).  Plain
``search`` reads the whole state (R1.7), the order of the opponent's hand
included, which a player at the table never sees.  With ``fair`` it decides
only from what the acting player can know (:mod:`clashkit.policies.sight`):
the hidden slots — the opponent's cards never seen since the deal, in solo
the AI pile — are first written in card-id order, so that its candidates,
its loop check and everything else it reads are functions of what it knows;
then each *round* of rollouts draws one **determinization** (the hidden
slots shuffled with a generator seeded from the game's, R10.2) and plays
every candidate from that same sample, so candidates are compared on the
same guess (common random numbers) and the guesses vary between rounds.
Every rollout also reseeds its copy's generator, so no rollout sees the
game's future draws (the solo AI's reshuffles, R8.7).  The state is given
back exactly as it came.  Determinization per round rather than one
information-set tree: the rollouts are what costs, and a sampled hand per
round needs no new machinery in the game loop; its known weakness (it
assumes it will learn the hidden order, "strategy fusion") matters little
here, where the hidden order only decides which cards the opponent can
play in a few turns.

**Exactly what a decision does** (the fast engine, :mod:`clashkit.fast.search`,
does the same, draw for draw):

1. Fair search only: the opponent's creatures in play join what the acting
   player has seen; the hidden slots are written in card-id order (and put
   back after the decision).
2. In the summon phase its own loop check (greedy's, from turn 16, the key
   holding both hands) may leave a loop with a play drawn from the game's
   generator.
3. The candidates: the choice of a *fresh* greedy player — one made for this
   decision, so it remembers no position, and it counts as cast this turn
   the incantations this search player has cast — then the action that moves
   the turn on if that is another action, then the other legal plays in
   legal order, an incantation only on the side its effect is meant for
   (R5.5) and only while this player has cast fewer than ``casts_per_turn``
   (6) this turn, as greedy (R5.3: an incantation that comes back for
   nothing could otherwise be cast for ever).  Actions are compared by value
   (``==``).  With one candidate it is played: no draw, no rollout.
4. ``tried`` is the first ``budget`` candidates; one 64-bit word is drawn from
   the game's generator (``seed``).  Rollout ``k`` (``0 <= k < budget``)
   plays ``tried[k % len(tried)]``, with noise iff ``k >= len(tried)``, from
   seed ``seed + k // len(tried)`` (modulo ``2**64``).
5. A rollout: a copy of the state without turn records; fair search seeds
   the copy's generator with the rollout's seed and samples the hidden slots
   (a shuffle of their sorted cards); a noisy rollout seeds it again; the
   candidate is carried out (R4.6 as the game loop asks it, greedy's order,
   the solo AI's kept); then the game loop runs until turn ``turn + horizon``
   begins, both players one fresh greedy player (a noisy one draws
   ``random() < noise`` at each of its decisions, then a uniformly random
   legal action when it is below).  Its score is 1 or 0 for a game won or
   lost, else :func:`evaluate`.
6. Scores are added in rollout order; the best mean wins, a later candidate
   only when its mean is more than ``1e-9`` higher.  An incantation played
   (also one drawn to leave a loop) counts toward this turn's casts.
"""

from __future__ import annotations

from ..base.errors import OptionError
from ..base.limits import fraction, whole_number
from ..base.rng import Rng
from ..engine.actions import Action, Play
from ..engine.legality import legal_actions
from ..engine.loop import returns_asker, run
from ..engine.state import SUMMON, GameState
from ..engine.transition import apply_unchecked
from . import sight
from .greedy import GreedyPolicy, tables


class _NoisyGreedy(GreedyPolicy):
    """Greedy, except that with probability ``noise`` it plays a random legal action."""

    def __init__(self, rng: Rng, noise: float) -> None:
        super().__init__()
        self.rng = rng
        self.noise = noise

    def decide(self, state: GameState, cards=None) -> Action:
        if self.rng.random() < self.noise:
            legal = legal_actions(state)
            return legal[self.rng.randrange(len(legal))]
        return GreedyPolicy.decide(self, state, cards)


class SearchPolicy(GreedyPolicy):
    """Rollouts with ``greedy`` from every candidate play; see the module docstring."""

    name = "search"

    def __init__(self, budget: int = 16, horizon: int = 16, noise: float = 0.1, fair: bool = False) -> None:
        budget = whole_number(budget, "budget", "search: budget", OptionError)
        horizon = whole_number(horizon, "horizon", "search: horizon", OptionError)
        noise = fraction(noise, "noise", "search: noise", OptionError)
        fair = _flag(fair, "fair")
        super().__init__()
        self.budget = budget
        self.horizon = horizon
        self.noise = noise
        self.fair = fair
        self.name = f"search:budget={budget}" + (",fair" if fair else "")
        #: What each player has seen of the opponent's cards in this game (fair search).
        self.sightings = sight.Sightings()
        #: Rollouts played so far (for tests and measurements).
        self.rollouts = 0

    def decide(self, state: GameState, cards=None) -> Action:
        if not self.fair:
            action = self._decide(state, cards, None)
        else:
            player = state.active
            slots = sight.hidden_slots(state, player, self.sightings.of(state, player))
            was = sight.canonical(state, player, slots)
            try:
                action = self._decide(state, cards, slots)
            finally:
                sight.restore(state, player, slots, was)
        if type(action) is Play and action.target is not None:  # an incantation: count it (R5.3)
            self._cast_state, self._cast_turn, self._casts = state, state.turn, self.casts(state) + 1
        return action

    def casts(self, state: GameState) -> int:
        """The incantations this player has cast in this turn of this game."""
        return self._casts if self._cast_state is state and self._cast_turn == state.turn else 0

    def _decide(self, state: GameState, cards, slots: list[int] | None) -> Action:
        """The decision; with ``slots`` (fair search) ``state``'s hidden slots are canonical and
        every rollout samples them."""
        decided, candidates = self.opening(state, cards)
        if decided is not None:
            return decided
        budget = self.budget
        tried = candidates[:budget]
        seed = state.rng.getrandbits(64)
        scores = [0.0] * len(tried)
        counts = [0] * len(tried)
        for k in range(budget if self.spare_rollouts() else len(tried)):
            j = k % len(tried)
            noisy = k >= len(tried)
            scores[j] += self.rollout(state, tried[j], seed + k // len(tried), noisy, slots)
            counts[j] += 1
        return tried[best([scores[j] / counts[j] for j in range(len(tried))])]

    def opening(self, state: GameState, cards=None) -> tuple[Action | None, list]:
        """Steps 2–3: the decision when it is made already — a loop left with a play drawn from
        the game's generator, or a single candidate — else ``None`` and the candidates."""
        legal = legal_actions(state)
        if state.phase == SUMMON and self.leaves_loop(state):
            # The same position again, as greedy would see it: leave the loop.
            return legal[state.rng.randrange(len(legal))], []
        candidates = self.candidates(state, legal, cards)
        return (candidates[0] if len(candidates) == 1 else None), candidates

    def candidates(self, state: GameState, legal, cards=None) -> list:
        """Greedy's choice, moving on, then other plays (incantations on their declared side,
        and none once it has cast ``casts_per_turn`` this turn).

        Greedy's choice is a fresh greedy player's: no loop memory, and the casts it counts
        this turn are this player's."""
        greedy = GreedyPolicy()
        casts = self.casts(state)
        greedy._cast_state, greedy._cast_turn, greedy._casts = state, state.turn, casts
        first = greedy.decide(state, cards)
        out = [first]
        proceed = legal[-1]
        if proceed != first:
            out.append(proceed)
        t = tables(state.cards)
        player = state.active
        hand = state.hands[player]
        for action in legal:
            if type(action) is not Play or action == first:
                continue
            if action.target is not None:
                if casts >= self.casts_per_turn:
                    continue
                card = hand[action.index]
                if t.enemy_side[card] != (action.target[0] != player):
                    continue
            out.append(action)
        return out

    def rollout(self, state: GameState, action, seed: int, noisy: bool, slots: list[int] | None = None) -> float:
        """Play ``action`` on a copy, then one fresh greedy player for both to the horizon with
        the game loop (:func:`~clashkit.engine.loop.run`); 1 if the mover wins.  With ``slots`` (fair
        search) the copy's generator is seeded with ``seed`` and the hidden slots are sampled
        from it first.  (One greedy player for both sides plays as one each would: its memory
        is keyed by the turn, and its positions by the active player.)"""
        self.rollouts += 1
        me = state.active
        sim = state.clone(record=False)
        sim.turn_log = None
        if slots is not None:
            sim.rng.seed(seed)
            sight.sample(sim, me, slots, sim.rng)
        player: GreedyPolicy
        if noisy:
            sim.rng.seed(seed)
            player = _NoisyGreedy(sim.rng, self.noise)
        else:
            player = GreedyPolicy()
        players = (player, player)
        apply_unchecked(sim, action, returns_asker(players))
        run(sim, *players, until_turn=state.turn + self.horizon)
        return self.score(sim, me)

    def spare_rollouts(self) -> bool:
        """Whether rollouts beyond one a candidate replay the candidates with noise (step 4)."""
        return True

    def score(self, state: GameState, player: int) -> float:
        """A rollout's score: 1 or 0 for a game won or lost, else :func:`evaluate`."""
        if state.winner is not None:
            return 1.0 if state.winner == player else 0.0
        return evaluate(state, player)


def best(values) -> int:
    """Step 6: the index of the best value, a later one only when more than ``1e-9`` higher (ties
    go to the earlier candidate: greedy's choice first)."""
    found = 0
    for j in range(1, len(values)):
        if values[j] > values[found] + 1e-9:
            found = j
    return found


def _flag(value, name: str) -> bool:
    """An on/off option as written on the command line (``fair``, ``fair=true``, ``fair=0``)."""
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "yes", "on"):
        return True
    if text in ("false", "no", "off"):
        return False
    raise TypeError(f"{name} must be true or false, not {value!r}")


def life(state: GameState, player: int) -> int:
    """How many more points of damage ``player`` can take: hand-health, plus the cards
    a Bastion still protects (the Fort's hand-health when it flips, R4.8)."""
    health = state.hand_health(player)
    if state.solo and player == 1:  # R8.6, R8.7: the AI pile above its keep, and the discard a Bastion reshuffles
        return health + (0 if state.forts[1] else len(state.discard))
    hand = state.hands[player]
    if not state.forts[player]:
        health += len(hand) - 1
    return health


def evaluate(state: GameState, player: int) -> float:
    """A running game's worth to ``player`` in (0, 1): the share of the life left that is theirs."""
    mine = life(state, player) + 1
    theirs = life(state, 1 - player) + 1
    return mine / (mine + theirs)


__all__ = ["SearchPolicy", "best", "evaluate", "life"]
