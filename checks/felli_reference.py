"""A deliberately plain second implementation of Felli's move rules, for differential tests.

Boards are dicts from point name to one of "", "w", "b", "W", "B" (upper case: a Mullah).
It shares no code with ludoteca.games.felli: the lines are copied from docs/rules.md (Felli).
"""

from __future__ import annotations

from itertools import pairwise

LINES = [
    "a1 b2 c3 d4 e5".split(),
    "e1 d2 c3 b4 a5".split(),
    "c1 c2 c3 c4 c5".split(),
    "a1 c1 e1".split(),
    "a5 c5 e5".split(),
    "b2 c2 d2".split(),
    "b4 c4 d4".split(),
]
POINTS = sorted({p for line in LINES for p in line})
CORNERS = {"w": ("a5", "e5"), "b": ("a1", "e1")}


def directions(point: str) -> list[list[str]]:
    """Lists of points met walking from ``point`` along each line, both ways."""
    out = []
    for line in LINES:
        if point in line:
            i = line.index(point)
            out.append(line[i + 1 :])
            out.append(list(reversed(line[:i])))
    return [d for d in out if d]


def leaps(board: dict[str, str], point: str, side: str) -> list[tuple[str, str]]:
    """(captured, landing) pairs for the piece of ``side`` on ``point``."""
    mullah = board[point].isupper()
    found = []
    for walk in directions(point):
        i = 0
        if mullah:
            while i < len(walk) and board[walk[i]] == "":
                i += 1
        if i >= len(walk) or board[walk[i]] == "" or board[walk[i]].lower() == side:
            continue
        for land in walk[i + 1 :]:
            if board[land] != "":
                break
            found.append((walk[i], land))
            if not mullah:
                break
    return found


def chains(board: dict[str, str], point: str, side: str, multi: bool) -> list[list[str]]:
    """Every capture path (landing points, start first) of the piece on ``point``."""
    result = []
    for victim, land in leaps(board, point, side):
        if not multi:
            result.append([point, land])
            continue
        after = dict(board)
        after[land], after[point], after[victim] = board[point], "", ""
        more = chains(after, land, side, multi)
        if more:
            result.extend([point, *rest] for rest in more)
        else:
            result.append([point, land])
    return result


def legal(board: dict[str, str], side: str, forced: bool, multi: bool) -> set[str]:
    """Every legal move of ``side`` in notation."""
    captures, steps = set(), set()
    for point in POINTS:
        if board[point].lower() != side:
            continue
        for path in chains(board, point, side, multi):
            captures.add("x".join(path))
        for walk in directions(point):
            for q in walk:
                if board[q] != "":
                    break
                steps.add(f"{point}-{q}")
                if not board[point].isupper():
                    break
    if forced and captures:
        return captures
    return captures | steps


#: the far corners where a man becomes a Mullah, by side
PROMOTION = {"w": ("a5", "e5"), "b": ("a1", "e1")}


def play(board: dict[str, str], move: str, mullahs: bool) -> dict[str, str]:
    """The board after ``move``: each leap removes the piece it jumps (on the line between its
    ends); with ``mullahs``, a man ending its turn on a far corner becomes a Mullah."""
    after = dict(board)
    path = move.replace("-", "x").split("x")
    piece = after[path[0]]
    after[path[0]] = ""
    if "x" in move:
        for a, b in pairwise(path):
            line = next(line for line in LINES if a in line and b in line)
            i, j = sorted((line.index(a), line.index(b)))
            for point in line[i + 1 : j]:
                after[point] = ""
    if mullahs and piece.islower() and path[-1] in PROMOTION[piece]:
        piece = piece.upper()
    after[path[-1]] = piece
    return after
