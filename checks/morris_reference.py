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


@dataclass(frozen=True)
class Rules:
    """What a rule set fixes (docs/rules.md): its board, men, flying, Lasker's moving while men
    are in hand, the first player, what a full board does when placing ends, the three-men rule
    in plies, removal from mills, marking, one-time mills, several removals for one move, the
    defender moving first, removal from the hand, removals by mill counts."""

    board: str
    men: int
    flying: bool = True
    lasker: bool = False
    first: str = "W"
    full_board: str = ""
    three_men: int = 0
    any_man: bool = False
    marking: bool = False
    one_time: bool = False
    several: bool = False
    defender_first: bool = False
    from_hand: bool = False
    mill_counts: bool = False


VARIANTS = {
    "morris": Rules("nine", 9),
    "morris-6": Rules("six", 6, flying=False),
    "morris-12": Rules("twelve", 12, full_board="draw"),
    "morabaraba": Rules("twelve", 12, first="B", full_board="draw", three_men=20),
    "morris-lasker": Rules("nine", 10, lasker=True),
    "cheng-san-qi": Rules("nine", 9, flying=False, marking=True),
    "cham-gonu": Rules("twelve", 12, flying=False, any_man=True, marking=True),
    "one-time-mill": Rules("nine", 9, any_man=True, one_time=True),
    "zhi-qi": Rules(
        "twelve", 12, flying=False, full_board="both remove", any_man=True, marking=True
    ),
    "da-san-qi": Rules(
        "twelve",
        12,
        flying=False,
        full_board="first loses",
        any_man=True,
        marking=True,
        several=True,
        defender_first=True,
    ),
    "el-filja": Rules("nine", 12, flying=False, any_man=True, mill_counts=True),
    "dooz": Rules("twelve", 12, full_board="first removes", any_man=True, from_hand=True),
}
#: what stands on a marked point (a man taken while placing, until the last man is placed)
MARK = "X"
#: the boards of the custom rule set's ``board`` setting (docs/rules.md, "Custom rule set")
CUSTOM_BOARDS = {6: "six", 9: "nine", 12: "twelve"}


#: the custom rule sets' rules made so far (:func:`custom`), by name: apart from the named
#: rule sets of :data:`VARIANTS`
CUSTOM: dict[str, Rules] = {}


def custom(settings: dict[str, bool | int | str]) -> str:
    """The name, added to :data:`CUSTOM`, of the rules that the custom rule set's
    ``settings`` give (a missing setting at its default, as docs/rules.md lists them: Nine
    Men's Morris); the draw settings are :func:`start`'s."""
    full = str(settings.get("full_board", "none"))
    rules = Rules(
        CUSTOM_BOARDS[int(settings.get("board", 9))],
        int(settings.get("men", 9)),
        flying=bool(settings.get("flying", True)),
        lasker=bool(settings.get("lasker", False)),
        first="B" if settings.get("black_first", False) else "W",
        full_board="" if full == "none" else full.replace("-", " "),
        three_men=int(settings.get("three_men_rule", 0)),
        any_man=bool(settings.get("remove_from_mills", False)),
        marking=bool(settings.get("marking", False)),
        one_time=bool(settings.get("one_time_mills", False)),
        several=bool(settings.get("multiple_removals", False)),
        defender_first=bool(settings.get("defender_first", False)),
        from_hand=bool(settings.get("hand_removal", False)),
        mill_counts=bool(settings.get("mill_counts", False)),
    )
    name = f"custom {rules}"
    CUSTOM[name] = rules
    return name


def _points(board: str) -> list[str]:
    names = {p for line in LINES[board] for p in line.split()}
    return sorted(names, key=lambda p: (int(p[1:]), p[0]))


@dataclass
class Position:
    """A position of a rule set: who stands where (``W``, ``B`` or a :data:`MARK`), men in
    hand, side to move, quiet plies, under one-time mills the points of every mill each side
    has closed (``used``), the removals each side still has to make, each a turn of its own
    (``due``; negative: of its own men), and whether placing ends once the side to move has
    made them (``closing``: the last man is placed)."""

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
    due: dict[str, int] = field(default_factory=lambda: {"W": 0, "B": 0})
    closing: bool = False

    @property
    def rules(self) -> Rules:
        return rules_of(self.variant)

    def key(self) -> tuple[object, ...]:
        return (
            tuple(sorted(self.occupant.items())),
            self.hand["W"],
            self.hand["B"],
            self.turn,
            tuple(sorted(self.used["W"])),
            tuple(sorted(self.used["B"])),
            self.due["W"],
            self.due["B"],
            self.closing,
        )


