"""A plain retrograde solver over an explicit move graph (dictionaries, no classes, no
symmetry): the second implementation the compiled tables are checked against."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

Node = Hashable


def solve_graph(
    nodes: Iterable[Node], children: Callable[[Node], Iterable[Node]]
) -> dict[Node, tuple[int, int]]:
    """``(value, plies)`` for every node reachable from ``nodes``: a node without children is
    lost in 0; the winner wins fastest, the loser loses slowest; the rest are draws (0, 0)."""
    succ: dict[Node, set[Node]] = {}
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if node in succ:
            continue
        succ[node] = set(children(node))
        todo.extend(c for c in succ[node] if c not in succ)
    preds: dict[Node, list[Node]] = {n: [] for n in succ}
    for node, kids in succ.items():
        for kid in kids:
            preds[kid].append(node)
    result: dict[Node, tuple[int, int]] = {}
    left = {n: len(k) for n, k in succ.items()}
    frontier = [n for n, k in succ.items() if not k]
    for n in frontier:
        result[n] = (-1, 0)
    level = 0
    while frontier:
        following = []
        for node in frontier:
            lost = result[node][0] == -1
            for parent in preds[node]:
                if parent in result:
                    continue
                if lost:
                    result[parent] = (1, level + 1)
                    following.append(parent)
                else:
                    left[parent] -= 1
                    if left[parent] == 0:
                        result[parent] = (-1, level + 1)
                        following.append(parent)
        frontier = following
        level += 1
    for node in succ:
        result.setdefault(node, (0, 0))
    return result


def bellman(children: list[tuple[int, int]]) -> tuple[int, int]:
    """``(value, plies)`` of a position from its children's (the Bellman equations): lost in 0
    without a move; a win one ply after the fastest lost child; a loss one ply after the slowest
    child when every child is won; otherwise a draw."""
    if not children:
        return (-1, 0)
    if any(v == -1 for v, _ in children):
        return (1, 1 + min(d for v, d in children if v == -1))
    if all(v == 1 for v, _ in children):
        return (-1, 1 + max(d for _, d in children))
    return (0, 0)
