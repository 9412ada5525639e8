"""Clash of Decks as a PettingZoo AEC environment (``clashkit.pettingzoo.env(...)``).

Agents ``"A"`` and ``"B"`` (in solo only ``"A"``: the AI plays itself, R8.3).
An agent is selected when it has a choice, as in clashkit's game loop
(:class:`~clashkit.interop.match.Match`); the turn moves on by itself between
choices.  Each agent observes a ``Dict`` of

- ``"observation"``: its fair view as a flat ``float32`` vector
  (:func:`clashkit.interop.encoding.observation_vector`, its own side first);
- ``"action_mask"``: ``int8`` of length ``num_actions``, 1 for each legal action
  of the agent to act (all 0 for the other agent).

The action space is ``Discrete(num_actions)``, the integers of
:mod:`clashkit.interop.encoding` (clashkit's legal actions in clashkit's order).
Rewards come at the end: +1 to the winner, −1 to the loser; a game stopped by
the turn limit (R10.1) is a truncation with 0 to each.

``reset(seed=s)`` deals the game :func:`clashkit.runs.game.new_game` deals with
seed ``s`` (R10.2); ``reset()`` without a seed deals the next seed after the
last one (from 0).  ``render_mode="ansi"``: :meth:`ClashEnv.render` returns the
board as text (:func:`clashkit.show.render.describe_state`), the whole table as a
spectator sees it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..base.cards import CardSet
from ..base.errors import InputError
from ..base.limits import check, shown
from ..base.rules import Rules
from ..base.vocab import PLAYERS
from ..show.render import describe_state
from . import encoding
from .chance import Setup
from .match import Match, legal_text

RENDER_MODES = ("ansi",)


class ClashEnv(AECEnv):
    """The AEC environment; see the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "clash_of_decks_v0", "is_parallelizable": False}

    def __init__(
        self,
        deck_a: str | int = 1,
        deck_b: str | int = 2,
        *,
        mode: str = "duel",
        cards: str | CardSet | None = None,
        rules: Rules | Mapping[str, Any] | None = None,
        mirror: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode {render_mode!r}: the environment renders 'ansi' only")
        self.render_mode = render_mode
        self.setup = Setup.build(deck_a, deck_b, mode=mode, cards=cards, rules=rules, mirror=mirror)
        self.table = self.setup.table
        self.possible_agents = ["A"] if self.setup.solo else ["A", "B"]
        self.agents = self.possible_agents[:]
        n = self.table.num_actions
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape=(self.table.vector_size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._seed: int | None = None
        self.match: Match | None = None

    # --- Spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # --- The episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game dealt with ``seed`` (R10.2: a whole number 0 … 2**64 − 1, as gymnasium's
        seeds are whole and not negative), or with the last seed plus one."""
        if seed is not None:
            seed = check("seed", seed, f"reset(seed={shown(seed)})")
        self._seed = seed if seed is not None else (0 if self._seed is None else (self._seed + 1) % 2**64)
        setup = dataclasses.replace(self.setup, seed=self._seed)
        self.match = Match(self.table, setup.start(setup.outcomes_for_seed()))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        if action is None or isinstance(action, bool) or not hasattr(action, "__index__") or action not in match.ids:
            raise InputError(f"action {shown(action)} is not legal for {agent} now ({legal_text(match.ids)})")
        self._cumulative_rewards[agent] = 0.0
        match.apply(int(action))
        self._settle()

    def _settle(self) -> None:
        """After a reset or a step: the agent to act, or the end of the game and its rewards."""
        match = self._match()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if match.over:
            returns = match.returns()
            for agent in self.agents:
                self.rewards[agent] = returns[PLAYERS.index(agent)] if agent in ("A", "B") else 0.0
            finished = match.state.winner is not None
            self.terminations = dict.fromkeys(self.agents, finished)
            self.truncations = dict.fromkeys(self.agents, not finished)
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = PLAYERS[match.state.active].value

    # --- What an agent sees ---------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        match = self._match()
        player = PLAYERS.index(agent)
        mask = np.zeros(self.table.num_actions, dtype=np.int8)
        if match.to_act == player:
            mask[match.ids] = 1
        vector = encoding.observation_vector(self.table, match.state, player, match.seen[player])
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return describe_state(self._match().state)

    def close(self) -> None:
        pass

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match


def env(deck_a: str | int = 1, deck_b: str | int = 2, **options: Any) -> ClashEnv:
    """A Clash of Decks AEC environment: decks as ``clashkit simulate --a/--b`` take them (a
    starter deck ``1``–``4`` or 8 card names), ``mode`` (``duel``/``solo``), ``cards``,
    ``rules`` (a :class:`~clashkit.base.rules.Rules` or a mapping of R10.3's options),
    ``mirror``, ``render_mode`` (``"ansi"``)."""
    return ClashEnv(deck_a, deck_b, **options)


__all__ = ["ClashEnv", "env"]
