"""The agent interface, search limits, and the agents that need no search.

An agent is reproducible given its seed: the same seed, state and limit give the same move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..core import LudotecaError, Move, RuleSet, State

__all__ = ["AGENTS", "Agent", "Limit", "RandomAgent", "make_agent"]


@dataclass(frozen=True)
class Limit:
    """Bounds on one decision: seconds, nodes and/or depth (``None``: unbounded)."""

    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None


class Agent(Protocol):
    """Anything that picks a legal move for the side to move of a state that is not over."""

    name: str

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        """A legal move of ``state``; never changes ``state``."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        codes = state.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        return state.move_of(self._rng.choice(codes))


def _perfect(rules: RuleSet, seed: int | None) -> Agent:
    from .perfect import PerfectAgent

    return PerfectAgent(rules, seed)


AGENTS: dict[str, Callable[[RuleSet, int | None], Agent]] = {
    "random": lambda rules, seed: RandomAgent(seed),
    "perfect": _perfect,
}


def make_agent(spec: str, rules: RuleSet, seed: int | None = None) -> Agent:
    """The agent named ``spec`` (``"random"``, ``"perfect"``) for a rule set, seeded."""
    factory = AGENTS.get(spec.strip().lower())
    if factory is None:
        raise LudotecaError(f"unknown player {spec!r} (known: human, {', '.join(AGENTS)})")
    return factory(rules, seed)
