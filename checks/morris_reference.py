"""A second, plain implementation of the Morris family, written from docs/rules.md alone.

Positions are dictionaries of point names; moves are notation strings.  It shares no code or
tables with ``ludoteca.games.morris`` (the lines are typed in again here), so agreement between
the two on move lists, perft counts and outcomes is evidence about both.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise

_NINE_LINES = [
    "a7 d7 g7",
    "b6 d6 f6",
    "c5 d5 e5",
    "a4 b4 c4",
    "e4 f4 g4",
    "c3 d3 e3",
    "b2 d2 f2",
    "a1 d1 g1",
    "a7 a4 a1",
    "b6 b4 b2",
    "c5 c4 c3",
    "d7 d6 d5",
    "d3 d2 d1",
    "e5 e4 e3",
    "f6 f4 f2",
    "g7 g4 g1",
]
LINES = {
    "nine": _NINE_LINES,
    "twelve": [*_NINE_LINES, "a7 b6 c5", "g7 f6 e5", "a1 b2 c3", "g1 f2 e3"],
    "six": [
        "a5 c5 e5",
        "b4 c4 d4",
        "b2 c2 d2",
        "a1 c1 e1",
        "a5 a3 a1",
        "b4 b3 b2",
        "d4 d3 d2",
        "e5 e3 e1",
        "a3 b3",
        "d3 e3",
        "c5 c4",
        "c2 c1",
    ],
}
#: rule set -> (board, men, flying, lasker, first, full-board draw, three-men rule in plies,
#: a mill may take a man in a mill, a mill while placing marks the man it takes, one-time
#: mills)
VARIANTS = {
    "morris": ("nine", 9, True, False, "W", False, 0, False, False, False),
    "morris-6": ("six", 6, False, False, "W", False, 0, False, False, False),
    "morris-12": ("twelve", 12, True, False, "W", True, 0, False, False, False),
    "morabaraba": ("twelve", 12, True, False, "B", True, 20, False, False, False),
    "morris-lasker": ("nine", 10, True, True, "W", False, 0, False, False, False),
    "cheng-san-qi": ("nine", 9, False, False, "W", False, 0, False, True, False),
    "cham-gonu": ("twelve", 12, False, False, "W", False, 0, True, True, False),
    "one-time-mill": ("nine", 9, True, False, "W", False, 0, True, False, True),
}
#: what stands on a marked point (a man taken while placing, until the last man is placed)
MARK = "X"
#: the boards of the custom rule set's ``board`` setting (docs/rules.md, "Custom rule set")
CUSTOM_BOARDS = {6: "six", 9: "nine", 12: "twelve"}


def custom(settings: dict[str, bool | int]) -> str:
    """The name, added to :data:`VARIANTS`, of the rules that the custom rule set's
    ``settings`` give (a missing setting at its default, as docs/rules.md lists them: Nine
    Men's Morris); the draw settings are :func:`start`'s."""
    rules = (
        CUSTOM_BOARDS[int(settings.get("board", 9))],
        int(settings.get("men", 9)),
        bool(settings.get("flying", True)),
        bool(settings.get("lasker", False)),
        "B" if settings.get("black_first", False) else "W",
        bool(settings.get("full_board_draw", False)),
        int(settings.get("three_men_rule", 0)),
        bool(settings.get("remove_from_mills", False)),
        bool(settings.get("marking", False)),
        bool(settings.get("one_time_mills", False)),
    )
    name = f"custom {rules}"
    VARIANTS[name] = rules
    return name


def _points(board: str) -> list[str]:
    names = {p for line in LINES[board] for p in line.split()}
    return sorted(names, key=lambda p: (int(p[1:]), p[0]))


@dataclass
class Position:
    """A position of a rule set: who stands where (``W``, ``B`` or a :data:`MARK`), men in
    hand, side to move, quiet plies, and under one-time mills the points of every mill each
    side has closed (``used``)."""

    variant: str
    occupant: dict[str, str]
    hand: dict[str, int]
    turn: str
    quiet: int = 0
    seen: Counter[tuple[object, ...]] = field(default_factory=Counter)
    repetition: int = 3
    move_rule: int = 100
    used: dict[str, frozenset[str]] = field(
        default_factory=lambda: {"W": frozenset(), "B": frozenset()}
    )

    @property
    def rules(self) -> tuple[str, int, bool, bool, str, bool, int, bool, bool, bool]:
        return VARIANTS[self.variant]

    def key(self) -> tuple[object, ...]:
        return (
            tuple(sorted(self.occupant.items())),
            self.hand["W"],
            self.hand["B"],
            self.turn,
            tuple(sorted(self.used["W"])),
            tuple(sorted(self.used["B"])),
        )


def start(variant: str, repetition: int = 3, move_rule: int = 100) -> Position:
    _, men, _, _, first, _, _, _, _, _ = VARIANTS[variant]
    pos = Position(
        variant, {}, {"W": men, "B": men}, first, repetition=repetition, move_rule=move_rule
    )
    pos.seen[pos.key()] += 1
    return pos


def neighbours(board: str, point: str) -> set[str]:
    out = set()
    for line in LINES[board]:
        names = line.split()
        for a, b in pairwise(names):
            if point == a:
                out.add(b)
            elif point == b:
                out.add(a)
    return out


def mills_closed(board: str, occupant: dict[str, str], point: str) -> list[set[str]]:
    """The lines of three through ``point`` that its man's colour fills."""
    colour = occupant.get(point)
    lines = [set(line.split()) for line in LINES[board]]
    return [
        line
        for line in lines
        if point in line and len(line) == 3 and all(occupant.get(p) == colour for p in line)
    ]


def in_mill(board: str, occupant: dict[str, str], point: str) -> bool:
    colour = occupant.get(point)
    return any(
        point in line.split()
        and len(line.split()) == 3
        and all(occupant.get(p) == colour for p in line.split())
        for line in LINES[board]
    )


def _other(colour: str) -> str:
    return "B" if colour == "W" else "W"


def _drawn(pos: Position) -> str | None:
    three_men = pos.rules[6]
    if pos.repetition and pos.seen[pos.key()] >= pos.repetition:
        return "threefold repetition"
    if pos.move_rule and pos.quiet >= pos.move_rule:
        return "move rule"
    counts = [sum(1 for c in pos.occupant.values() if c == s) for s in "WB"]
    if (
        three_men
        and pos.quiet >= three_men
        and not pos.hand["W"]
        and not pos.hand["B"]
        and min(counts) == 3
    ):
        return "three men rule"
    return None


def legal(pos: Position) -> list[str]:
    """Every legal move in notation (empty when the game is over)."""
    return [] if outcome(pos) else _moves(pos)


def _moves(pos: Position) -> list[str]:
    """The moves the movement rules allow, whatever the draw rules say."""
    board, _, flying, lasker, _, _, _, any_man, _, _ = pos.rules
    me = pos.turn
    mine = [p for p, c in pos.occupant.items() if c == me]
    empty = [p for p in _points(board) if p not in pos.occupant]
    steps: list[tuple[str | None, str]] = []
    if pos.hand[me]:
        steps += [(None, p) for p in empty]
    if not pos.hand[me] or lasker:
        for p in mine:
            if flying and not pos.hand[me] and len(mine) == 3:
                steps += [(p, q) for q in empty]
            else:
                steps += [(p, q) for q in neighbours(board, p) if q not in pos.occupant]
    out = []
    for src, dst in steps:
        after = dict(pos.occupant)
        if src is not None:
            del after[src]
        after[dst] = me
        text = dst if src is None else f"{src}-{dst}"
        # a mill takes unless every point of it was in a mill the mover closed before (the
        # record is empty but under one-time mills)
        if any(not line <= pos.used[me] for line in mills_closed(board, after, dst)):
            theirs = [p for p, c in after.items() if c == _other(me)]
            free = [p for p in theirs if not in_mill(board, after, p)]
            targets = theirs if any_man else free or theirs
            out += [f"{text}x{t}" for t in targets] if targets else [text]
        else:
            out.append(text)
    return out


def play(pos: Position, move: str) -> Position:
    """The position after a legal move (a new object)."""
    occupant = dict(pos.occupant)
    hand = dict(pos.hand)
    body, _, taken = move.partition("x")
    src, _, dst = body.partition("-")
    if not dst:
        src, dst = "", src
        hand[pos.turn] -= 1
    else:
        del occupant[src]
    occupant[dst] = pos.turn
    quiet = pos.quiet + (1 if src else 0)
    used = dict(pos.used)
    if pos.rules[9]:
        for line in mills_closed(pos.rules[0], occupant, dst):
            used[pos.turn] = used[pos.turn] | line
    if taken:
        del occupant[taken]
        quiet = 0
        if pos.rules[8] and not src:
            occupant[taken] = MARK
    if not hand["W"] and not hand["B"]:
        occupant = {p: c for p, c in occupant.items() if c != MARK}
    after = Position(
        pos.variant,
        occupant,
        hand,
        _other(pos.turn),
        quiet,
        Counter(pos.seen),
        pos.repetition,
        pos.move_rule,
        used,
    )
    after.seen[after.key()] += 1
    return after


def outcome(pos: Position) -> tuple[str | None, str] | None:
    """``(winner, reason)`` when the game is over (winner ``None`` for a draw), else ``None``."""
    board, _, _, _, _, full_draw, _, _, _, _ = pos.rules
    me = pos.turn
    if sum(1 for c in pos.occupant.values() if c == me) + pos.hand[me] < 3:
        return _other(me), "fewer than three"
    if (
        full_draw
        and len(pos.occupant) == len(_points(board))
        and not pos.hand["W"]
        and not pos.hand["B"]
    ):
        return None, "full board"
    if not _moves(pos):
        return _other(me), "no legal moves"
    drawn = _drawn(pos)
    return (None, drawn) if drawn else None


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, m), depth - 1) for m in moves)


def random_settings(rng: random.Random) -> dict[str, bool | int]:
    """Settings of the custom rule set drawn at random among those that make a game (men that
    fit the board, a full board's draw only where the men fill it), every switch and a draw
    rule included."""
    board = rng.choice(sorted(CUSTOM_BOARDS))
    most = (16 if board == 6 else 24) // 2
    men = rng.randint(3, most)
    settings: dict[str, bool | int] = {"board": board, "men": men}
    for key in ("black_first", "lasker", "marking", "remove_from_mills", "one_time_mills"):
        settings[key] = rng.random() < 0.5
    settings["flying"] = rng.random() < 0.7
    settings["full_board_draw"] = men == most and rng.random() < 0.5
    settings["three_men_rule"] = rng.choice([0, 0, 10, 20])
    settings["move_rule"] = rng.choice([0, 40, 100])
    return settings


def spec(settings: dict[str, bool | int]) -> str:
    """The custom rule-set spec of ``settings`` (every one written, in their order)."""
    return "morris-custom:" + ",".join(f"{k}={str(v).lower()}" for k, v in settings.items())
