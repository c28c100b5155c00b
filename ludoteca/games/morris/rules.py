"""The rules of the Morris family (Nine Men's Morris and its relatives), on the boards of
:mod:`.board`.

A rule set (:class:`MorrisRules`) chooses a board (a :class:`~.board.MorrisBoard`), the men per
side and the switches (flying, Lasker's moving while men are in hand, who starts, what a full board
does, the three-men rule, removal from mills, marking while placing, one-time mills, several
removals for one move, the defender moving first, removal from the opponent's hand, removals by
mill counts).
``docs/rules.md`` states each rule set, and which of Sanmill's rule options it corresponds to.

A side's men are a bit mask of the board's points.  With ``P`` points, a move code packs
``(source, destination, removal)`` as ``(src * P + dst) * (P + 1) + rem`` where ``src == P``
means "from hand" and ``rem == P`` means "no removal".  A removal as a move of its own (``xg7``:
a turn that only takes a man, where removals are due) is ``src == dst == rem``, the point of the
man taken (:func:`removal_code`), a triple no placement or move can have.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache, cached_property
from pathlib import Path
from typing import ClassVar

from ...compiled.registry import Kernel
from ...core import (
    ENDLESS,
    QUIET_THEME,
    Color,
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
from ...i18n import N_, Text, _, ngettext
from ...ladder import Rung
from ...lessons import Lesson
from ...tables import Solver
from ..draws import DRAW_DEFAULTS, DRAW_OPTIONS, DRAW_WORDS, RepeatingState
from ..pointboard import PointBoardGame
from ..words import listed, ordered, points_of, position_words, side_words
from .board import BOARDS, NINE, SIX, TWELVE, MorrisBoard, bits, symmetries
from .custom import CUSTOM, FULL_BOARD, SETTINGS, Play, named


@dataclass(frozen=True)
class MorrisRules(RuleSetDef):
    """A Morris rule set: besides its settings, what it fixes (its board, the men per side,
    who starts, Lasker's moving while men are in hand, a full board's draw, what a man is
    called)."""

    board: MorrisBoard = NINE
    men: int = 9
    #: while a player has men in hand, a turn may move a man instead of placing one
    lasker: bool = False
    first: Color = Color.WHITE
    #: what a board full when placing ends does (one of :data:`FULL_BOARD_ACTIONS`): nothing
    #: (``""``: the player to move cannot move and loses), ``"draw"``, ``"first-loses"`` (the
    #: first player loses, whoever is to move), ``"first-removes"`` (the player who moves first
    #: removes an enemy man, then the other moves) or ``"both-remove"`` (the player who moves
    #: first, then the other, each removes an enemy man)
    full_board: str = ""
    #: a mill may remove any enemy man, one standing in a mill too (Sanmill's
    #: ``mayRemoveFromMillsAlways``)
    remove_from_mills: bool = False
    #: a mill closed by placing a man marks the enemy man it takes: he leaves the game at once,
    #: but his point stays blocked (no man may be placed there) until the last man is placed
    #: (Sanmill's ``markAndDelayRemovingPieces``)
    marking: bool = False
    #: a mill takes a man only if some of its points are not yet recorded for its side; every
    #: mill a side closes records its three points for good (Sanmill's ``oneTimeUseMill``)
    one_time_mills: bool = False
    #: a move that closes several mills at once takes a man for each (Sanmill's
    #: ``mayRemoveMultiple``): the first in the move, the others as removals due
    multiple_removals: bool = False
    #: the side that placed second makes the first move of the moving phase (Sanmill's
    #: ``isDefenderMoveFirst``)
    defender_first: bool = False
    #: a mill closed by placing a man takes a man from the opponent's hand while it holds any,
    #: from the board only when it is empty (Sanmill's
    #: ``removeOpponentsPieceFromHandThenOpponentsTurn``); the hands may then differ
    hand_removal: bool = False
    #: mills closed while placing take nothing; when placing ends each side removes men by
    #: the count of mills on the board (:func:`mill_count_removals`; Sanmill's
    #: ``removalBasedOnMillCounts``)
    mill_counts: bool = False
    #: what a piece is called, and two or more
    piece: str = "man"
    pieces: str = "men"

    def __post_init__(self) -> None:
        if self.full_board not in FULL_BOARD_ACTIONS:
            raise ValueError(f"unknown full-board action {self.full_board!r}")

    @property
    def play(self) -> Play:
        """What the rule set fixes of the play (all but its settings and its pieces' name: the
        fields of :class:`~.custom.Play`, named as here)."""
        return Play(**{f.name: getattr(self, f.name) for f in fields(Play)})

    def playing(self, play: Play) -> MorrisRules:
        """This definition fixing ``play`` instead (the custom rule set's, from its settings)."""
        return replace(self, **{f.name: getattr(play, f.name) for f in fields(Play)})

    @property
    def removals_due(self) -> bool:
        """Whether a position may have removals due (turns that only take a man)."""
        return (
            self.multiple_removals
            or self.mill_counts
            or self.full_board in ("first-removes", "both-remove")
        )

    @property
    def free_hands(self) -> bool:
        """Whether the hands may be any pair, not the pair the ply and side to move imply."""
        return self.lasker or self.hand_removal


#: the actions of a board full when placing ends (:attr:`MorrisRules.full_board`)
FULL_BOARD_ACTIONS = ("", "draw", "first-loses", "first-removes", "both-remove")


def mill_count_removals(white: int, black: int) -> tuple[int, int]:
    """The men White and Black remove when placing ends under removals by mill counts, given
    the mills each has on the board (Sanmill's counts): none on either side, each removes one
    of their own men (``-1``); one side only, 2 against 1; as many, each its count; else the
    smaller count, and one more for the side with more."""
    if not white and not black:
        return -1, -1
    if not black:
        return 2, 1
    if not white:
        return 1, 2
    low = min(white, black)
    return (low + (white > black), low + (black > white))


class MorrisMove(Move):
    """A Morris move: ``d6``, ``a1-a4``, with a removal ``d6xg7``, ``a1-a4xg7``; a removal alone
    ``xg7`` (:attr:`removal_only`; then :attr:`dst` and :attr:`remove` are both its point)."""

    __slots__ = ("dst", "removal_only", "remove", "src")

    src: int | None
    dst: int
    remove: int | None
    removal_only: bool

    def __init__(self, code: int, board: MorrisBoard) -> None:
        size = board.size
        rest, rem = divmod(code, size + 1)
        src, dst = divmod(rest, size)
        names = board.points
        alone = src == dst == rem
        if alone:
            text = f"x{names[rem]}"
        else:
            text = names[dst] if src == size else f"{names[src]}-{names[dst]}"
            text = text if rem == size else f"{text}x{names[rem]}"
        super().__init__(code, text, board.key)
        object.__setattr__(self, "src", None if src == size or alone else src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "remove", None if rem == size else rem)
        object.__setattr__(self, "removal_only", alone)

    def __repr__(self) -> str:
        where = "" if self._board == NINE.key else f", board={self._board!r}"
        return f"MorrisMove.parse({self._text!r}{where})"

    @classmethod
    def from_code(cls, code: int, board: str = NINE.key) -> MorrisMove:
        return moves_of(BOARDS[board])[code]

    @staticmethod
    def parse(text: str, board: str = NINE.key) -> MorrisMove:
        """The move written ``text`` on a board, legal or not; :class:`InvalidMoveError` if
        unreadable."""
        geometry = BOARDS[board]
        m = _MOVE_RE.fullmatch(text.strip().lower())
        if not m or not any(m.groups()):
            raise InvalidMoveError(
                _(
                    "%(text)s is not a Morris move (write d6, a1-a4, d6xg7, a1-a4xg7 or xg7)",
                    text=repr(text),
                )
            )
        bad = [g for g in m.groups() if g is not None and g not in geometry.index]
        if bad:
            raise InvalidMoveError(
                _(
                    "%(text)s is not a Morris move: %(point)s is not a point of this board",
                    text=repr(text),
                    point=bad[0],
                )
            )
        first, second, rem = m.groups()
        index, size = geometry.index, geometry.size
        if first is None:
            return moves_of(geometry)[removal_code(geometry, index[rem])]
        src, dst = (size, index[first]) if second is None else (index[first], index[second])
        if src == dst:
            raise InvalidMoveError(_("%(text)s moves a piece onto its own point", text=repr(text)))
        return moves_of(geometry)[encode(geometry, src, dst, size if rem is None else index[rem])]


_MOVE_RE = re.compile(r"(?:([a-z]\d+)(?:-([a-z]\d+))?)?(?:x([a-z]\d+))?")


@cache
def moves_of(board: MorrisBoard) -> tuple[MorrisMove, ...]:
    """The interned moves of a board, indexed by code."""
    size = board.size
    return tuple(MorrisMove(c, board) for c in range((size + 1) * size * (size + 1)))


def encode(board: MorrisBoard, src: int, dst: int, rem: int) -> int:
    """The move code of a placement (``src`` = number of points) or move, with removal ``rem``
    (the number of points: none)."""
    return (src * board.size + dst) * (board.size + 1) + rem


def removal_code(board: MorrisBoard, point: int) -> int:
    """The move code of a removal alone (``xg7``) of the man on ``point``."""
    return encode(board, point, point, point)


class MorrisState(RepeatingState):
    """A Morris position with history. ``men[c]`` is side ``c``'s men as a bit mask, ``marked``
    the points blocked by marked men (rule sets with marking, while men are placed), ``used[c]``
    the points of every mill side ``c`` has closed (rule sets with one-time mills; else 0),
    ``due[c]`` the removals side ``c`` still has to make, each a turn of its own (negative:
    of its own men; rule sets with removals due, else 0), and ``closing`` whether the last man
    is placed but placing ends only once the side to move has made its removals due."""

    def __init__(
        self,
        game: Morris,
        men: tuple[int, int] = (0, 0),
        hand: tuple[int, int] | None = None,
        turn: Color | None = None,
        ply: int = 0,
        quiet: int = 0,
        marked: int = 0,
        used: tuple[int, int] = (0, 0),
        due: tuple[int, int] = (0, 0),
        closing: bool = False,
    ) -> None:
        variant = game.variant
        self.game = game
        self.rules = rules = game.rules
        self.variant = variant
        self.board = variant.board
        self.men = [men[0], men[1]]
        self.hand = [variant.men, variant.men] if hand is None else [hand[0], hand[1]]
        self.turn = variant.first if turn is None else turn
        self.ply = ply
        self.quiet = quiet
        self.marked = marked
        self.used = [used[0], used[1]]
        self.due = [due[0], due[1]]
        self.closing = closing
        self.move_stack: list[int] = []
        #: before each move: the quiet plies, the marked points, the mover's used points, the
        #: removals due, closing, the mover and the other side's hand
        self._undo: list[tuple[int, int, int, int, int, bool, Color, int]] = []
        self._flying = bool(rules["flying"])
        self._three_men = int(rules.settings.get("three_men_rule", 0))
        self._moves = moves_of(self.board)
        self._start_history(rules)
        self.start = self.position_code()

    # --- move generation ------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        c = self.turn
        if self.men[c].bit_count() + self.hand[c] < 3 or self._drawn():
            return []
        return self._generate()

    def _generate(self) -> list[int]:
        c = self.turn
        board = self.board
        size = board.size
        own = self.men[c]
        opp = self.men[1 - c]
        variant = self.variant
        if self.due[c]:
            men = own if self.due[c] < 0 else opp
            return [
                removal_code(board, r) for r in _removable(board, men, variant.remove_from_mills)
            ]
        empty = self._empty()
        adjacent = board.adjacent
        pairs: list[tuple[int, int]] = []
        if self.hand[c]:
            pairs = [(size, d) for d in bits(empty)]
        if not self.hand[c] or variant.lasker:
            if self._flying and not self.hand[c] and own.bit_count() == 3:
                targets = bits(empty)
                pairs += [(s, d) for s in bits(own) for d in targets]
            else:
                pairs += [(s, d) for s in bits(own) for d in bits(adjacent[s] & empty)]
        removable: list[int] | None = None
        codes: list[int] = []
        used = self.used[c]
        for src, dst in pairs:
            after = (own if src == size else own ^ (1 << src)) | (1 << dst)
            base = (src * size + dst) * (size + 1)
            if _takes(board, after, dst, used) and self._from_board(src == size):
                if removable is None:
                    removable = _removable(board, opp, variant.remove_from_mills)
                if removable:
                    codes.extend(base + r for r in removable)
                    continue
            codes.append(base + size)
        return codes

    def _from_board(self, placement: bool) -> bool:
        """Whether a mill closed by a placement (or a move) of the side to move takes its first
        man from the board, written in the move: not under removals by mill counts (a
        placement's mill takes nothing), nor while the opponent has men in hand under removal
        from the hand."""
        variant = self.variant
        if not placement:
            return True
        if variant.mill_counts:
            return False
        return not (variant.hand_removal and self.hand[1 - self.turn])

    def push_code(self, code: int) -> None:
        size = self.board.size
        rest, rem = divmod(code, size + 1)
        src, dst = divmod(rest, size)
        c = self.turn
        other = Color(1 - c)
        variant = self.variant
        due = self.due
        self._undo.append(
            (
                self.quiet,
                self.marked,
                self.used[c],
                due[0],
                due[1],
                self.closing,
                c,
                self.hand[other],
            )
        )
        placing = bool(self.hand[0] or self.hand[1] or self.closing)
        if src == dst:  # a removal alone
            taken = c if due[c] < 0 else other
            self.men[taken] ^= 1 << rem
            if variant.marking and (self.hand[0] or self.hand[1]):
                self.marked |= 1 << rem
            self.quiet = 0
            due[c] += 1 if due[c] < 0 else -1
            if taken == other:
                due[c] = self._due_against(other, due[c])
        else:
            self._play(c, src, dst, rem)
        if not (self.hand[0] or self.hand[1]):
            self.marked = 0  # placing is over: the marked points are free
        ended = placing and not (self.hand[0] or self.hand[1])
        if due[c]:
            self.closing = ended
            self.turn = c
        elif ended:
            self.closing = False
            self._end_placing(other)
        else:
            self.turn = other
        self.ply += 1
        self.move_stack.append(code)
        self._enter()

    def _play(self, c: Color, src: int, dst: int, rem: int) -> None:
        """Place (``src`` = the number of points) or move a man of ``c``'s to ``dst``, with the
        removal ``rem`` written in the move, and the removals the move brings besides: from the
        opponent's hand, and those due."""
        board, variant = self.board, self.variant
        size = board.size
        other = 1 - c
        placement = src == size
        if placement:
            self.men[c] |= 1 << dst
            self.hand[c] -= 1
        else:
            self.men[c] ^= (1 << src) | (1 << dst)
        mills = _taking(board, self.men[c], dst, self.used[c])
        if variant.one_time_mills:
            self.used[c] |= _closed(board, self.men[c], dst)
        if rem != size:
            self.men[other] ^= 1 << rem
            if variant.marking and placement:
                self.marked |= 1 << rem
            self.quiet = 0
        elif not placement:
            self.quiet += 1
        if not mills or (placement and variant.mill_counts):
            return
        count = mills if variant.multiple_removals else 1
        if placement and variant.hand_removal and self.hand[other]:
            from_hand = min(count, self.hand[other])
            self.hand[other] -= from_hand
            self.due[c] = self._due_against(other, count - from_hand)
        elif rem != size:
            self.due[c] = self._due_against(other, count - 1)

    def _due_against(self, side: int, count: int) -> int:
        """``count`` removals due against ``side``'s men, or fewer: no more than it has on the
        board, and none once it has fewer than three men (it has lost)."""
        men = self.men[side].bit_count()
        return 0 if men + self.hand[side] < 3 else min(count, men)

    def _end_placing(self, after: Color) -> None:
        """Placing is over: the player who moves first (the second player under the defender
        moving first, else ``after``, whose turn it is by alternation) is to move, after the
        removals placing's end brings (by mill counts, or on a full board)."""
        variant = self.variant
        first = Color(1 - variant.first) if variant.defender_first else after
        due = self.due
        if variant.mill_counts:
            counts = [sum(men & m == m for m in self.board.mill_masks) for men in self.men]
            for side, count in enumerate(mill_count_removals(counts[0], counts[1])):
                men = self.men[side if count < 0 else 1 - side].bit_count()
                due[side] = max(count, -men) if count < 0 else min(count, men)
        elif not self._empty() and variant.full_board == "both-remove":
            due[0] = due[1] = 1
        elif not self._empty() and variant.full_board == "first-removes":
            due[first] = 1
        self.turn = first if due[first] or not due[1 - first] else Color(1 - first)

    def pop_code(self) -> int:
        self._leave()
        size = self.board.size
        code = self.move_stack.pop()
        rest, rem = divmod(code, size + 1)
        src, dst = divmod(rest, size)
        quiet, marked, used, due_w, due_b, closing, c, hand = self._undo.pop()
        other = 1 - c
        self.turn = c
        self.ply -= 1
        self.quiet, self.marked, self.used[c], self.closing = quiet, marked, used, closing
        self.due = [due_w, due_b]
        self.hand[other] = hand
        if src == dst:
            self.men[c if self.due[c] < 0 else other] |= 1 << rem
            return code
        if src != size:
            self.men[c] ^= (1 << src) | (1 << dst)
        else:
            self.men[c] ^= 1 << dst
            self.hand[c] += 1
        if rem != size:
            self.men[other] |= 1 << rem
        return code

    def move_of(self, code: int) -> MorrisMove:
        return self._moves[code]

    def read_move(self, text: str) -> MorrisMove:
        return MorrisMove.parse(text, self.board.key)

    def why_illegal(self, move: Move, legal: list[int]) -> str:
        assert isinstance(move, MorrisMove)
        c = self.turn
        names = self.board.points
        own, opp = self.men[c], self.men[1 - c]
        side = _(self.turn.title)
        if self.due[c] or move.removal_only:
            return self._why_not_removal(move)
        if self.hand[c] and move.src is not None and not self.variant.lasker:
            return _("%(side)s still has men in hand and must place one", side=side)
        if not self.hand[c] and move.src is None:
            return _("%(side)s has no men in hand; move a man instead (e.g. a1-a4)", side=side)
        if move.src is not None and not own >> move.src & 1:
            return _("%(side)s has no man on %(point)s", side=side, point=names[move.src])
        if not self._empty() >> move.dst & 1:
            return _("%(point)s is occupied", point=names[move.dst])
        per_pair = self.board.size + 1
        base = [m for m in legal if m // per_pair == move.code // per_pair]
        if not base:
            return _(
                "%(first)s and %(second)s are not neighbours",
                first=names[move.src or 0],
                second=names[move.dst],
            )
        if move.remove is None:
            return _(
                "this closes a mill: name the man to remove, e.g. %(move)s",
                move=str(self._moves[base[0]]),
            )
        if base == [move.code - move.remove + self.board.size]:
            after = (own if move.src is None else own ^ (1 << move.src)) | (1 << move.dst)
            if _closed(self.board, after, move.dst):
                return _(
                    "this closes only mills on points where %(side)s has closed mills before, "
                    "so nothing is removed",
                    side=side,
                )
            return _("this does not close a mill, so nothing is removed")
        if not opp >> move.remove & 1:
            return _(
                "there is no %(side)s man on %(point)s",
                side=_(self.turn.other.title),
                point=names[move.remove],
            )
        return _(
            "%(point)s stands in a mill and other men are free to take", point=names[move.remove]
        )

    def _why_not_removal(self, move: MorrisMove) -> str:
        """Why ``move`` is illegal when the side to move has removals due, or is a removal
        alone."""
        c = self.turn
        names = self.board.points
        due = self.due[c]
        if not due:
            return _(
                "a removal alone, such as %(move)s, is a turn only when removals are due",
                move=str(move),
            )
        if not move.removal_only:
            example = self._moves[self._generate()[0]]
            return _(
                "%(side)s must first remove a man, alone (e.g. %(move)s)",
                side=_(self.turn.title),
                move=str(example),
            )
        owner = c if due < 0 else Color(1 - c)
        if not self.men[owner] >> move.dst & 1:
            return _(
                "there is no %(side)s man on %(point)s",
                side=_(owner.title),
                point=names[move.dst],
            )
        return _("%(point)s stands in a mill and other men are free to take", point=names[move.dst])

    # --- knowledge for computer players ------------------------------------------------------
    def is_tactical(self, code: int) -> bool:
        return code % (self.board.size + 1) != self.board.size

    def evaluate(self) -> float:
        """Material first; then mills, open twos (a mill one move away), mobility, and the
        flying endgame: three men against an open two lose a man at once.  Under one-time
        mills, a mill or two on points all recorded for its side counts for nothing."""
        c = self.turn
        board = self.board
        own, opp = self.men[c], self.men[1 - c]
        count_own = own.bit_count() + self.hand[c]
        count_opp = opp.bit_count() + self.hand[1 - c]
        empty = self._empty()
        threats_own = threats_opp = mills_own = mills_opp = 0
        used_own, used_opp = self.used[c], self.used[1 - c]
        for mask in board.mill_masks:
            mine, theirs = own & mask, opp & mask
            if (not mask & ~used_own and not theirs) or (not mask & ~used_opp and not mine):
                continue  # a mill there would take nothing
            if mine == mask:
                mills_own += 1
            elif theirs == mask:
                mills_opp += 1
            elif not theirs and mine.bit_count() == 2:
                threats_own += 1
            elif not mine and theirs.bit_count() == 2:
                threats_opp += 1
        due = self.due[c] - self.due[1 - c]  # men about to be taken (negative: own men)
        score = 0.6 * (count_own - count_opp + due) + 0.15 * (mills_own - mills_opp)
        score += 0.25 * threats_own - 0.2 * threats_opp
        if not self.hand[c] and not self.hand[1 - c]:
            adjacent = board.adjacent
            moves_own = sum((adjacent[s] & empty).bit_count() for s in bits(own))
            moves_opp = sum((adjacent[s] & empty).bit_count() for s in bits(opp))
            if (count_own > 3 and count_opp > 3) or not self._flying:
                score += 0.04 * (moves_own - moves_opp)
            if self._flying:
                if count_opp == 3 and threats_own and (count_own == 3 or moves_own):
                    score += 2.0  # the side to move can close a mill against three men
                if count_own == 3 and threats_opp >= 2:
                    score -= 1.5  # two open twos against three men: one cannot block both
        return math.tanh(score / 3)

    def pieces(self) -> list[str]:
        white, black = self.men
        return [
            "w" if white >> p & 1 else "b" if black >> p & 1 else "" for p in range(self.board.size)
        ]

    def marked_points(self) -> list[int]:
        """The marked points (rule sets with marking, while men are placed)."""
        return bits(self.marked)

    def gesture(self, code: int) -> tuple[tuple[str, int], ...]:
        move = self._moves[code]
        if move.removal_only:
            return (("take", move.dst),)
        touches = (
            (("to", move.dst),) if move.src is None else (("from", move.src), ("to", move.dst))
        )
        return touches if move.remove is None else (*touches, ("take", move.remove))

    def in_hand(self) -> tuple[int, int] | None:
        return self.hand[0], self.hand[1]

    def move_note(self, code: int) -> str:
        """The man a mill takes: ``"mill, takes f4"``; the man a removal alone takes:
        ``"removes f4"``."""
        move = self._moves[code]
        remove = move.remove
        if remove is None:
            return ""
        if move.removal_only:
            # TRANSLATORS: a turn that only removes a man ("xf4"), said after it
            return _("removes %(point)s", point=self.board.points[remove])
        # TRANSLATORS: what a move that closes a mill does, said after it ("d6-d5xf4")
        return _("mill, takes %(point)s", point=self.board.points[remove])

    def describe(self) -> str:
        """Each side's men (or cows) by point and in hand, the points marked (blocked while men
        are placed), each side's removals due, the points of each side's closed mills (rule sets
        with one-time mills), whose turn it is and who may fly."""
        names, tokens = self.board.points, self.pieces()
        sides = []
        for colour in Color:
            points = points_of(tokens, names, "wb"[colour])
            where = listed(points)
            if not points:
                board = []
            elif self.variant.pieces == "cows":
                board = [
                    ngettext(
                        "%(num)s cow, on %(points)s",
                        "%(num)s cows, on %(points)s",
                        len(points),
                        points=where,
                    )
                ]
            else:
                board = [
                    ngettext(
                        "%(num)s man, on %(points)s",
                        "%(num)s men, on %(points)s",
                        len(points),
                        points=where,
                    )
                ]
            hand = self.hand[colour]
            # TRANSLATORS: a side's men (or cows) still to be placed, in the position read out
            more = [ngettext("%(num)s in hand", "%(num)s in hand", hand)] if hand else []
            sides.append(side_words(colour, board, more))
        marked = [names[p] for p in bits(self.marked)]
        extra = (
            [
                _(
                    "Marked points, blocked until the last man is placed: %(points)s.",
                    points=listed(ordered(marked)),
                )
            ]
            if marked
            else []
        )
        for colour in Color:
            due = self.due[colour]
            if due:
                owner = colour if due < 0 else colour.other
                extra.append(
                    ngettext(
                        "%(side)s has %(num)s man of %(owner)s to remove before play goes on.",
                        "%(side)s has %(num)s men of %(owner)s to remove before play goes on.",
                        abs(due),
                        side=_(colour.title),
                        owner=_(owner.title),
                    )
                )
        for colour in Color:
            if self.used[colour]:
                points = [names[p] for p in bits(self.used[colour])]
                extra.append(
                    # TRANSLATORS: One-Time Mill: a mill takes a man only once on its points
                    _(
                        "%(side)s has closed mills on %(points)s; a mill on three of these "
                        "points takes nothing.",
                        side=_(colour.title),
                        points=listed(ordered(points)),
                    )
                )
        return position_words(sides, self.turn, extra, self.notice())

    def notice(self) -> str | None:
        """Who may fly (three men left, none in hand, under a rule set with flying)."""
        if not self._flying:
            return None
        flyers = [
            _(Color(c).title) for c in (0, 1) if not self.hand[c] and self.men[c].bit_count() == 3
        ]
        if not flyers:
            return None
        who = (
            flyers[0]
            if len(flyers) == 1
            else _("%(first)s and %(second)s", first=flyers[0], second=flyers[1])
        )
        if self.variant.pieces == "cows":
            return ngettext(
                "%(who)s has three cows left and may fly to any empty point.",
                "%(who)s have three cows left and may fly to any empty point.",
                len(flyers),
                who=who,
            )
        return ngettext(
            "%(who)s has three men left and may fly to any empty point.",
            "%(who)s have three men left and may fly to any empty point.",
            len(flyers),
            who=who,
        )

    def action_path(self, code: int) -> tuple[int, ...]:
        """OpenSpiel's layout of actions (with this board's points): a placement on point ``p``
        is action ``p``, a move or flight from ``s`` to ``d`` is ``size + s * size + d``, and a
        move that closes a mill is followed by a second action, the point ``r`` of the man it
        removes (by the same player); a removal alone is that action alone."""
        size = self.board.size
        rest, rem = divmod(code, size + 1)
        if rest == rem * (size + 1):
            return (rem,)
        first = rest - size * size if rest >= size * size else rest + size
        return (first,) if rem == size else (first, rem)

    def planes(self) -> list[list[float]]:
        """White men, Black men, then White's and Black's men in hand (as fractions of the men
        each side starts with)."""
        size, men = self.board.size, self.variant.men
        return [[float(self.men[c] >> p & 1) for p in range(size)] for c in (0, 1)] + [
            [self.hand[c] / men] * size for c in (0, 1)
        ]

    # --- ending -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        c = self.turn
        if self.men[c].bit_count() + self.hand[c] < 3:
            return Outcome(Termination.FEWER_THAN_THREE, Color(1 - c))
        empty = self._empty()
        if (self.hand[c] and empty) or self.due[c]:
            return self._drawn()  # a man can be placed, or taken
        full = self.variant.full_board
        if full in ("draw", "first-loses") and not (empty or self.hand[0] or self.hand[1]):
            winner = None if full == "draw" else Color(1 - self.variant.first)
            return Outcome(Termination.FULL_BOARD, winner)
        if not self._generate():
            return Outcome(Termination.NO_LEGAL_MOVES, Color(1 - c))
        return self._drawn()

    def _drawn(self) -> Outcome | None:
        drawn = super()._drawn()
        if (
            drawn is None
            and self._three_men
            and self.quiet >= self._three_men
            and not (self.hand[0] or self.hand[1])
            and min(m.bit_count() for m in self.men) == 3
        ):
            return Outcome(Termination.THREE_MEN_RULE, None)
        return drawn

    def _empty(self) -> int:
        """The empty points: neither side's men, nor marked."""
        return self.board.full & ~(self.men[0] | self.men[1] | self.marked)

    def _key(self) -> int:
        size = self.board.size
        return (
            self.men[0]
            | self.men[1] << size
            | self.hand[0] << 2 * size
            | self.hand[1] << 2 * size + 4
            | self.turn << 2 * size + 8
            | self.marked << 2 * size + 9
            | self.used[0] << 3 * size + 9
            | self.used[1] << 4 * size + 9
            | (self.due[0] & 15) << 5 * size + 9
            | (self.due[1] & 15) << 5 * size + 13
            | self.closing << 5 * size + 17
        )

    def position_key(self) -> int:
        return self._key()

    # --- text forms ---------------------------------------------------------------------------
    def position_code(self) -> str:
        rows = ["".join(self._char(p) for p in row) for row in self.board.rows]
        fields = ["/".join(rows), "w" if self.turn is Color.WHITE else "b", *map(str, self.hand)]
        if self.due[0] or self.due[1]:
            fields.append(f"x{self.due[0]}/{self.due[1]}" + ("+" if self.closing else ""))
        if self.used[0] or self.used[1]:
            names = self.board.points
            fields.append(
                "/".join("".join(names[p] for p in bits(used)) or "-" for used in self.used)
            )
        return " ".join([*fields, str(self.quiet), str(self.ply)])

    def _char(self, p: int) -> str:
        if self.men[0] >> p & 1:
            return "W"
        if self.men[1] >> p & 1:
            return "B"
        if self.marked >> p & 1:
            return "X"
        return "."

    def __str__(self) -> str:
        return (
            _picture(self.board, self._char) + f"{self.turn.title} to move; in hand: "
            f"White {self.hand[0]}, Black {self.hand[1]}"
        )

    def __repr__(self) -> str:
        return f"<MorrisState {self.position_code()!r}>"


def _closed(board: MorrisBoard, men: int, dst: int) -> int:
    """The points of the mills through ``dst`` that ``men`` fill (0 if none)."""
    points = 0
    for mask in board.mills_at[dst]:
        if men & mask == mask:
            points |= mask
    return points


def _taking(board: MorrisBoard, men: int, dst: int, used: int) -> int:
    """How many mills through ``dst`` that ``men`` (the mover's, after the move) fill take a
    man: those with a point outside ``used`` (the mover's points of earlier mills; 0 where
    mills are not one-time)."""
    return sum(men & mask == mask and bool(mask & ~used) for mask in board.mills_at[dst])


def _takes(board: MorrisBoard, men: int, dst: int, used: int) -> bool:
    """Whether ``men`` (the mover's, after the move to ``dst``) close a mill through ``dst``
    that takes a man: one with a point outside ``used`` (the points of the mover's earlier
    mills; 0 where mills are not one-time)."""
    return any(men & mask == mask and mask & ~used for mask in board.mills_at[dst])


def _removable(board: MorrisBoard, opp: int, always: bool) -> list[int]:
    """The opponent men that may be taken: all of them if ``always`` (the rule set's
    ``remove_from_mills``), else those outside mills, or all if every one is in one."""
    if always:
        return bits(opp)
    in_mill = 0
    for mask in board.mill_masks:
        if opp & mask == mask:
            in_mill |= mask
    free = opp & ~in_mill
    return bits(free if free else opp)


def _picture(board: MorrisBoard, char: object) -> str:
    """The board drawn in text: points on a grid (4 columns a file), lines as - | / \\, men
    as ``W`` and ``B``, marked points as ``X``."""
    assert callable(char)
    spots = {}
    for i, name in enumerate(board.points):
        spots[(ord(name[0]) - 97, int(name[1:]) - 1)] = i
    width = max(x for x, _ in spots) + 1
    height = max(y for _, y in spots) + 1
    grid = [[" "] * (4 * width - 3) for _ in range(2 * height - 1)]
    for a, b in board.edges:
        (xa, ya), (xb, yb) = (_spot(board.points[p]) for p in (a, b))
        steps = 4 * abs(xb - xa) if ya == yb else 2 * abs(yb - ya)
        mark = "-" if ya == yb else "|" if xa == xb else "/" if (xb - xa) * (yb - ya) > 0 else "\\"
        for k in range(1, steps):
            col = 4 * xa + 4 * (xb - xa) * k // steps
            row = 2 * (height - 1 - ya) - 2 * (yb - ya) * k // steps
            if grid[row][col] == " ":
                grid[row][col] = mark
    for (x, y), i in spots.items():
        grid[2 * (height - 1 - y)][4 * x] = {"W": "W", "B": "B", "X": "X"}.get(char(i), "+")
    text = [
        f"{str(height - r // 2) if r % 2 == 0 else '':>2} " + "".join(row).rstrip()
        for r, row in enumerate(grid)
    ]
    text.append("   " + "   ".join(chr(97 + x) for x in range(width)))
    return "\n".join(text) + "\n"


def _spot(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


_LADDER = (
    Rung(
        "search:depth=1,noise=1500",
        N_("looks one move ahead and often misjudges it"),
        N_("Beginner"),
    ),
    Rung("search:depth=2,noise=400", N_("sees the reply, but often misjudges"), N_("Novice")),
    Rung("search:depth=3,noise=100", N_("three plies, sometimes misjudged"), N_("Casual")),
    Rung("search:depth=4", N_("four plies"), N_("Club player")),
    Rung("search:depth=7", N_("seven plies"), N_("Expert")),
    Rung(
        "search:time=1,tables=1,book=1",
        N_(
            "about a second a move (ten plies and more), from the opening book while placing, "
            "perfect wherever a built endgame table covers the position"
        ),
        N_("Master"),
    ),
)


class Morris(PointBoardGame):
    """The Morris family: the registered game and its rule sets."""

    name = "morris"
    title = N_("Nine Men's Morris")
    aliases = ("nine-mens-morris", "nine_mens_morris", "ninemensmorris", "mills")
    state_class = MorrisState
    options: ClassVar[Mapping[str, str]] = {
        "flying": N_("With three men left, a man may fly to any empty point"),
        "repetition": DRAW_OPTIONS["repetition"],
        "move_rule": N_("Draw after this many plies of moving without a removal (0: never)"),
        "three_men_rule": N_(
            "Draw when a player with three men and the other have each made this "
            "many moves without a mill (0: never)"
        ),
        # the custom rule set's own settings
        "board": N_("The board the men are placed on"),
        "men": N_("Men each side places (from 3 to half the board's points)"),
        "black_first": N_("Black places the first man (else White)"),
        "lasker": N_("While men are in hand, a turn may move a man instead of placing one"),
        "marking": N_(
            "A mill closed while placing marks the man it takes: his point stays blocked until "
            "the last man is placed"
        ),
        "remove_from_mills": N_("A mill may take any enemy man, one standing in a mill too"),
        "one_time_mills": N_(
            "Each mill takes a man only once: a mill all of whose points were in mills the side "
            "closed before takes nothing"
        ),
        "full_board": N_("What a board full when placing ends does"),
        "multiple_removals": N_("A move that closes several mills at once takes a man for each"),
        "defender_first": N_("The second player makes the first move once placing ends"),
        "hand_removal": N_(
            "A mill closed while placing takes a man from the opponent's hand while they hold any"
        ),
        "mill_counts": N_(
            "A mill closed while placing takes nothing; when placing ends each player removes "
            "men by the mills on the board"
        ),
    }
    setting_words: ClassVar[Mapping[str, SettingWords]] = {
        "flying": SettingWords(on=N_("flying"), off=N_("no flying")),
        "three_men_rule": SettingWords(
            off=N_("no three men rule"), value=N_("three men rule %(value)s")
        ),
        **DRAW_WORDS,
        "board": SettingWords(
            values={
                6: N_("board of 16 points"),
                9: N_("board of 24 points"),
                12: N_("board of 24 points with diagonals"),
            }
        ),
        "men": SettingWords(value=N_("%(value)s men a side")),
        "black_first": SettingWords(on=N_("Black first"), off=N_("White first")),
        "lasker": SettingWords(on=N_("moving while placing"), off=N_("no moving while placing")),
        "marking": SettingWords(on=N_("marking while placing"), off=N_("no marking")),
        "remove_from_mills": SettingWords(
            on=N_("removal from mills"), off=N_("no removal from mills")
        ),
        "one_time_mills": SettingWords(on=N_("one-time mills"), off=N_("mills reusable")),
        "full_board": SettingWords(value=N_("a full board: %(value)s"), values=FULL_BOARD),
        "multiple_removals": SettingWords(
            on=N_("a man for each mill"), off=N_("one man for several mills")
        ),
        "defender_first": SettingWords(
            on=N_("the second player moves first"), off=N_("the first player moves first")
        ),
        "hand_removal": SettingWords(
            on=N_("removal from the hand"), off=N_("no removal from the hand")
        ),
        "mill_counts": SettingWords(
            on=N_("removals by mill counts"), off=N_("no removals by mill counts")
        ),
    }
    texts: ClassVar[Mapping[str, str]] = {
        "place": N_("choose a point to place a man"),
        "place_or_move": N_("place a man or choose one to move"),
        "move": N_("choose a man to move"),
        "take": N_("choose an enemy man to remove (ringed red)"),
        "example": N_("e.g. d6, a1-a4 or d6xg7"),
    }
    #: the status texts that name the pieces, where they are cows (Morabaraba)
    cow_texts: ClassVar[Mapping[str, str]] = {
        "place": N_("choose a point to place a cow"),
        "place_or_move": N_("place a cow or choose one to move"),
        "move": N_("choose a cow to move"),
        "take": N_("choose an enemy cow to remove (ringed red)"),
    }
    summary = N_(
        "Each player has nine men. Take turns placing them on the 24 points, then move "
        "them along the lines to a neighbouring empty point. Three of your men in a row "
        "on a line form a mill: then remove one enemy man (not one standing in a mill, "
        "unless every one does). With three men left you may fly to any empty point. You "
        "lose with fewer than three men or when you cannot move. Six and Twelve Men's "
        "Morris, Morabaraba, Lasker Morris, Cheng San Qi, Cham Gonu, One-Time Mill, Zhi Qi, Da "
        "San Qi, El Filja and Dooz are rule sets of the family."
    )
    rule_sets = (
        MorrisRules(
            "morris",
            N_(
                "Nine Men's Morris after Marelle: flying with three men, a man in a mill is safe "
                "unless all are in mills, draws by threefold repetition and 100 quiet plies."
            ),
            {"flying": True, **DRAW_DEFAULTS},
            aliases=("morris-9",),
            title=N_("Nine Men's Morris"),
        ),
        MorrisRules(
            "morris-6",
            N_("Six Men's Morris: two squares, 16 points, six men each, no flying."),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("six-mens-morris",),
            title=N_("Six Men's Morris"),
            board=SIX,
            men=6,
        ),
        MorrisRules(
            "morris-12",
            N_(
                "Twelve Men's Morris: the board with its four corner diagonals (20 mills), "
                "twelve men each; a board full when placing ends is a draw."
            ),
            {"flying": True, **DRAW_DEFAULTS},
            aliases=("twelve-mens-morris",),
            title=N_("Twelve Men's Morris"),
            board=TWELVE,
            men=12,
            full_board="draw",
        ),
        MorrisRules(
            "morabaraba",
            N_(
                "Morabaraba (Mind Sports South Africa): twelve cows on the diagonal board, the "
                "dark cows (Black) start; drawn when a player has three cows and ten moves each "
                "pass without a shot."
            ),
            {"flying": True, **DRAW_DEFAULTS, "three_men_rule": 20},
            title=N_("Morabaraba"),
            board=TWELVE,
            men=12,
            first=Color.BLACK,
            full_board="draw",
            piece="cow",
            pieces="cows",
        ),
        MorrisRules(
            "morris-lasker",
            N_(
                "Lasker Morris: ten men each; while you have men in hand you may place one or "
                "move one already on the board."
            ),
            {"flying": True, **DRAW_DEFAULTS},
            aliases=("lasker-morris", "lasker"),
            title=N_("Lasker Morris"),
            men=10,
            lasker=True,
        ),
        MorrisRules(
            "cheng-san-qi",
            N_(
                "Cheng San Qi (China): nine men each, no flying; a mill closed while placing marks "
                "the man it takes, whose point stays blocked until the last man is placed."
            ),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("chengsanqi",),
            title=N_("Cheng San Qi"),
            marking=True,
        ),
        MorrisRules(
            "cham-gonu",
            N_(
                "Cham Gonu (Korea): twelve men each on the diagonal board, no flying; a mill "
                "closed while placing marks the man it takes, whose point stays blocked until the "
                "last man is placed; a mill may take any man, one in a mill too."
            ),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("chamgonu",),
            title=N_("Cham Gonu"),
            board=TWELVE,
            men=12,
            remove_from_mills=True,
            marking=True,
        ),
        MorrisRules(
            "one-time-mill",
            N_(
                "One-Time Mill (Russian Mill): Nine Men's Morris where each mill takes a man only "
                "once: a mill all of whose points were in mills you closed before takes nothing; "
                "a mill may take any man, one in a mill too."
            ),
            {"flying": True, **DRAW_DEFAULTS},
            aliases=("russian-mill", "morris-onetime"),
            title=N_("One-Time Mill"),
            remove_from_mills=True,
            one_time_mills=True,
        ),
        MorrisRules(
            "zhi-qi",
            N_(
                "Zhi Qi (China): twelve men each on the diagonal board, no flying; a mill closed "
                "while placing marks the man it takes; a mill may take any man; if the board is "
                "full when placing ends, each player, the first then the second, removes an "
                "enemy man."
            ),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("zhiqi",),
            title=N_("Zhi Qi"),
            board=TWELVE,
            men=12,
            remove_from_mills=True,
            marking=True,
            full_board="both-remove",
        ),
        MorrisRules(
            "da-san-qi",
            N_(
                "Da San Qi (China): twelve men each on the diagonal board, no flying; a mill "
                "closed while placing marks the man it takes; a move that closes several mills "
                "takes a man for each, any man; the second player moves first once placing "
                "ends; a board full when placing ends loses for the first player."
            ),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("dasanqi",),
            title=N_("Da San Qi"),
            board=TWELVE,
            men=12,
            remove_from_mills=True,
            marking=True,
            multiple_removals=True,
            defender_first=True,
            full_board="first-loses",
        ),
        MorrisRules(
            "el-filja",
            N_(
                "El Filja (Algeria, Morocco): twelve men each fill the Nine Men's board, no "
                "flying; a mill closed while placing takes nothing, but when placing ends each "
                "player removes men by the mills on the board (one of their own if nobody has "
                "one); a mill may take any man."
            ),
            {"flying": False, **DRAW_DEFAULTS},
            aliases=("elfilja", "filja"),
            title=N_("El Filja"),
            men=12,
            remove_from_mills=True,
            mill_counts=True,
        ),
        MorrisRules(
            "dooz",
            N_(
                "Dooz (Iran): twelve men each on the diagonal board; a mill closed while placing "
                "takes a man from the opponent's hand while they hold any; if the board is full "
                "when placing ends, the first player removes an enemy man; a mill may take any "
                "man."
            ),
            {"flying": True, **DRAW_DEFAULTS},
            title=N_("Dooz"),
            board=TWELVE,
            men=12,
            remove_from_mills=True,
            hand_removal=True,
            full_board="first-removes",
        ),
        MorrisRules(
            CUSTOM,
            N_(
                "A mill game of your own: choose the board, the men a side, who starts, flying, "
                "moving while placing, marking, removal from mills, one-time mills, what a full "
                "board does, a man for each mill, the second player moving first, removal from "
                "the hand, removals by mill counts and the draw rules."
            ),
            SETTINGS,
            aliases=("custom-morris",),
            title=N_("Custom mill game"),
        ),
    )
    variant: MorrisRules

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        assert isinstance(self.definition, MorrisRules)
        self.variant = self.definition
        if rules.name == CUSTOM:
            self.variant = self.definition.playing(Play.of_settings(rules.settings))

    @classmethod
    def parse_rules(cls, spec: str | RuleSet | None = None) -> RuleSet:
        """As :meth:`Game.parse_rules`; a custom spec (``morris-custom:board=12,men=10``) is
        checked (:meth:`.custom.Play.of_settings`: :class:`InvalidRulesError` for settings that
        make no game) and is the named rule set that plays exactly as it where there is one
        (``morris-custom:flying=false`` is ``morris:flying=false``): one game, one canonical
        spec."""
        rules = super().parse_rules(spec)
        if rules.name != CUSTOM or isinstance(spec, RuleSet):
            return rules
        plays = [(d, d.play) for d in cls.rule_sets if isinstance(d, MorrisRules)]
        return named(rules, Play.of_settings(rules.settings), plays) or rules

    @property
    def layout(self) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        return self.variant.board.points, self.variant.board.edges

    @property
    def status_texts(self) -> dict[str, str]:
        if self.variant.piece == "cow":
            return {**super().status_texts, **self.cow_texts}
        return super().status_texts

    @property
    def ladder(self) -> tuple[Rung, ...]:
        """The family's six levels; a rule set solved from its start (Six Men's Morris) has five
        instead, since a four-ply search already holds the start's draw against perfect play
        (levels at four plies and deeper could not be told apart): the first three, three
        plies without misjudging, then the perfect player (four plies until its table is
        built)."""
        from .table import MorrisSolver

        solver = self.solver()
        if not (isinstance(solver, MorrisSolver) and solver.hands):
            return _LADDER
        if solver.ready():
            top = Rung("perfect", N_("perfect play from the solved table"), N_("Perfect"))
        else:
            top = Rung("search:depth=4", N_("four plies"), N_("Expert"))
        return (*_LADDER[:3], Rung("search:depth=3", N_("three plies"), N_("Club player")), top)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's symmetries (16 on each board: the square's eight, times swapping the
        inner and outer rings); every rule of the family is the same under them."""
        return tuple(symmetries(self.variant.board))

    @property
    def book_path(self) -> Path | None:
        """``ludoteca/games/morris/books/<rule set>.json.xz`` (the rule set with its settings);
        none for a custom rule set (one that plays as a named rule set is that rule set)."""
        if self.rules.name == CUSTOM:
            return None
        return Path(__file__).parent / "books" / f"{self.rules}.json.xz"

    def solver(self, men: int | None = None) -> Solver | None:
        """The tables' solver; none where a mill may take a man in a mill (the tables, shared
        by the rule sets of a board and flying rule, hold the mill protection), under one-time
        mills (they hold no closed mills) and for a custom rule set (one that plays as a named
        rule set is that rule set)."""
        from .table import MorrisSolver

        variant = self.variant
        if variant.remove_from_mills or variant.one_time_mills or self.rules.name == CUSTOM:
            return None
        return MorrisSolver(self.rules, men)

    def lessons(self) -> tuple[Lesson, ...]:
        """Nine Men's Morris's lessons (:mod:`.lessons`), then one for each rule of another rule
        set that changes what a player must do (:mod:`.rule_lessons`), each of its rule set."""
        from .lessons import lessons
        from .rule_lessons import rule_lessons

        return lessons() + rule_lessons()

    def puzzle_theme(self, state: State, line: Sequence[int]) -> str:
        """``blockade`` (the line ends with the opponent shut in), ``double mill`` (the
        player's first two moves both close a mill), ``mill`` (the first does), ``threat``
        (a quiet first move, the second closes a mill), ``double threat`` (a quiet first move
        after which two points would close a mill), ``placement`` (a quiet first move that
        places a man), ``flying`` (one that flies a man), else
        :data:`~ludoteca.core.QUIET_THEME`."""
        assert isinstance(state, MorrisState)
        size = self.variant.board.size
        after = state.copy()
        mills = []
        for i, code in enumerate(line):
            if not i % 2:
                mills.append(code % (size + 1) != size)
            after.push_code(code)
        ending = after.outcome()
        if ending is not None and ending.termination is Termination.NO_LEGAL_MOVES:
            return N_("blockade")
        if mills[:2] == [True, True]:
            return N_("double mill")
        if mills[0]:
            return N_("mill")
        if mills[1:2] == [True]:
            return N_("threat")
        side = state.turn
        first = state.child(state.move_of(line[0]))
        again = MorrisState(
            self,
            (first.men[0], first.men[1]),
            (first.hand[0], first.hand[1]),
            side,
            used=(first.used[0], first.used[1]),
        )
        closing = {c // (size + 1) % size for c in again.legal_codes() if c % (size + 1) != size}
        if len(closing) >= 2:
            return N_("double threat")
        if line[0] // (size + 1) // size == size:
            return N_("placement")
        if self.rules["flying"] and state.men[side].bit_count() == 3 and not state.hand[side]:
            return N_("flying")
        return QUIET_THEME

    @cached_property
    def kernel(self) -> Kernel:
        from .kernel import kernel

        return kernel(self)

    @property
    def longest_game(self) -> int:
        """Every man is placed once; between two removals (at most 2 x men - 5: a side is
        beaten at two) no more than ``move_rule`` plies move a man; where removals are turns of
        their own, each man is removed at most once."""
        men, quiet = self.variant.men, int(self.rules["move_rule"])
        alone = 2 * men if self.variant.removals_due else 0
        return 2 * men + alone + (2 * men - 4) * quiet if quiet else ENDLESS

    @property
    def num_distinct_actions(self) -> int:
        size = self.variant.board.size
        return size + size * size

    def position_code_of(
        self, pieces: Sequence[str], turn: Color, hand: tuple[int, int] | None = None
    ) -> str:
        hand_w, hand_b = hand or (0, 0)
        chars = {"w": "W", "b": "B", "": "."}
        rows = "/".join(
            "".join(chars.get(pieces[p], "?") for p in row) for row in self.variant.board.rows
        )
        placed = max(2 * self.variant.men - hand_w - hand_b, 0)
        return f"{rows} {'w' if turn is Color.WHITE else 'b'} {hand_w} {hand_b} 0 {placed}"

    def from_position_code(self, code: str) -> MorrisState:
        variant = self.variant
        board = variant.board
        fields = code.split()
        used = (0, 0)
        due, closing = (0, 0), False
        if len(fields) > 6 and fields[4].startswith("x") and variant.removals_due:
            due, closing = _removals_due(variant, fields.pop(4))
        if len(fields) == 7 and variant.one_time_mills:
            used = _used_points(board, fields.pop(4))
        if len(fields) != 6:
            raise InvalidPositionError(
                Text(
                    "a Morris position code has 6 fields (board side hand-white hand-black quiet "
                    "ply), not %(count)s: %(code)s",
                    count=len(fields),
                    code=repr(code),
                )
            )
        text, side, *numbers = fields
        rows = text.split("/")
        if [len(r) for r in rows] != [len(r) for r in board.rows]:
            shape = ",".join(str(len(r)) for r in board.rows)
            raise InvalidPositionError(
                Text(
                    "the board field needs %(rows)s rows from the top rank down, of %(shape)s "
                    "points: %(board)s",
                    rows=len(board.rows),
                    shape=shape,
                    board=repr(text),
                )
            )
        men = [0, 0]
        marked = 0
        for row, points in zip(rows, board.rows, strict=True):
            for ch, p in zip(row, points, strict=True):
                if ch in "Ww":
                    men[0] |= 1 << p
                elif ch in "Bb":
                    men[1] |= 1 << p
                elif ch in "Xx" and variant.marking:
                    marked |= 1 << p
                elif ch != ".":
                    raise InvalidPositionError(
                        Text("unknown board character %(char)s (use W, B, X or .)", char=repr(ch))
                        if variant.marking
                        else Text("unknown board character %(char)s (use W, B or .)", char=repr(ch))
                    )
        if side not in ("w", "b"):
            raise InvalidPositionError(
                Text("side to move must be w or b, not %(side)s", side=repr(side))
            )
        try:
            hand_w, hand_b, quiet, ply = (int(n) for n in numbers)
        except ValueError:
            raise InvalidPositionError(
                Text("hands, quiet plies and ply must be numbers: %(code)s", code=repr(code))
            ) from None
        turn = Color.WHITE if side == "w" else Color.BLACK
        hands = (hand_w, hand_b)
        if min(hand_w, hand_b, quiet, ply) < 0:
            raise InvalidPositionError(Text("counts cannot be negative"))
        if marked and not (hand_w or hand_b):
            raise InvalidPositionError(
                Text("marked points are freed when the last man is placed: %(code)s", code=code)
            )
        for c in (0, 1):
            if men[c].bit_count() + hands[c] > variant.men:
                raise InvalidPositionError(
                    Text(
                        "%(side)s has more than %(men)s men on the board and in hand",
                        side=Text(Color(c).title),
                        men=variant.men,
                    )
                )
        placed = 2 * variant.men - hand_w - hand_b
        if variant.hand_removal:  # men leave the hands unplaced: those on the board were placed
            placed = men[0].bit_count() + men[1].bit_count()
        if ply < placed:
            raise InvalidPositionError(
                Text(
                    "%(placed)s men were placed, so at least %(placed)s plies were played",
                    placed=placed,
                )
            )
        if not variant.free_hands and (hand_w or hand_b):
            first = variant.first
            placer = turn if not due[turn] else turn.other  # with removals due, the mover placed
            expected = hands[first] if placer is first else hands[first] + 1
            if hands[1 - first] != expected:
                raise InvalidPositionError(
                    Text(
                        "impossible hands: %(first)s places first, so with %(mover)s to move "
                        "%(second)s must hold %(expected)s in hand, not %(held)s",
                        first=Text(first.title),
                        mover=Text(turn.title),
                        second=Text(first.other.title),
                        expected=expected,
                        held=hands[1 - first],
                    )
                )
            if quiet or (ply != placed and not variant.removals_due):
                raise InvalidPositionError(
                    Text(
                        "during placing the ply must be %(placed)s and quiet plies 0",
                        placed=placed,
                    )
                )
        other = 1 - turn
        if men[other].bit_count() + hands[other] < 3:
            raise InvalidPositionError(
                Text(
                    "%(side)s has fewer than three men, so the game ended before %(mover)s's turn",
                    side=Text(Color(other).title),
                    mover=Text(turn.title),
                )
            )
        _check_due(men, hands, turn, due, closing)
        return MorrisState(
            self, (men[0], men[1]), hands, turn, ply, quiet, marked, used, due, closing
        )


_POINT_RE = re.compile(r"[a-z]\d+")
_DUE_RE = re.compile(r"x(-?\d+)/(-?\d+)(\+?)")


def _removals_due(variant: MorrisRules, field: str) -> tuple[tuple[int, int], bool]:
    """The field of a position code with removals due, after the hands: ``x``, White's then
    Black's removals due, ``/`` between them (negative: of their own men), and ``+`` when the
    side to move has placed the last man and placing ends once its removals are made."""
    m = _DUE_RE.fullmatch(field)
    if not m:
        raise InvalidPositionError(
            Text(
                "removals due are written xWHITE/BLACK, e.g. x1/1 or x0/2: not %(field)s",
                field=repr(field),
            )
        )
    due = (int(m.group(1)), int(m.group(2)))
    if min(due) < 0 and not variant.mill_counts:
        raise InvalidPositionError(
            Text(
                "a side removes its own men only under removals by mill counts: %(field)s",
                field=repr(field),
            )
        )
    if m.group(3) and not variant.multiple_removals:
        raise InvalidPositionError(
            Text(
                "placing ends after removals due only where a move takes several men: %(field)s",
                field=repr(field),
            )
        )
    return due, bool(m.group(3))


def _check_due(
    men: list[int], hands: tuple[int, int], turn: Color, due: tuple[int, int], closing: bool
) -> None:
    """:class:`InvalidPositionError` unless the removals due can be made: the side to move has
    some if either side has, each side's are no more than the men it takes from, and placing
    ends after them (``closing``) only when the last man is placed."""
    if not any(due):
        return
    if not due[turn]:
        raise InvalidPositionError(
            Text(
                "the side to move makes its removals first, so %(side)s must have some due",
                side=Text(turn.title),
            )
        )
    for c in (0, 1):
        target = c if due[c] < 0 else 1 - c
        if abs(due[c]) > men[target].bit_count():
            raise InvalidPositionError(
                Text(
                    "%(side)s has more removals due (%(due)s) than %(owner)s has men on the "
                    "board (%(men)s)",
                    side=Text(Color(c).title),
                    due=abs(due[c]),
                    owner=Text(Color(target).title),
                    men=men[target].bit_count(),
                )
            )
    if closing and (hands[0] or hands[1]):
        raise InvalidPositionError(
            Text("placing ends after removals due only once the last man is placed")
        )


def _used_points(board: MorrisBoard, field: str) -> tuple[int, int]:
    """The field of a position code under one-time mills after the hands: White's then Black's
    points of closed mills, ``/`` between them, each the point names run together or ``-``
    (``a1d1g1/-``); each side's points must be whole mills."""
    sides = field.split("/")
    masks = []
    for text in sides:
        names = [] if text == "-" else _POINT_RE.findall(text)
        if len(sides) != 2 or "".join(names) != ("" if text == "-" else text):
            raise InvalidPositionError(
                Text(
                    "the points of closed mills are written WHITE/BLACK, each as point names or "
                    "-, e.g. a1d1g1/-: not %(field)s",
                    field=repr(field),
                )
            )
        bad = [n for n in names if n not in board.index]
        if bad:
            raise InvalidPositionError(
                Text("%(point)s is not a point of this board", point=repr(bad[0]))
            )
        mask = sum(1 << board.index[n] for n in set(names))
        whole = 0
        for mill in board.mill_masks:
            if mask & mill == mill:
                whole |= mill
        if whole != mask:
            raise InvalidPositionError(
                Text(
                    "the points of closed mills must make whole mills: %(field)s",
                    field=repr(field),
                )
            )
        masks.append(mask)
    return masks[0], masks[1]


__all__ = [
    "Morris",
    "MorrisMove",
    "MorrisRules",
    "MorrisState",
]
