"""The batched environments against the readable engine, step by step.

:func:`follow` steps a :class:`ludoteca.vector.VectorEnv` with seeded actions and follows every
slot's game in the engine alongside: at every step each slot's mask must be the engine's next
actions (from its legal moves' action paths and the actions already taken), its observation
the engine's planes and the side to move, and a move completed by an action the engine's move
with that path; a game must end (``terminated``, with the engine's winner rewarded) exactly
when the engine's does, or be ``truncated`` exactly at the ply limit, and the slot's next game
must start from its reported setup.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ludoteca.core import Color, State
from ludoteca.vector import VectorEnv


class Shadow:
    """One slot's game in the engine: the state and the actions taken of a move in progress."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.start_ply = state.ply
        self.prefix: tuple[int, ...] = ()

    def next_actions(self) -> list[int]:
        n = len(self.prefix)
        paths = (self.state.action_path(c) for c in self.state.legal_codes())
        return sorted({p[n] for p in paths if p[:n] == self.prefix})

    def observation(self) -> np.ndarray:
        planes = self.state.planes()
        side = float(self.state.turn is Color.WHITE)
        return np.array([*planes, [side] * len(planes[0])], dtype=np.float32)

    def take(self, action: int) -> bool:
        """Take ``action``; True when it completed a move (pushed in the engine)."""
        prefix = (*self.prefix, action)
        for code in self.state.legal_codes():
            if self.state.action_path(code) == prefix:
                self.state.push_code(code)
                self.prefix = ()
                return True
        self.prefix = prefix
        return False


def _agree(env: VectorEnv, shadows: list[Shadow], obs: np.ndarray, mask: np.ndarray) -> None:
    turns = env.to_play
    for i, shadow in enumerate(shadows):
        assert np.flatnonzero(mask[i]).tolist() == shadow.next_actions(), _where(i, shadow)
        assert np.array_equal(obs[i], shadow.observation()), _where(i, shadow)
        assert turns[i] == int(shadow.state.turn), _where(i, shadow)


def _where(i: int, shadow: Shadow) -> str:
    return f"slot {i} at {shadow.state.position_code()} after {shadow.prefix}"


def follow(
    spec: str, games: int, envs: int = 16, seed: int = 0, policy: str = "random", **options: int
) -> tuple[Counter[str], int]:
    """Step ``envs`` slots of ``spec`` until ``games`` games have ended, checking every step
    against the engine; how the games ended (the engine's terminations, and ``"truncated"``)
    and the steps taken.  ``policy`` ``"random"`` takes
    the environment's own random actions, ``"numpy"`` actions drawn by a numpy generator from
    the mask (a policy outside the environment)."""
    env = VectorEnv(spec, envs, **options)
    limit = env.max_plies
    obs, mask = env.reset(seed)
    shadows = [Shadow(env.setups[s].copy()) for s in env.setup]
    _agree(env, shadows, obs, mask)
    rng = np.random.default_rng(seed)
    ended: Counter[str] = Counter()
    steps = 0
    while ended.total() < games:
        if policy == "random":
            actions = env.random_actions().copy()
        else:
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, mask, rewards, terminated, truncated = env.step(actions)
        steps += 1
        setups = env.setup
        for i, shadow in enumerate(shadows):
            completed = shadow.take(int(actions[i]))
            outcome = shadow.state.outcome() if completed else None
            stopped = completed and outcome is None and shadow.state.ply - shadow.start_ply >= limit
            assert bool(terminated[i]) == (outcome is not None), _where(i, shadow)
            assert bool(truncated[i]) == stopped, _where(i, shadow)
            expected = [0.0, 0.0]
            if outcome is not None and outcome.winner is not None:
                expected[outcome.winner] = 1.0
                expected[outcome.winner.other] = -1.0
            assert rewards[i].tolist() == expected, _where(i, shadow)
            if outcome is not None or stopped:
                ended[outcome.termination.name if outcome else "truncated"] += 1
                shadows[i] = Shadow(env.setups[setups[i]].copy())
        _agree(env, shadows, obs, mask)
    env.close()
    return ended, steps
