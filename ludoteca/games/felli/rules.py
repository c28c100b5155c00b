"""The rules of Felli (Fich), exactly as docs/rules.md states it, on the board of :mod:`.board`
(points 0..12: a1 c1 e1 b2 c2 d2 c3 b4 c4 d4 a5 c5 e5).  ``board[p]`` is 0 (empty), 1 (a
White/South man), 2 (a Black/North man), 5 or 6 (a White or Black Mullah: owner | ``MULLAH``).

A move is the path of points its piece stands on (start, then each landing point) and whether it
captures; its code packs that as ``capture + 2 * sum((path[i] + 1) * 14**i)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import ClassVar

from ...compiled.registry import Kernel
from ...core import (
    ENDLESS,
    QUIET_THEME,
    Color,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Move,
    Outcome,
    RuleSetDef,
    SettingWords,
    State,
    Termination,
)
from ...drawing import BoardDescription, PieceStyle
from ...i18n import N_, Text, _, ngettext
from ...ladder import Rung
from ...lessons import Lesson
from ...tables import Solver
from ..draws import DRAW_DEFAULTS, DRAW_OPTIONS, DRAW_WORDS, RepeatingState
from ..pointboard import PointBoardGame
from ..words import listed, ordered, points_of, position_words, side_words
from .board import BETWEEN, EDGES, INDEX, MULLAH, POINTS, PROMOTION, RAYS

START = (1, 1, 1, 1, 1, 1, 0, 2, 2, 2, 2, 2, 2)
_ROWS = ((10, 11, 12), (7, 8, 9), (6,), (3, 4, 5), (0, 1, 2))
_CHARS = {0: ".", 1: "w", 2: "b", 5: "W", 6: "B"}
_TOKENS = {0: "", 1: "w", 2: "b", 5: "W", 6: "B"}
_PIECES = {ch: v for v, ch in _CHARS.items()}


def encode(path: tuple[int, ...] | list[int], capture: bool) -> int:
    """The move code of a path of points, capturing or not."""
    total = 0
    for p in reversed(path):
        total = total * 14 + p + 1
    return int(capture) + 2 * total


@lru_cache(maxsize=1 << 16)
def decode(code: int) -> tuple[tuple[int, ...], bool]:
    """The path and capture flag of a move code (cached: the same codes recur all game)."""
    capture = bool(code & 1)
    rest = code >> 1
    path = []
    while rest:
        rest, digit = divmod(rest, 14)
        path.append(digit - 1)
    return tuple(path), capture


@lru_cache(maxsize=1 << 16)
def _action_path(code: int) -> tuple[int, ...]:
    path, _ = decode(code)
    return tuple(a * 13 + b for a, b in pairwise(path))


class FelliMove(Move):
    """A Felli move: a step or slide ``b2-c3``, a capture ``d4xb2``, a chain ``a1xc3xe5``."""

    __slots__ = ("capture", "path")

    path: tuple[int, ...]
    capture: bool

    def __init__(self, code: int) -> None:
        path, capture = decode(code)
        super().__init__(code, ("x" if capture else "-").join(POINTS[p] for p in path))
        object.__setattr__(self, "path", tuple(path))
        object.__setattr__(self, "capture", capture)

    @classmethod
    def from_code(cls, code: int, board: str = "") -> FelliMove:
        return move_of_code(code)

    @staticmethod
    def parse(text: str) -> FelliMove:
        """The move written ``text``, legal or not; :class:`InvalidMoveError` if unreadable."""
        clean = text.strip().lower()
        if not _MOVE_RE.fullmatch(clean):
            raise InvalidMoveError(
                _("%(text)s is not a Felli move (write b2-c3, d4xb2 or a1xc3xe5)", text=repr(text))
            )
        names = re.split(r"[-x]", clean)
        bad = [n for n in names if n not in INDEX]
        if bad:
            raise InvalidMoveError(
                _(
                    "%(text)s: %(point)s is not a point of the Felli board",
                    text=repr(text),
                    point=bad[0],
                )
            )
        path = [INDEX[n] for n in names]
        for a, b in pairwise(path):
            if BETWEEN[a][b] is None:
                raise InvalidMoveError(
                    _(
                        "%(text)s: %(first)s and %(second)s are not on one line",
                        text=repr(text),
                        first=POINTS[a],
                        second=POINTS[b],
                    )
                )
        return move_of_code(encode(path, "x" in clean))


_MOVE_RE = re.compile(r"[a-e][1-5](?:-[a-e][1-5]|(?:x[a-e][1-5])+)")
_MOVES: dict[int, FelliMove] = {}


def move_of_code(code: int) -> FelliMove:
    """The interned move for a code."""
    move = _MOVES.get(code)
    if move is None:
        move = _MOVES[code] = FelliMove(code)
    return move


class FelliState(RepeatingState):
    """A Felli position with history."""

    def __init__(
        self,
        game: Felli,
        board: tuple[int, ...] = START,
        turn: Color = Color.WHITE,
        ply: int = 0,
        quiet: int = 0,
    ) -> None:
        self.game = game
        self.rules = rules = game.rules
        self.board = list(board)
        self.turn = turn
        self.ply = ply
        self.quiet = quiet
        self.move_stack: list[int] = []
        self._undo: list[tuple[tuple[tuple[int, int], ...], bool, int]] = []
        self._forced = bool(rules["forced_capture"])
        self._multi = bool(rules["multi_capture"])
        self._mullah = bool(rules["mullah"])
        self._start_history(rules)
        self.start = self.position_code()

    # --- move generation ------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        if self._drawn():
            return []
        return self._generate()

    def _generate(self) -> list[int]:
        board = self.board
        side = self.turn + 1
        enemy = 3 - side
        captures: list[int] = []
        steps: list[int] = []
        for p in range(13):
            piece = board[p]
            if piece & 3 != side:
                continue
            board[p] = 0
            self._chains(p, piece & MULLAH, enemy, [p], captures)
            board[p] = piece
            if captures and self._forced:
                continue
            for ray in RAYS[p]:
                for q in ray:
                    if board[q]:
                        break
                    steps.append(encode((p, q), False))
                    if not piece & MULLAH:
                        break
        if captures and self._forced:
            return captures
        return captures + steps

    def _chains(self, p: int, mullah: int, enemy: int, path: list[int], out: list[int]) -> None:
        """Append the capture moves of a piece standing (lifted) at ``path[-1] == p``."""
        board = self.board
        leaps = []
        for ray in RAYS[p]:
            k = 0
            if mullah:
                while k < len(ray) and not board[ray[k]]:
                    k += 1
            if k + 1 >= len(ray) or board[ray[k]] & 3 != enemy:
                continue
            for landing in ray[k + 1 :]:
                if board[landing]:
                    break
                leaps.append((ray[k], landing))
                if not mullah:
                    break
        if not leaps:
            if len(path) > 1:
                out.append(encode(path, True))
            return
        for victim, landing in leaps:
            path.append(landing)
            if self._multi:
                taken = board[victim]
                board[victim] = 0
                self._chains(landing, mullah, enemy, path, out)
                board[victim] = taken
            else:
                out.append(encode(path, True))
            path.pop()

    def push_code(self, code: int) -> None:
        path, capture = decode(code)
        board = self.board
        piece = board[path[0]]
        board[path[0]] = 0
        taken: list[tuple[int, int]] = []
        if capture:
            for a, b in pairwise(path):
                for q in BETWEEN[a][b] or ():
                    if board[q]:
                        taken.append((q, board[q]))
                        board[q] = 0
                        break
        end = path[-1]
        promoted = bool(self._mullah and not piece & MULLAH and end in PROMOTION[piece])
        board[end] = piece | MULLAH if promoted else piece
        self._undo.append((tuple(taken), promoted, self.quiet))
        self.quiet = 0 if taken or promoted else self.quiet + 1
        self.turn = Color(1 - self.turn)
        self.ply += 1
        self.move_stack.append(code)
        self._enter()

    def pop_code(self) -> int:
        self._leave()
        code = self.move_stack.pop()
        path, _ = decode(code)
        taken, promoted, quiet = self._undo.pop()
        self.quiet = quiet
        board = self.board
        piece = board[path[-1]]
        board[path[-1]] = 0
        board[path[0]] = piece & 3 if promoted else piece
        for q, value in taken:
            board[q] = value
        self.turn = Color(1 - self.turn)
        self.ply -= 1
        return code

    def move_of(self, code: int) -> FelliMove:
        return move_of_code(code)

    def read_move(self, text: str) -> FelliMove:
        return FelliMove.parse(text)

    def why_illegal(self, move: Move, legal: list[int]) -> str:
        assert isinstance(move, FelliMove)
        side = self.turn + 1
        start = move.path[0]
        if self.board[start] & 3 != side:
            return _(
                "%(side)s has no piece on %(point)s", side=_(self.turn.title), point=POINTS[start]
            )
        moves = [move_of_code(c) for c in legal]
        mine = [m for m in moves if m.path[0] == start]
        if not move.capture and any(m.capture for m in moves) and self._forced:
            return _("a capture is compulsory: %(moves)s", moves=", ".join(map(str, moves)))
        longer = [m for m in mine if m.capture and m.path[: len(move.path)] == move.path]
        if move.capture and longer:
            return _(
                "the capturing piece must go on capturing: %(moves)s",
                moves=", ".join(map(str, longer)),
            )
        if move.capture and len(move.path) > 2 and not self._multi:
            return _("a turn makes at most one leap in this rule set")
        if not mine:
            return _("the piece on %(point)s cannot move", point=POINTS[start])
        return _(
            "not a legal move here; the piece on %(point)s can play %(moves)s",
            point=POINTS[start],
            moves=", ".join(map(str, mine)),
        )

    # --- knowledge for computer players ------------------------------------------------------
    def is_tactical(self, code: int) -> bool:
        return bool(code & 1)

    def evaluate(self) -> float:
        """Material (a Mullah counts as three men), then the captures each side has ready."""
        side = self.turn + 1
        score = 0.0
        for v in self.board:
            if v:
                worth = 3.0 if v & MULLAH else 1.0
                score += worth if v & 3 == side else -worth
        ready = sum(1 for c in self._generate() if c & 1)
        return math.tanh((score + 0.3 * min(ready, 2)) / 3)

    def action_path(self, code: int) -> tuple[int, ...]:
        """One action ``from * 13 + to`` per step, slide or leap."""
        return _action_path(code)

    def pieces(self) -> list[str]:
        return [_TOKENS[v] for v in self.board]

    def gesture(self, code: int) -> tuple[tuple[str, int], ...]:
        path, _ = decode(code)
        return (("from", path[0]), *(("to", p) for p in path[1:]))

    def move_note(self, code: int) -> str:
        """The men a capture takes and a man made a Mullah: ``"takes c3 and becomes a
        Mullah"``."""
        self.push_code(code)
        taken, promoted, _quiet = self._undo[-1]
        self.pop_code()
        # TRANSLATORS: what a Felli capture does, said after it ("a1xc3xe5"): the men it takes
        words = []
        if taken:
            words.append(
                _("takes %(points)s", points=listed(ordered(POINTS[p] for p, _v in taken)))
            )
        if promoted:
            words.append(_("becomes a Mullah"))
        if len(words) == 2:
            return _("%(first)s and %(second)s", first=words[0], second=words[1])
        return "".join(words)

    def describe(self) -> str:
        """Each side's men and Mullahs by point, and whose turn it is."""
        tokens = self.pieces()
        sides = []
        for colour in Color:
            men = points_of(tokens, POINTS, "wb"[colour])
            mullahs = points_of(tokens, POINTS, "WB"[colour])
            board = []
            if men:
                board.append(
                    ngettext(
                        "%(num)s man, on %(points)s",
                        "%(num)s men, on %(points)s",
                        len(men),
                        points=listed(men),
                    )
                )
            if mullahs:
                board.append(
                    ngettext(
                        "%(num)s Mullah, on %(points)s",
                        "%(num)s Mullahs, on %(points)s",
                        len(mullahs),
                        points=listed(mullahs),
                    )
                )
            sides.append(side_words(colour, board))
        return position_words(sides, self.turn, notice=self.notice())

    def planes(self) -> list[list[float]]:
        """White men, Black men, White Mullahs, Black Mullahs."""
        return [[float(v == kind) for v in self.board] for kind in (1, 2, 5, 6)]

    # --- ending -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """The side to move loses when every man of theirs has been taken
        (:attr:`~ludoteca.core.Termination.ALL_CAPTURED`) or when none can move; else a draw by
        the draw rules, if one applies."""
        if not self._generate():
            side = self.turn + 1
            left = any(piece & 3 == side for piece in self.board)
            ending = Termination.NO_LEGAL_MOVES if left else Termination.ALL_CAPTURED
            return Outcome(ending, Color(1 - self.turn))
        return self._drawn()

    def _key(self) -> int:
        key = int(self.turn)
        for v in self.board:
            key = key * 7 + v
        return key

    def position_key(self) -> int:
        return self._key()

    # --- text forms ---------------------------------------------------------------------------
    def position_code(self) -> str:
        rows = "/".join("".join(_CHARS[self.board[p]] for p in row) for row in _ROWS)
        return f"{rows} {'w' if self.turn is Color.WHITE else 'b'} {self.quiet} {self.ply}"

    def __str__(self) -> str:
        marks = {0: "+", 1: "w", 2: "b", 5: "W", 6: "B"}
        text = _PICTURE
        for i, name in enumerate(POINTS):
            text = text.replace(f"{{{name}}}", marks[self.board[i]])
        side = "White (South)" if self.turn is Color.WHITE else "Black (North)"
        return text + f"{side} to move; w/b men, W/B Mullahs"

    def __repr__(self) -> str:
        return f"<FelliState {self.position_code()!r}>"


_PICTURE = """\
5  {a5}-------{c5}-------{e5}
    \\      |      /
