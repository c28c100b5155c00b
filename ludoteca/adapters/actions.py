"""A game seen one integer action at a time, stepped by the game's compiled kernel, for the
research adapters.

Most moves are one action (``State.action_path``); a capture chain is one action per leap,
the same player acting again until the chain is complete.  :class:`ActionCursor` keeps the game
as one row of the kernel driver (:mod:`ludoteca.compiled.batch`: the kernel's position, the
legal moves left for the actions already taken, the sorted next actions, the keys for
threefold repetition) and offers what both OpenSpiel and PettingZoo need: the legal actions,
applying one, the end and the returns, and an observation.  The engine state it stands for is
built on demand (replayed from the start), for notation, printing and the outcome's wording.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..compiled import batch
from ..compiled.kernel import LOSS, STATE_SIZE, TURN, WIN
from ..core import Color, Game, State

__all__ = ["ActionCursor"]

_LAYOUTS: dict[Game, Any] = {}
#: a cursor never stops a game: the engine's own rules end it
_NO_LIMIT = 1 << 62


def _layout(game: Game) -> Any:
    """The driver's layout of ``game``'s rows (made once per rule set)."""
    if game not in _LAYOUTS:
        _LAYOUTS[game] = batch.layout(game, _NO_LIMIT)
    return _LAYOUTS[game]


class ActionCursor:
    """A game from ``start`` (an engine state) in its kernel, plus the actions already taken
    of a move in progress (``prefix``) and the codes of the moves played (``codes``)."""

    __slots__ = ("_engine", "_legal", "_row", "codes", "layout", "over", "prefix", "start", "turn")

    def __init__(self, start: State) -> None:
        self.layout = _layout(start.game)
        self.start = start
        self.codes: list[int] = []
        self.prefix: tuple[int, ...] = ()
        self._row = np.zeros((1, self.layout.width), dtype=np.int64)
        self._row[0, :STATE_SIZE] = self.layout.kernel.pack(start)
        self.layout.code.cursor_start(self._row, self.layout.prm, self.layout.cfg, _NO_MASK)
        self._engine: State | None = None
        self._legal: list[int] | None = None
        self._read()

    def _read(self) -> None:
        self.over = bool(self._row[0, batch.R_RESULT])
        self.turn = int(self._row[0, TURN])

    def copy(self) -> ActionCursor:
        other = ActionCursor.__new__(ActionCursor)
        other.layout = self.layout
        other.start = self.start
        other.codes = list(self.codes)
        other.prefix = self.prefix
        other._row = self._row.copy()
        other._engine = None
        other._legal = self._legal  # never changed once built, so it can be shared
        other.over = self.over
        other.turn = self.turn
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionCursor:
        return self.copy()

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
        """The next actions, sorted (none once the game is over)."""
        if self._legal is None:
            acts = self.layout.acts
            self._legal = self._row[0, acts : acts + self._row[0, batch.R_COUNT]].tolist()
        return self._legal

    def is_over(self) -> bool:
        return self.over

    def apply(self, action: int) -> bool:
        """Take one action; True when it completed a move.  ``ValueError`` (and no change) if
        the action is not legal here."""
        lay = self.layout
        code, result, self.turn = lay.code.cursor_apply(
            self._row, lay.prm, lay.cfg, _NO_MASK, action
        )
        if code == -2:
            raise ValueError(f"action {action} is not legal here")
        self._legal = None
        if code == -1:
            self.prefix = (*self.prefix, action)
            return False
        self.codes.append(code)
        self.prefix = ()
        self.over = result != 0
        return True

    def action_name(self, action: int) -> str:
        """The move an action completes, in notation, or the action number mid-chain."""
        engine = self.engine
        for code in engine.legal_codes():
            path = engine.action_path(code)
            if path[: len(self.prefix) + 1] == (*self.prefix, action):
                return str(engine.move_of(code)) if len(path) == 1 else f"{action}"
        return f"action {action}"

    def returns(self) -> list[float]:
        """Final rewards indexed by ``Color`` (White 0, Black 1): +1 win, -1 loss, 0 draw or
        not over."""
        result = int(self._row[0, batch.R_RESULT])
        if result not in (WIN, LOSS):
            return [0.0, 0.0]
        winner = Color(self.turn if result == WIN else 1 - self.turn)
        return [1.0, -1.0] if winner is Color.WHITE else [-1.0, 1.0]

    def observation(self) -> npt.NDArray[np.float32]:
        """The engine's feature planes (one value per point) and a side-to-move plane (1 where
        White is to move), as a new array."""
        lay = self.layout
        obs = np.empty((1, lay.planes * lay.points), dtype=np.float32)
        lay.code.cursor_observe(self._row, lay.prm, lay.cfg, obs)
        return obs.reshape(lay.planes, lay.points)


#: the driver's mask argument when it keeps none
_NO_MASK = np.zeros((1, 1), dtype=np.bool_)
