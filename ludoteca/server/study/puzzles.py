"""The puzzles the server offers, and how one is played (see ``docs/web.md``).

**The library** is the puzzle sets shipped in the package (:func:`ludoteca.study.puzzles.shipped`:
each puzzle with its rule set, theme and difficulty), read once, by rule set; players' own
puzzles (from an analysis-board position) are kept in the store and played the same way.

**Playing** is checked here, never in the page: the page sends the moves the player has made
so far (the player's alone, in order); each but the last must be the solution's, the opponent's
replies between them are the stored line's, and the last is judged at once: *right* (the reply
follows), *solved* (the line is complete) or *wrong*.  The solution stays on the server until a
puzzle is solved or its solution is asked for.

**Choosing**: the next puzzle of a rule set is one of the :data:`NEAREST` whose difficulty is
nearest the player's rating (1500 for a guest) shifted by the difficulty asked for, among those
the player has not tried (a theme may be asked for); streak and rush runs take
:data:`RUN_PUZZLES` puzzles of the set drawn by the run's seed, in rising difficulty; the daily
puzzle is the same for everyone on a UTC day: the puzzle whose place in every shipped puzzle
(ordered by id) is the day's SHA-256 modulo their number.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import functools
import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ...core import LudotecaError, State
from ...i18n import N_, _
from ...study import puzzles as generator
from ...study.puzzles import Judge, Puzzle, SearchJudge, TableJudge
from ..errors import ActionError
from ..play.catalogue import rule_set
from .analysis import board_of, position_view
from .schemas import Frame, Position, PuzzleSet, PuzzleView

__all__ = [
    "DIFFICULTY_STEPS",
    "NEAREST",
    "REFUSALS",
    "RUN_PUZZLES",
    "Answer",
    "Library",
    "Refusal",
    "daily",
    "follow",
    "frames",
    "judge_own",
    "library",
    "puzzle_view",
]

#: how many of the puzzles nearest the player's level the next one is drawn from
NEAREST = 8
#: the puzzles a streak or rush run draws from its rule set
RUN_PUZZLES = 60
#: the difficulties a player may ask for, as a shift from their rating
DIFFICULTY_STEPS = {"easier": -300, "normal": 0, "harder": 300}


#: the most puzzles a set may hold for a browser's record of those it has shown (a bit each,
#: in a URL: 24,000 bits are 4,000 characters of base64url)
SEEN_BITS = 24_000


@dataclass(frozen=True)
class Library:
    """The shipped puzzles: by id, and by rule set in rising difficulty; each rule set's
    puzzles ordered by id (``ordered``: a puzzle's place there is its ``number``) and that
    order's ``edition`` (the first 12 hex digits of the SHA-256 of the ids, comma-separated),
    which changes when the set does."""

    by_id: dict[str, Puzzle]
    by_rules: dict[str, list[Puzzle]]
    ordered: dict[str, list[str]]
    editions: dict[str, str]
    numbers: dict[str, int]

    def shown(self, rules: str, edition: str, seen: str) -> set[str]:
        """The ids of the puzzles of ``rules`` that a browser's record ``seen`` marks as shown:
        base64url (unpadded) of a bit array, puzzle ``number`` n at bit ``n % 8`` (the lowest
        first) of byte ``n // 8``, made for the set's ``edition``.  A record of another
        edition (the set changed since) marks none; 400 for one that is not base64url or marks
        a number past the set's end."""
        if not seen or edition != self.editions.get(rules):
            return set()
        try:
            bits = base64.urlsafe_b64decode(seen + "=" * (-len(seen) % 4))
        except (binascii.Error, ValueError):
            raise ActionError(400, _("the record of the puzzles shown is not valid")) from None
        marked = int.from_bytes(bits, "little")
        ids = self.ordered[rules]
        if marked >> len(ids):
            raise ActionError(400, _("the record of the puzzles shown is not valid"))
        return {ids[n] for n in range(len(ids)) if marked >> n & 1}

    def sets(self) -> list[PuzzleSet]:
        """Each rule set that has puzzles: its game, name, title (the rule set's, as people call
        it), how many and their themes (each with its words in the current language)."""
        out = []
        for rules, found in self.by_rules.items():
            game = rule_set(found[0].game, rules)
            out.append(
                PuzzleSet(
                    game=game.name,
                    rules=rules,
                    title=_(game.rules_title),
                    count=len(found),
                    themes={theme: _(theme) for theme in sorted({p.theme for p in found})},
                )
            )
        return sorted(out, key=lambda s: (s.game, s.title))

    def of(self, rules: str) -> list[Puzzle]:
        """The puzzles of a rule set (by its name); 400 if it has none."""
        found = self.by_rules.get(rules)
        if not found:
            names = ", ".join(sorted(self.by_rules))
            raise ActionError(
                400,
                _(
                    "there are no puzzles of %(rules)s; there are of %(names)s",
                    rules=repr(rules),
                    names=names,
                ),
            )
        return found

    def choose(
        self,
        rules: str,
        level: float,
        tried: set[str],
        theme: str | None = None,
        difficulty: str = "normal",
        rng: random.Random | None = None,
    ) -> Puzzle:
        """The next puzzle of a rule set for a player at ``level`` (see the module's
        docstring); the player's tried puzzles again once none is left; 400 for an unknown
        theme or difficulty."""
        if difficulty not in DIFFICULTY_STEPS:
            raise ActionError(
                400, _("the difficulty is one of %(names)s", names=", ".join(DIFFICULTY_STEPS))
            )
        pool = self.of(rules)
        if theme:
            pool = [p for p in pool if p.theme == theme]
            if not pool:
                raise ActionError(
                    400,
                    _(
                        "there are no puzzles of %(rules)s about %(theme)s",
                        rules=repr(rules),
                        theme=repr(theme),
                    ),
                )
        fresh = [p for p in pool if p.id not in tried] or pool
        target = level + DIFFICULTY_STEPS[difficulty]
        nearest = sorted(fresh, key=lambda p: (abs(p.difficulty - target), p.id))[:NEAREST]
        return (rng or random.Random()).choice(nearest)

    def run(self, rules: str, seed: int) -> list[Puzzle]:
        """A run's puzzles: :data:`RUN_PUZZLES` of the set drawn by ``seed``, in rising
        difficulty (ties by id)."""
        pool = self.of(rules)
        drawn = random.Random(seed).sample(pool, min(RUN_PUZZLES, len(pool)))
        return sorted(drawn, key=lambda p: (p.difficulty, p.id))


@functools.cache
def library() -> Library:
    """The shipped puzzles, read once a process."""
    by_id: dict[str, Puzzle] = {}
    by_rules: dict[str, list[Puzzle]] = {}
    for path in generator.shipped():
        for _line, puzzle in generator.read(path):
            by_id[puzzle.id] = puzzle
            by_rules.setdefault(puzzle.rules, []).append(puzzle)
    ordered: dict[str, list[str]] = {}
    editions: dict[str, str] = {}
    numbers: dict[str, int] = {}
    for rules, found in by_rules.items():
        found.sort(key=lambda p: (p.difficulty, p.id))
        ids = sorted(p.id for p in found)
        if len(ids) > SEEN_BITS:
            raise LudotecaError(f"{rules} has {len(ids)} puzzles; a set may hold {SEEN_BITS}")
        ordered[rules] = ids
        editions[rules] = hashlib.sha256(",".join(ids).encode()).hexdigest()[:12]
        numbers.update((id_, n) for n, id_ in enumerate(ids))
    return Library(by_id, by_rules, ordered, editions, numbers)


def daily(day: datetime.date) -> Puzzle:
    """The puzzle of a UTC day (see the module's docstring)."""
    every = sorted(library().by_id.values(), key=lambda p: p.id)
    digest = hashlib.sha256(day.isoformat().encode()).hexdigest()
    return every[int(digest, 16) % len(every)]


def _start(puzzle: Puzzle) -> State:
    return rule_set(puzzle.game, puzzle.rules).from_position_code(puzzle.position)


def puzzle_view(puzzle: Puzzle, rating: float, own: bool = False) -> PuzzleView:
    """A puzzle as the page shows it before it is solved: its id, rule set, the game's title and
    the rule set's (``rules_title``), theme,
    rating (its own, which moves with every rated attempt), how many moves the player makes,
    whether it is a player's own, the board and the start position with its legal moves (the
    side to move is the player's), and a shipped one's set ``edition`` and ``number`` in it
    (:class:`Library`); never the solution."""
    state = _start(puzzle)
    shipped = library()
    return PuzzleView(
        edition=None if own else shipped.editions.get(puzzle.rules),
        number=None if own else shipped.numbers.get(puzzle.id),
        id=puzzle.id,
        game=puzzle.game,
        rules=puzzle.rules,
        theme=puzzle.theme,
        theme_text=_(puzzle.theme),
        rating=round(rating),
        moves=(len(puzzle.line) + 1) // 2,
        own=own,
        player=state.turn.name.lower(),
        position=position_view(state),
        **dict(board_of(state)),
        rules_title=_(state.game.rules_title),
    )


def frames(puzzle: Puzzle) -> list[Frame]:
    """The solution as pictures: the start, then each move of the line with the pieces after
    it and its gesture (``move`` its notation)."""
    state = _start(puzzle)
    out = [Frame(move=None, pieces=state.pieces(), marked=state.marked_points(), last=[])]
    for text in puzzle.line:
        code = state.parse_move(text).code
        gesture = list(state.gesture(code))
        state.push_code(code)
        out.append(
            Frame(move=text, pieces=state.pieces(), marked=state.marked_points(), last=gesture)
        )
    return out


@dataclass(frozen=True)
class Answer:
    """How the player's last move was judged: ``verdict`` right, solved or wrong; after a
    right move, the opponent's ``reply`` and the position after it."""

    verdict: Literal["right", "solved", "wrong"]
    reply: str | None = None
    position: Position | None = None


def follow(puzzle: Puzzle, moves: Iterable[str]) -> Answer:
    """Judge the player's ``moves`` (see the module's docstring): 409 if an earlier one is not
    the solution's (an answer for another puzzle, or after a wrong move), 400 if the last is
    not a legal move there; nothing is stored."""
    played = list(moves)
    if not played:
        raise ActionError(400, _("an answer has at least one move"))
    if 2 * len(played) - 1 > len(puzzle.line):
        raise ActionError(409, _("this puzzle is solved in fewer moves than that answer has"))
    state = _start(puzzle)
    for i, text in enumerate(played):
        expected = state.parse_move(puzzle.line[2 * i]).code
        try:
            code = state.parse_move(text).code
        except LudotecaError as error:
            raise ActionError(
                400,
                _(
                    "%(move)s is not a move of this position: %(why)s",
                    move=repr(text),
                    why=str(error),
                ),
            ) from None
        last = i == len(played) - 1
        if code != expected:
            if last:
                return Answer("wrong")
            raise ActionError(
                409,
                _(
                    "move %(number)s of that answer (%(move)s) is not this puzzle's: "
                    "start it again",
                    number=i + 1,
                    move=text,
                ),
            )
        state.push_code(code)
        if 2 * i + 1 == len(puzzle.line):
            return Answer("solved")
        reply = puzzle.line[2 * i + 1]
        state.push(reply)
    return Answer("right", reply, position_view(state))


#: why :func:`judge_own` makes no puzzle of a position
Refusal = Literal["over", "table", "search"]


def _judge(state: State) -> Judge:
    """An own puzzle's judge: the first of the rule set's built tables that covers the position
    (its default, then the sizes its shipped puzzles were judged by), else the generator's
    search (at its default depth, checked one ply deeper)."""
    game = state.game
    shipped = library().by_rules.get(str(game.rules), [])
    sizes = sorted({m for p in shipped if isinstance(m := p.verification.get("men"), int)})
    for men in [None, *sizes]:
        solver = game.solver(men)
        if solver is not None and solver.ready():
            judge = TableJudge(game, men)
            if judge.covers(state):
                return judge
    return SearchJudge((generator.DEPTH, generator.DEPTH + 1))


def judge_own(game: str, rules: str | None, code: str) -> Puzzle | Refusal:
    """A position made into a puzzle (run in the analysis pool): the puzzle when its judge
    confirms a unique solution, else why not: ``over`` (the game is over), ``table`` or
    ``search`` (the judge that found no unique solution: :data:`REFUSALS`); an impossible
    position raises the engine's error."""
    state = rule_set(game, rules).from_position_code(code)
    if state.outcome() is not None:
        return "over"
    judge = _judge(state)
    found = generator.find(state, judge)
    if found is not None:
        return found
    return "table" if isinstance(judge, TableJudge) else "search"


#: why a position is not made a puzzle, in words, by :func:`judge_own`'s answer
REFUSALS: dict[Refusal, str] = {
    "over": N_("The game is over in this position: there is nothing to find."),
    "table": N_(
        "Not a puzzle: the solved table finds no single winning move for the side to move "
        "here (none, or several about as fast)."
    ),
    "search": N_(
        "Not a puzzle: the engine's search finds no single clearly winning tactical move for "
        "the side to move here (none, or others nearly as good)."
    ),
}
