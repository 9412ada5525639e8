"""OpenSpiel's search bots as a clashkit policy: ``openspiel:ismcts`` and ``openspiel:mcts``.

The policy plays in clashkit's own game loop, so the ladder, ``simulate`` and
the notebooks rate it beside ``greedy`` and ``search:fair``.  At each decision
it copies the clashkit state into a ``python_clash_of_decks`` state
(:meth:`~clashkit.interop.openspiel_game.ClashGame.state_from`), with the
hidden slots written in card-id order first (:func:`clashkit.policies.sight.canonical`),
so what it starts from is a function of what the acting player can know, and
asks the bot:

- ``ismcts`` (the default): ``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
  information-set MCTS (Cowling, Powley and Whitehouse 2012): every
  simulation starts from a fresh world drawn by
  :meth:`~clashkit.interop.openspiel_game.ClashState.resample_from_infostate`,
  and the tree is keyed by information-state strings;
- ``mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on one sampled world
  (a single determinization, so it is fair but assumes it knows the hidden
  order it sampled).

``budget`` is the number of simulations per decision (default 32).  The leaf
evaluator is ``greedy`` (the default: clashkit's greedy plays both sides for
``horizon`` turns, 4 by default, from the leaf; a win is +1, a loss −1, a
running game :func:`clashkit.policies.search.evaluate` scaled to −1…+1), or
``random`` (OpenSpiel's ``RandomRolloutEvaluator``: uniformly random play to
the end of the game, slow on a game this long).  The bot's generator is
seeded from the game's (R10.2), so the same seed gives the same game.
Registered as the ``openspiel`` policy through the ``clashkit.policies`` entry
point (``pyproject.toml``), so the policies layer never imports this one.
Format choices (draft picks, bans, R4.6 returns) are the base policy's.
"""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..base.errors import OptionError
from ..base.limits import whole_number
from ..base.vocab import KEEP
from ..engine.actions import Action
from ..engine.loop import run
from ..engine.state import GameState
from ..policies import Policy, sight
from ..policies.greedy import GreedyPolicy
from ..policies.search import evaluate
from .chance import Setup
from .openspiel_game import ClashGame, ClashState

#: UCT's exploration constant, for returns in −1…+1 (OpenSpiel's examples use 2).
UCT_C = 2.0
EVALUATORS = ("greedy", "random")


class GreedyEvaluator(mcts.Evaluator):
    """A leaf's value: clashkit's greedy for both players ``horizon`` turns on, then the life
    share (:func:`clashkit.policies.search.evaluate`) as −1…+1; a uniform prior."""

    def __init__(self, horizon: int = 4) -> None:
        self.horizon = horizon

    def evaluate(self, state: ClashState) -> np.ndarray:
        game_state = state.game_state
        if game_state is None:
            return np.zeros(2)
        sim = game_state.clone(record=False)
        sim.turn_log = None
        player = GreedyPolicy()
        run(sim, player, player, until_turn=sim.turn + self.horizon)
        if sim.winner is not None:
            value = 1.0 if sim.winner == 0 else -1.0
        else:
            value = 2.0 * evaluate(sim, 0) - 1.0
        return np.array([value, -value])

    def prior(self, state: ClashState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class OpenSpielPolicy(Policy):
    """OpenSpiel's IS-MCTS (or MCTS) bot deciding for clashkit; see the module docstring."""

    name = "openspiel"

    def __init__(
        self,
        ismcts: bool = False,
        mcts: bool = False,
        budget: int = 32,
        evaluator: str = "greedy",
        horizon: int = 4,
    ) -> None:
        ismcts, mcts = _flag(ismcts, "ismcts"), _flag(mcts, "mcts")
        if ismcts and mcts:
            raise OptionError("openspiel: name one bot, ismcts or mcts")
        budget = whole_number(budget, "budget", "openspiel: budget", OptionError)
        horizon = whole_number(horizon, "horizon", "openspiel: horizon", OptionError)
        if evaluator not in EVALUATORS:
            raise OptionError(f"openspiel: evaluator {evaluator!r} is not one of {', '.join(EVALUATORS)}")
        self.bot = "mcts" if mcts else "ismcts"
        self.budget = budget
        self.evaluator = evaluator
        self.horizon = horizon
        extra = "" if evaluator == "greedy" else f",evaluator={evaluator}"
        extra += "" if horizon == 4 or evaluator != "greedy" else f",horizon={horizon}"
        self.name = f"openspiel:{self.bot},budget={budget}{extra}"
        self.sightings = sight.Sightings()
        self._games: dict[tuple, ClashGame] = {}

    def decide(self, state: GameState, cards=None) -> Action:
        player = state.active
        seen = (self.sightings.of(state, 0), self.sightings.of(state, 1))
        root = self._game(state).state_from(state, seen)
        copy = root.game_state
        assert copy is not None
        sight.canonical(copy, player, sight.hidden_slots(copy, player, seen[player]))
        root.forget_texts()
        random_state = np.random.RandomState(state.rng.getrandbits(32))
        legal = root.legal_actions()
        if len(legal) == 1:
            return root.clashkit_action(legal[0])
        leaf = (
            GreedyEvaluator(self.horizon)
            if self.evaluator == "greedy"
            else mcts.RandomRolloutEvaluator(1, random_state)
        )
        if self.bot == "ismcts":
            searcher = ismcts.ISMCTSBot(root.get_game(), leaf, UCT_C, self.budget, random_state=random_state)
            # worlds drawn from the bot's generator (OpenSpiel's default sampler seeds itself)
            searcher.set_resampler(lambda s, p: s.resample_from_infostate(p, random_state.uniform))
            action = searcher.step(root)
        else:
            world = root.resample_from_infostate(player, random_state.uniform)
            bot = mcts.MCTSBot(root.get_game(), UCT_C, self.budget, leaf, solve=False, random_state=random_state)
            action = bot.step(world)
        return root.clashkit_action(int(action))

    def _game(self, state: GameState) -> ClashGame:
        """The OpenSpiel game of this state's card set, rules and mode (made once)."""
        owned = [_owned(state, 0), _owned(state, 1)]
        key = (id(state.cards), state.rules, state.solo, max(len(owned[0]), len(owned[1])))
        game = self._games.get(key)
        if game is None:
            setup = Setup(state.cards, state.rules, state.solo, tuple(owned[0]), tuple(owned[1]))
            game = self._games[key] = ClashGame(setup=setup)
        return game


def _owned(state: GameState, player: int) -> list[int]:
    """The cards ``player`` owns in this game: hand (or AI pile and discard) and creatures in play."""
    if state.solo and player == 1:
        held = [c for c in state.pile if c != KEEP] + list(state.discard)
    else:
        held = [c for c in state.hands[player] if c != KEEP]
    return held + [creature.card for lane in state.lanes[player] for creature in lane]


def _flag(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise OptionError(f"openspiel: {name} must be true or false, not {value!r}")


__all__ = ["EVALUATORS", "GreedyEvaluator", "OpenSpielPolicy"]
