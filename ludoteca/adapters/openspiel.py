"""Our games as OpenSpiel Python games, so OpenSpiel's algorithms and bots can play them.

``register(NAME)`` registers ``ludoteca_NAME`` with ``pyspiel`` for a registered game (parameter
``rules``, and ``seed`` for a game with a random setup, ``position`` for a start given by a
position code); then ``pyspiel.load_game("ludoteca_NAME")`` works as for any OpenSpiel game.
Actions are the engine's integer actions (``State.action_path``): one per move, or one per step
of a move made in steps (a capture chain's leaps, a mill and its removal), the same player
acting again until the move is complete.
Observation tensors are the engine's feature planes plus a side-to-move plane.  States are
stepped by the game's compiled kernel (:class:`~.actions.ActionCursor`); ``state.engine`` is the
engine state they stand for, built when asked for.

Requires the optional ``open-spiel`` package (``pip install ludoteca[research]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..core import State
from ..games import load
from .actions import ActionCursor

__all__ = ["LudotecaGame", "LudotecaState", "register"]

_REGISTERED: dict[str, str] = {}
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _short_name(game: str) -> str:
    return f"ludoteca_{game}"


class LudotecaGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game backed by a Ludoteca engine."""

    #: the registered game's name (each registration makes a subclass that sets it)
    game_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = self.game_name
        self.game = load(game, params.get("rules") or None)
        self.rules = self.game.rules
        self.seed = int(params.get("seed", 0))
        self.position = str(params.get("position") or "")
        probe = self._start()
        self.initial = ActionCursor(probe)  # each new state is a copy
        self.points = len(self.game.board.points)
        self.planes = len(probe.planes()) + 1
        # a capture chain is an action per leap: at most one extra action per captured piece
        max_length = self.game.longest_game + self.points
        game_type = _game_type(game, str(self.rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.game.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_length,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> LudotecaState:
        return LudotecaState(self, self.initial.copy())

    def _start(self) -> State:
        if self.position:
            return self.game.from_position_code(self.position)
        return self.game.new(seed=self.seed)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self)


class LudotecaState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: a game in its kernel, ``cursor`` (an :class:`~.actions.ActionCursor`).

    A Python caller's ``legal_actions``, ``apply_action``, ``is_terminal``,
    ``current_player``, ``returns`` and ``clone`` are answered here, not through OpenSpiel's
    C++ ``State`` (whose round trip into Python costs more than the move), so the history is
    the cursor's: ``history``, ``history_str`` and ``move_number``.

    The cursor is the slot ``_c``, and the state has no instance dict: a method call on a
    pybind11 object whose instance dict holds anything costs about twice as much (Python's
    method lookup cannot specialise on it).  ``__dict__`` answers ``{"cursor": cursor}``, the
    state's Python side as OpenSpiel's C++ ``Clone`` reads it (it sets each entry on a new
    initial state, a copy of the cursor through ``cursor``'s setter).

    ``apply_action(action)`` (and ``_apply_action``, which OpenSpiel's C++ calls) takes an
    action, ``ValueError`` (and no change) if it is not legal: the cursor's own
    :meth:`~.actions.ActionCursor.apply`, kept bound in a slot of the state, one Python call
    fewer an action than a method that hands over to it.
    """

    __slots__ = ("_apply_action", "_c", "apply_action")

    def __init__(self, game: LudotecaGame, cursor: ActionCursor) -> None:
        super().__init__(game)
        self.cursor = cursor

    @property
    def cursor(self) -> ActionCursor:
        return self._c

    @cursor.setter
    def cursor(self, cursor: ActionCursor) -> None:
        self._c = cursor
        self.apply_action = self._apply_action = cursor.apply

    @property
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        return {"cursor": self._c}

    @property
    def engine(self) -> State:
        return self._c.engine

    @property
    def prefix(self) -> tuple[int, ...]:
        """The actions already taken of a capture chain in progress."""
        return self._c.prefix

    def clone(self) -> LudotecaState:
        """A copy that goes on independently (made here: OpenSpiel's C++ ``clone`` builds a
        new initial state first)."""
        return LudotecaState(self.get_game(), self._c.copy())

    def __deepcopy__(self, memo: dict[int, Any]) -> LudotecaState:
        return self.clone()

    def current_player(self) -> int:
        cursor = self._c
        return _TERMINAL if cursor.result else cursor.turn

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), sorted, as a new
        list."""
        cursor = self._c
        if player is not None and player != cursor.turn:
            return []
        return cursor.next[: cursor.count].tolist()

    def _legal_actions(self, player: int) -> list[int]:
        return self._c.legal_actions()

    def history(self) -> list[int]:
        return list(self._c.actions)

    def history_str(self) -> str:
        return ", ".join(map(str, self._c.actions))

    def move_number(self) -> int:
        return len(self._c.actions)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._c.action_name(action)

    def is_terminal(self) -> bool:
        return self._c.result != 0

    def returns(self) -> list[float]:
        return self._c.returns()

    def __str__(self) -> str:
        return str(self.engine)


class _Observer:
    """The engine's feature planes and a side-to-move plane, flattened."""

    def __init__(self, game: LudotecaGame) -> None:
        shape = (game.planes, game.points)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: LudotecaState, player: int) -> None:
        self.dict["observation"][:] = state.cursor.observation()

    def string_from(self, state: LudotecaState, player: int) -> str:
        return state.engine.position_code()


def _game_type(game: str, rules: str) -> Any:
    return pyspiel.GameType(
        short_name=_short_name(game),
        long_name=f"Ludoteca {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": rules, "seed": 0, "position": ""},
    )


def register(game: str) -> str:
    """Register a Ludoteca game with pyspiel (once) and return its OpenSpiel short name."""
    default = load(game)
    name = _short_name(default.name)
    if name not in _REGISTERED:
        factory = type(
            f"Ludoteca{type(default).__name__}Game", (LudotecaGame,), {"game_name": default.name}
        )
        pyspiel.register_game(_game_type(default.name, str(default.rules)), factory)
        _REGISTERED[name] = default.name
    return name
