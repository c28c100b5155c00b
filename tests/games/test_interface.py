"""The game interface itself: moves are values (game, board, code), and a game that implements
only the rules core is playable everywhere (terminal, records, search, pictures, features)."""

from __future__ import annotations

import pickle
from collections.abc import Hashable, Iterator
from functools import cached_property

import numpy as np
import pytest
from numba import njit

import ludoteca
from ludoteca import record
from ludoteca.ai import Limit, make_agent
from ludoteca.ai.search import SearchAgent
from ludoteca.cli import main
from ludoteca.compiled.drivers import perft_counts, random_game
from ludoteca.compiled.kernel import KEY, LOSS, ONGOING, STATE_SIZE, TURN, IntArray, zobrist
from ludoteca.compiled.registry import REQUIRED, Kernel, functions
from ludoteca.compiled.registry import register as register_kernel
from ludoteca.compiled.search import CompiledSearch
from ludoteca.core import (
    Color,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Move,
    Outcome,
    RuleSetDef,
    State,
    Termination,
)
from ludoteca.drawing import BoardDescription
from ludoteca.games import GAMES, family, game_names, register
from ludoteca.games.morelli.rules import MorelliMove
from ludoteca.games.morris.rules import MorrisMove
from ludoteca.perft import perft
from ludoteca.perft import perft_counts as perft_counts_engine
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


# --- a game bound to its rule set ------------------------------------------------------------
def test_a_game_is_bound_to_its_rule_set() -> None:
    game = ludoteca.load("morris-12")
    assert game is ludoteca.load("twelve-mens-morris") is family("mills").of("morris-12")
    assert game.title == "Twelve Men's Morris" and family("morris").title == "Nine Men's Morris"
    assert len(game.board.points) == 24 and game.num_distinct_actions == 24 + 24 * 24
    assert game.status_texts["place"] == "choose a point to place a man"
    assert ludoteca.load("morabaraba").status_texts["place"] == "choose a point to place a cow"
    state = game.new()
    assert state.game is game and state.rules == game.rules
    assert pickle.loads(pickle.dumps(state)).game is game
    assert game.from_position_code(state.position_code()).position_code() == state.position_code()
    assert ludoteca.load("morris-12:move_rule=50").rules["move_rule"] == 50
    assert ludoteca.load("morris", "morris-6").rules.name == "morris-6"
    assert ludoteca.load("morris").rules.name == "morris"  # a game name: its default rule set
    with pytest.raises(InvalidRulesError, match="unknown morris rule set"):
        ludoteca.load("morris", "felli")


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

    def __init__(self, game: Game, pile: int = 7, turn: Color = Color.WHITE) -> None:
        self.game, self.rules = game, game.rules
        self.pile, self.turn, self.ply = pile, turn, 0
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

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def board(self) -> BoardDescription:
        return BoardDescription(points=("a1",), coords=((0.0, 0.0),))

    def new(self, setup: str | None = None, seed: int | None = None) -> TakeState:
        return TakeState(self)

    def from_position_code(self, code: str) -> TakeState:
        pile, _, side = code.partition(" ")
        if not pile.isdigit() or side not in ("w", "b"):
            raise InvalidPositionError(f"{code!r}: write the pile and w or b")
        return TakeState(self, int(pile), Color.WHITE if side == "w" else Color.BLACK)


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
    assert state.pieces() == [""] and state.marked_points() == [] and state.gesture(0) == ()
    assert state.planes() == [[0.0], [0.0]]
    assert state.evaluate() == 0.0 and "<svg" in render(state)
    assert main(["play", "take-test", "--white", "random", "--black", "random", "--seed", "3"]) == 0
    assert "wins: the player to move has no legal move" in capsys.readouterr().out


def test_every_option_explained_is_a_setting_of_the_game() -> None:
    for name in game_names():
        game = family(name)
        settings = {k for d in game.rule_sets for k in d.defaults}
        assert set(game.options) <= settings, name
        assert all(text[0].isupper() and len(text) > 15 for text in game.options.values())


# --- the same game gains a compiled kernel through the registry alone (docs/new-game.md) ---
# st: KEY, TURN, QUIET (the shared slots), then the pile; prm: a Zobrist key per pile, then
# the key of Black to move
PILE = 3


@njit(cache=True)
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    n = 0
    for code in (0, 1):
        if code < st[PILE]:
            out[n] = code
            n += 1
    return n


@njit(cache=True, inline="always")
def _key(st: IntArray, prm: IntArray) -> int:
    return int(prm[st[PILE]] ^ (prm[prm.size - 1] if st[TURN] else 0))


@njit(cache=True, inline="always")
def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    st[PILE] -= move + 1
    st[TURN] = 1 - st[TURN]
    st[KEY] = _key(st, prm)


@njit(cache=True, inline="always")
def unmake(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    st[PILE] += move + 1
    st[TURN] = 1 - st[TURN]
    st[KEY] = _key(st, prm)


@njit(cache=True, inline="always")
def status(st: IntArray, prm: IntArray, n: int) -> int:
    return LOSS if n == 0 else ONGOING


@njit(cache=True)
def evaluate(st: IntArray, prm: IntArray) -> int:
    return 0


@njit(cache=True, inline="always")
def tactical(st: IntArray, prm: IntArray, move: int) -> bool:
    return False


class CompiledTake(Take):
    """The pile game again, now declaring a kernel: the functions above, registered by name."""

    name = "take-compiled"
    rule_sets = (RuleSetDef("take-compiled", "A pile of seven, searched compiled.", {}),)

    @cached_property
    def kernel(self) -> Kernel:
        prm = zobrist(TakeState(self).pile + 2, 7)

        def pack(state: State) -> IntArray:
            assert isinstance(state, TakeState)
            st = np.zeros(STATE_SIZE, dtype=np.int64)
            st[TURN], st[PILE] = int(state.turn), state.pile
            st[KEY] = _key(st, prm)
            return st

        return Kernel("take-compiled", prm, pack, PILE + 1)


def test_a_game_gains_a_compiled_kernel_through_the_registry_alone() -> None:
    register_kernel("take-compiled", __name__)
    assert set(functions("take-compiled")) == set(REQUIRED)  # the optional ones default
    state = CompiledTake.of().new()
    assert perft_counts(state, 7) == [c for _, c in perft_counts_engine(state, 7)]
    codes, counts, winner = random_game(state, seed=3)
    replay = state.copy()
    for code, count in zip(codes, counts, strict=True):
        assert count == len(replay.legal_codes())
        replay.push_code(code)
    assert replay.outcome() == Outcome(Termination.NO_LEGAL_MOVES, winner)
    found = CompiledSearch(CompiledTake.of().kernel).run(state, max_depth=8)
    assert found is not None and found.moves[0] == 0  # take one, leave six: the only win
    readable = SearchAgent(0, compiled=False).analyse(state, Limit(depth=8))
    assert found.scores[0] == readable.score and str(readable.move) == "1"


def test_a_kernel_lacking_a_function_is_refused_by_name() -> None:
    register_kernel("take-incomplete", "ludoteca.games.pointboard")
    with pytest.raises(LookupError, match="lacks generate, make, unmake, status"):
        functions("take-incomplete")
    with pytest.raises(LookupError, match="no kernel is registered as 'nothing'"):
        functions("nothing")
