"""Monte Carlo tree search (UCT) for any game, with a game-aware playout policy.

Playouts prefer tactical moves (captures, removals, conversions: ``state.is_tactical``) among a
few sampled candidates, and stop after ``playout_cap`` plies, scoring the position with the
game's evaluation.  Values are in [0, 1] for the player who made the move into a node.  Where
the game declares a compiled kernel, playouts run in compiled code
(:func:`ludoteca.compiled.search.playout`, the same policy with the kernel's evaluation).
"""

from __future__ import annotations

import math
import random
import threading
import time
from typing import TYPE_CHECKING

import numpy as np

from ..core import Move, RuleSet, State
from .base import Limit, parse_spec

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MCTSAgent", "mcts_agent"]


class _Node:
    __slots__ = ("children", "code", "mover", "untried", "value", "visits")

    def __init__(self, code: int, mover: int, untried: list[int]) -> None:
        self.code = code
        self.mover = mover
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.value = 0.0


class MCTSAgent:
    """A UCT player; ``simulations`` (or the limit's nodes/seconds) bounds the effort."""

    def __init__(
        self,
        seed: int | None = None,
        simulations: int | None = None,
        seconds: float | None = None,
        exploration: float = 1.2,
        playout_cap: int = 120,
        candidates: int = 6,
        name: str = "mcts",
    ) -> None:
        self.name = name
        self.default = Limit(seconds=seconds, nodes=simulations)
        self.exploration = exploration
        self.playout_cap = playout_cap
        self.candidates = candidates
        self._rng = random.Random(seed)
        self.stop_event = threading.Event()
        self._playouts: Callable[..., float] | None = None

    def stop(self) -> None:
        """Ask a running search to finish as soon as possible."""
        self.stop_event.set()

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        return self.search(state, limit)[0]

    def search(self, state: State, limit: Limit | None = None) -> tuple[Move, float, int]:
        """The most visited move, its mean value for the mover, and the simulations run."""
        limit = limit or self.default
        if limit.seconds is None and limit.nodes is None:
            limit = Limit(nodes=1000)
        root_state = state.copy()
        codes = root_state.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        self.stop_event.clear()
        kernel = root_state.game.kernel
        self._playouts = None
        if kernel is not None:
            from ..compiled.kernel import UNDO
            from ..compiled.search import MAXMOVES, playout_of, seed_playouts

            compiled = playout_of(kernel)
            rows = np.zeros((8, MAXMOVES), dtype=np.int64)
            undo = np.zeros((self.playout_cap + 1, UNDO), dtype=np.int64)
            cap, candidates = self.playout_cap, self.candidates
            self._playouts = lambda state: compiled(
                kernel.pack(state), kernel.prm, cap, candidates, rows, undo
            )
            seed_playouts(self._rng.randrange(1 << 31))
        root = _Node(-1, 1 - int(root_state.turn), list(codes))
        self._rng.shuffle(root.untried)
        deadline = time.perf_counter() + limit.seconds if limit.seconds else None
        simulations = 0
        while True:
            if limit.nodes is not None and simulations >= limit.nodes:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self.stop_event.is_set() or len(codes) == 1:
                break
            self._simulate(root_state, root)
            simulations += 1
        if not root.children:
            return root_state.move_of(codes[0]), 0.5, simulations
        best = max(root.children, key=lambda n: (n.visits, n.value))
        return root_state.move_of(best.code), best.value / max(best.visits, 1), simulations

    def _simulate(self, state: State, root: _Node) -> None:
        path = [root]
        node = root
        depth = 0
        log = math.log
        c = self.exploration
        while not node.untried and node.children:  # selection
            parent_log = log(node.visits)
            node = max(
                node.children,
                key=lambda n: n.value / n.visits + c * math.sqrt(parent_log / n.visits),
            )
            state.push_code(node.code)
            depth += 1
            path.append(node)
        if node.untried:  # expansion
            code = node.untried.pop()
            mover = int(state.turn)
            state.push_code(code)
            depth += 1
            untried = state.legal_codes()
            self._rng.shuffle(untried)
            child = _Node(code, mover, untried)
            node.children.append(child)
            node = child
            path.append(node)
        result = self._playout(state)  # value for White (colour 0)
        for _ in range(depth):
            state.pop_code()
        for n in path:
            n.visits += 1
            n.value += result if n.mover == 0 else 1.0 - result

    def _playout(self, state: State) -> float:
        if self._playouts is not None:
            return float(self._playouts(state))
        rng = self._rng
        pushed = 0
        try:
            while pushed < self.playout_cap:
                codes = state.legal_codes()
                if not codes:
                    outcome = state.outcome()
                    if outcome is None or outcome.winner is None:
                        return 0.5
                    return 1.0 if int(outcome.winner) == 0 else 0.0
                code = codes[rng.randrange(len(codes))]
                if len(codes) > 1:
                    for _ in range(self.candidates):
                        candidate = codes[rng.randrange(len(codes))]
                        if state.is_tactical(candidate):
                            code = candidate
                            break
                state.push_code(code)
                pushed += 1
            value = (state.evaluate() + 1) / 2
            return value if int(state.turn) == 0 else 1.0 - value
        finally:
            for _ in range(pushed):
                state.pop_code()


def mcts_agent(spec: str, rules: RuleSet, seed: int | None = None) -> MCTSAgent:
    """The agent of an ``mcts`` spec (its options: ``sims``, ``time``), named by the spec."""
    _, options = parse_spec(spec)
    sims = options.get("sims")
    return MCTSAgent(
        seed,
        simulations=None if sims is None else int(sims),
        seconds=options.get("time"),
        name=spec.lower(),
    )
