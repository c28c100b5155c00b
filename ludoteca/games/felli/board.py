"""Felli's board as data, shared by the rules (:mod:`.rules`), the kernel (:mod:`.kernel`), the
solver (:mod:`.solver`), the Mullah tables (:mod:`.mullah_table`) and the lessons
(:mod:`.lessons`): two triangles meeting at ``c3``, with the ``c`` file through both.

Points are numbered 0..12: a1 c1 e1 b2 c2 d2 c3 b4 c4 d4 a5 c5 e5.  A board holds 0 (empty), 1 (a
White/South man), 2 (a Black/North man), or a side's Mullah: its man's value | :data:`MULLAH`.

>>> len(POINTS), len(LINES), len(EDGES)
(13, 7, 20)
>>> [POINTS[p] for p in BETWEEN[INDEX["a1"]][INDEX["e5"]] or ()]
['b2', 'c3', 'd4']
>>> POINTS[FLIP[INDEX["b2"]]], POINTS[MIRROR[INDEX["b2"]]]
('b4', 'd2')
"""

from __future__ import annotations

__all__ = [
    "BETWEEN",
    "EDGES",
    "FLIP",
    "INDEX",
    "LINES",
    "MIRROR",
    "MULLAH",
    "POINTS",
    "PROMOTION",
    "RAYS",
]

POINTS: tuple[str, ...] = (
    "a1",
    "c1",
    "e1",
    "b2",
    "c2",
    "d2",
    "c3",
    "b4",
    "c4",
    "d4",
    "a5",
    "c5",
    "e5",
)
INDEX = {name: i for i, name in enumerate(POINTS)}
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[p] for p in line.split())
    for line in (
        "a1 b2 c3 d4 e5",
        "e1 d2 c3 b4 a5",
        "c1 c2 c3 c4 c5",
        "a1 c1 e1",
        "a5 c5 e5",
        "b2 c2 d2",
        "b4 c4 d4",
    )
)
EDGES: tuple[tuple[int, int], ...] = tuple(
    (line[i], line[i + 1]) for line in LINES for i in range(len(line) - 1)
)
#: for each point, the rays leaving it: the points met going along one line in one direction
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        ray
        for line in LINES
        if p in line
        for ray in (line[line.index(p) + 1 :], line[: line.index(p)][::-1])
        if ray
    )
    for p in range(13)
)
#: BETWEEN[a][b]: the points strictly between a and b on their common line (None: no line)
BETWEEN: tuple[tuple[tuple[int, ...] | None, ...], ...] = tuple(
    tuple(next((ray[: ray.index(b)] for ray in RAYS[a] if b in ray), None) for b in range(13))
    for a in range(13)
)
#: the bit a Mullah adds to its man's value
MULLAH = 4
#: each point's image when the board is turned top to bottom (a1<->a5, b2<->b4, c3 stays)
FLIP: tuple[int, ...] = tuple(INDEX[p[0] + str(6 - int(p[1]))] for p in POINTS)
#: each point's image when the board is turned left to right (a1<->e1, b4<->d4, c stays)
MIRROR: tuple[int, ...] = tuple(
    INDEX["ace"["eca".index(p[0])] + p[1]]
    if p[0] in "ace"
    else INDEX["bd"["db".index(p[0])] + p[1]]
    for p in POINTS
)
#: the corners where a man of each side (1: White/South, 2: Black/North) is promoted
PROMOTION = {1: (INDEX["a5"], INDEX["e5"]), 2: (INDEX["a1"], INDEX["e1"])}