def rules_of(variant: str) -> Rules:
    """The rules of a named rule set (:data:`VARIANTS`) or of a custom one (:data:`CUSTOM`)."""
    return VARIANTS[variant] if variant in VARIANTS else CUSTOM[variant]


def start(variant: str, repetition: int = 3, move_rule: int = 100) -> Position:
    rules = rules_of(variant)
    pos = Position(
        variant,
        {},
        {"W": rules.men, "B": rules.men},
        rules.first,
        repetition=repetition,
        move_rule=move_rule,
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


def mills_of(board: str, occupant: dict[str, str], colour: str) -> int:
    """How many lines of three ``colour``'s men fill."""
    return sum(
        len(line.split()) == 3 and all(occupant.get(p) == colour for p in line.split())
        for line in LINES[board]
    )


def _other(colour: str) -> str:
    return "B" if colour == "W" else "W"


def _men(pos: Position, colour: str) -> int:
    return sum(1 for c in pos.occupant.values() if c == colour)


def _drawn(pos: Position) -> str | None:
    three_men = pos.rules.three_men
    if pos.repetition and pos.seen[pos.key()] >= pos.repetition:
        return "threefold repetition"
    if pos.move_rule and pos.quiet >= pos.move_rule:
        return "move rule"
    counts = [_men(pos, s) for s in "WB"]
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


def _targets(pos: Position, occupant: dict[str, str], colour: str) -> list[str]:
    """The men of ``colour`` a removal may take (those in a mill only if all are, unless the
    rule set takes any man)."""
    theirs = [p for p, c in occupant.items() if c == colour]
    free = [p for p in theirs if not in_mill(pos.rules.board, occupant, p)]
    return theirs if pos.rules.any_man else free or theirs


def _moves(pos: Position) -> list[str]:
    """The moves the movement rules allow, whatever the draw rules say."""
    rules = pos.rules
    board = rules.board
    me = pos.turn
    if pos.due[me]:  # removals due: each a turn of its own
        owner = me if pos.due[me] < 0 else _other(me)
        return ["x" + t for t in _targets(pos, pos.occupant, owner)]
    mine = [p for p, c in pos.occupant.items() if c == me]
    empty = [p for p in _points(board) if p not in pos.occupant]
    steps: list[tuple[str | None, str]] = []
    if pos.hand[me]:
        steps += [(None, p) for p in empty]
    if not pos.hand[me] or rules.lasker:
        for p in mine:
            if rules.flying and not pos.hand[me] and len(mine) == 3:
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
        # record is empty but under one-time mills); a placement's mill takes nothing under
        # mill counts, and takes from the opponent's hand first under removal from the hand
        takes = any(not line <= pos.used[me] for line in mills_closed(board, after, dst))
        if src is None and (rules.mill_counts or (rules.from_hand and pos.hand[_other(me)])):
            takes = False
        targets = _targets(pos, after, _other(me)) if takes else []
        out += [f"{text}x{t}" for t in targets] if targets else [text]
    return out


def play(pos: Position, move: str) -> Position:
    """The position after a legal move (a new object)."""
    rules = pos.rules
    me, them = pos.turn, _other(pos.turn)
    occupant = dict(pos.occupant)
    hand = dict(pos.hand)
    due = dict(pos.due)
    used = dict(pos.used)
    placing = bool(hand["W"] or hand["B"] or pos.closing)
    quiet = pos.quiet
    body, _, taken = move.partition("x")
    if not body:  # a removal alone
        owner = me if due[me] < 0 else them
        del occupant[taken]
        if rules.marking and (hand["W"] or hand["B"]):
            occupant[taken] = MARK
        quiet = 0
        due[me] += 1 if due[me] < 0 else -1
        if owner == them and _men_of(occupant, them) + hand[them] < 3:
            due[me] = 0
    else:
        src, _, dst = body.partition("-")
        if not dst:
            src, dst = "", src
            hand[me] -= 1
        else:
            del occupant[src]
        occupant[dst] = me
        quiet += 1 if src else 0
        closed = mills_closed(rules.board, occupant, dst)
        fresh = [line for line in closed if not line <= pos.used[me]]
        if rules.one_time:
            for line in closed:
                used[me] = used[me] | line
        if taken:
            del occupant[taken]
            quiet = 0
            if rules.marking and not src:
                occupant[taken] = MARK
        wanted = (len(fresh) if rules.several else 1) if fresh else 0
        if not src and rules.mill_counts:
            wanted = 0
        if wanted and not src and rules.from_hand and hand[them]:
            from_hand = min(wanted, hand[them])
            hand[them] -= from_hand
            wanted -= from_hand  # the rest from the board, each a removal of its own
        elif wanted and taken:
            wanted -= 1
        else:
            wanted = 0  # no man on the board to take
        left = _men_of(occupant, them)
        due[me] = 0 if left + hand[them] < 3 else min(wanted, left)
    hands_empty = not hand["W"] and not hand["B"]
    if hands_empty:
        occupant = {p: c for p, c in occupant.items() if c != MARK}
    closing = False
    if due[me]:
        turn = me
        closing = placing and hands_empty
    elif placing and hands_empty:  # placing is over
        first = _other(rules.first) if rules.defender_first else them
        full = len(occupant) == len(_points(rules.board))
        if rules.mill_counts:
            w, b = (mills_of(rules.board, occupant, c) for c in "WB")
            if not w and not b:
                due = {"W": -1, "B": -1}
            elif not b:
                due = {"W": 2, "B": 1}
            elif not w:
                due = {"W": 1, "B": 2}
            elif w == b:
                due = {"W": w, "B": b}
            elif w > b:
                due = {"W": b + 1, "B": b}
            else:
                due = {"W": w, "B": w + 1}
            for c in "WB":
                owner = c if due[c] < 0 else _other(c)
                limit = _men_of(occupant, owner)
                due[c] = max(due[c], -limit) if due[c] < 0 else min(due[c], limit)
        elif full and rules.full_board == "both remove":
            due = {"W": 1, "B": 1}
        elif full and rules.full_board == "first removes":
            due[first] = 1
        turn = first if due[first] or not due[_other(first)] else _other(first)
    else:
        turn = them
    after = Position(
        pos.variant,
        occupant,
        hand,
        turn,
        quiet,
        Counter(pos.seen),
        pos.repetition,
        pos.move_rule,
        used,
        due,
        closing,
    )
    after.seen[after.key()] += 1
    return after


def _men_of(occupant: dict[str, str], colour: str) -> int:
    return sum(1 for c in occupant.values() if c == colour)


def outcome(pos: Position) -> tuple[str | None, str] | None:
    """``(winner, reason)`` when the game is over (winner ``None`` for a draw), else ``None``."""
    rules = pos.rules
    me = pos.turn
    if _men(pos, me) + pos.hand[me] < 3:
        return _other(me), "fewer than three"
    full = len(pos.occupant) == len(_points(rules.board))
    if not pos.due[me] and full and not pos.hand["W"] and not pos.hand["B"]:
        if rules.full_board == "draw":
            return None, "full board"
        if rules.full_board == "first loses":
            return _other(rules.first), "full board"
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


def random_settings(rng: random.Random) -> dict[str, bool | int | str]:
    """Settings of the custom rule set drawn at random among those that make a game (men that
    fit the board, a full board's action only where the men fill it, neither marking nor
    removal from the hand nor a full board's action under removals by mill counts), every
    switch and a draw rule included."""
    board = rng.choice(sorted(CUSTOM_BOARDS))
    most = (16 if board == 6 else 24) // 2
    men = rng.randint(3, most)
    settings: dict[str, bool | int | str] = {"board": board, "men": men}
    for key in (
        "black_first",
        "lasker",
        "marking",
        "remove_from_mills",
        "one_time_mills",
        "multiple_removals",
        "defender_first",
        "hand_removal",
    ):
        settings[key] = rng.random() < 0.5
    settings["mill_counts"] = not (settings["marking"] or settings["hand_removal"]) and (
        rng.random() < 0.3
    )
    settings["flying"] = rng.random() < 0.7
    actions = ["draw", "first-loses", "first-removes", "both-remove"]
    full = men == most and not settings["mill_counts"] and rng.random() < 0.6
    settings["full_board"] = rng.choice(actions) if full else "none"
    settings["three_men_rule"] = rng.choice([0, 0, 10, 20])
    settings["move_rule"] = rng.choice([0, 40, 100])
    return settings


def spec(settings: dict[str, bool | int | str]) -> str:
    """The custom rule-set spec of ``settings`` (every one written, in their order)."""
    return "morris-custom:" + ",".join(f"{k}={str(v).lower()}" for k, v in settings.items())