4     {b4}----{c4}----{d4}
        \\  |  /
3          {c3}
        /  |  \\
2     {b2}----{c2}----{d2}
    /      |      \\
1  {a1}-------{c1}-------{e1}
   a  b    c    d  e
"""


STYLES = {
    "w": PieceStyle(Color.WHITE, N_("man")),
    "b": PieceStyle(Color.BLACK, N_("man")),
    "W": PieceStyle(Color.WHITE, N_("Mullah"), ring=True),
    "B": PieceStyle(Color.BLACK, N_("Mullah"), ring=True),
}
#: level 1 searches no captures past its one ply (``quiesce=0``): with the usual quiescence it
#: saw every capture coming and drew most games against a careless player (docs/ai.md)
_LADDER = (
    Rung(
        "search:depth=1,noise=1500,quiesce=0",
        N_("looks one move ahead and often misjudges it"),
        N_("Beginner"),
    ),
    Rung("search:depth=2,noise=400", N_("sees the reply, but often misjudges"), N_("Novice")),
    Rung("search:depth=3,noise=150", N_("three plies, sometimes misjudged"), N_("Casual")),
    Rung("search:depth=3,noise=60", N_("three plies, now and then misjudged"), N_("Club player")),
)


class Felli(PointBoardGame):
    """Felli: the registered game and its rule sets."""

    name = "felli"
    title = N_("Felli")
    aliases = ("fich",)
    points = POINTS
    edges = EDGES
    state_class = FelliState
    options: ClassVar[Mapping[str, str]] = {
        "forced_capture": N_("Capturing is compulsory when a capture is possible"),
        "multi_capture": N_("After a leap, the same piece goes on leaping while it can"),
        **DRAW_OPTIONS,
    }
    setting_words: ClassVar[Mapping[str, SettingWords]] = {
        "forced_capture": SettingWords(on=N_("forced capture"), off=N_("no forced capture")),
        "multi_capture": SettingWords(on=N_("multi capture"), off=N_("no multi capture")),
        "mullah": SettingWords(on=N_("with Mullahs"), off=N_("without Mullahs")),
        **DRAW_WORDS,
    }
    texts: ClassVar[Mapping[str, str]] = {
        "continue": N_("continue the capture: choose the next landing point"),
        "example": N_("e.g. b2-c3, d4xb2 or a1xc3xe5"),
        "move": N_("choose a piece to move"),
    }
    summary = N_(
        "Six men each on two triangles that meet at the empty centre. A man steps one "
        "point along a line, in any direction, or captures by leaping over an adjacent "
        "enemy man to the empty point beyond, removing it. White (South) moves first. You "
        "lose when you cannot move, having no men left or all blocked. The Mullah variant "
        "promotes a man reaching the far corners to a Mullah that moves and captures at "
        "any distance."
    )
    rule_sets = (
        RuleSetDef(
            "felli",
            N_("The basic game: steps and single optional leaps in any direction."),
            {"forced_capture": False, "multi_capture": False, "mullah": False, **DRAW_DEFAULTS},
        ),
        RuleSetDef(
            "felli-mullah",
            N_("Compulsory multi-captures, and men promoted to Mullahs on the far corners."),
            {"forced_capture": True, "multi_capture": True, "mullah": True, **DRAW_DEFAULTS},
            aliases=("mullah",),
            label=N_("with Mullahs"),
        ),
    )

    @property
    def board(self) -> BoardDescription:
        return replace(super().board, styles=STYLES)

    @property
    def ladder(self) -> tuple[Rung, ...]:
        solver = self.solver()
        top = (
            Rung("perfect", N_("perfect play from the solved table"), N_("Perfect"))
            if solver is not None and solver.ready()
            else Rung(
                "search:time=1", N_("about a second a move (twelve plies and more)"), N_("Expert")
            )
        )
        return (*_LADDER, top)

    def solver(self, men: int | None = None) -> Solver | None:
        if self.rules["mullah"]:
            from .mullah_table import MullahSolver

            return MullahSolver(self.rules, men)
        if men not in (None, 6):
            raise InvalidRulesError("the basic game's table covers every position: no --men")
        from .solver import FelliSolver

        return FelliSolver(self.rules)

    def lessons(self) -> tuple[Lesson, ...]:
        from .lessons import lessons

        return lessons()

    def puzzle_theme(self, state: State, line: Sequence[int]) -> str:
        """``capture chain`` (the first move leaps twice or more), ``promotion`` (it makes a
        Mullah), ``blockade`` (the line ends with the opponent's pieces shut in), ``sacrifice``
        (a quiet first move the opponent answers with a capture), ``capture``, else
        :data:`~ludoteca.core.QUIET_THEME`."""
        assert isinstance(state, FelliState)
        path, capture = decode(line[0])
        after = state.copy()
        after.push_code(line[0])
        promoted = after.board[path[-1]] != state.board[path[0]]
        for code in line[1:]:
            after.push_code(code)
        ending = after.outcome()
        loser = after.turn + 1
        shut_in = any(piece & 3 == loser for piece in after.board)
        if capture and len(path) > 2:
            return N_("capture chain")
        if promoted:
            return N_("promotion")
        if ending is not None and ending.termination is Termination.NO_LEGAL_MOVES and shut_in:
            return N_("blockade")
        if not capture and len(line) > 1 and decode(line[1])[1]:
            return N_("sacrifice")
        return N_("capture") if capture else QUIET_THEME

    @property
    def longest_game(self) -> int:
        """At most ``move_rule`` plies pass between two captures or promotions (11 captures
        end a game; each side's six men can be promoted once)."""
        quiet = int(self.rules["move_rule"])
        resets = 11 + (12 if self.rules["mullah"] else 0)
        return (resets + 1) * quiet if quiet else ENDLESS

    @cached_property
    def kernel(self) -> Kernel:
        from .kernel import kernel

        return kernel(self)

    @property
    def num_distinct_actions(self) -> int:
        return 13 * 13

    def position_code_of(
        self, pieces: Sequence[str], turn: Color, hand: tuple[int, int] | None = None
    ) -> str:
        rows = "/".join("".join(pieces[p] or "." for p in row) for row in _ROWS)
        return f"{rows} {'w' if turn is Color.WHITE else 'b'} 0 0"

    def from_position_code(self, code: str) -> FelliState:
        ruleset = self.rules
        fields = code.split()
        if len(fields) != 4:
            raise InvalidPositionError(
                Text(
                    "a Felli position code has 4 fields (board side quiet ply), not %(count)s: "
                    "%(code)s",
                    count=len(fields),
                    code=repr(code),
                )
            )
        board_text, side, quiet_text, ply_text = fields
        rows = board_text.split("/")
        if [len(r) for r in rows] != [len(r) for r in _ROWS]:
            raise InvalidPositionError(
                Text(
                    "the board field needs 5 rows from rank 5 down, of 3,3,1,3,3 points: %(board)s",
                    board=repr(board_text),
                )
            )
        board = [0] * 13
        for row, points in zip(rows, _ROWS, strict=True):
            for ch, p in zip(row, points, strict=True):
                if ch not in _PIECES:
                    raise InvalidPositionError(
                        Text(
                            "unknown board character %(char)s (use w b for men, W B for "
                            "Mullahs, .)",
                            char=repr(ch),
                        )
                    )
                board[p] = _PIECES[ch]
        if side not in ("w", "b"):
            raise InvalidPositionError(
                Text("side to move must be w or b, not %(side)s", side=repr(side))
            )
        try:
            quiet, ply = int(quiet_text), int(ply_text)
        except ValueError:
            raise InvalidPositionError(
                Text("quiet plies and ply must be numbers: %(code)s", code=repr(code))
            ) from None
        if quiet < 0 or ply < quiet:
            raise InvalidPositionError(Text("quiet plies must be between 0 and the ply number"))
        for owner in (1, 2):
            who = Text(Color(owner - 1).title)
            if sum(1 for v in board if v & 3 == owner) > 6:
                raise InvalidPositionError(Text("%(side)s has more than six pieces", side=who))
            if not ruleset["mullah"] and any(
                board[p] & MULLAH for p in range(13) if board[p] & 3 == owner
            ):
                raise InvalidPositionError(Text("%(rules)s has no Mullahs", rules=str(ruleset)))
            if ruleset["mullah"] and any(board[p] == owner for p in PROMOTION[owner]):
                raise InvalidPositionError(
                    Text(
                        "a %(side)s man on its promotion corner would already be a Mullah",
                        side=who,
                    )
                )
        turn = Color.WHITE if side == "w" else Color.BLACK
        if not any(v & 3 == 2 - turn for v in board):
            raise InvalidPositionError(
                Text(
                    "%(side)s has no piece left, so the game ended before %(mover)s's turn",
                    side=Text(turn.other.title),
                    mover=Text(turn.title),
                )
            )
        return FelliState(self, tuple(board), turn, ply, quiet)


__all__ = ["Felli", "FelliMove", "FelliState"]
