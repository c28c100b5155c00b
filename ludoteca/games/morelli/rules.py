"""Morelli, exactly as docs/rules.md states it.

Squares are numbered, and their bands (distances to the Throne) given, as in
:mod:`.board`.  ``board[s]`` is 0 (empty), 1 (Black) or 2 (White); the Throne square
never holds a stone and ``king`` is 0 (vacant), 1 or 2.  A move code is ``from * n * n + to``.
Black moves first; a move must end on a smaller band than it started from.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import ClassVar

from ...compiled.registry import Kernel
from ...core import (
    QUIET_THEME,
    Color,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    RuleSet,
    RuleSetDef,
    SettingWords,
    State,
    Termination,
)
from ...drawing import BoardDescription, PieceStyle
from ...i18n import N_, Text, _, ngettext
from ...ladder import Rung
from ...lessons import Lesson
from ..words import listed, points_of, position_words, side_words
from . import setups
from .board import BAND_NAMES, LETTERS, frame_list, geometry

BLACK, WHITE = 1, 2

_FRAME_WORTH = (0.0, 0.02, 0.08, 0.35, 0.6)


@cache
def _stone_weights(n: int) -> tuple[float, ...]:
    edge = n // 2
    return tuple(0.03 + 0.02 * (edge - d) for d in geometry(n).band)


class MorelliMove(Move):
    """A Morelli move ``from-to``, e.g. ``A5-L5``."""

    __slots__ = ("dst", "n", "src")

    src: int
    dst: int
    n: int

    def __init__(self, n: int, code: int) -> None:
        src, dst = divmod(code, n * n)
        g = geometry(n)
        super().__init__(code, f"{g.names[src]}-{g.names[dst]}", f"{n}x{n}")
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "n", n)

    def __repr__(self) -> str:
        size = "" if self.n == 13 else f", n={self.n}"
        return f"MorelliMove.parse({self._text!r}{size})"

    @classmethod
    def from_code(cls, code: int, board: str = "13x13") -> MorelliMove:
        return move_of(int(board.partition("x")[0]), code)

    @staticmethod
    def parse(text: str, n: int = 13) -> MorelliMove:
        """The move written ``text`` (annotations ignored); :class:`InvalidMoveError` if bad."""
        return _parse(text, n)[0]


_MOVE_RE = re.compile(r"([a-m])(\d{1,2})-([a-m])(\d{1,2})(?:x(\d+))?(k)?", re.IGNORECASE)
_MOVES: dict[tuple[int, int], MorelliMove] = {}


def move_of(n: int, code: int) -> MorelliMove:
    """The interned move of an nxn board for a code."""
    move = _MOVES.get((n, code))
    if move is None:
        move = _MOVES[(n, code)] = MorelliMove(n, code)
    return move


def _parse(text: str, n: int) -> tuple[MorelliMove, int | None, bool]:
    m = _MOVE_RE.fullmatch(text.strip())
    if not m:
        raise InvalidMoveError(
            _(
                "%(text)s is not a Morelli move (write from-to, e.g. A5-L5, optionally A5-E5x3 "
                "or D13-D11K)",
                text=repr(text),
            )
        )
    a, i, b, j, captures, king = m.groups()
    squares = []
    for letter, number in ((a, i), (b, j)):
        x, y = LETTERS.index(letter.upper()), int(number) - 1
        if not (x < n and 0 <= y < n):
            raise InvalidMoveError(
                _(
                    "%(text)s: %(square)s is off the %(size)sx%(size)s board",
                    text=repr(text),
                    square=f"{letter.upper()}{number}",
                    size=n,
                )
            )
        squares.append(y * n + x)
    return (
        move_of(n, squares[0] * n * n + squares[1]),
        None if captures is None else int(captures),
        king is not None,
    )


class MorelliState(State):
    """A Morelli position with history."""

    annotation_tokens: ClassVar[tuple[str, ...]] = ("K",)

    def __init__(
        self,
        game: Morelli,
        board: list[int],
        turn: Color = Color.BLACK,
        king: int = 0,
        ply: int = 0,
        setup: str | None = None,
    ) -> None:
        self.game = game
        self.rules = game.rules
        self.n = game.size
        self.geo = geometry(self.n)
        self.board = board
        self.turn = turn
        self.king = king
        self.ply = ply
        self.setup = setup
        self.move_stack: list[int] = []
        self._undo: list[tuple[tuple[int, ...], int]] = []
        self.start = self.position_code()

    # --- move generation ------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        return list(self._moves())

    def _moves(self) -> Iterator[int]:
        """The legal moves' codes, one by one (so that asking whether there is one stops at
        the first)."""
        board = self.board
        geo = self.geo
        inward = geo.inward
        throne = geo.throne
        king = self.king
        mover = BLACK if self.turn is Color.BLACK else WHITE
        base = self.n * self.n
        for s, v in enumerate(board):
            if v != mover:
                continue
            origin = s * base
            for ray in inward[s]:  # (the squares nearer the centre, up to the first stone)
                for t in ray:
                    if board[t]:
                        break
                    if t == throne:  # passed over when empty, never a move's end
                        if king:
                            break
                        continue
                    yield origin + t

    def push_code(self, code: int) -> None:
        base = self.n * self.n
        src, dst = divmod(code, base)
        board = self.board
        mover = board[src]
        enemy = 3 - mover
        board[src] = 0
        board[dst] = mover
        converted = []
        for a, b in self.geo.flanks[dst]:
            if board[a] == enemy and board[b] == mover:
                board[a] = mover
                converted.append(a)
        self._undo.append((tuple(converted), self.king))
        if self.king != mover:
            frame = self.geo.frame
            for s in (dst, *converted):
                f = frame[s]
                if (
                    f
                    and board[f[0]] == mover
                    and board[f[1]] == mover
                    and board[f[2]] == mover
                    and board[f[3]] == mover
                ):
                    self.king = mover
                    break
        self.turn = Color(1 - self.turn)
        self.ply += 1
        self.move_stack.append(code)

    def pop_code(self) -> int:
        code = self.move_stack.pop()
        src, dst = divmod(code, self.n * self.n)
        converted, self.king = self._undo.pop()
        board = self.board
        mover = board[dst]
        for a in converted:
            board[a] = 3 - mover
        board[dst] = 0
        board[src] = mover
        self.turn = Color(1 - self.turn)
        self.ply -= 1
        return code

    def conversions(self, code: int) -> tuple[int, ...]:
        """The squares whose stones the move ``code`` would convert (the state is unchanged)."""
        self.push_code(code)
        converted = self._undo[-1][0]
        self.pop_code()
        return converted

    def move_of(self, code: int) -> MorelliMove:
        return move_of(self.n, code)

    def read_move(self, text: str) -> MorelliMove:
        return _parse(text, self.n)[0]

    def parse_move(self, text: str) -> MorelliMove:
        move, captures, king = _parse(text, self.n)
        legal = self.legal_codes()
        if move.code not in legal:
            if not legal:
                raise self._illegal(text)
            raise self._illegal(text, self.why_illegal(move, legal))
        if captures is not None or king:
            self.check_annotation(move, captures, king, text)
        return move

    def _effects(self, code: int) -> tuple[int, bool]:
        """What the legal move ``code`` does: the stones it converts, and whether it seats a
        King (a new one, or the mover's in place of the opponent's)."""
        self.push_code(code)
        converted = len(self._undo[-1][0])
        crowned = self.king != self._undo[-1][1]
        self.pop_code()
        return converted, crowned

    def move_label(self, code: int) -> str:
        """``from-to``, then ``xN`` for N conversions and `` K`` for a King newly seated."""
        converted, crowned = self._effects(code)
        return (
            f"{self.move_of(code)}{f'x{converted}' if converted else ''}{' K' if crowned else ''}"
        )

    def move_note(self, code: int) -> str:
        converted, crowned = self._effects(code)
        words = (
            [ngettext("converts %(num)s stone", "converts %(num)s stones", converted)]
            if converted
            else []
        )
        if crowned:
            words.append(
                _("seats the White King on the Throne")
                if self.turn is Color.WHITE
                else _("seats the Black King on the Throne")
            )
        return (
            _("%(first)s and %(second)s", first=words[0], second=words[1])
            if len(words) == 2
            else "".join(words)
        )

    def check_annotation(
        self, move: MorelliMove, captures: int | None, king: bool, text: str
    ) -> None:
        """Raise :class:`IllegalMoveError` unless the annotation matches what the move does."""
        converted, crowned = self._effects(move.code)
        if captures is not None and captures != converted:
            raise IllegalMoveError(
                Text(
                    "%(text)s: the annotation says %(said)s conversion(s) but %(move)s makes "
                    "%(made)s",
                    text=text,
                    said=captures,
                    move=str(move),
                    made=converted,
                )
            )
        if king and not crowned:
            raise IllegalMoveError(
                Text(
                    "%(text)s: the annotation says K but %(move)s does not seat a King",
                    text=text,
                    move=str(move),
                )
            )

    def annotate(self, move: Move, token: str) -> None:
        """Check a separate annotation token (``K``) written after ``move``, already played."""
        self.pop_code()
        try:
            self.check_annotation(
                move_of(self.n, move.code), None, token.upper() == "K", f"{move} {token}"
            )
        finally:
            self.push_code(move.code)

    def why_illegal(self, move: Move, legal: list[int]) -> str:
        assert isinstance(move, MorelliMove)
        geo = self.geo
        mover = BLACK if self.turn is Color.BLACK else WHITE
        src, dst = move.src, move.dst
        if self.board[src] != mover:
            return _(
                "%(side)s has no stone on %(square)s", side=_(self.turn.title), square=geo.name(src)
            )
        if dst == geo.throne:
            return _("no stone may land on the Throne")
        if self.board[dst]:
            return _("%(point)s is occupied", point=geo.name(dst))
        if geo.band[dst] >= geo.band[src]:
            return _(
                "a stone must come to rest on a band closer to the Throne, and %(target)s "
                "(%(target_band)s) is not closer than %(source)s (%(source_band)s)",
                target=geo.name(dst),
                target_band=_(BAND_NAMES[geo.band[dst]]),
                source=geo.name(src),
                source_band=_(BAND_NAMES[geo.band[src]]),
            )
        ray = next((r for r in geo.rays[src] if dst in r), None)
        if ray is None:
            return _(
                "%(move)s is not along a row, column or diagonal",
                move=f"{geo.name(src)}-{geo.name(dst)}",
            )
        for t in ray[: ray.index(dst)]:
            if self.board[t]:
                return _("the stone on %(square)s is in the way", square=geo.name(t))
            if t == geo.throne:
                return _("the King on the Throne blocks the line")
        return _("not a legal move here")

    # --- knowledge for computer players ------------------------------------------------------
    def is_tactical(self, code: int) -> bool:
        src, dst = divmod(code, self.n * self.n)
        board = self.board
        mover = board[src]
        enemy = 3 - mover
        return any(
            board[a] == enemy and board[b] == mover and b != src for a, b in self.geo.flanks[dst]
        )

    def _capture_squares(self) -> set[int]:
        """Empty squares where a stone of the mover would flank an enemy stone."""
        board = self.board
        mover = BLACK if self.turn is Color.BLACK else WHITE
        enemy = 3 - mover
        flanks = self.geo.flanks
        throne = self.geo.throne
        targets = set()
        for q, v in enumerate(board):
            if v or q == throne:
                continue
            for a, b in flanks[q]:
                if board[a] == enemy and board[b] == mover:
                    targets.add(q)
                    break
        return targets

    def tactical_codes(self, codes: list[int]) -> list[int]:
        """Moves landing where they flank an enemy stone against one of the mover's."""
        targets = self._capture_squares()
        if not targets:
            return []
        base = self.n * self.n
        return [c for c in codes if c % base in targets]

    def tactical_moves(self) -> list[int]:
        """The capturing moves, found from their destinations without generating all moves."""
        board = self.board
        geo = self.geo
        band, throne, king = geo.band, geo.throne, self.king
        mover = BLACK if self.turn is Color.BLACK else WHITE
        base = self.n * self.n
        codes = []
        for q in self._capture_squares():
            inner = band[q]
            for ray in geo.rays[q]:
                for t in ray:
                    v = board[t]
                    if v:
                        if v == mover and band[t] > inner:
                            codes.append(t * base + q)
                        break
                    if t == throne and king:
                        break
        codes.sort()
        return codes

    def evaluate(self) -> float:
        """The King first; then frames that one stone would complete (a frame the side to
        move can complete at once counts half the King it would win), then stones inside."""
        mover = BLACK if self.turn is Color.BLACK else WHITE
        enemy = 3 - mover
        board = self.board
        score = 0.0
        if self.king:
            score += 1.5 if self.king == mover else -1.5
        worth = _FRAME_WORTH
        crown = 0.0
        for frame in frame_list(self.n):
            va, vb, vc, vd = (board[q] for q in frame)
            mine = (va == mover) + (vb == mover) + (vc == mover) + (vd == mover)
            theirs = (va == enemy) + (vb == enemy) + (vc == enemy) + (vd == enemy)
            if not theirs:
                score += worth[mine]
                if mine == 3 and self.king != mover and not crown and self._reaches(frame):
                    crown = 1.5 if self.king == enemy else 0.75
            elif not mine:
                score -= worth[theirs]
        score += crown
        weights = _stone_weights(self.n)
        score += sum(w for v, w in zip(board, weights, strict=True) if v == mover)
        score -= sum(w for v, w in zip(board, weights, strict=True) if v == enemy)
        return math.tanh(score / 2)

    def _reaches(self, frame: Sequence[int]) -> bool:
        """Whether a stone of the side to move can move to the empty square of ``frame``."""
        board = self.board
        geo = self.geo
        mover = BLACK if self.turn is Color.BLACK else WHITE
        gap = next(q for q in frame if not board[q])
        for ray in geo.rays[gap]:
            for s in ray:
                if board[s]:
                    if board[s] == mover and geo.band[s] > geo.band[gap]:
                        return True
                    break
                if s == geo.throne and self.king:
                    break
        return False

    def pieces(self) -> list[str]:
        tokens = ["", "b", "w"]
        out = [tokens[v] for v in self.board]
        if self.king:
            out[self.geo.throne] = "k" + tokens[self.king]
        return out

    def describe(self) -> str:
        """Each side's stones by square, the Throne (empty, or whose King sits on it) and
        whose turn it is."""
        names, tokens = self.geo.names, self.pieces()
        sides = []
        for colour in Color:
            stones = points_of(tokens, names, "wb"[colour])
            board = (
                [
                    ngettext(
                        "%(num)s stone, on %(points)s",
                        "%(num)s stones, on %(points)s",
                        len(stones),
                        points=listed(stones),
                    )
                ]
                if stones
                else []
            )
            sides.append(side_words(colour, board))
        throne = names[self.geo.throne]
        if self.king == WHITE:
            seat = _("The White King is on the Throne, %(point)s.", point=throne)
        elif self.king == BLACK:
            seat = _("The Black King is on the Throne, %(point)s.", point=throne)
        else:
            seat = _("The Throne, %(point)s, is empty.", point=throne)
        return position_words(sides, self.turn, [seat], self.notice())

    def gesture(self, code: int) -> tuple[tuple[str, int], ...]:
        squares = self.n * self.n
        return ("from", code // squares), ("to", code % squares)

    def planes(self) -> list[list[float]]:
        """White stones, Black stones, then White's and Black's King (constant planes)."""
        board = self.board
        return [
            [float(v == WHITE) for v in board],
            [float(v == BLACK) for v in board],
            [float(self.king == WHITE)] * len(board),
            [float(self.king == BLACK)] * len(board),
        ]

    # --- ending -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if next(self._moves(), None) is not None:
            return None
        if self.king:
            return Outcome(Termination.THRONE, Color.BLACK if self.king == BLACK else Color.WHITE)
        return Outcome(Termination.VACANT_THRONE, None)

    def position_key(self) -> bytes:
        return bytes(self.board) + bytes((self.king, self.turn))

    # --- text forms ---------------------------------------------------------------------------
    def position_code(self) -> str:
        n = self.n
        rows = "/".join(
            "".join(".bw"[v] for v in self.board[y * n : (y + 1) * n]) for y in range(n - 1, -1, -1)
        )
        side = "b" if self.turn is Color.BLACK else "w"
        return f"{rows} {side} {'-bw'[self.king]} {self.ply}"

    def __str__(self) -> str:
        n = self.n
        lines = []
        for y in range(n - 1, -1, -1):
            cells = []
            for x in range(n):
                s = y * n + x
                if s == self.geo.throne:
                    cells.append("K" if self.king else "*")
                else:
                    cells.append(".BW"[self.board[s]])
            lines.append(f"{y + 1:>2} " + " ".join(cells))
        lines.append("   " + " ".join(LETTERS[:n]))
        holder = {0: "vacant", BLACK: "Black's King", WHITE: "White's King"}[self.king]
        lines.append(f"{self.turn.title} to move; Throne: {holder}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<MorelliState {self.position_code()!r}>"


#: the bands from the outside in (red, orange, yellow, green, blue, indigo), then the Throne
RAINBOW = ("#d9413a", "#ee8a2e", "#f2cf3b", "#5bb55a", "#3f86d1", "#4b4aa8", "#8e4fb8")
STYLES = {
    "w": PieceStyle(Color.WHITE, N_("stone")),
    "b": PieceStyle(Color.BLACK, N_("stone")),
    "kw": PieceStyle(Color.WHITE, N_("King"), shape="king"),
    "kb": PieceStyle(Color.BLACK, N_("King"), shape="king"),
}
_LADDER = (
    Rung(
        "search:depth=1,noise=1500,quiesce=2",
        N_("looks one move ahead and often misjudges it"),
        N_("Beginner"),
    ),
    Rung(
        "search:depth=1,noise=300,quiesce=2",
        N_("looks one move ahead, sometimes misjudges"),
        N_("Novice"),
    ),
    Rung("search:depth=2", N_("sees the reply"), N_("Casual")),
    Rung("search:depth=3", N_("three plies"), N_("Club player")),
    Rung("search:time=1", N_("about a second a move"), N_("Expert")),
)


@dataclass(frozen=True)
class MorelliRules(RuleSetDef):
    """A Morelli rule set: its settings and its board's side."""

    size: int = 13


class Morelli(Game):
    """Morelli: the registered game and its rule sets (13x13, 11x11, 9x9)."""

    name = "morelli"
    title = N_("Morelli")
    texts: ClassVar[Mapping[str, str]] = {
        "place": N_("choose a square"),
        "move": N_("choose a stone to move"),
        "example": N_("e.g. A5-L5"),
        "take": N_("choose a stone to remove"),
    }
    summary = N_(
        "Stones start on the red outer ring of a rainbow board. A stone moves like a "
        "chess queen, any distance, but must end on a band nearer the centre. When the "
        "moved stone flanks a single enemy stone against one of yours, in any of the "
        "eight directions, that stone turns to your colour. Four of your stones on a "
        "frame (four squares a quarter turn apart around the centre) seat your King on "
        "the Throne. When the player to move has no move the game ends: the owner of the "
        "King wins (a draw if the Throne is empty)."
    )
    options: ClassVar[Mapping[str, str]] = {
        "setup": N_("How the stones fill the red squares at the start (Boardspace's setups)"),
    }
    setting_words: ClassVar[Mapping[str, SettingWords]] = {
        "setup": SettingWords(
            # TRANSLATORS: a Morelli rule set's setup in its title, e.g. "Morelli (Opposing setup)"
            value=N_("%(value)s setup"),
            values={kind: setups.LABELS[kind] for kind in (setups.DEFAULT, *setups.KINDS[:-1])},
        ),
    }
    rule_sets = (
        MorelliRules(
            "morelli",
            N_("The 2015 rules on the 13x13 board (24 stones each)."),
            {"setup": setups.DEFAULT},
            aliases=("morelli-13", "morelli13"),
        ),
        MorelliRules(
            "morelli-11",
            N_("The same rules on an 11x11 board (20 stones each)."),
            {"setup": setups.DEFAULT},
            aliases=("morelli11",),
            label=N_("11x11"),
            size=11,
        ),
        MorelliRules(
            "morelli-9",
            N_("The same rules on a 9x9 board (16 stones each)."),
            {"setup": setups.DEFAULT},
            aliases=("morelli9",),
            label=N_("9x9"),
            size=9,
        ),
    )
    #: the board's side (13, 11 or 9)
    size: int

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        assert isinstance(self.definition, MorelliRules)
        self.size = self.definition.size

    @property
    def setup_kind(self) -> str:
        """How the rule set fills the red squares at the start: one of
        :data:`.setups.KINDS` (its ``setup`` setting)."""
        return str(self.rules["setup"])

    @property
    def play_rules(self) -> str:
        """The rule set's spec with the default setup: a setup changes the start, not the rules
        of play, so the evaluation's tuned weights are those of this spec."""
        settings = {**self.rules.settings, "setup": setups.DEFAULT}
        return str(RuleSet(self.rules.game, self.rules.name, settings, self.rules.defaults))

    @property
    def num_distinct_actions(self) -> int:
        return self.size**4

    @property
    def board(self) -> BoardDescription:
        geo = geometry(self.size)
        n = geo.n
        coords = tuple((float(s % n), float(s // n)) for s in range(n * n))
        outer = max(geo.band)
        fills = tuple(
            RAINBOW[6] if band == 0 else RAINBOW[min(outer - band, 5)] for band in geo.band
        )
        return BoardDescription(
            points=geo.names, coords=coords, cells=True, fills=fills, styles=STYLES
        )

    @property
    def ladder(self) -> tuple[Rung, ...]:
        return _LADDER

    def lessons(self) -> tuple[Lesson, ...]:
        from .lessons import lessons

        return lessons()

    def puzzle_theme(self, state: State, line: Sequence[int]) -> str:
        """``throne`` (the first move completes a frame and takes the Throne from the
        opponent's King), ``frame`` (it seats the mover's King on a vacant Throne),
        ``conversion`` (it converts stones), else :data:`~ludoteca.core.QUIET_THEME`."""
        assert isinstance(state, MorelliState)
        converted, crowned = state._effects(line[0])
        if crowned:
            return N_("throne") if state.king else N_("frame")
        return N_("conversion") if converted else QUIET_THEME

    @cached_property
    def kernel(self) -> Kernel:
        from .kernel import kernel

        return kernel(self)

    @property
    def longest_game(self) -> int:
        """Every move brings a stone at least one band nearer the Throne, so a game lasts at
        most as many plies as the stones can travel into the innermost squares (176 on 13x13).
        """
        geo = geometry(self.size)
        outer = max(geo.band)
        stones = geo.band.count(outer)
        return sum(outer - b for b in sorted(b for b in geo.band if b)[:stones])

    def random_setup(self, seed: int | None = None) -> str:
        """A random setup string obeying the pair rule (reproducible with a seed)."""
        geo = geometry(self.size)
        rng = random.Random(seed)
        first = [rng.choice("BW") for _ in range(geo.pairs)]
        return "".join(first) + "".join("W" if c == "B" else "B" for c in first)

    def new(self, setup: str | None = None, seed: int | None = None) -> MorelliState:
        """The start: ``setup`` (a setup string, checked to be one the rule set's setup kind
        deals, :func:`.setups.fits`), else a setup of that kind dealt from ``seed`` (the default
        kind by :meth:`random_setup`, the others by :func:`.setups.deal` from Python's
        generator); :class:`InvalidPositionError` says what is wrong with a bad one."""
        geo = geometry(self.size)
        kind = self.setup_kind
        if setup is None:
            if kind == setups.DEFAULT:
                setup = self.random_setup(seed)
            else:
                setup = setups.deal(kind, self.size, setups.PythonDraws(seed))
        setup = setup.strip().upper()
        if len(setup) != len(geo.perimeter) or set(setup) - {"B", "W", "."}:
            raise InvalidPositionError(
                Text(
                    "a %(side)sx%(side)s setup is %(letters)s letters B or W (the red squares "
                    "clockwise from A1, up the left edge first), not %(setup)s",
                    side=geo.n,
                    letters=len(geo.perimeter),
                    setup=repr(setup),
                )
            )
        if kind != "free" and "." in setup:
            raise InvalidPositionError(
                Text(
                    "setup %(setup)s leaves %(square)s empty: only the Free setup leaves red "
                    "squares empty",
                    setup=setup,
                    square=geo.name(geo.perimeter[setup.index(".")]),
                )
            )
        reason = setups.fits(kind, self.size, setup)
        if reason is not None:
            raise InvalidPositionError(reason)
        board = [0] * (geo.n * geo.n)
        for s, ch in zip(geo.perimeter, setup, strict=True):
            board[s] = ".BW".index(ch)
        return MorelliState(self, board, setup=setup)

    def position_code_of(
        self, pieces: Sequence[str], turn: Color, hand: tuple[int, int] | None = None
    ) -> str:
        geo = geometry(self.size)
        n = geo.n
        king = pieces[geo.throne][1:] if pieces[geo.throne].startswith("k") else "-"
        cells = ["." if i == geo.throne and king != "-" else t or "." for i, t in enumerate(pieces)]
        rows = "/".join("".join(cells[y * n : (y + 1) * n]) for y in range(n - 1, -1, -1))
        black = turn is Color.BLACK
        return f"{rows} {'b' if black else 'w'} {king} {0 if black else 1}"

    def from_position_code(self, code: str) -> MorelliState:
        geo = geometry(self.size)
        n = geo.n
        fields = code.split()
        if len(fields) != 4:
            raise InvalidPositionError(
                Text(
                    "a Morelli position code has 4 fields (board side king ply), not %(count)s",
                    count=len(fields),
                )
            )
        rows_text, side, king_text, ply_text = fields
        rows = rows_text.split("/")
        if len(rows) != n or any(len(r) != n for r in rows):
            raise InvalidPositionError(
                Text("the board field needs %(side)s rows of %(side)s squares", side=n)
            )
        board = [0] * (n * n)
        for i, row in enumerate(rows):
            y = n - 1 - i
            for x, ch in enumerate(row):
                if ch not in ".bw":
                    raise InvalidPositionError(
                        Text("unknown board character %(char)s (use b, w or .)", char=repr(ch))
                    )
                board[y * n + x] = ".bw".index(ch)
        if board[geo.throne]:
            raise InvalidPositionError(Text("no stone may stand on the Throne"))
        stones = sum(1 for v in board if v)
        dealt = 0 if self.setup_kind == "free" else 2 * geo.pairs
        if stones != dealt:
            raise InvalidPositionError(
                Text(
                    "a %(side)sx%(side)s game always has %(stones)s stones on the board, "
                    "not %(count)s",
                    side=n,
                    stones=dealt,
                    count=stones,
                )
            )
        # red stones never change colour nor come back: the red squares hold what is left of
        # a setup of the rule set's kind
        reason = setups.fits(self.setup_kind, n, [".BW"[board[s]] for s in geo.perimeter])
        if reason is not None:
            raise InvalidPositionError(
                Text(
                    "the red squares cannot be what is left of the setup: %(reason)s",
                    reason=reason,
                )
            )
        if side not in ("b", "w") or king_text not in ("-", "b", "w"):
            raise InvalidPositionError(Text("side to move must be b or w and the King -, b or w"))
        try:
            ply = int(ply_text)
        except ValueError:
            raise InvalidPositionError(
                Text("the ply must be a number, not %(ply)s", ply=repr(ply_text))
            ) from None
        turn = Color.BLACK if side == "b" else Color.WHITE
        if ply < 0 or (ply % 2 == 0) != (turn is Color.BLACK):
            raise InvalidPositionError(
                Text(
                    "Black moves first, so at ply %(ply)s it cannot be %(side)s's turn",
                    ply=ply,
                    side=Text(turn.title),
                )
            )
        return MorelliState(self, board, turn, "-bw".index(king_text), ply)


__all__ = ["Morelli", "MorelliMove", "MorelliRules", "MorelliState"]
