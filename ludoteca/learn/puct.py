"""Monte Carlo tree search guided by a policy-value network (PUCT, as in AlphaZero), over many
games at once with their leaf evaluations batched.

A tree is over integer actions (``ActionCursor``: one action per move, one a step of a move
made in steps: a capture chain's leap, a mill's removal), so the same player may act twice in a
row; every edge keeps its visits and the total value for the player who acts at its node.  Each
simulation round descends every tree to one new leaf, evaluates all the leaves in one call of
the network, and backs the values up (a finished game is scored by its result instead).  The
priors are the network's policy over the legal actions; at a root, Dirichlet noise may be mixed
in (self-play exploration).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..adapters.actions import ActionCursor
from .net import FloatArray, PolicyValueNet

__all__ = ["Node", "Searched", "search"]


class Node:
    """A position in a tree: its cursor, legal actions, their priors, visits and value sums (for
    the player to act here), and the children made so far."""

    __slots__ = ("actions", "children", "cursor", "ended", "prior", "total", "turn", "visits")

    def __init__(self, cursor: ActionCursor) -> None:
        self.cursor = cursor
        self.turn = cursor.turn
        self.actions = np.array(cursor.legal_actions(), dtype=np.int64)
        self.prior = np.zeros(len(self.actions))
        self.visits = np.zeros(len(self.actions))
        self.total = np.zeros(len(self.actions))
        self.children: list[Node | None] = [None] * len(self.actions)
        #: the result for the player to act here of the actions that end the game (else NaN)
        self.ended = np.full(len(self.actions), np.nan)


def _evaluate(
    net: PolicyValueNet, cursors: Sequence[ActionCursor]
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The network's policies and values for the cursors' positions, in one batch."""
    obs = np.stack([c.observation().ravel() for c in cursors])
    mask = np.zeros((len(cursors), net.actions), dtype=np.bool_)
    for i, c in enumerate(cursors):
        mask[i, c.legal_actions()] = True
    return net.predict(obs, mask)


@dataclass
class Searched:
    """What the searches of some roots found, one row per root over the network's actions:
    the visits of each action, its completed value (the mean value of its simulations for the
    player to act at the root; an unvisited legal action gets the root's mean value, an
    illegal one 0), the network's policy at the root (without noise) and the legal actions."""

    visits: npt.NDArray[np.float64]
    values: npt.NDArray[np.float64]
    prior: npt.NDArray[np.float64]
    legal: npt.NDArray[np.bool_]

    def improved_policy(self, visit_scale: float = 50.0, value_scale: float = 0.1) -> FloatArray:
        """The policy the searches say is better than the network's: ``softmax(log prior +
        (visit_scale + most visits) * value_scale * q)`` over each root's legal actions, with
        ``q`` the completed values mapped to [0, 1] (Danihelka et al., "Policy improvement by
        planning with Gumbel", ICLR 2022): it improves on the prior even with a few
        simulations, where visit counts say little."""
        sigma = (visit_scale + self.visits.max(axis=1, keepdims=True)) * value_scale
        logits = np.where(self.legal, np.log(np.maximum(self.prior, 1e-30)), -np.inf)
        logits = logits + sigma * (self.values + 1) / 2
        logits -= logits.max(axis=1, keepdims=True)
        policy = np.exp(logits)
        out: FloatArray = (policy / policy.sum(axis=1, keepdims=True)).astype(np.float32)
        return out


def search(
    net: PolicyValueNet,
    roots: Sequence[ActionCursor],
    simulations: int,
    rng: np.random.Generator | None = None,
    noise: float = 0.0,
    alpha: float = 0.3,
    c_puct: float = 1.5,
) -> Searched:
    """``simulations`` rounds on each root (games not over).  With ``noise`` > 0 each root's
    priors are mixed with that share of Dirichlet(``alpha``) noise drawn from ``rng``."""
    trees = [Node(c) for c in roots]
    policies, root_values = _evaluate(net, roots)
    for tree, policy in zip(trees, policies, strict=True):
        tree.prior = policy[tree.actions].astype(np.float64)
        if noise > 0 and rng is not None and len(tree.actions) > 1:
            tree.prior = (1 - noise) * tree.prior + noise * rng.dirichlet(
                [alpha] * len(tree.actions)
            )
    for _ in range(simulations):
        paths: list[list[tuple[Node, int]]] = []
        leaves: list[Node] = []
        for tree in trees:
            path, leaf = _descend(tree, c_puct)
            if leaf is None:  # a finished game: its result, for the player at the last edge
                node, i = path[-1]
                _backup(path, node.turn, float(node.ended[i]))
            else:
                paths.append(path)
                leaves.append(leaf)
        if not leaves:
            continue
        policies_, values = _evaluate(net, [leaf.cursor for leaf in leaves])
        for path, leaf, policy, value in zip(paths, leaves, policies_, values, strict=True):
            leaf.prior = policy[leaf.actions].astype(np.float64)
            _backup(path, leaf.turn, float(value))
    shape = (len(trees), net.actions)
    found = Searched(np.zeros(shape), np.zeros(shape), np.zeros(shape), np.zeros(shape, bool))
    for i, tree in enumerate(trees):
        n = tree.visits
        mean = (root_values[i] + tree.total.sum()) / (1 + n.sum())
        found.visits[i, tree.actions] = n
        found.values[i, tree.actions] = np.where(n > 0, tree.total / np.maximum(n, 1), mean)
        found.prior[i, tree.actions] = policies[i, tree.actions]
        found.legal[i, tree.actions] = True
    return found


def _descend(tree: Node, c_puct: float) -> tuple[list[tuple[Node, int]], Node | None]:
    """The edges from the root to a new child (made here), and that child (``None`` when the
    edge ends the game)."""
    path: list[tuple[Node, int]] = []
    node = tree
    while True:
        n = node.visits
        q = np.divide(node.total, n, out=np.zeros_like(n), where=n > 0)
        score = q + c_puct * node.prior * np.sqrt(n.sum() + 1) / (1 + n)
        i = int(score.argmax())
        path.append((node, i))
        if not np.isnan(node.ended[i]):
            return path, None
        child = node.children[i]
        if child is None:
            cursor = node.cursor.copy()
            cursor.apply(int(node.actions[i]))
            if cursor.is_over():
                node.ended[i] = cursor.returns()[node.turn]
                return path, None
            child = node.children[i] = Node(cursor)
            return path, child
        node = child


def _backup(path: list[tuple[Node, int]], turn: int, value: float) -> None:
    """Add a visit along ``path`` and the ``value`` for player ``turn``, turned to each edge's
    player."""
    for node, i in path:
        node.visits[i] += 1
        node.total[i] += value if node.turn == turn else -value
