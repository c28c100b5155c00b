"""The game interface itself: moves are values (game, board, code), and a game that implements
only the rules core is playable everywhere (terminal, records, search, pictures, features)."""

from __future__ import annotations

import pickle
from collections.abc import Hashable, Iterator
from typing import ClassVar

import pytest

import ludoteca
from ludoteca import record
from ludoteca.ai import make_agent
from ludoteca.cli import main
from ludoteca.core import (
    BoardDescription,
    Color,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    RuleSet,
    RuleSetDef,
    State,
    Termination,
)
from ludoteca.games import GAMES, register
from ludoteca.games.morelli import MorelliMove
from ludoteca.games.morris import MorrisMove
from ludoteca.perft import perft
from ludoteca.svg import render


# --- moves are values ---------------------------------------------------------------------
def test_the_same_code_on_another_board_is_another_move() -> None:
    nine, twelve = ludoteca.new_game("morris"), ludoteca.new_game("morris-12")
    code = nine.legal_codes()[0]
    assert str(nine.move_of(code)) == str(twelve.move_of(code)) == "a1"
    assert nine.move_of(code) != twelve.move_of(code)
    assert len({nine.move_of(code), twelve.move_of(code)}) == 2
    with pytest.raises(IllegalMoveError, match="not a move of"):
        twelve.push(nine.move_of(code))
    assert twelve.ply == 0 and not twelve.move_stack
    assert ludoteca.new_game("morabaraba").move_of(code) == twelve.move_of(code)  # one board


def test_a_move_of_another_game_is_refused_even_when_the_codes_collide() -> None:
    state = ludoteca.new_game("morris")
    code = state.legal_codes()[5]
    foreign = MorelliMove.from_code(code, "13x13")
    assert foreign.code == code
    with pytest.raises(IllegalMoveError, match="not a move of"):
        state.push(foreign)
    assert state.ply == 0


@pytest.mark.parametrize(
    "rules", ["morris", "morris-6", "morabaraba", "felli-mullah", "morelli", "morelli-9"]
)
def test_moves_survive_pickling_and_repr(rules: str) -> None:
    state = ludoteca.new_game(rules, seed=4)
    namespace = {
        "MorrisMove": MorrisMove,
        "MorelliMove": MorelliMove,
        "FelliMove": type(state.move_of(state.legal_codes()[0])),
    }
    for move in list(state.legal_moves)[:30]:
        again = pickle.loads(pickle.dumps(move))
        assert again == move and again is move  # interned per board
        assert eval(repr(move), namespace) == move
        assert type(move).from_code(move.code, move.board) is move


def test_morelli_codes_decode_on_the_rule_sets_board() -> None:
    state = ludoteca.new_game("morelli-9", seed=2)
    for code in state.legal_codes():
        move = MorelliMove.from_code(code, "9x9")
        assert move == state.move_of(code) and move.board == "9x9"
        assert str(move) == str(state.move_of(code))
        assert MorelliMove.from_code(code, "13x13") != move


# --- a game with only its rules -----------------------------------------------------------
class TakeMove(Move):
    """Take one or two counters: ``1``, ``2``."""

    __slots__ = ()

    @classmethod
    def from_code(cls, code: int, board: str = "") -> TakeMove:
        return TAKES[code]

    @staticmethod
    def parse(text: str) -> TakeMove:
        if text.strip() not in ("1", "2"):
            raise InvalidMoveError(f"{text!r}: take 1 or 2")
        return TAKES[int(text) - 1]


TAKES = (TakeMove(0, "1"), TakeMove(1, "2"))


class TakeState(State):
    """A pile of counters; a turn takes one or two; who cannot move (the pile is empty) loses."""

    game: ClassVar[type[Game]]

    def __init__(self, rules: RuleSet, pile: int = 7, turn: Color = Color.WHITE) -> None:
        self.rules, self.pile, self.turn, self.ply = rules, pile, turn, 0
        self.move_stack: list[int] = []
        self.start = self.position_code()

    def legal_codes(self) -> list[int]:
        return [c for c in (0, 1) if c < self.pile]

    def push_code(self, code: int) -> None:
        self.pile -= code + 1
        self.turn, self.ply = self.turn.other, self.ply + 1
        self.move_stack.append(code)

    def pop_code(self) -> int:
        code = self.move_stack.pop()
        self.pile += code + 1
        self.turn, self.ply = self.turn.other, self.ply - 1
        return code

    def move_of(self, code: int) -> TakeMove:
        return TAKES[code]

    def read_move(self, text: str) -> TakeMove:
        return TakeMove.parse(text)

    def outcome(self) -> Outcome | None:
        return None if self.pile else Outcome(Termination.NO_LEGAL_MOVES, self.turn.other)

    def position_key(self) -> Hashable:
        return (self.pile, self.turn)

    def position_code(self) -> str:
        return f"{self.pile} {'wb'[self.turn]}"


class Take(Game):
    name = "take-test"
    title = "Take one or two"
    rule_sets = (RuleSetDef("take-test", "A pile of seven.", {}),)

    @classmethod
    def num_distinct_actions(cls, rules: RuleSet) -> int:
        return 2

    @classmethod
    def board(cls, rules: RuleSet) -> BoardDescription:
        return BoardDescription(points=("a1",), coords=((0.0, 0.0),))

    @classmethod
    def new(
        cls, rules: str | RuleSet | None = None, setup: str | None = None, seed: int | None = None
    ) -> TakeState:
        return TakeState(cls.rules(rules))

    @classmethod
    def from_position_code(cls, code: str, rules: str | RuleSet | None = None) -> TakeState:
        pile, _, side = code.partition(" ")
        if not pile.isdigit() or side not in ("w", "b"):
            raise InvalidPositionError(f"{code!r}: write the pile and w or b")
        return TakeState(cls.rules(rules), int(pile), Color.WHITE if side == "w" else Color.BLACK)


TakeState.game = Take


@pytest.fixture
def take() -> Iterator[type[Game]]:
    register(Take)
    yield Take
    for name in [n for n, g in GAMES.items() if g is Take]:
        del GAMES[name]


def test_a_rules_only_game_is_playable_everywhere(
    take: type[Game], capsys: pytest.CaptureFixture[str]
) -> None:
    state = ludoteca.new_game("take-test")
    assert perft(state, 0) == 1 and perft(state, 3) == 8
    best = make_agent("search:depth=8", state.rules, seed=1).choose(state)
    assert str(best) == "1"  # leave six, a multiple of three: the only winning move
    assert make_agent("level:1", state.rules, seed=1).choose(state) in state.legal_moves
    state.push("1")
    text = record.dumps(record.from_state(state, white="a", black="b"))
    assert record.loads(text).state.position_code() == "6 b"
    assert state.pieces() == [""] and state.gesture(0) == () and state.planes() == [[0.0], [0.0]]
    assert state.evaluate() == 0.0 and "<svg" in render(state)
    assert main(["play", "take-test", "--white", "random", "--black", "random", "--seed", "3"]) == 0
    assert "wins: the player to move has no legal move" in capsys.readouterr().out


def test_every_option_explained_is_a_setting_of_the_game() -> None:
    from ludoteca.games import find_game, game_names

    for name in game_names():
        game = find_game(name)
        settings = {k for d in game.rule_sets for k in d.defaults}
        assert set(game.options) <= settings, name
        assert all(text[0].isupper() and len(text) > 15 for text in game.options.values())
