"""The batched environments as a Gymnasium vector environment.

``VectorGame(SPEC, N)`` is a ``gymnasium.vector.VectorEnv`` over :class:`ludoteca.vector.VectorEnv`:
observations are dicts ``{"observation": float32 (N, planes, points), "action_mask": int8 (N,
actions)}``, actions one integer a game, and the reward of each game is that of the player who
just acted (+1 won, -1 lost, 0 otherwise); ``infos["to_play"]`` says who acts next and
``infos["rewards"]`` gives both colours'.  Games that end start again in the same step
(``autoreset_mode`` ``SAME_STEP``).  Requires ``gymnasium`` (``pip install ludoteca[research]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..vector import VectorEnv as Batch

__all__ = ["VectorGame"]


class VectorGame(VectorEnv):
    """``num_envs`` games of the rule set ``spec`` as a Gymnasium vector environment (the
    keyword options are :class:`ludoteca.vector.VectorEnv`'s)."""

    def __init__(self, spec: str, num_envs: int, **options: Any) -> None:
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.batch = Batch(spec, num_envs, **options)
        self.num_envs = num_envs
        shape = self.batch.observation_shape
        actions = self.batch.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, mask = self.batch.reset(0 if seed is None else seed)
        return self._observe(obs, mask), {"to_play": self.batch.to_play}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actor = self.batch.to_play
        obs, mask, rewards, terminated, truncated = self.batch.step(actions)
        infos = {"to_play": self.batch.to_play, "rewards": rewards.copy()}
        mine = rewards[self._rows, actor]
        return self._observe(obs, mask), mine, terminated.copy(), truncated.copy(), infos

    def _observe(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs.copy(), "action_mask": mask.astype(np.int8)}

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()
