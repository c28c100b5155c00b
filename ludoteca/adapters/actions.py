"""A position seen one integer action at a time, for the research adapters.

Most moves are one action (``State.action_path``); a capture chain is one action per leap,
the same player acting again until the chain is complete.  :class:`ActionCursor` keeps the
actions of a chain in progress and offers what both OpenSpiel and PettingZoo need: the legal
actions, applying one, the end and the returns, and an observation.
"""

from __future__ import annotations

from typing import Any

from ..core import Color, State

__all__ = ["ActionCursor"]


class ActionCursor:
    """An engine state plus the actions already taken of a move in progress."""

    __slots__ = ("_options", "_single", "engine", "prefix")

    def __init__(self, engine: State) -> None:
        self.engine = engine
        self.prefix: tuple[int, ...] = ()
        self._options: dict[int, list[int]] | None = None
        self._single = type(engine).action_path is State.action_path

    def copy(self) -> ActionCursor:
        other = ActionCursor(self.engine.copy())
        other.prefix = self.prefix
        other._options = self._options  # never changed once built, so it can be shared
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionCursor:
        return self.copy()

    def options(self) -> dict[int, list[int]]:
        """Next action -> the legal moves (codes) whose action path continues with it
        (computed once per position and chain prefix)."""
        if self._options is None:
            options: dict[int, list[int]] = {}
            if self._single:
                for code in self.engine.legal_codes():
                    options[code] = [code]
            else:
                n = len(self.prefix)
                for code in self.engine.legal_codes():
                    path = self.engine.action_path(code)
                    if path[:n] == self.prefix:
                        options.setdefault(path[n], []).append(code)
            self._options = options
        return self._options

    def legal_actions(self) -> list[int]:
        return sorted(self.options())

    def is_over(self) -> bool:
        return not self.options()

    def apply(self, action: int) -> bool:
        """Take one action; True when it completed a move.  ``ValueError`` (and no change) if
        the action is not legal here."""
        options = self.options()
        if action not in options:
            raise ValueError(f"action {action} is not legal here")
        prefix = (*self.prefix, action)
        for code in options[action]:
            if self.engine.action_path(code) == prefix:
                self.engine.push_code(code)
                self.prefix = ()
                self._options = None
                return True
        self.prefix = prefix
        self._options = None
        return False

    def action_name(self, action: int) -> str:
        """The move an action completes, in notation, or the action number mid-chain."""
        for code in self.engine.legal_codes():
            path = self.engine.action_path(code)
            if path[: len(self.prefix) + 1] == (*self.prefix, action):
                return str(self.engine.move_of(code)) if len(path) == 1 else f"{action}"
        return f"action {action}"

    def returns(self) -> list[float]:
        """Final rewards indexed by ``Color`` (White 0, Black 1): +1 win, -1 loss, 0 draw or
        not over."""
        outcome = self.engine.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner is Color.WHITE else [-1.0, 1.0]

    def observation(self) -> list[list[float]]:
        """The engine's feature planes (one value per point) and a side-to-move plane."""
        planes = self.engine.planes()
        white = float(self.engine.turn is Color.WHITE)
        return [*planes, [white] * len(planes[0])]
