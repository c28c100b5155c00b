"""The agent interface, search limits, and the registry that builds agents from specs.

An agent is reproducible given its seed: the same seed, state and limit give the same move (with
depth or node limits; a time limit depends on the machine).

Agent specs, used by the command line, the tournament runner and the engine protocol:

- ``random``: a uniformly random legal move;
- ``search[:depth=D,time=T,nodes=N,noise=X,quiesce=Q,python=1,tables=1,book=1]``: alpha-beta
  (:mod:`.search`; compiled where the game has a kernel, the readable Python search with
  ``python=1``; ``quiesce``: the most plies of tactical moves searched past the horizon, 4 by
  default; with ``tables=1`` it plays perfectly wherever a built table covers the position;
  with ``book=1`` it plays from the rule set's opening book, :mod:`.book`, while it has the
  position);
- ``mcts[:sims=N,time=T]``: Monte Carlo tree search (:mod:`.mcts`);
- ``perfect``: the solved-table player (rule sets whose game declares a solver);
- ``level:N``: level N of the game's ladder (:mod:`.levels`);
- ``net:PATH``, ``net[sims=N]:PATH``: a trained policy-value network's tree search
  (:mod:`ludoteca.learn.agent`; ``sims=0``: its policy alone).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..core import LudotecaError, Move, RuleSet, State

__all__ = ["Agent", "Limit", "RandomAgent", "make_agent", "parse_spec"]


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
}


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """Split ``"search:depth=3,noise=50"`` into ``("search", {"depth": 3, "noise": 50.0})``."""
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


def make_agent(spec: str, rules: RuleSet, seed: int | None = None) -> Agent:
    """The agent a spec names, for a rule set, seeded (see the module docstring)."""
    if spec.strip().startswith(("net:", "net[")):  # a path keeps its case, may hold "," or "="
        from ..learn.agent import net_agent

        return net_agent(spec.strip(), rules, seed)
    kind, options = parse_spec(spec)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "search":
        from .search import QUIESCENCE_DEPTH, SearchAgent

        depth = options.get("depth")
        nodes = options.get("nodes")
        searcher = SearchAgent(
            seed,
            depth=None if depth is None else int(depth),
            seconds=options.get("time"),
            nodes=None if nodes is None else int(nodes),
            noise=options.get("noise", 0.0),
            name=spec.strip().lower(),
            compiled=not options.get("python"),
            tables=bool(options.get("tables")),
            quiesce=int(options.get("quiesce", QUIESCENCE_DEPTH)),
        )
        if options.get("book"):
            from .book import BookAgent

            return BookAgent(searcher, seed)
        return searcher
    if kind == "mcts":
        from .mcts import MCTSAgent

        sims = options.get("sims")
        return MCTSAgent(
            seed,
            simulations=None if sims is None else int(sims),
            seconds=options.get("time"),
            name=spec.strip().lower(),
        )
    if kind == "perfect":
        from .perfect import PerfectAgent

        return PerfectAgent(rules, seed)
    if kind == "level":
        from .levels import level_agent

        return level_agent(rules, int(options["level"]), seed)
    raise LudotecaError(
        f"unknown player {spec!r} (known: human, random, search, mcts, perfect, level:N, net:PATH)"
    )
