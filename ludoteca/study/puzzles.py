"""Puzzles from what the engines know exactly: positions where the side to move has one winning
move and no other move matches it, with the line that follows.

**The judges.**  A rule set whose game declares a solver (``Game.solver``) is judged by its
table (:class:`TableJudge`): a move *wins* when the table says the position after it is lost
for the opponent (or the move wins the game at once), in ``d`` plies.  The position is a puzzle
when exactly one move wins, or every other winning move is **much slower**: it needs at least
:data:`MUCH_SLOWER` (10) plies more than the fastest, five moves of each side, which is a
detour, not another way to the same win.  The other rule sets are judged by the compiled
search (:class:`SearchJudge`): every legal move is scored exactly at a fixed depth (the
generator's default 2, ``--depth``), and the position is a puzzle when the best score is
**clearly winning** (at least :data:`CLEAR_WIN`, 400 of the evaluation's 1,000 for a won game:
what :func:`ludoteca.ai.search.describe` calls "clearly ahead") and every other move scores at
least :data:`MARGIN` (300) less (two forced wins: at least :data:`MUCH_SLOWER` plies slower),
and the same holds, for the same move, at a search one ply deeper (at each of the ``check``
depths above it: :func:`judge_for`); a puzzle found by search must also be about a tactic
its game names (a theme other than :data:`~ludoteca.core.QUIET_THEME`: a conversion, a
frame, the Throne).

**The line.**  The player's unique winning move, the opponent's best defence (from the table:
the reply that loses slowest; from the search: the deepest search's best reply), the player's
next unique winning move, ... until the game is won or the player's next move is no longer
unique (the puzzle then ends after the player's last unique move), at most :data:`MAX_MOVES`
moves of the player.  Values are the table's, so the draw rules (repetition, the move rule)
are not part of them, except that a line never passes a position where they end the game; a
puzzle starts afresh from its position code (no earlier history).

**The positions** come from seeded games of the rule set (a random setup where the game has
one), each move random with probability :data:`WILD` (so that one side errs and the other has
something to find) and otherwise the table's best move or, without a table, a one-ply
search's; random while an endgame table does not cover the position yet (the positions it
covers are then those these games reach): real, reachable positions.  Positions before ply
:data:`OPENING` are skipped, and a game gives at most :data:`PER_GAME` puzzles, from positions
past each other's lines.  No puzzle is won by its first move at once (the last piece taken),
and none is one move that is the only tactical move on the board (the one capture).

**Difficulty** (a number on the scale of ratings): ``800 + 200·m + 80·t + 200·q + 10·min(a,
30)``, with ``m`` the player's moves in the solution, ``t`` the *tempting alternatives* (at
each of the player's moves, the other legal moves that are tactical: captures, mills,
conversions, as ``State.is_tactical`` says), ``q`` 1 when the first move is quiet (not
tactical: harder to see) and ``a`` the other legal moves at the first move.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

from ..ai.base import Limit
from ..ai.search import WIN, SearchAgent, is_mate
from ..core import QUIET_THEME, Game, LudotecaError, State
from ..games import load
from ..tables import Table

__all__ = [
    "CLEAR_WIN",
    "MARGIN",
    "MAX_MOVES",
    "MUCH_SLOWER",
    "SUFFIX",
    "Judge",
    "Puzzle",
    "PuzzleError",
    "SearchJudge",
    "TableJudge",
    "add",
    "check",
    "difficulty",
    "dumps",
    "find",
    "generate",
    "judge_for",
    "puzzle_id",
    "read",
    "shipped",
    "verify",
    "write",
]

#: an alternative win this many plies slower than the fastest is not a solution
MUCH_SLOWER = 10
#: the search score (for the mover) a puzzle's solution must reach
CLEAR_WIN = 400
#: how much better than every other move the search must find the solution
MARGIN = 300
#: the most moves of the player in a puzzle's line
MAX_MOVES = 12
#: the chance that a move of a generating game is random
WILD = 0.35
#: generating games' positions before this ply are not tried
OPENING = 4
#: the most puzzles taken from one generating game
PER_GAME = 2
#: the generator's default search depth, where no table covers a rule set
DEPTH = 2
#: the shipped sets' file names end so: JSON lines, xz-compressed
SUFFIX = ".jsonl.xz"


class PuzzleError(LudotecaError):
    """A malformed puzzle or puzzle file (the message says where and what)."""


def puzzle_id(rules: str, position: str) -> str:
    """A puzzle's stable id: a hash of its rule set and start position."""
    return hashlib.sha256(f"{rules}\n{position}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the start position, the solution line (the player's moves and the
    opponent's replies, alternately, in notation), its theme and difficulty, and what confirmed
    it (``verification``: see :meth:`Judge.verification`)."""

    id: str
    game: str
    rules: str
    position: str
    line: tuple[str, ...]
    theme: str
    difficulty: int
    verification: dict[str, Any] = field(hash=False)

    def as_json(self) -> dict[str, Any]:
        """The puzzle as one JSON object (``docs/formats.md``)."""
        return {
            "id": self.id,
            "game": self.game,
            "rules": self.rules,
            "position": self.position,
            "line": list(self.line),
            "theme": self.theme,
            "difficulty": self.difficulty,
            "verification": self.verification,
        }

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """A puzzle from its JSON object; :class:`PuzzleError` naming the first field that is
        missing or of the wrong type."""
        if not isinstance(data, dict):
            raise PuzzleError("a puzzle is a JSON object")
        kinds: dict[str, type] = {
            "id": str,
            "game": str,
            "rules": str,
            "position": str,
            "line": list,
            "theme": str,
            "difficulty": int,
            "verification": dict,
        }
        for key, kind in kinds.items():
            if key not in data:
                raise PuzzleError(f"a puzzle needs the field {key!r}")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise PuzzleError(f"the puzzle's {key!r} must be a JSON {kind.__name__}")
        line = data["line"]
        if not line or not all(isinstance(m, str) for m in line):
            raise PuzzleError("the puzzle's 'line' must be a non-empty list of moves")
        return cls(
            data["id"],
            data["game"],
            data["rules"],
            data["position"],
            tuple(line),
            data["theme"],
            data["difficulty"],
            data["verification"],
        )


# --- the judges -----------------------------------------------------------------------------
class Judge(ABC):
    """Says which move of a position is its one winning move, and how the opponent defends."""

    @abstractmethod
    def solution(self, state: State) -> int | None:
        """The code of the one winning move of ``state`` (left unchanged) for its side to
        move, or ``None`` if it has none or more than one."""

    @abstractmethod
    def defences(self, state: State) -> list[int]:
        """The opponent's best replies in ``state`` (its turn, after a winning move), in the
        order of their notation (the first is the line's)."""

    @abstractmethod
    def verification(self, state: State) -> dict[str, Any]:
        """What confirmed the puzzle starting at ``state``: the judge and the start's value."""

    def tempting(self, state: State, solution: int) -> int:
        """The tactical legal moves of ``state`` other than ``solution``."""
        return sum(c != solution and state.is_tactical(c) for c in state.legal_codes())


def _ends(state: State, code: int) -> tuple[int, int] | None:
    """``(value, plies)`` for the mover of ``code`` if it ends the game (1 plies), else None."""
    mover = state.turn
    state.push_code(code)
    try:
        outcome = state.outcome()
    finally:
        state.pop_code()
    if outcome is None:
        return None
    if outcome.winner is None:
        return (0, 0)
    return (1 if outcome.winner is mover else -1, 1)


def _by_notation(state: State, codes: Iterable[int]) -> list[int]:
    return sorted(codes, key=lambda c: str(state.move_of(c)))


class TableJudge(Judge):
    """Judges by a solved table (see the module's docstring); ``men`` names the table's size
    where the game has a choice (``Game.solver(men)``)."""

    def __init__(self, game: Game, men: int | None = None) -> None:
        solver = game.solver(men)
        if solver is None:
            raise PuzzleError(f"{game.rules} has no solved table")
        self.game = game
        self.men = men
        self.key = solver.key
        self.table: Table = _load_table(game, men)

    def covers(self, state: State) -> bool:
        return self.table.covers(state)

    def value_after(self, state: State, code: int) -> tuple[int, int]:
        """``(value, plies)`` of the move ``code`` for the side to move in ``state``."""
        ended = _ends(state, code)
        if ended is not None:
            return ended
        state.push_code(code)
        try:
            value, plies = self.table.lookup(state)
        finally:
            state.pop_code()
        return -value, plies + 1

    def winning(self, state: State) -> dict[int, int]:
        """Every winning move of ``state`` with the plies it wins in."""
        out = {}
        for code in state.legal_codes():
            value, plies = self.value_after(state, code)
            if value == 1:
                out[code] = plies
        return out

    def solution(self, state: State) -> int | None:
        if state.outcome() is not None or not self.covers(state):
            return None
        wins = self.winning(state)
        if not wins:
            return None
        fastest = min(wins.values())
        close = [c for c, plies in wins.items() if plies < fastest + MUCH_SLOWER]
        return close[0] if len(close) == 1 else None

    def defences(self, state: State) -> list[int]:
        scored = {c: self.value_after(state, c) for c in state.legal_codes()}
        best = max((value, plies if value < 0 else -plies) for value, plies in scored.values())
        return _by_notation(
            state,
            (c for c, (v, p) in scored.items() if (v, p if v < 0 else -p) == best),
        )

    def verification(self, state: State) -> dict[str, Any]:
        value, plies = self.table.lookup(state)
        return {
            "method": "table",
            "table": self.key,
            "men": self.men,
            "value": value,
            "plies": plies,
        }


@cache
def _load_table(game: Game, men: int | None) -> Table:
    solver = game.solver(men)
    assert solver is not None
    return solver.load()[0]


class SearchJudge(Judge):
    """Judges by the compiled search, every root move scored exactly at each of ``depths`` in
    turn (see the module's docstring); the defence is the deepest search's best reply.

    With ``screen`` (the generator's judges), a position is first searched plainly at the first
    depth, and one whose best score is not clearly winning is no puzzle without scoring each
    move: the plain search's score is the best exact score wherever its pruning finds the same
    best line, 10 to 50 times faster on a 13x13 Morelli board.  Where its pruning misjudges, a
    puzzle is missed, never made: every puzzle kept passes the unscreened judge (``puzzles
    check`` judges without the screen)."""

    def __init__(self, depths: Sequence[int], screen: bool = False) -> None:
        if not depths or min(depths) < 1:
            raise PuzzleError("a search judge needs depths of at least one ply")
        self.depths = tuple(depths)
        self.screen = screen
        self._scores: dict[tuple[object, int], dict[int, int]] = {}

    def scores(self, state: State, depth: int) -> dict[int, int]:
        """Every legal move's exact score for the mover at ``depth`` (a fresh search)."""
        key = (state.position_code(), depth)
        found = self._scores.get(key)
        if found is None:
            result = SearchAgent(0).analyse(state, Limit(depth=depth), exact=True)
            found = self._scores[key] = dict(result.scores)
            if len(self._scores) > 4096:
                self._scores.clear()
        return found

    @staticmethod
    def unique(scores: dict[int, int]) -> int | None:
        """The move that is clearly winning and clearly better than every other, or None."""
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        if not ranked or ranked[0][1] < CLEAR_WIN:
            return None
        top = ranked[0][1]
        for _, other in ranked[1:]:
            if is_mate(top) and is_mate(other) and other > 0:
                if (WIN - other) - (WIN - top) < MUCH_SLOWER:
                    return None
            elif top - other < MARGIN:
                return None
        return ranked[0][0]

    def solution(self, state: State) -> int | None:
        if state.outcome() is not None:
            return None
        if (
            self.screen
            and SearchAgent(0).analyse(state, Limit(depth=self.depths[0])).score < CLEAR_WIN
        ):
            return None
        found = None
        for depth in self.depths:
            move = self.unique(self.scores(state, depth))
            if move is None or (found is not None and move != found):
                return None
            found = move
        return found

    def defences(self, state: State) -> list[int]:
        scores = self.scores(state, self.depths[-1])
        top = max(scores.values())
        return _by_notation(state, (c for c, s in scores.items() if s == top))

    def verification(self, state: State) -> dict[str, Any]:
        ranked = sorted(self.scores(state, self.depths[-1]).values(), reverse=True)
        margin = ranked[0] - ranked[1] if len(ranked) > 1 else None
        return {
            "method": "search",
            "depths": list(self.depths),
            "score": ranked[0],
            "margin": margin,
        }


def judge_for(
    game: Game,
    men: int | None = None,
    depth: int = DEPTH,
    check: int = 1,
    build: bool = True,
    screen: bool = False,
) -> Judge:
    """The judge of a rule set: its table where the game declares a solver (``men``: its size,
    where the game has a choice; a table not built yet is built, or with ``build`` false the
    search judges instead), else the search at ``depth`` confirmed by searches of each of the
    ``check`` depths above it (``screen``: see :class:`SearchJudge`)."""
    solver = game.solver(men)
    if solver is not None and (build or solver.ready()):
        return TableJudge(game, men)
    return SearchJudge(tuple(range(depth, depth + check + 1)), screen)


def _checking_judge(game: Game, verification: dict[str, Any]) -> Judge:
    """The judge that re-verifies a puzzle: the same table, or the deepest search it names."""
    method = verification.get("method")
    if method == "table":
        men = verification.get("men")
        if men is not None and not isinstance(men, int):
            raise PuzzleError("the verification's 'men' must be a number or null")
        judge = TableJudge(game, men)
        if judge.key != verification.get("table"):
            raise PuzzleError(
                f"the puzzle names the table {verification.get('table')!r}, "
                f"but {game.rules} with men={men} is {judge.key!r}"
            )
        return judge
    if method == "search":
        depths = verification.get("depths")
        if not isinstance(depths, list) or not all(isinstance(d, int) for d in depths):
            raise PuzzleError("the verification's 'depths' must be a list of plies")
        return SearchJudge(depths)
    raise PuzzleError(f"unknown verification method {method!r} (table or search)")


# --- finding puzzles ------------------------------------------------------------------------
def difficulty(player_moves: int, tempting: int, quiet_first: bool, alternatives: int) -> int:
    """The difficulty formula of the module's docstring."""
    return 800 + 200 * player_moves + 80 * tempting + 200 * quiet_first + 10 * min(alternatives, 30)


def find(start: State, judge: Judge, max_moves: int = MAX_MOVES) -> Puzzle | None:
    """The puzzle starting at ``start``'s position (judged afresh from its position code), or
    ``None`` if its side to move has no unique winning move there or no other legal move."""
    game = start.game
    state = game.from_position_code(start.position_code())
    if len(state.legal_codes()) < 2:
        return None  # a forced move leaves nothing to find
    move = judge.solution(state)
    if move is None or _ends(state, move) is not None:
        return None  # a move that wins at once (the last piece taken) is no puzzle
    root = state.copy()
    line: list[int] = []
    tempting = 0
    while True:
        tempting += judge.tempting(state, move)
        line.append(move)
        state.push_code(move)
        if state.outcome() is not None or (len(line) + 1) // 2 >= max_moves:
            break
        reply = judge.defences(state)[0]
        state.push_code(reply)
        following = judge.solution(state)
        if following is None:
            break
        line.append(reply)
        move = following
    first = line[0]
    if len(line) == 1 and [c for c in root.legal_codes() if root.is_tactical(c)] == [first]:
        return None  # the one capture on the board, and nothing after it: no puzzle
    theme = game.puzzle_theme(root, line)
    if isinstance(judge, SearchJudge) and theme == QUIET_THEME:
        return None
    rules = str(game.rules)
    position = root.position_code()
    notation = []
    walk = root.copy()
    for code in line:
        notation.append(str(walk.move_of(code)))
        walk.push_code(code)
    return Puzzle(
        puzzle_id(rules, position),
        game.name,
        rules,
        position,
        tuple(notation),
        theme,
        difficulty(
            (len(line) + 1) // 2,
            tempting,
            not root.is_tactical(first),
            len(root.legal_codes()) - 1,
        ),
        judge.verification(root),
    )


def _mover(state: State, judge: Judge, rng: random.Random) -> int:
    """A move of a generating game: random with probability :data:`WILD`, else the table's
    best or a one-ply search's where the rule set has no table; random where an endgame
    table does not cover the position yet."""
    codes = state.legal_codes()
    if isinstance(judge, TableJudge):
        if not judge.covers(state) or rng.random() < WILD:
            return rng.choice(codes)
        scored = [(judge.value_after(state, c), c) for c in codes]
        best = max((v, p if v < 0 else -p) for (v, p), _ in scored)
        good = [c for (v, p), c in scored if (v, p if v < 0 else -p) == best]
        return rng.choice(good)
    if rng.random() < WILD:
        return rng.choice(codes)
    return SearchAgent(rng.randrange(1 << 30)).analyse(state, Limit(depth=1)).move.code


def game_puzzles(spec: str, seed: int, men: int | None, depth: int) -> list[Puzzle]:
    """The puzzles found in the generating game number ``seed`` of a rule set (at most
    :data:`PER_GAME`; the same every time for the same arguments)."""
    game = load(spec)
    judge = _judge(game, men, depth)
    rng = random.Random(seed)
    state = game.new(seed=rng.randrange(1 << 30))
    found: list[Puzzle] = []
    resume = OPENING
    cap = min(game.longest_game, 400)
    while state.outcome() is None and state.ply < cap and len(found) < PER_GAME:
        if state.ply >= resume and (not isinstance(judge, TableJudge) or judge.covers(state)):
            puzzle = find(state, judge)
            if puzzle is not None:
                found.append(puzzle)
                resume = state.ply + len(puzzle.line) + 1
        state.push_code(_mover(state, judge, rng))
    return found


@cache
def _judge(game: Game, men: int | None, depth: int) -> Judge:
    """One judge per rule set and process (its table read once; a search judge screens)."""
    return judge_for(game, men, depth, screen=True)


def generate(
    spec: str,
    count: int,
    seed: int = 0,
    jobs: int = 1,
    men: int | None = None,
    depth: int = DEPTH,
    max_games: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Puzzle]:
    """``count`` puzzles of a rule set (fewer if ``max_games`` generating games, default 100
    a puzzle, give no more), from games ``seed * 1_000_000 + i`` taken in order, ``jobs`` at
    a time on a process pool: the same puzzles for the same arguments whatever ``jobs``.
    ``progress(n)`` hears each puzzle kept; a puzzle met twice is kept once."""
    game = load(spec)
    _judge(game, men, depth)  # build or read the table once, before the pool starts
    budget = max_games if max_games is not None else 100 * count
    seeds = iter(range(seed * 1_000_000, seed * 1_000_000 + budget))
    kept: dict[str, Puzzle] = {}

    def take(batch: list[Puzzle]) -> bool:
        for puzzle in batch:
            if puzzle.id not in kept and len(kept) < count:
                kept[puzzle.id] = puzzle
                if progress is not None:
                    progress(1)
        return len(kept) >= count

    if jobs <= 1:
        for s in seeds:
            if take(game_puzzles(spec, s, men, depth)):
                break
        return list(kept.values())
    with ProcessPoolExecutor(jobs) as pool:
        window: list[Future[list[Puzzle]]] = []
        for s in seeds:
            window.append(pool.submit(game_puzzles, spec, s, men, depth))
            if len(window) >= 2 * jobs and take(window.pop(0).result()):
                break
        else:
            while window and not take(window.pop(0).result()):
                pass
        for pending in window:
            pending.cancel()
    return list(kept.values())


# --- checking -------------------------------------------------------------------------------
def verify(puzzle: Puzzle) -> str | None:
    """``None`` if the puzzle holds (its id, every player move the unique solution and every
    reply a best defence by its judge, its theme and difficulty as computed now), else why not.
    A puzzle that cannot be read (unknown rules, an impossible position, a move that is not
    legal) raises the :class:`~ludoteca.core.LudotecaError` saying so."""
    game = load(puzzle.rules)
    if str(game.rules) != puzzle.rules or game.name != puzzle.game:
        return f"rules {puzzle.rules!r} of game {puzzle.game!r} are {game.name} {game.rules}"
    expected = puzzle_id(puzzle.rules, puzzle.position)
    if puzzle.id != expected:
        return f"its id is not the hash of its rules and position ({expected})"
    judge = _checking_judge(game, puzzle.verification)
    state = game.from_position_code(puzzle.position)
    root = state.copy()
    if len(root.legal_codes()) < 2:
        return "its start has one legal move: nothing to find"
    if judge.verification(state) != puzzle.verification:
        return f"the start's verification is now {judge.verification(state)}"
    codes = []
    tempting = 0
    for i, text in enumerate(puzzle.line):
        code = state.parse_move(text).code
        if i % 2 == 0:
            unique = judge.solution(state)
            if unique != code:
                found = "no unique winning move" if unique is None else state.move_of(unique)
                return f"move {i + 1} ({text}) is not the unique winning move (the judge: {found})"
            tempting += judge.tempting(state, code)
        elif code not in judge.defences(state):
            best = ", ".join(str(state.move_of(c)) for c in judge.defences(state))
            return f"reply {i + 1} ({text}) is not a best defence (those are: {best})"
        codes.append(code)
        state.push_code(code)
    if len(codes) % 2 == 0:
        return "the line ends with a reply, not with the player's move"
    theme = game.puzzle_theme(root, codes)
    if theme != puzzle.theme:
        return f"its theme is {theme!r}, not {puzzle.theme!r}"
    first = codes[0]
    rated = difficulty(
        (len(codes) + 1) // 2, tempting, not root.is_tactical(first), len(root.legal_codes()) - 1
    )
    if rated != puzzle.difficulty:
        return f"its difficulty is {rated}, not {puzzle.difficulty}"
    return None


def _open(path: Path, mode: str) -> IO[str]:
    """A puzzle file opened as text (``mode`` ``"r"`` or ``"w"``), xz-compressed where its
    name ends in ``.xz``."""
    if path.suffix != ".xz":
        return path.open(mode, encoding="utf-8")
    if mode == "w":
        return lzma.open(path, "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME)
    return lzma.open(path, "rt", encoding="utf-8")


def read(path: Path) -> Iterator[tuple[int, Puzzle]]:
    """The puzzles of a JSON-lines file (xz-compressed where its name ends in ``.xz``) with
    their line numbers (blank lines skipped); :class:`PuzzleError` naming the line of the
    first one that is not a puzzle."""
    with _open(path, "r") as lines:
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            try:
                yield number, Puzzle.from_json(json.loads(text))
            except json.JSONDecodeError as error:
                raise PuzzleError(f"{path}:{number}: not JSON ({error.msg})") from None
            except PuzzleError as error:
                raise PuzzleError(f"{path}:{number}: {error}") from None


def dumps(puzzle: Puzzle) -> str:
    """A puzzle as one line of JSON (without the line's end)."""
    return json.dumps(puzzle.as_json(), separators=(",", ":"), ensure_ascii=False)


def write(puzzles: Iterable[Puzzle], path: Path) -> int:
    """Write puzzles as JSON lines (xz-compressed where the name ends in ``.xz``); returns how
    many."""
    n = 0
    with _open(path, "w") as out:
        for puzzle in puzzles:
            out.write(dumps(puzzle) + "\n")
            n += 1
    return n


def add(puzzles: Iterable[Puzzle], path: Path) -> int:
    """Add to the file ``path`` (made if missing) the puzzles it does not hold yet (by id),
    after its own, which keep their order; returns how many were added."""
    kept = {p.id: p for _, p in read(path)} if path.exists() else {}
    before = len(kept)
    for puzzle in puzzles:
        kept.setdefault(puzzle.id, puzzle)
    write(kept.values(), path)
    return len(kept) - before


def check(path: Path, progress: Callable[[int], None] | None = None) -> tuple[int, str | None]:
    """Verify every puzzle of a file: how many held, and the first bad one (``path:line: id:
    why``) or ``None``."""
    good = 0
    for number, puzzle in read(path):
        try:
            why = verify(puzzle)
        except LudotecaError as error:
            why = str(error)
        if why is not None:
            return good, f"{path}:{number}: puzzle {puzzle.id}: {why}"
        good += 1
        if progress is not None:
            progress(1)
    return good, None


def shipped() -> list[Path]:
    """The puzzle sets shipped in the package (``ludoteca/study/data/RULES.jsonl.xz``: see
    :data:`SUFFIX`)."""
    folder = resources.files(__package__) / "data"
    return sorted(Path(str(f)) for f in folder.iterdir() if f.name.endswith(SUFFIX))
