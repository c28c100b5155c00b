"""A deliberately plain second implementation of Morelli's rules, for differential tests.

Boards are dicts from (x, y) to "B" or "W"; the King is None, "B" or "W".  Legal moves are found
by trying every (stone, square) pair against the rules' wording, not by walking rays.
"""

from __future__ import annotations

N = 13
C = N // 2


def band(x: int, y: int) -> int:
    return max(abs(x - C), abs(y - C))


def legal(
    board: dict[tuple[int, int], str], colour: str, king: str | None
) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    moves = set()
    for (x, y), stone in board.items():
        if stone != colour:
            continue
        for tx in range(N):
            for ty in range(N):
                dx, dy = tx - x, ty - y
                if (dx, dy) == (0, 0) or (tx, ty) in board or (tx, ty) == (C, C):
                    continue
                if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
                    continue  # not a queen line
                if band(tx, ty) >= band(x, y):
                    continue  # must come to rest strictly closer to the Throne
                steps = max(abs(dx), abs(dy))
                sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
                between = [(x + k * sx, y + k * sy) for k in range(1, steps)]
                if any(p in board for p in between):
                    continue
                if king is not None and (C, C) in between:
                    continue
                moves.add(((x, y), (tx, ty)))
    return moves


def play(
    board: dict[tuple[int, int], str],
    move: tuple[tuple[int, int], tuple[int, int]],
    king: str | None,
) -> tuple[dict[tuple[int, int], str], str | None]:
    """The board and King after a move, its conversions and any frame it completes."""
    (x, y), (tx, ty) = move
    after = dict(board)
    colour = after.pop((x, y))
    after[(tx, ty)] = colour
    changed = [(tx, ty)]
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near, far = (tx + dx, ty + dy), (tx + 2 * dx, ty + 2 * dy)
            if (
                (dx, dy) != (0, 0)
                and after.get(near) not in (None, colour)
                and after.get(far) == colour
            ):
                after[near] = colour
                changed.append(near)
    for px, py in changed:
        orbit = [(px, py), (N - 1 - py, px), (N - 1 - px, N - 1 - py), (py, N - 1 - px)]
        if 1 <= band(px, py) < C and all(after.get(q) == colour for q in orbit):
            king = colour
    return after, king
