"""Our games as PettingZoo AEC environments, for multi-agent reinforcement learning.

``env(NAME, rules=SPEC)`` returns an environment for a registered game, with agents ``"white"``
and ``"black"``; actions are the engine's integer actions (one per move, or one a step of a
move made in steps, a capture chain's leaps or a mill and its removal: the same agent acts
again until the move is complete).  Observations are dicts
``{"observation": float32 planes x points, "action_mask": int8 per action}``; the planes are the
engine's features plus a side-to-move plane.  Rewards come at the end: +1 / -1, 0 for a draw
(the engine's own draw rules end games, so nothing is truncated).  An illegal action raises
``ValueError`` and changes nothing.  The game is stepped by its compiled kernel
(:class:`~.actions.ActionCursor`).

Requires the optional ``pettingzoo`` package (``pip install ludoteca[research]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import Color
from ..games import load
from .actions import ActionCursor

__all__ = ["LudotecaEnv", "env"]

AGENTS = ["white", "black"]


class LudotecaEnv(AECEnv):  # type: ignore[misc]
    """One game of a Ludoteca rule set as an agent-environment-cycle environment."""

    def __init__(
        self,
        game: str,
        rules: str | None = None,
        position: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = load(game, rules)
        self.rules = self.game.rules
        self.position = position
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"ludoteca_{self.game.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = list(AGENTS)
        probe = ActionCursor(self._start(None))
        self.num_actions = self.game.num_distinct_actions
        shape = probe.observation().shape
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in AGENTS}
        self.cursor = probe

    def _start(self, seed: int | None) -> Any:
        if self.position:
            return self.game.from_position_code(self.position)
        return self.game.new(seed=seed)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (``seed`` chooses a random setup where the game has one)."""
        self.cursor = ActionCursor(self._start(seed))
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[int(self.cursor.engine.turn)]
        self._finish_if_over()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask[self.cursor.legal_actions()] = 1
        return {
            "observation": self.cursor.observation(),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("the agent to act must give an action while the game goes on")
        self.cursor.apply(int(action))  # ValueError, and no change, if illegal
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in AGENTS}
        self.agent_selection = AGENTS[self.cursor.turn]
        self._finish_if_over()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _finish_if_over(self) -> None:
        if self.cursor.is_over():
            returns = self.cursor.returns()
            for colour in Color:
                self.rewards[AGENTS[colour]] = returns[colour]
                self.terminations[AGENTS[colour]] = True
            outcome = self.cursor.engine.outcome()
            for agent in AGENTS:
                self.infos[agent] = {"outcome": outcome.explain() if outcome else ""}

    def render(self) -> str:
        return str(self.cursor.engine)

    def close(self) -> None:
        pass


def env(
    game: str, rules: str | None = None, position: str | None = None, render_mode: str | None = None
) -> LudotecaEnv:
    """The environment of a game (and rule set, and optional start position)."""
    return LudotecaEnv(game, rules, position, render_mode)
