"""A game seen one integer action at a time, stepped by the game's compiled kernel, for the
research adapters.

Most moves are one action (``State.action_path``); a move made in steps (a capture chain's
leaps, a mill and its removal) is one action a step, the same player acting again until the
move is complete.  :class:`ActionCursor` keeps the game
as one row of the kernel driver (:mod:`ludoteca.compiled.batch`: the kernel's position, the
legal moves left for the actions already taken, the sorted next actions, the keys for
threefold repetition) and offers what both OpenSpiel and PettingZoo need: the legal actions,
applying one, the end and the returns, and an observation.  An action costs one compiled call
(its native entry point, past numba's type dispatch, given the addresses of the row and of the
layout's fixed array, which cost nothing to pass where an array costs its unboxing), which
answers the result, the side to act and the number of next actions; the next actions are read
from the row only when asked for.  The engine state it stands for is built on demand
(replayed from the start), for notation, printing and the outcome's wording.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ..compiled import batch
from ..compiled.kernel import LOSS, ONGOING, STATE_SIZE, WIN
from ..core import Color, Game, State

__all__ = ["ActionCursor"]

#: a cursor never stops a game: the engine's own rules end it
_NO_LIMIT = 1 << 62


@dataclass(frozen=True)
class _Driver:
    """A rule set's row layout, its ``fixed`` array and that array's address (``at``), and the
    native entry points of the driver's cursor functions (each call must pass exactly the
    argument types they were compiled for: a row's address and ``at``, or rows and ``cfg``, a
    float32 observation, an int)."""

    layout: batch.Layout
    fixed: npt.NDArray[np.int64]
    at: int
    start: Callable[..., tuple[int, int, int, int]]
    apply: Callable[..., tuple[int, int, int, int]]
    observe: Callable[..., None]
    copy: Callable[..., int]


_DRIVERS: dict[Game, _Driver] = {}


def _entry(func: Any, *args: Any) -> Any:
    """The numba function ``func`` compiled for the types of ``args`` (or loaded from its
    cache), as its native entry point: a call that skips numba's type dispatch (about a
    tenth of a microsecond an argument)."""
    return func.compile(tuple(numba.typeof(a) for a in args))  # type: ignore[no-untyped-call]


def _driver(game: Game) -> _Driver:
    """The driver of ``game``'s cursors (made once per rule set)."""
    if game not in _DRIVERS:
        lay = batch.layout(game, _NO_LIMIT)
        row = np.zeros((1, lay.width), dtype=np.int64)
        obs = np.zeros((1, lay.planes * lay.points), dtype=np.float32)
        code, fixed = lay.code, lay.fixed
        at = fixed.ctypes.data
        _DRIVERS[game] = _Driver(
            lay,
            fixed,
            at,
            _entry(code.cursor_start, at, at),
            _entry(code.cursor_apply, at, at, 0),
            _entry(code.cursor_observe, at, at, obs),
            _entry(batch.cursor_copy, row, lay.cfg, row),
        )
    return _DRIVERS[game]


class ActionCursor:
    """A game from ``start`` (an engine state) in its kernel: the actions taken (``actions``),
    the codes of the moves they completed (``codes``), the kernel's ``result`` (0 while the
    game goes on), the side to act (``turn``) and the number of next actions (``count``).

    The cursor owns its row (``_row``), whose address (``_at``) the compiled calls are given:
    the row lives as long as the cursor."""

    __slots__ = (
        "_apply",
        "_at",
        "_driver",
        "_engine",
        "_fixed",
        "_row",
        "actions",
        "codes",
        "count",
        "layout",
        "next",
        "result",
        "start",
        "turn",
    )

    def __init__(self, start: State) -> None:
        driver = self._driver = _driver(start.game)
        lay = self.layout = driver.layout
        self.start = start
        self.codes: list[int] = []
        self.actions: list[int] = []
        self._fixed, self._apply = driver.at, driver.apply
        self._row = np.zeros((1, lay.width), dtype=np.int64)
        self._row[0, :STATE_SIZE] = lay.kernel.pack(start)
        self._at = self._row.ctypes.data
        _, self.result, self.turn, self.count = driver.start(self._at, self._fixed)
        self._view()
        self._engine: State | None = None

    def _view(self) -> None:
        """``next``: the row's next actions (the first ``count``) as a buffer, cheaper to
        slice than the array."""
        acts = self.layout.acts
        self.next = self._row[0, acts : acts + batch.MAX_MOVES].data

    def copy(self) -> ActionCursor:
        other = ActionCursor.__new__(ActionCursor)
        other._driver, other.layout, other.start = self._driver, self.layout, self.start
        other._fixed, other._apply = self._fixed, self._apply
        other.codes = list(self.codes)
        other.actions = list(self.actions)
        other._row = np.empty_like(self._row)
        other._at = self._driver.copy(self._row, self.layout.cfg, other._row)
        other._view()
        other._engine = None
        other.result, other.turn, other.count = self.result, self.turn, self.count
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionCursor:
        return self.copy()

    def is_over(self) -> bool:
        return self.result != ONGOING

    @property
    def prefix(self) -> tuple[int, ...]:
        """The actions already taken of a move in progress."""
        depth = int(self._row[0, batch.R_DEPTH])
        return tuple(self.actions[len(self.actions) - depth :]) if depth else ()

    @property
    def engine(self) -> State:
        """The engine state of the moves completed so far (its history included)."""
        engine = self._engine
        if engine is None:
            engine = self._engine = self.start.copy()
        for code in self.codes[len(engine.move_stack) - len(self.start.move_stack) :]:
            engine.push_code(code)
        return engine

    def legal_actions(self) -> list[int]:
        """The next actions, sorted (none once the game is over), as a new list."""
        return self.next[: self.count].tolist()

    def apply(self, action: int) -> bool:
        """Take one action; True when it completed a move.  ``ValueError`` (and no change) if
        the action is not legal here, ``TypeError`` if it is not an integer."""
        if action.__class__ is not int:
            action = operator.index(action)
        # an illegal action answers the result, side and count unchanged
        code, self.result, self.turn, self.count = self._apply(self._at, self._fixed, action)
        if code < 0:
            if code == -2:
                raise ValueError(f"action {action} is not legal here")
            self.actions.append(action)
            return False
        self.actions.append(action)
        self.codes.append(code)
        return True

    def action_name(self, action: int) -> str:
        """The move an action completes, in notation, or the action's number within a move
        made in steps."""
        engine, prefix = self.engine, self.prefix
        for code in engine.legal_codes():
            path = engine.action_path(code)
            if path[: len(prefix) + 1] == (*prefix, action):
                return str(engine.move_of(code)) if len(path) == len(prefix) + 1 else f"{action}"
        return f"action {action}"

    def returns(self) -> list[float]:
        """Final rewards indexed by ``Color`` (White 0, Black 1): +1 win, -1 loss, 0 draw or
        not over."""
        result = self.result
        if result != WIN and result != LOSS:
            return [0.0, 0.0]
        winner = Color(self.turn if result == WIN else 1 - self.turn)
        return [1.0, -1.0] if winner is Color.WHITE else [-1.0, 1.0]

    def observation(self) -> npt.NDArray[np.float32]:
        """The engine's feature planes (one value per point) and a side-to-move plane (1 where
        White is to move), as a new array."""
        lay = self.layout
        obs = np.empty((1, lay.planes * lay.points), dtype=np.float32)
        self._driver.observe(self._at, self._fixed, obs)
        return obs.reshape(lay.planes, lay.points)
