"""SVG pictures of positions, drawn from a game's board description (standard library only).

``render(state)`` draws any game the way the web app's board does: points and lines, or
coloured cells, with file and rank labels, the pieces, the marked points (a ringed cross: no
piece may be put there for now), and optionally the points the last move touched.  A new game
needs no drawing code of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from .core import Color, State
from .drawing import PieceStyle
from .i18n import _

__all__ = ["board_view", "render"]

UNIT = 100
MARGIN = 100
_STONE = {Color.WHITE: ("#fdfdfb", "#222"), Color.BLACK: ("#23252b", "#222")}


def board_view(state: State) -> dict[str, Any]:
    """A state's board description as plain data for a page to draw: points, coordinates,
    lines, cell colours and how each piece token is drawn (its name in the current
    language)."""
    board = state.game.board
    styles = {
        token: {
            "side": style.side.name.lower(),
            "name": _(style.name),
            "shape": style.shape,
            "ring": style.ring,
        }
        for token, style in board.styles.items()
    }
    return {
        "points": board.points,
        "coords": board.coords,
        "lines": board.lines,
        "cells": board.cells,
        "fills": board.fills,
        "styles": styles,
    }


def render(
    state: State,
    last: tuple[tuple[str, int], ...] | None = None,
    flipped: bool = False,
    size: int | None = None,
) -> str:
    """The position as a standalone SVG document.

    ``last``: the touches of a move to highlight (``state.gesture(code)`` of the move played);
    by default the last move of ``state``.  ``flipped`` turns the board half a turn; ``size``
    sets the width in pixels (default: the natural size, 100 per point).
    """
    board = state.game.board
    if last is None and state.move_stack:
        previous = state.copy()
        last = previous.gesture(previous.pop_code())
    max_x = max(x for x, _ in board.coords)
    max_y = max(y for _, y in board.coords)

    def xy(i: int) -> tuple[float, float]:
        x, y = board.coords[i]
        if flipped:
            x, y = max_x - x, max_y - y
        return MARGIN + x * UNIT, MARGIN + (max_y - y) * UNIT

    width, height = max_x * UNIT + 2 * MARGIN, max_y * UNIT + 2 * MARGIN
    shown = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}"'
        f'{shown} font-family="sans-serif">',
        f"<title>{escape(state.game.title)}: {escape(state.position_code())}</title>",
    ]
    half = UNIT / 2
    if board.cells:
        for i, colour in enumerate(board.fills or ("#e9d7b0",) * len(board.points)):
            x, y = xy(i)
            out.append(
                f'<rect x="{x - half:g}" y="{y - half:g}" width="{UNIT}" '
                f'height="{UNIT}" fill="{colour}" stroke="rgba(0,0,0,.25)" '
                'stroke-width="2"/>'
            )
    else:
        out.append(f'<rect width="{width:g}" height="{height:g}" rx="20" fill="#e9d7b0"/>')
        for a, b in board.lines:
            (x1, y1), (x2, y2) = xy(a), xy(b)
            out.append(
                f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                'stroke="#4a3b22" stroke-width="6" stroke-linecap="round"/>'
            )
        for i in range(len(board.points)):
            x, y = xy(i)
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="9" fill="#4a3b22"/>')
    out.extend(_labels(board.points, xy, max_y, board.cells))
    for _role, point in last or ():
        x, y = xy(point)
        out.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{UNIT * 0.42:g}" '
            'fill="rgba(255,214,0,.45)" class="last"/>'
        )
    for i, token in enumerate(state.pieces()):
        if token:
            out.append(_piece(board.styles[token], *xy(i), board.cells))
    out.extend(_cross(*xy(i)) for i in state.marked_points())
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _labels(
    points: tuple[str, ...], xy: Callable[[int], tuple[float, float]], max_y: float, cells: bool
) -> list[str]:
    files: dict[str, float] = {}
    ranks: dict[str, float] = {}
    for i, name in enumerate(points):
        match = re.fullmatch(r"([a-zA-Z]+)(\d+)", name)
        if match:
            x, y = xy(i)
            files[match[1]] = x
            ranks[match[2]] = y
    bottom = MARGIN + max_y * UNIT + (UNIT / 2 + 28 if cells else 60) + 6
    left = MARGIN - UNIT / 2 - 24 if cells else MARGIN - 62
    style = 'font-size="28" fill="#4a3b22" text-anchor="middle"'
    return [
        f'<text x="{x:g}" y="{bottom:g}" {style}>{escape(t)}</text>' for t, x in files.items()
    ] + [f'<text x="{left:g}" y="{y + 8:g}" {style}>{escape(t)}</text>' for t, y in ranks.items()]


def _cross(x: float, y: float) -> str:
    """A marked point: a ringed cross in the lines' colour (as the web app's board draws it)."""
    d = UNIT * 0.2
    return (
        '<g class="marked" fill="none" stroke="#4a3b22" stroke-width="8" stroke-linecap="round">'
        f'<circle cx="{x:g}" cy="{y:g}" r="{UNIT * 0.3:g}"/>'
        f'<line x1="{x - d:g}" y1="{y - d:g}" x2="{x + d:g}" y2="{y + d:g}"/>'
        f'<line x1="{x - d:g}" y1="{y + d:g}" x2="{x + d:g}" y2="{y - d:g}"/></g>'
    )


def _piece(style: PieceStyle, x: float, y: float, cells: bool) -> str:
    fill, stroke = _STONE[style.side]
    if style.shape == "king":
        return (
            f'<g class="piece king"><circle cx="{x:g}" cy="{y:g}" r="40" '
            'fill="rgba(255,255,255,.25)" stroke="#d4a017" stroke-width="5"/>'
            f'<text x="{x:g}" y="{y + 16:g}" font-size="60" text-anchor="middle" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="2">\u265a</text></g>'
        )
    radius = UNIT * (0.36 if cells else 0.33)
    piece = (
        f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{fill}" stroke="{stroke}" '
        'stroke-width="4"/>'
    )
    if style.ring:
        piece += (
            f'<circle cx="{x:g}" cy="{y:g}" r="{UNIT * 0.2:g}" fill="none" '
            'stroke="#d4a017" stroke-width="8"/>'
        )
    return f'<g class="piece">{piece}</g>'
