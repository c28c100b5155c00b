"""Batched environments: N games of one rule set stepped together by its compiled kernel.

>>> env = VectorEnv("felli", 4)
>>> obs, mask = env.reset(seed=1)
>>> obs.shape, mask.shape
((4, 5, 13), (4, 169))
>>> obs, mask, rewards, terminated, truncated = env.step(env.random_actions())

Actions are the adapters' integer actions (``State.action_path``: one per move, one a step of a
move made in steps, a capture chain's leaps or a mill and its removal, the same player acting
again until the move is complete), below ``Game.num_distinct_actions``; ``mask[i, a]`` is true
for the legal next actions of game ``i``.  Observations are the game's ``planes`` and a
side-to-move plane (1 where White is to move), by points, as float32 (within a move made in
steps, the position before it).  ``rewards[i]`` is indexed by
colour (White 0, Black 1): +1 to the winner and -1 to the loser on the step that ends a game,
0 otherwise (draws, and games stopped at ``max_plies``: ``truncated``); ``to_play`` says who
acts next.  A game that ends starts again at once (the returned observation and mask are then
the new game's), from a setup drawn by its generator among :attr:`VectorEnv.setups`.  The
draw rules are the engine's (threefold repetition included).  Everything is deterministic
under the seed of :meth:`~VectorEnv.reset`, whatever ``threads``.

The returned arrays are the environment's own, overwritten by the next call (copy to keep).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .core import State
from .games import load

__all__ = ["VectorEnv"]

IntArray = npt.NDArray[np.int64]


class VectorEnv:
    """``num_envs`` games of the rule set ``spec`` (a name or ``name:settings`` spec) stepped by
    its kernel in ``threads`` shares on numba's threads; games start from up to ``setups``
    setups a seed (one for a game whose start does not depend on the seed) and stop at
    ``max_plies`` (default: the game's ``longest_game``)."""

    def __init__(
        self,
        spec: str,
        num_envs: int,
        *,
        threads: int = 1,
        setups: int = 128,
        max_plies: int | None = None,
    ) -> None:
        from .compiled import batch, kernel

        self._batch = batch
        self._turn = kernel.TURN
        self.game = load(spec)
        self.layout = batch.layout(self.game, max_plies, masked=True)
        self.num_envs = num_envs
        self.num_actions = self.layout.actions
        self.max_plies = int(self.layout.cfg[batch.C_MAXPLY])
        self.observation_shape = (self.layout.planes, self.layout.points)
        self._setups = setups
        self.setups: list[State] = []
        self._games = self.layout.games(num_envs)
        self._packed = self._games.packed()  # as the compiled functions take it
        self._obs = self._games.obs.reshape(num_envs, *self.observation_shape)
        shares = max(1, min(threads, num_envs))
        self._bounds = np.linspace(0, num_envs, shares + 1).astype(np.int64)

    def reset(self, seed: int = 0) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """New games in every slot, their setups and generators drawn from ``seed``."""
        streams = np.random.SeedSequence(seed).generate_state(
            self.num_envs + self._setups, "uint64"
        )
        self.setups = self._draw_setups([int(s) for s in streams[self.num_envs :]])
        starts = np.array([self.layout.kernel.pack(s) for s in self.setups])
        games = self._games = self._games._replace(starts=starts)
        self._packed = games.packed()
        games.rows[:, self._batch.R_RNG] = streams[: self.num_envs].view(np.int64)
        games.mask.fill(False)
        if self._bounds.size > 2:
            self.layout.code.batch_reset_split(self._packed, self._bounds)
        else:
            self.layout.code.batch_reset(self._packed, 0, self.num_envs)
        return self._obs, games.mask

    def _draw_setups(self, seeds: list[int]) -> list[State]:
        first, second = (self.game.new(seed=s) for s in seeds[:2])
        if first.position_code() == second.position_code():
            return [first]
        return [first, second, *(self.game.new(seed=s) for s in seeds[2:])]

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Take one action in every game: ``obs, mask, rewards, terminated, truncated``.
        ``ValueError`` (and nothing changes) if an action is not legal in its game."""
        chosen = np.ascontiguousarray(actions, dtype=np.int64)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step takes {self.num_envs} actions, not an array of {chosen.shape}")
        games, code = self._games, self.layout.code
        if self._bounds.size > 2:
            bad = int(code.batch_step_split(self._packed, chosen, self._bounds))
        else:
            bad = int(code.batch_step(self._packed, chosen, 0, self.num_envs))
        if bad >= 0:
            raise ValueError(f"action {int(chosen[bad])} is not legal in game {bad}")
        return self._obs, games.mask, games.rewards, games.terminated, games.truncated

    def random_actions(self) -> IntArray:
        """A uniformly random legal action in every game, drawn by the last step (or reset)
        from the games' generators: the same array until the next step."""
        return self._games.draws

    @property
    def to_play(self) -> IntArray:
        """The colour to act in each game (White 0, Black 1)."""
        return self._games.rows[:, self._turn].copy()

    @property
    def setup(self) -> IntArray:
        """Each game's setup (an index into :attr:`setups`)."""
        return self._games.rows[:, self._batch.R_SETUP].copy()

    @property
    def plies(self) -> IntArray:
        """The plies played in each game so far."""
        return self._games.rows[:, self._batch.R_PLY].copy()

    def close(self) -> None:
        """Step on the calling thread alone from now on (numba's threads stay for others)."""
        self._bounds = self._bounds[[0, -1]]
