"""What every computer player shares: the search limits, the agent interface, the agent-spec
language, and the random agent.

An agent is reproducible given its seed: the same seed, state and limit give the same move (with
depth or node limits; a time limit depends on the machine).  An agent spec names a kind of agent
and its options, ``"search:depth=3,noise=50"``; :mod:`.agents` builds the agent a spec names,
each kind by a factory (:data:`AgentFactory`) of the module that holds that agent.  Nothing here
imports an agent's module.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..core import LudotecaError, Move, RuleSet, State

__all__ = ["Agent", "AgentFactory", "Limit", "RandomAgent", "parse_spec", "random_agent"]


@dataclass(frozen=True)
class Limit:
    """Bounds on one decision: seconds, nodes (simulations for MCTS) and/or depth."""

    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None


class Agent(Protocol):
    """Anything that picks a legal move for the side to move of a state that is not over."""

    name: str

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        """A legal move of ``state``; never changes ``state``."""
        ...


#: builds the agent of a spec (stripped of surrounding blanks, its case kept) for a rule set,
#: seeded; ``LudotecaError`` for a spec it refuses
AgentFactory = Callable[[str, RuleSet, int | None], Agent]


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


def random_agent(spec: str, rules: RuleSet, seed: int | None = None) -> RandomAgent:
    """The agent of a ``random`` spec (its options checked, then unused)."""
    parse_spec(spec)
    return RandomAgent(seed)


_OPTIONS = {
    "depth": int,
    "time": float,
    "nodes": int,
    "noise": float,
    "sims": int,
    "python": int,
    "tables": int,
    "quiesce": int,
    "book": int,
    "keep": int,
    "reduce": int,
}


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """Split ``"search:depth=3,noise=50"`` into ``("search", {"depth": 3, "noise": 50.0})``;
    ``"level:3"`` gives ``("level", {"level": 3})``.  ``LudotecaError`` for an unknown option,
    a value that is not a number, or a negative one."""
    kind, _, rest = spec.strip().lower().partition(":")
    options: dict[str, float] = {}
    if kind == "level":
        try:
            options["level"] = int(rest)
        except ValueError:
            raise LudotecaError(f"{spec!r}: a level is a number, e.g. level:3") from None
        return kind, options
    for item in filter(None, (i.strip() for i in rest.split(","))):
        key, _, raw = item.partition("=")
        if key not in _OPTIONS:
            raise LudotecaError(
                f"{spec!r}: unknown option {key!r} (options: {', '.join(_OPTIONS)})"
            )
        try:
            options[key] = _OPTIONS[key](raw)
        except ValueError:
            raise LudotecaError(f"{spec!r}: {key} takes a number, not {raw!r}") from None
        if options[key] < 0:
            raise LudotecaError(f"{spec!r}: {key} cannot be negative")
    return kind, options
