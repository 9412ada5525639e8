"""``python_clash_of_decks``: Clash of Decks as an OpenSpiel game (``import clashkit.openspiel``).

**Parameters** (all optional): ``deck_a``, ``deck_b`` (starter decks ``1``–``4``,
R7.1) or ``names_a``, ``names_b`` (8 card names joined by ``+``), ``mode``
(``duel`` or ``solo``; in solo B is the AI, R8, and deck B is unused),
``cards`` (a card file, ``docs/cards.md``; empty: the shipped set),
``mirror`` (the same starter deck twice), ``seed`` (clashkit's generator,
R10.2), and each rules option of R10.3–R10.4 and solo setting of R8.9 under
its own name (``turn_limit=30``, ``protection=first_damage``,
``ai_fixed_mana=8``; ``ai_ability=none``), so that a game string such as
``python_clash_of_decks(deck_a=3,deck_b=4,turn_limit=50)`` names a game.

**Players and decisions.**  Player 0 is A, player 1 is B.  A decision node is
a state where the active player has a choice — some card it may play — as in
clashkit's game loop (:func:`clashkit.engine.loop.run`); the rest of the turn
moves on by itself (beginning the siege, attacks, the end of a turn, the solo
AI's turns, R8.3), so a game has no node with a single legal action.  The
legal actions are :func:`~clashkit.engine.legality.legal_actions` one to one,
in clashkit's order, numbered as :mod:`clashkit.interop.encoding` says.  R4.6
(the owner orders creatures destroyed together) keeps its default order.
In solo, player 1 (the AI) never acts; returns are still ``(+1, −1)`` or
``(−1, +1)``, and ``(0, 0)`` for a game stopped by the turn limit (R10.1).

**Chance: explicit chance nodes** (:mod:`clashkit.interop.chance`): the deal
and the coin are the whole of a duel's randomness, so writing them as chance
nodes makes the game tree exact — what CFR-style solvers, exact expected
values and OpenSpiel's information-set search need — at the cost of
8 + 8 + 1 chance nodes per game.  A sampled-stochastic game would hide them in
a generator and gain nothing.  The solo AI's reshuffle (R8.7) happens inside an
AI turn, so it stays a draw from the game's generator (seeded by ``seed``),
and :meth:`ClashState.resample_from_infostate` reseeds it.
:func:`deal_as_clashkit` plays the chance nodes as clashkit's setup draws them
with the game's ``seed``: from there the same decisions give the same game as
:func:`clashkit.runs.game.new_game`.

**Information.**  Strings and tensors hold the player's fair view
(:mod:`clashkit.policies.sight`, :mod:`clashkit.interop.encoding`): the
observation is the position as the player sees it; the information state adds
the player's own deal and every move so far (every move is public, R3.3), so
it has perfect recall.  The information-state tensor is the observation
tensor: the fair view of the position, which is everything the history tells
about the hidden cards (their set, and the places of the ones seen).

**Serialization** is OpenSpiel's own: the game's parameters and the history
(chance outcomes included) replay to the same state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..base.errors import ClashkitError, InputError
from ..base.limits import shown
from ..base.rng import Rng
from ..base.rules import Rules, SoloSettings
from ..base.vocab import PLAYERS
from ..engine.state import GameState
from ..policies import sight
from . import encoding
from .chance import Setup
from .encoding import Table
from .match import Match, legal_text, whole

NAME = "python_clash_of_decks"
#: R10.1 and R3: at most this many decisions in one turn (plays, and moving on between them).
_DECISIONS_PER_TURN = 64

#: The rules options (R10.3, R10.4) and the solo AI's settings (R8.9), each a parameter.
RULES_DEFAULTS: dict[str, Any] = {
    f.name: getattr(Rules(), f.name) for f in dataclasses.fields(Rules) if f.name != "solo"
}
SOLO_DEFAULTS: dict[str, Any] = {
    f.name: "none" if getattr(SoloSettings(), f.name) is None else getattr(SoloSettings(), f.name)
    for f in dataclasses.fields(SoloSettings)
}
DEFAULTS: dict[str, Any] = {
    "deck_a": 1,
    "deck_b": 2,
    "names_a": "",
    "names_b": "",
    "mode": "duel",
    "cards": "",
    "mirror": False,
    "seed": 0,
    **RULES_DEFAULTS,
    **SOLO_DEFAULTS,
}

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Clash of Decks",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def setup_of(params: Mapping[str, Any]) -> Setup:
    """The checked :class:`~clashkit.interop.chance.Setup` of a parameter dict (see the module docstring)."""
    p = {**DEFAULTS, **params}
    solo = SoloSettings.from_mapping({k: p[k] for k in SOLO_DEFAULTS}, where="parameters")
    rules = Rules.from_mapping({k: p[k] for k in RULES_DEFAULTS}, where="parameters").replace(solo=solo)
    return Setup.build(
        p["names_a"] or p["deck_a"],
        p["names_b"] or p["deck_b"],
        mode=p["mode"],
        cards=p["cards"] or None,
        rules=rules,
        seed=int(p["seed"]),
        mirror=bool(p["mirror"]),
    )


class ClashGame(pyspiel.Game):
    """The game: its :class:`~clashkit.interop.chance.Setup` and :class:`~clashkit.interop.encoding.Table`."""

    def __init__(self, params: Mapping[str, Any] | None = None, *, setup: Setup | None = None) -> None:
        """From OpenSpiel's parameters, or (for bots playing in clashkit's loop) from a
        :class:`~clashkit.interop.chance.Setup` made from a game in play."""
        params = {**DEFAULTS, **(params or {})}
        try:
            self.setup = setup if setup is not None else setup_of(params)
        except ClashkitError as e:
            raise ValueError(f"{NAME}: {e}") from None
        self.table = self.setup.table
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=max(len(self.setup.cards), 2),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.setup.rules.turn_limit * _DECISIONS_PER_TURN,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> ClashState:
        return ClashState(self)

    def state_from(self, state: GameState, seen: tuple[set[int], set[int]] | None = None) -> ClashState:
        """A decision node holding a copy of a clashkit state in play (for bots playing in
        clashkit's loop); ``seen``: what each player has seen of the other's cards.  Its
        history starts there: the deal is behind it."""
        out = ClashState(self)
        copy = state.clone(record=False)
        copy.turn_log = None
        out._c.match = Match(self.table, copy, seen)
        return out

    def make_py_observer(self, iig_obs_type=None, params=None) -> ClashObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ClashObserver(self.table, perfect_recall)


class ClashState(pyspiel.State):
    """A state: the chance outcomes drawn, then the game in play (a :class:`~clashkit.interop.match.Match`)."""

    def __init__(self, game: ClashGame) -> None:
        super().__init__(game)
        self._c = _Core(game.setup, game.table)

    # --- Reading it ---------------------------------------------------------------------

    @property
    def game_state(self) -> GameState | None:
        """The clashkit state (``None`` while the deal is drawn); read it, do not change it."""
        match = self._c.match
        return match.state if match is not None else None

    def seen(self, player: int) -> set[int]:
        """The opponent's cards ``player`` has seen played or in play (a copy)."""
        match = self._c.match
        return set(match.seen[player]) if match is not None else set()

    def current_player(self) -> int:
        match = self._c.match
        if match is None:
            return pyspiel.PlayerId.CHANCE
        if match.over:
            return pyspiel.PlayerId.TERMINAL
        return match.state.active

    def is_terminal(self) -> bool:
        return self._c.match is not None and self._c.match.over

    def returns(self) -> list[float]:
        match = self._c.match
        return list(match.returns()) if match is not None else [0.0, 0.0]

    def _legal_actions(self, player: int) -> list[int]:
        match = self._c.match
        return list(match.ids) if match is not None and player == match.to_act else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._c.setup.outcomes(self._c.drawn)

    def clashkit_action(self, action: int):
        """The clashkit :class:`~clashkit.engine.actions.Action` a legal integer stands for."""
        if self._c.match is None:
            raise InputError("the deal is still being drawn: a chance outcome is no clashkit action")
        return self._c.match.action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        match = self._c.match
        if player == pyspiel.PlayerId.CHANCE or match is None:
            return self._c.setup.describe(len(self._c.drawn), action)
        if action in match.ids:
            return str(match.action(action))
        return str(encoding.action_of(self._c.table, match.state, action))

    def __str__(self) -> str:
        from ..show.render import describe_state

        if self._c.match is None:
            return "dealing: " + ", ".join(self._c.setup.describe(i, c) for i, c in enumerate(self._c.drawn))
        return describe_state(self._c.match.state)

    # --- Changing it ----------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        core = self._c
        if core.match is None:
            outcomes = [outcome for outcome, _ in core.setup.outcomes(core.drawn)]
            if whole(action, "chance outcome") not in outcomes:
                raise InputError(f"chance outcome {shown(action)} does not exist now ({legal_text(outcomes)})")
            core.drawn.append(int(action))
            if len(core.drawn) == core.setup.draws:
                core.match = Match(core.table, core.setup.start(core.drawn))
            return
        core.match.apply(action)

    def forget_texts(self) -> None:
        """Drop the strings written for this position (after changing its clashkit state in place)."""
        if self._c.match is not None:
            self._c.match.texts = {}

    def resample_from_infostate(self, player_id: int, probability_sampler) -> ClashState:
        """A state ``player_id`` cannot tell from this one: the hidden slots of the opponent's
        row (its hand's unseen cards, or the solo AI pile) shuffled, the generator of the solo
        AI's reshuffles (R8.7) reseeded, both from ``probability_sampler``.  The history is
        this state's (its chance outcomes are those of the world sampled from)."""
        out = self.clone()
        rng = Rng(int(probability_sampler() * 2**62))
        core = out._c
        if core.match is None:  # still dealing: the other player's draws so far
            mine = len(core.setup.deck_a)
            lo, hi = (mine, len(core.drawn)) if player_id == 0 else (0, min(mine, len(core.drawn)))
            part = core.drawn[lo:hi]
            rng.shuffle(part)
            core.drawn[lo:hi] = part
            return out
        gs = core.match.state
        core.match.texts = {}  # the opponent's own view changes with its hand
        if not (gs.solo and player_id == 1):
            slots = encoding.hidden_slots(gs, player_id, core.match.seen[player_id])
            sight.sample(gs, player_id, slots, rng)
        gs.rng.seed(rng.getrandbits(63))
        return out


class _Core:
    """What a :class:`ClashState` holds, copied cheaply when OpenSpiel clones the state (the
    card set, the rules and the setup are shared, the game in play copied)."""

    __slots__ = ("setup", "table", "drawn", "match")

    def __init__(self, setup: Setup, table: Table) -> None:
        self.setup = setup
        self.table = table
        self.drawn: list[int] = []
        self.match: Match | None = None

    def __deepcopy__(self, memo) -> _Core:
        other = _Core(self.setup, self.table)
        other.drawn = list(self.drawn)
        other.match = self.match.copy() if self.match is not None else None
        return other


class ClashObserver:
    """OpenSpiel's observer: the fair view (:func:`clashkit.interop.encoding.observation_text`,
    :func:`~clashkit.interop.encoding.observation_vector`); with perfect recall the string
    adds the player's own deal and every move so far."""

    def __init__(self, table: Table, perfect_recall: bool) -> None:
        self.table = table
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(table.vector_size, dtype=np.float32)
        self.dict = table.views(self.tensor)

    def set_from(self, state: ClashState, player: int) -> None:
        match = state._c.match
        if match is None:
            self.tensor[:] = 0.0
            return
        encoding.fill_vector(self.table, match.state, player, match.seen[player], self.tensor)

    def string_from(self, state: ClashState, player: int) -> str:
        setup = state._c.setup
        n_a = len(setup.deck_a)
        mine = state._c.drawn[:n_a] if player == 0 else state._c.drawn[n_a : n_a + len(setup.deck_b)]
        match = state._c.match
        if match is None:
            dealt = " ".join(setup.cards.names[c] for c in mine) if (player == 0 or not setup.solo) else ""
            return f"you are {PLAYERS[player].value}; dealing; your cards so far: {dealt or '-'}"
        key = (player, self.perfect_recall)
        text = match.texts.get(key)
        if text is None:
            text = encoding.observation_text(match.state, player, match.seen[player])
            if self.perfect_recall:
                deal = " ".join(setup.cards.names[c] for c in mine) if (player == 0 or not setup.solo) else "-"
                text += f"\nyour deal: {deal or '-'}\nmoves: {'; '.join(match.moves) or '-'}"
            match.texts[key] = text
        return text


def deal_as_clashkit(state: ClashState) -> ClashState:
    """Play ``state``'s remaining chance nodes as clashkit's setup draws them with the game's
    ``seed`` (R10.2); returns ``state``."""
    outcomes = state._c.setup.outcomes_for_seed()
    while state.is_chance_node():
        state.apply_action(outcomes[len(state._c.drawn)])
    return state


def register() -> None:
    """Register ``python_clash_of_decks`` with pyspiel (once; importing the module does it)."""
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, ClashGame)


register()

__all__ = ["GAME_TYPE", "NAME", "ClashGame", "ClashObserver", "ClashState", "deal_as_clashkit", "register"]
