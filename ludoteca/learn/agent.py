"""A trained network as a player: the agent spec ``net:PATH`` (the network's tree search, 64
simulations an action) and ``net[sims=N]:PATH`` (N simulations; ``sims=0`` plays the network's
policy itself, its most likely action)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..adapters.actions import ActionCursor
from ..core import LudotecaError, Move, RuleSet, State
from ..games import load
from .net import PolicyValueNet
from .puct import search

if TYPE_CHECKING:  # the agent interface is named for type checkers only: ai.agents builds this
    from ..ai.base import Limit

__all__ = ["NetAgent", "net_agent"]

SIMULATIONS = 64


class NetAgent:
    """Plays ``net``'s choice, one action at a time (a move made in steps: one search a step), with
    ``simulations`` rounds of its tree search an action (a limit's ``nodes`` instead, when
    given; time limits are not used).  Ties between equally visited actions are broken by the
    seed's generator."""

    def __init__(
        self, net: PolicyValueNet, seed: int | None = None, simulations: int = SIMULATIONS
    ) -> None:
        self.net = net
        self.simulations = simulations
        self.name = f"net[sims={simulations}]"
        self._rng = np.random.default_rng(seed)

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        if not state.legal_codes():
            raise ValueError("the game is over: there is no move to choose")
        sims = self.simulations if limit is None or limit.nodes is None else limit.nodes
        cursor = _cursor(state)
        while True:
            found = search(self.net, [cursor], sims)
            counts = found.visits[0] if sims else found.prior[0]
            best = np.flatnonzero(counts == counts.max())
            if cursor.apply(int(self._rng.choice(best))):
                return state.move_of(cursor.codes[-1])


def _cursor(state: State) -> ActionCursor:
    """A cursor at ``state`` that has seen its history (for the repetition rule)."""
    engine = state.game.from_position_code(state.start)
    cursor = ActionCursor(engine.copy())
    for code in state.move_stack:
        for action in engine.action_path(code):
            cursor.apply(action)
        engine.push_code(code)
    return cursor


def net_agent(spec: str, rules: RuleSet, seed: int | None = None) -> NetAgent:
    """The agent of a ``net:PATH`` or ``net[sims=N]:PATH`` spec for ``rules``;
    ``LudotecaError`` if the spec is malformed, the file is not a network, or the network
    was trained for another rule set."""
    head, sep, path = spec.partition(":")
    sims = SIMULATIONS
    if head != "net":
        option = head.removeprefix("net[").removesuffix("]")
        key, _, raw = option.partition("=")
        if not head.startswith("net[") or not head.endswith("]") or key != "sims":
            raise LudotecaError(f"{spec!r}: a network is net:PATH or net[sims=N]:PATH")
        if not raw.isdigit():
            raise LudotecaError(f"{spec!r}: sims takes a whole number, not {raw!r}")
        sims = int(raw)
    if not sep or not path:
        raise LudotecaError(f"{spec!r}: a network is net:PATH or net[sims=N]:PATH")
    net = PolicyValueNet.load(Path(path))
    trained = load(net.rules).rules
    if trained != rules:
        raise LudotecaError(f"{path}: the network plays {trained}, not {rules}")
    agent = NetAgent(net, seed, sims)
    agent.name = spec
    return agent
