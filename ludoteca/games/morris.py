"""Nine Men's Morris, exactly as ``rules/morris.md`` (docs/rules/morris.md) describes it.

Points are numbered 0..23 in rows from the bottom (a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4
c5 d5 e5 b6 d6 f6 a7 d7 g7); a side's men are a 24-bit integer.  A move code packs
``(source, destination, removal)`` as ``(src * 24 + dst) * 25 + rem`` where ``src == 24`` means
"from hand" and ``rem == 24`` means "no removal".
"""

from __future__ import annotations

import math
import re
from typing import ClassVar

from ..core import (
    Color,
    Game,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    RuleSet,
    RuleSetDef,
    Termination,
)
from .draws import DRAW_DEFAULTS, RepeatingState
from .pointboard import PointBoardGame

POINTS: tuple[str, ...] = (
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3",
    "a4", "b4", "c4", "e4", "f4", "g4",
    "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
)
INDEX = {name: i for i, name in enumerate(POINTS)}
FULL = (1 << 24) - 1
NONE = 24  # "from hand" as a source, "nothing removed" as a removal

_MILL_NAMES = (
    "a1 d1 g1", "b2 d2 f2", "c3 d3 e3", "a4 b4 c4", "e4 f4 g4", "c5 d5 e5", "b6 d6 f6",
    "a7 d7 g7", "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5",
    "f2 f4 f6", "g1 g4 g7",
)
MILLS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(INDEX[p] for p in m.split()) for m in _MILL_NAMES  # type: ignore[misc]
)
MILL_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in m) for m in MILLS)
#: for each point, the masks of the two mills through it
MILLS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask for m, mask in zip(MILLS, MILL_MASKS, strict=True) if p in m) for p in range(24)
)
#: neighbouring pairs: consecutive points of each mill line
EDGES: tuple[tuple[int, int], ...] = tuple((m[0], m[1]) for m in MILLS) + tuple(
    (m[1], m[2]) for m in MILLS
)
ADJACENT: tuple[int, ...] = tuple(
    sum(1 << (b if a == p else a) for a, b in EDGES if p in (a, b)) for p in range(24)
)
_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(24) if mask >> i & 1) for mask in range(1 << 12)
)


def bits(mask: int) -> tuple[int, ...] | list[int]:
    """The indices of the set bits of a 24-bit mask, in increasing order."""
    low = _BITS[mask & 0xFFF]
    high = mask >> 12
    if not high:
        return low
    return [*low, *(i + 12 for i in _BITS[high])]


def encode(src: int, dst: int, rem: int) -> int:
    """The move code of a placement (``src == 24``) or move, with removal ``rem`` (24: none)."""
    return (src * 24 + dst) * 25 + rem


class MorrisMove(Move):
    """A Nine Men's Morris move: ``d6``, ``a1-a4``, with a removal ``d6xg7``, ``a1-a4xg7``."""

    __slots__ = ("dst", "remove", "src")

    src: int | None
    dst: int
    remove: int | None

    def __init__(self, code: int) -> None:
        rest, rem = divmod(code, 25)
        src, dst = divmod(rest, 24)
        text = POINTS[dst] if src == NONE else f"{POINTS[src]}-{POINTS[dst]}"
        super().__init__(code, text if rem == NONE else f"{text}x{POINTS[rem]}")
        object.__setattr__(self, "src", None if src == NONE else src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "remove", None if rem == NONE else rem)

    @classmethod
    def from_code(cls, code: int) -> MorrisMove:
        return MOVES[code]

    @staticmethod
    def parse(text: str) -> MorrisMove:
        """The move written ``text``, legal or not; :class:`InvalidMoveError` if unreadable."""
        m = _MOVE_RE.fullmatch(text.strip().lower())
        if not m or any(g is not None and g not in INDEX for g in m.groups()):
            raise InvalidMoveError(
                f"{text!r} is not a Morris move (write d6, a1-a4, d6xg7 or a1-a4xg7)"
            )
        first, second, rem = m.groups()
        src, dst = (NONE, INDEX[first]) if second is None else (INDEX[first], INDEX[second])
        if src == dst:
            raise InvalidMoveError(f"{text!r} moves a piece onto its own point")
        return MOVES[encode(src, dst, NONE if rem is None else INDEX[rem])]


_MOVE_RE = re.compile(r"([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?")
MOVES: tuple[MorrisMove, ...] = tuple(MorrisMove(c) for c in range(25 * 24 * 25))


