"""How strong a network is: its policy against a random player on the batched environments,
and any agent spec (``net:PATH``) against others in engine games, with 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..ai.tournament import GameJob, play_games
from ..games import load
from ..vector import VectorEnv
from .net import PolicyValueNet

__all__ = ["Score", "match", "policy_against_random"]

Z95 = 1.959964


@dataclass(frozen=True)
class Score:
    """Wins, draws and losses of one player over some games."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points a game (a draw is half a point)."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95% interval (normal approximation to the mean of the games' points)."""
        mean = self.score
        points = [1.0] * self.wins + [0.5] * self.draws + [0.0] * self.losses
        spread = math.sqrt(sum((p - mean) ** 2 for p in points) / self.games)
        half = Z95 * spread / math.sqrt(self.games)
        return max(mean - half, 0.0), min(mean + half, 1.0)

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"+{self.wins} ={self.draws} -{self.losses} of {self.games}: "
            f"score {self.score:.3f} [{low:.3f}, {high:.3f}]"
        )


def policy_against_random(net: PolicyValueNet, games: int, seed: int) -> Score:
    """``games`` games of the network's policy (its most likely legal action, no search)
    against uniformly random actions, all at once, the network White in the even games and
    Black in the odd; a game stopped at the rule set's longest game is a draw.  (The policy
    may repeat itself into a draw: the observation does not show the positions before.)"""
    env = VectorEnv(net.rules, games)
    obs, mask = env.reset(seed)
    colour = np.arange(games) % 2
    open_games = np.ones(games, dtype=np.bool_)
    tally = [0, 0, 0]
    while open_games.any():
        actions = env.random_actions().copy()
        ours = env.to_play == colour
        if ours.any():
            policy, _ = net.predict(obs[ours].reshape(int(ours.sum()), -1), mask[ours])
            actions[ours] = policy.argmax(axis=1)
        obs, mask, rewards, terminated, truncated = env.step(actions)
        for i in np.flatnonzero(open_games & (terminated | truncated)):
            open_games[i] = False
            mine = rewards[i, colour[i]]
            tally[0 if mine > 0 else 2 if mine < 0 else 1] += 1
    return Score(*tally)


def match(
    rules: str, spec: str, opponent: str, games: int, seed: int = 0, workers: int = 1
) -> Score:
    """``games`` engine games of the agent ``spec`` against ``opponent`` on ``rules``,
    alternating colours (``spec`` White in the even games), on ``workers`` processes."""
    bound = load(rules)

    def jobs() -> Iterator[GameJob]:
        for g in range(games):
            pair = (spec, opponent) if g % 2 == 0 else (opponent, spec)
            yield GameJob(pair, (g % 2, 1 - g % 2), seed * games + g, seed * games + g)

    tally = [0, 0, 0]
    for job, result in play_games(bound.name, str(bound.rules), jobs(), workers):
        mine = result.score if job.pair[0] == 0 else 1.0 - result.score
        tally[0 if mine == 1 else 2 if mine == 0 else 1] += 1
    return Score(*tally)