class MorrisState(RepeatingState):
    """A Nine Men's Morris position with history. ``men[c]`` is side ``c``'s 24-bit board."""

    game: ClassVar[type[Game]]


    def __init__(self, rules: RuleSet, men: tuple[int, int] = (0, 0),
                 hand: tuple[int, int] = (9, 9), turn: Color = Color.WHITE,
                 ply: int = 0, quiet: int = 0) -> None:
        self.rules = rules
        self.men = [men[0], men[1]]
        self.hand = [hand[0], hand[1]]
        self.turn = turn
        self.ply = ply
        self.quiet = quiet
        self.move_stack: list[int] = []
        self._undo: list[int] = []
        self._flying = bool(rules["flying"])
        self._start_history(rules)
        self.start = self.code()

    # --- move generation ------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        c = self.turn
        if self.men[c].bit_count() + self.hand[c] < 3 or self._drawn():
            return []
        return self._generate()

    def _generate(self) -> list[int]:
        c = self.turn
        own = self.men[c]
        opp = self.men[1 - c]
        empty = FULL & ~(own | opp)
        removable: list[int] | tuple[int, ...] | None = None
        codes: list[int] = []
        if self.hand[c]:
            pairs = [(NONE, d) for d in bits(empty)]
        elif self._flying and own.bit_count() == 3:
            targets = bits(empty)
            pairs = [(s, d) for s in bits(own) for d in targets]
        else:
            pairs = [(s, d) for s in bits(own) for d in bits(ADJACENT[s] & empty)]
        for src, dst in pairs:
            after = (own if src == NONE else own ^ (1 << src)) | (1 << dst)
            base = (src * 24 + dst) * 25
            for mask in MILLS_AT[dst]:
                if after & mask == mask:
                    if removable is None:
                        removable = _removable(opp)
                    if removable:
                        codes.extend(base + r for r in removable)
                    else:
                        codes.append(base + NONE)
                    break
            else:
                codes.append(base + NONE)
        return codes

    def push_code(self, code: int) -> None:
        rest, rem = divmod(code, 25)
        src, dst = divmod(rest, 24)
        c = self.turn
        moving = src != NONE
        self._undo.append(self.quiet)
        if moving:
            self.men[c] ^= (1 << src) | (1 << dst)
        else:
            self.men[c] |= 1 << dst
            self.hand[c] -= 1
        if rem != NONE:
            self.men[1 - c] ^= 1 << rem
            self.quiet = 0
        elif moving:
            self.quiet += 1
        self.turn = Color(1 - c)
        self.ply += 1
        self.move_stack.append(code)
        self._enter()

    def pop_code(self) -> int:
        self._leave()
        code = self.move_stack.pop()
        rest, rem = divmod(code, 25)
        src, dst = divmod(rest, 24)
        c = 1 - self.turn
        self.turn = Color(c)
        self.ply -= 1
        self.quiet = self._undo.pop()
        if src != NONE:
            self.men[c] ^= (1 << src) | (1 << dst)
        else:
            self.men[c] ^= 1 << dst
            self.hand[c] += 1
        if rem != NONE:
            self.men[1 - c] |= 1 << rem
        return code

    def move_of(self, code: int) -> MorrisMove:
        return MOVES[code]

    def read_move(self, text: str) -> MorrisMove:
        return MorrisMove.parse(text)

    def why_illegal(self, move: Move, legal: list[int]) -> str:
        assert isinstance(move, MorrisMove)
        c = self.turn
        own, opp = self.men[c], self.men[1 - c]
        if self.hand[c] and move.src is not None:
            return f"{self.turn.title} still has men in hand and must place one"
        if not self.hand[c] and move.src is None:
            return f"{self.turn.title} has no men in hand; move a man instead (e.g. a1-a4)"
        if move.src is not None and not own >> move.src & 1:
            return f"{self.turn.title} has no man on {POINTS[move.src]}"
        if (own | opp) >> move.dst & 1:
            return f"{POINTS[move.dst]} is occupied"
        if move.src is not None and not any(
            (m // 25) == (move.src * 24 + move.dst) for m in legal
        ):
            return f"{POINTS[move.src]} and {POINTS[move.dst]} are not neighbours"
        base = [m for m in legal if m // 25 == move.code // 25]
        if move.remove is None:
            return "this closes a mill: name the man to remove, e.g. " + str(MOVES[base[0]])
        if base == [move.code - move.remove + NONE]:
            return "this does not close a mill, so nothing is removed"
        if not opp >> move.remove & 1:
            return f"there is no {self.turn.other.title.lower()} man on {POINTS[move.remove]}"
        return f"{POINTS[move.remove]} stands in a mill and other men are free to take"

    # --- knowledge for computer players ------------------------------------------------------
    def is_tactical(self, code: int) -> bool:
        return code % 25 != NONE

    def evaluate(self) -> float:
        """Material first; then mills, open twos (a mill one move away), mobility, and the
        flying endgame: three men against an open two lose a man at once."""
        c = self.turn
        own, opp = self.men[c], self.men[1 - c]
        count_own = own.bit_count() + self.hand[c]
        count_opp = opp.bit_count() + self.hand[1 - c]
        empty = FULL & ~(own | opp)
        threats_own = threats_opp = mills_own = mills_opp = 0
        for mask in MILL_MASKS:
            mine, theirs = own & mask, opp & mask
            if mine == mask:
                mills_own += 1
            elif theirs == mask:
                mills_opp += 1
            elif not theirs and mine.bit_count() == 2:
                threats_own += 1
            elif not mine and theirs.bit_count() == 2:
                threats_opp += 1
        score = 0.6 * (count_own - count_opp) + 0.15 * (mills_own - mills_opp)
        score += 0.25 * threats_own - 0.2 * threats_opp
        if not self.hand[c] and not self.hand[1 - c]:
            moves_own = sum((ADJACENT[s] & empty).bit_count() for s in bits(own))
            moves_opp = sum((ADJACENT[s] & empty).bit_count() for s in bits(opp))
            if count_own > 3 and count_opp > 3:
                score += 0.04 * (moves_own - moves_opp)
            if count_opp == 3 and threats_own and (count_own == 3 or moves_own):
                score += 2.0  # the side to move can close a mill against three men
            if count_own == 3 and threats_opp >= 2:
                score -= 1.5  # two open twos against three men: one cannot block both
        return math.tanh(score / 3)

    def pieces(self) -> list[str]:
        return ["w" if self.men[0] >> p & 1 else "b" if self.men[1] >> p & 1 else ""
                for p in range(24)]

    def gesture(self, code: int) -> tuple[tuple[str, int], ...]:
        move = MOVES[code]
        touches = (("to", move.dst),) if move.src is None else (("from", move.src),
                                                                 ("to", move.dst))
        return touches if move.remove is None else (*touches, ("take", move.remove))

    def in_hand(self) -> tuple[int, int] | None:
        return self.hand[0], self.hand[1]

    def planes(self) -> list[list[float]]:
        """White men, Black men, then White's and Black's men in hand (as fractions of 9)."""
        return [[float(self.men[c] >> p & 1) for p in range(24)] for c in (0, 1)] + [
            [self.hand[c] / 9.0] * 24 for c in (0, 1)]

    # --- ending -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        c = self.turn
        if self.men[c].bit_count() + self.hand[c] < 3:
            return Outcome(Termination.FEWER_THAN_THREE, Color(1 - c))
        if not self.hand[c] and not self._generate():
            return Outcome(Termination.NO_LEGAL_MOVES, Color(1 - c))
        return self._drawn()

    def _key(self) -> int:
        return (self.men[0] | self.men[1] << 24 | self.hand[0] << 48 | self.hand[1] << 52
                | self.turn << 56)

    def position_key(self) -> int:
        return self._key()

    # --- text forms ---------------------------------------------------------------------------
    def code(self) -> str:
        rows = []
        for row in _ROWS:
            rows.append("".join(self._char(p) for p in row))
        side = "w" if self.turn is Color.WHITE else "b"
        return (f"{'/'.join(rows)} {side} {self.hand[0]} {self.hand[1]} {self.quiet} "
                f"{self.ply}")

    def _char(self, p: int) -> str:
        if self.men[0] >> p & 1:
            return "W"
        if self.men[1] >> p & 1:
            return "B"
        return "."

    def __str__(self) -> str:
        text = _PICTURE
        for i, name in enumerate(POINTS):
            ch = self._char(i)
            mark = {"W": "W", "B": "B"}.get(ch, "+")
            text = text.replace(f"{{{name}}}", mark)
        status = (f"{self.turn.title} to move; in hand: White {self.hand[0]}, "
                  f"Black {self.hand[1]}")
        return text + status

    def __repr__(self) -> str:
        return f"<MorrisState {self.code()!r}>"


def _removable(opp: int) -> tuple[int, ...] | list[int]:
    """The opponent men that may be taken: those outside mills, or all if every one is in one."""
    in_mill = 0
    for mask in MILL_MASKS:
        if opp & mask == mask:
            in_mill |= mask
    free = opp & ~in_mill
    return bits(free if free else opp)


_ROWS: tuple[tuple[int, ...], ...] = (
    (21, 22, 23), (18, 19, 20), (15, 16, 17), (9, 10, 11, 12, 13, 14),
    (6, 7, 8), (3, 4, 5), (0, 1, 2),
)
_PICTURE = """\
7  {a7}-----------{d7}-----------{g7}
   |           |           |
6  |   {b6}-------{d6}-------{f6}   |
   |   |       |       |   |
5  |   |   {c5}---{d5}---{e5}   |   |
   |   |   |       |   |   |
4  {a4}---{b4}---{c4}       {e4}---{f4}---{g4}
   |   |   |       |   |   |
3  |   |   {c3}---{d3}---{e3}   |   |
   |   |       |       |   |
2  |   {b2}-------{d2}-------{f2}   |
   |           |           |
1  {a1}-----------{d1}-----------{g1}
   a   b   c   d   e   f   g
"""


class Morris(PointBoardGame):
    """Nine Men's Morris: the registered game and its rule sets."""

    name = "morris"
    title = "Nine Men's Morris"
    aliases = ("nine-mens-morris", "nine_mens_morris", "ninemensmorris", "mills")
    points = POINTS
    edges = EDGES
    state_class = MorrisState
    summary = (
        "Each player has nine men. Take turns placing them on the 24 points, then move "
        "them along the lines to a neighbouring empty point. Three of your men in a row "
        "on a line form a mill: then remove one enemy man (not one standing in a mill, "
        "unless every one does). With three men left you may fly to any empty point. You "
        "lose with fewer than three men or when you cannot move."
    )
    rule_sets = (
        RuleSetDef(
            "morris",
            "Nine Men's Morris after Marelle: flying with three men, a man in a mill is safe "
            "unless all are in mills, draws by threefold repetition and 100 quiet plies.",
            {"flying": True, **DRAW_DEFAULTS},
        ),
    )

    @classmethod
    def num_distinct_actions(cls, rules: RuleSet) -> int:
        return 25 * 24 * 25

    @classmethod
    def from_code(cls, code: str, rules: str | RuleSet | None = None) -> MorrisState:
        ruleset = cls.rules(rules)
        fields = code.split()
        if len(fields) != 6:
            raise InvalidPositionError(
                f"a Morris position code has 6 fields (board side hand-white hand-black quiet "
                f"ply), not {len(fields)}: {code!r}"
            )
        board, side, *numbers = fields
        rows = board.split("/")
        if [len(r) for r in rows] != [len(r) for r in _ROWS]:
            raise InvalidPositionError(
                "the board field needs 7 rows from rank 7 down, of 3,3,3,6,3,3,3 points: "
                f"{board!r}"
            )
        men = [0, 0]
        for row, points in zip(rows, _ROWS, strict=True):
            for ch, p in zip(row, points, strict=True):
                if ch in "Ww":
                    men[0] |= 1 << p
                elif ch in "Bb":
                    men[1] |= 1 << p
                elif ch != ".":
                    raise InvalidPositionError(f"unknown board character {ch!r} (use W, B or .)")
        if side not in ("w", "b"):
            raise InvalidPositionError(f"side to move must be w or b, not {side!r}")
        try:
            hand_w, hand_b, quiet, ply = (int(n) for n in numbers)
        except ValueError:
            raise InvalidPositionError(
                f"hands, quiet plies and ply must be numbers: {code!r}") from None
        turn = Color.WHITE if side == "w" else Color.BLACK
        if min(hand_w, hand_b, quiet, ply) < 0:
            raise InvalidPositionError("counts cannot be negative")
        for c, hand in ((0, hand_w), (1, hand_b)):
            if men[c].bit_count() + hand > 9:
                who = Color(c).title
                raise InvalidPositionError(f"{who} has more than nine men on the board and in hand")
        expected_b = hand_w if turn is Color.WHITE else hand_w + 1
        if (hand_w or hand_b) and hand_b != expected_b:
            raise InvalidPositionError(
                "impossible hands: White places first, so with "
                f"{turn.title} to move Black must hold {expected_b} in hand, not {hand_b}"
            )
        if hand_w + hand_b and (quiet or ply != 18 - hand_w - hand_b):
            raise InvalidPositionError(
                f"during placing the ply must be {18 - hand_w - hand_b} and quiet plies 0"
            )
        if not hand_w + hand_b and ply < 18:
            raise InvalidPositionError("all men are placed, so at least 18 plies were played")
        other = 1 - turn
        if men[other].bit_count() + (hand_w, hand_b)[other] < 3:
            raise InvalidPositionError(
                f"{Color(other).title} has fewer than three men, so the game ended before "
                f"{turn.title}'s turn"
            )
        return MorrisState(ruleset, (men[0], men[1]), (hand_w, hand_b), turn, ply, quiet)


MorrisState.game = Morris
__all__ = ["ADJACENT", "MILLS", "POINTS", "Morris", "MorrisMove", "MorrisState"]
