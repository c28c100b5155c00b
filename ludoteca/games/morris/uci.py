"""A Morris engine speaking UCI, as Sanmill's does: its process driver, the
translation between its move notation and ours, and an agent it plays (``ludoteca bot --uci``,
``bench/vs_uci_mill.py``).

The engine's notation (Sanmill's) names the points as we do (``a1`` … ``g7``) but gives each
*action* a token of its own: a placement ``d6``, a move ``a1-a4`` (a flight is written the same
way), and a mill's removal as a separate token ``xg7`` after the move that closed the mill.  Our
moves carry the removal (``d6xg7``, ``a1-a4xg7``).  A removal that is a turn of its own (ours
``xg7``: the second removal of a move closing two mills, a full board's, the mill counts') is
the engine's bare ``xg7`` in both.  So:

- :func:`to_uci` gives our move's tokens (one, or two with a removal); :func:`uci_history` a
  whole game's, as ``position startpos moves …`` wants them;
- :func:`from_uci` reads such a token sequence back into our moves, checking each is legal;
- :func:`read_action` reads the engine's answer to one ``go`` at a position (a token not legal
  there raises :class:`UciError`, never a crash); a move that closes a mill needs the engine's
  second ``go`` for its removal (:meth:`UciEngine.turn` asks it); where removals are due, one
  ``go`` gives one removal, our whole move (the side that made it may be to move again).

The engine plays the family's rule sets on the 24-point board (:func:`engine_rules` maps a
rule set and its settings onto the engine's rule options, or says why not; a rule set where
Black starts needs the colours exchanged); a game must start from the empty board.
"""

from __future__ import annotations

import math
import re
import shlex
import subprocess
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...ai.base import Limit
from ...ai.engine import EngineError, LinePipe
from ...core import Color, LudotecaError, Move, RuleSet, State
from .. import load
from .board import NINE, TWELVE
from .rules import Morris, MorrisMove, MorrisState
from .sanmill import full_board_action, placing_mill, unmapped

__all__ = [
    "BOARDS",
    "GRACE",
    "RINGS",
    "STANDARD_RULES",
    "Action",
    "EngineBoard",
    "UciAgent",
    "UciEngine",
    "UciError",
    "engine_rules",
    "from_uci",
    "read_action",
    "to_uci",
    "uci_history",
]

#: the engine's rule options for standard Nine Men's Morris (the ``morris`` rule set; its
#: settings add ``MayFly``, ``ThreefoldRepetitionRule``, ``NMoveRule``, ``EndgameNMoveRule``), which
#: :func:`engine_rules` changes for the other rule sets
STANDARD_RULES: dict[str, str] = {
    "PiecesCount": "9",
    "flyPieceCount": "3",
    "PiecesAtLeastCount": "3",
    "HasDiagonalLines": "false",
    "MillFormationActionInPlacingPhase": "0",
    "MayMoveInPlacingPhase": "false",
    "IsDefenderMoveFirst": "false",
    "MayRemoveMultiple": "false",
    "MayRemoveFromMillsAlways": "false",
    "RestrictRepeatedMillsFormation": "false",
    "OneTimeUseMill": "false",
    "BoardFullAction": "0",
    "StopPlacingWhenTwoEmptySquares": "false",
    "StalemateAction": "0",
    "CustodianCaptureEnabled": "false",
    "InterventionCaptureEnabled": "false",
    "LeapCaptureEnabled": "false",
}
#: the engine's values of ``MillFormationActionInPlacingPhase`` and ``BoardFullAction`` (its
#: enums' numbers) for Sanmill's names of them (:func:`.sanmill.placing_mill`,
#: :func:`.sanmill.full_board_action`)
PLACING_MILL = {
    "removeOpponentsPieceFromBoard": "0",
    "removeOpponentsPieceFromHandThenOpponentsTurn": "1",
    "markAndDelayRemovingPieces": "4",
    "removalBasedOnMillCounts": "5",
}
FULL_BOARD = {
    "firstPlayerLose": "0",
    "firstAndSecondPlayerRemovePiece": "1",
    "secondAndFirstPlayerRemovePiece": "2",
    "sideToMoveRemovePiece": "3",
    "agreeToDraw": "4",
}
#: the engine's points in its board text (``d``'s ``Fen:``) and bits 8 to 31 of its point masks:
#: the inner, middle, outer ring, each clockwise from its top middle point
RINGS = tuple("d5 e5 e4 e3 d3 c3 c4 c5 d6 f6 f4 f2 d2 b2 b4 b6 d7 g7 g4 g1 d1 a1 a4 a7".split())
#: our boards the engine plays (its board, without and with the four diagonals)
BOARDS = (NINE.key, TWELVE.key)
#: seconds an engine may take past its time (or to start, or to answer ``isready``) before it
#: counts as hung
GRACE = 15.0
BESTMOVE = re.compile(r"\bbestmove\s+(\S+)")


class UciError(EngineError):
    """The UCI engine hung, exited, or answered something that is not a legal action here; or
    a rule set or position it cannot play."""


# --- the rules ----------------------------------------------------------------------------------
def engine_rules(rules: RuleSet, *, swapped: bool = False) -> dict[str, str]:
    """The engine's rule options for ``rules``: every rule set of the family on the 24-point
    board (all but ``morris-6``; Sanmill's board has 24 points and 9 to 12 men a side) with
    its switches (diagonals, men, flying, Lasker's moves while placing, what a mill while
    placing does: marking, removal from the hand, removals by mill counts; removal from mills,
    one-time mills, several removals for one move, the defender moving first, what a full
    board does: :func:`.sanmill.placing_mill`, :func:`.sanmill.full_board_action`; not the
    combinations the engine's options cannot hold: :func:`.sanmill.unmapped`) and its draw
    settings (repetition 3 or off, a move rule of 1 ply or more, the three men rule as the
    engine's endgame move rule); :class:`UciError` saying why not otherwise.

    The engine's White always starts: a rule set where Black starts (``morabaraba``) is refused
    unless ``swapped``, which asks for the options of the same rules with the colours exchanged
    (the engine's White then stands for our Black, and its Black for our White; no other rule
    of the family tells the colours apart)."""
    if rules.game != "morris":
        raise UciError(f"the UCI engine plays only the Morris family, not {str(rules)!r}")
    game = load(rules)
    assert isinstance(game, Morris)
    variant = game.variant
    if variant.board.key not in BOARDS or not 9 <= variant.men <= 12:
        raise UciError(
            f"the UCI engine plays only the 24-point boards with 9 to 12 men a side, "
            f"not {str(rules)!r}"
        )
    if (variant.first is Color.BLACK) != swapped:
        raise UciError(
            f"the UCI engine's White starts: {str(rules)!r} needs the colours exchanged"
            if not swapped
            else f"the colours of {str(rules)!r} need no exchange: White starts"
        )
    settings = rules.settings
    repetition = int(settings.get("repetition", 3))
    move_rule = int(settings.get("move_rule", 100))
    three_men = int(settings.get("three_men_rule", 0))
    if repetition not in (0, 3):
        raise UciError(f"the UCI engine draws at threefold repetition or never ({str(rules)!r})")
    if move_rule < 1:
        raise UciError(f"the UCI engine needs a move rule ({str(rules)!r})")
    # the engine's options are Sanmill's rule settings, capitalised
    unwritten = [name[0].upper() + name[1:] for name in unmapped(variant)]
    if unwritten:
        raise UciError(
            f"the engine's rule options cannot hold {str(rules)!r}: its {', '.join(unwritten)} "
            f"has no value for it (a mill while placing that both marks and takes from the "
            f"hand, or a full board that the second player loses)"
        )
    return {
        **STANDARD_RULES,
        "PiecesCount": str(variant.men),
        "HasDiagonalLines": "true" if variant.board is TWELVE else "false",
        "MillFormationActionInPlacingPhase": PLACING_MILL[placing_mill(variant)],
        "MayMoveInPlacingPhase": "true" if variant.lasker else "false",
        "MayRemoveMultiple": "true" if variant.multiple_removals else "false",
        "MayRemoveFromMillsAlways": "true" if variant.remove_from_mills else "false",
        "OneTimeUseMill": "true" if variant.one_time_mills else "false",
        "IsDefenderMoveFirst": "true" if variant.defender_first else "false",
        "BoardFullAction": FULL_BOARD[full_board_action(variant)],
        "MayFly": "true" if settings.get("flying", True) else "false",
        "ThreefoldRepetitionRule": "true" if repetition else "false",
        "NMoveRule": str(move_rule),
        # the engine's endgame rule is off when not shorter than the move rule
        "EndgameNMoveRule": str(three_men if 0 < three_men < move_rule else move_rule),
    }


# --- the notation -------------------------------------------------------------------------------
def to_uci(move: Move) -> list[str]:
    """Our move on a 24-point Morris board in the engine's tokens: ``d6`` → ``["d6"]``,
    ``a1-a4`` → ``["a1-a4"]``, ``d6xg7`` → ``["d6", "xg7"]``, ``a1-a4xg7`` →
    ``["a1-a4", "xg7"]``, a removal alone ``xg7`` → ``["xg7"]``."""
    if not isinstance(move, MorrisMove) or move.board not in BOARDS:
        raise UciError(f"{move} is not a move on the 24-point Morris board")
    names = NINE.points  # the 24-point boards name their points alike
    if move.removal_only:
        return [str(move)]
    base = names[move.dst] if move.src is None else f"{names[move.src]}-{names[move.dst]}"
    return [base] if move.remove is None else [base, "x" + names[move.remove]]


def uci_history(moves: Iterable[Move]) -> list[str]:
    """A game's moves (from the start) as the tokens of ``position startpos moves …``."""
    return [token for move in moves for token in to_uci(move)]


def _legal_bases(state: MorrisState, word: str) -> list[MorrisMove]:
    """The legal moves of ``state`` whose placement or move (not removal) is the token
    ``word``; :class:`UciError` if ``word`` is no such token or none is legal."""
    if word.startswith("x"):
        raise UciError(f"{word!r}: a removal where a man's move is due")
    try:
        base = MorrisMove.parse(word, state.board.key)
    except LudotecaError:
        raise UciError(f"unreadable move {word!r}") from None
    if base.remove is not None:
        raise UciError(f"{word!r}: a removal joined to a move (the engine gives it apart)")
    found = [
        m
        for m in (state.move_of(c) for c in state.legal_codes())
        if m.src == base.src and m.dst == base.dst
    ]
    if not found:
        raise UciError(f"illegal move {word!r} at {state.position_code()!r}")
    return found


def _legal_removal(state: MorrisState, word: str, removal: str | None) -> MorrisMove:
    """The removal alone ``word`` (``xP``) where removals are due in ``state``; :class:`UciError`
    if it is not one of the legal removals, or another token follows it."""
    if not word.startswith("x"):
        raise UciError(f"{word!r}: a man's move where a removal is due")
    if removal is not None:
        raise UciError(f"removal {removal!r} after {word!r}, a removal alone")
    for move in (state.move_of(c) for c in state.legal_codes()):
        if move.removal_only and str(move) == word:
            return move
    raise UciError(f"illegal removal {word!r} at {state.position_code()!r}")


@dataclass(frozen=True)
class Action:
    """The engine's answer to one ``go``, read at a position: ``move`` when it is a whole move,
    else ``None`` and ``word`` (a move closing a mill: its removal is still to come)."""

    word: str
    move: MorrisMove | None


def read_action(state: State, word: str, removal: str | None = None) -> Action:
    """Read the engine's token ``word`` (and ``removal``, its ``xP`` token after a mill) as a
    move legal in ``state``: an :class:`Action` whose ``move`` is ``None`` when ``word`` closes
    a mill and ``removal`` is not given yet; where removals are due (each a turn of its own),
    ``word`` is one removal ``xP``, the whole move.  :class:`UciError` for a token that is
    unreadable or illegal here (a removal of a man that may not be removed, one where none is
    due, none where one is due)."""
    if not isinstance(state, MorrisState) or state.board.key not in BOARDS:
        raise UciError("the UCI engine plays only the 24-point Morris board")
    if state.due[state.turn]:
        return Action(word, _legal_removal(state, word, removal))
    legal = _legal_bases(state, word)
    mills = legal[0].remove is not None
    if not mills:
        if removal is not None:
            raise UciError(f"removal {removal!r} after {word!r}, which closes no mill")
        return Action(word, legal[0])
    if removal is None:
        return Action(word, None)
    point = removal[1:] if removal.startswith("x") else None
    names = NINE.points
    for move in legal:
        if point is not None and move.remove is not None and names[move.remove] == point:
            return Action(word, move)
    raise UciError(f"illegal removal {removal!r} after {word!r} at {state.position_code()!r}")


def from_uci(tokens: Sequence[str], state: State | None = None) -> list[MorrisMove]:
    """The engine's tokens (from ``state``, default the start of standard Nine Men's Morris)
    as our moves, each checked legal and played on a copy; :class:`UciError` at the first one
    that is not (or at a removal left missing at the end)."""
    here = state.copy() if state is not None else load("morris").new()
    moves: list[MorrisMove] = []
    pending: str | None = None
    for token in tokens:
        if pending is None:
            action = read_action(here, token)
            if action.move is None:
                pending = token
                continue
        else:
            action = read_action(here, pending, token)
            pending = None
        assert action.move is not None
        here.push(action.move)
        moves.append(action.move)
    if pending is not None:
        raise UciError(f"{pending!r} closes a mill and no removal follows")
    return moves


@dataclass(frozen=True)
class EngineBoard:
    """The engine's position as its ``d`` command writes it (Sanmill's ``Fen:`` line, read by
    :meth:`read`): ``cells``, one character a point in :data:`RINGS` order (``O`` the engine's
    White, ``@`` its Black, ``X`` a marked point, ``*`` empty); ``side`` to move (``w``,
    ``b``); ``phase`` (``p`` placing, ``m`` moving, ``o`` over); ``action`` (``p`` place,
    ``s`` move, ``r`` a removal due); the men in hand of its White and Black; ``mills``, each
    side's record of the points of the mills it has closed (one-time mills; empty in the other
    rule sets), as point names; and ``due``, the removals its White and Black still have to
    make (its ``pieceToRemoveCount``: negative, of the side's own men), each a turn of its own
    but for the one a mill's move is due (the removal after its token)."""

    cells: str
    side: str
    phase: str
    action: str
    hands: tuple[int, int]
    mills: tuple[frozenset[str], frozenset[str]]
    due: tuple[int, int] = (0, 0)

    @classmethod
    def read(cls, fen: str) -> EngineBoard:
        """The board of a ``Fen:`` line's text; :class:`UciError` if unreadable.  The record
        of mills is its 15th field (the two sides' 32-bit point masks in one number, White's
        high, point ``RINGS[i]`` at bit ``8 + i``), the removals due its 9th and 10th, each
        taken as none when the line stops before it."""
        fields = fen.split()
        try:
            cells = fields[0].replace("/", "")
            side, phase, action = fields[1:4]
            hands = (int(fields[5]), int(fields[7]))
            due = (int(fields[8]), int(fields[9])) if len(fields) > 9 else (0, 0)
            both = int(fields[14]) if len(fields) > 14 else 0
        except (IndexError, ValueError):
            raise UciError(f"unreadable board {fen!r}") from None
        if len(cells) != len(RINGS) or side not in ("w", "b"):
            raise UciError(f"unreadable board {fen!r}")
        mills = tuple(
            frozenset(p for i, p in enumerate(RINGS) if mask >> (8 + i) & 1)
            for mask in (both >> 32, both & 0xFFFFFFFF)
        )
        return cls(cells, side, phase, action, hands, (mills[0], mills[1]), due)


# --- the process --------------------------------------------------------------------------------
class UciEngine:
    """A UCI Morris engine process (``argv``, or a command line split as a shell would, run in
    ``cwd``): ``uci``/``uciok``, its ``options`` set (``setoption``), ``isready``/``readyok``;
    then asked for one action at a time (``position startpos moves …``, ``go`` →
    ``bestmove``).  An engine that refuses an option (Sanmill's ``No such option``), hangs past
    :data:`GRACE`, or exits raises :class:`UciError` (the process stopped)."""

    def __init__(
        self, argv: str | Sequence[str], options: dict[str, str], cwd: str | None = None
    ) -> None:
        self.pipe = LinePipe(
            shlex.split(argv) if isinstance(argv, str) else list(argv),
            stderr=subprocess.STDOUT,
            cwd=cwd,
        )
        try:
            self.send("uci")
            self.read_until("uciok", GRACE)
            for name, value in options.items():
                self.send(f"setoption name {name} value {value}")
            self.send("isready")
            ready = self.read_until("readyok", GRACE)
            refused = [s for s in ready if s.startswith("No such option")]
            if refused:
                raise UciError("; ".join(refused))
        except EngineError:
            self.close()
            raise

    def send(self, command: str) -> None:
        try:
            self.pipe.send(command)
        except EngineError:
            raise UciError("the engine has exited") from None

    def read_until(self, marker: str, seconds: float) -> list[str]:
        """The lines up to the first one containing ``marker`` (included)."""
        deadline = time.monotonic() + seconds
        seen: list[str] = []
        while True:
            try:
                line = self.pipe.receive(deadline)
            except TimeoutError:
                raise UciError(f"no {marker!r} within {seconds:g} s") from None
            if line is None:
                raise UciError(f"the engine exited (exit code {self.pipe.proc.wait()})")
            seen.append(line)
            if marker in line:
                return seen

    def _position(self, tokens: Sequence[str]) -> None:
        self.send("position startpos moves " + " ".join(tokens) if tokens else "position startpos")

    def board(self, tokens: Sequence[str]) -> str:
        """The engine's board text (Sanmill's ``d`` command, its ``Fen:`` line) after
        ``tokens`` from the start."""
        self._position(tokens)
        self.send("d")
        self.send("isready")
        fens = [s for s in self.read_until("readyok", GRACE) if s.startswith("Fen: ")]
        if not fens:
            raise UciError("no board from 'd'")
        return fens[-1][5:]

    def legal(self, tokens: Sequence[str]) -> tuple[str, list[str]]:
        """The engine's board text (as :meth:`board`) after ``tokens`` from the start, and the
        tokens it holds legal there, each once: its placements and moves, or, when a mill's
        removal is due, its removals ``xP``; none when its game is over.  Asked by Sanmill's
        ``analyze``, which lists its legal moves (the ones its search and its reading of
        ``position … moves`` try) as ``info analysis d6=advantage(12) …`` after a shallow
        search of each."""
        self._position(tokens)
        self.send("d")
        self.send("analyze")
        lines = self.read_until("info analysis", GRACE)
        fens = [s for s in lines if s.startswith("Fen: ")]
        if not fens:
            raise UciError("no board from 'd'")
        words = lines[-1].split("info analysis", 1)[1].split()
        if "trap" in words:  # the perfect database's traps follow the moves
            words = words[: words.index("trap")]
        return fens[-1][5:], [w.split("=", 1)[0] for w in words]

    def go(self, tokens: Sequence[str], seconds: float) -> tuple[str, float]:
        """The engine's token after ``tokens`` from the start (a bare ``go``, and ``stop`` once
        ``seconds`` have passed), and the seconds from ``go`` to its answer.  A ``bestmove``
        with no token is :class:`UciError`; a token that is no action (``none``, ``0000``,
        Sanmill's ``draw`` claim) is returned, for the reader to refuse."""
        self._position(tokens)
        started = time.perf_counter()
        self.send("go")
        try:
            found = self.read_until("bestmove", seconds)
        except UciError:
            self.send("stop")
            found = self.read_until("bestmove", GRACE)
        elapsed = time.perf_counter() - started
        match = BESTMOVE.search(found[-1])
        if match is None:
            raise UciError(f"unreadable answer {found[-1]!r}")
        return match.group(1), elapsed

    def turn(
        self, state: State, tokens: Sequence[str], seconds: float
    ) -> tuple[MorrisMove, list[float]]:
        """The engine's whole move at ``state`` (reached by ``tokens`` from the start), checked
        legal there: a ``go``, and a second one for a mill's removal (none where removals are
        due: one ``go``, one removal); with the seconds each took.  Neither ``state`` nor
        ``tokens`` is changed."""
        word, spent = self.go(tokens, seconds)
        action = read_action(state, word)
        if action.move is not None:
            return action.move, [spent]
        removal, more = self.go([*tokens, word], seconds)
        action = read_action(state, word, removal)
        assert action.move is not None
        return action.move, [spent, more]

    def close(self) -> None:
        """Stop the process (``quit``; killed if still running after 5 s)."""
        self.pipe.stop("quit", 5.0)


class UciAgent:
    """An agent played by a UCI Morris engine (``command``) under ``rules`` (those
    :func:`engine_rules` maps without exchanging the colours, else :class:`UciError` at
    once).  ``options`` add to or override the engine's options (its rule options, and
    ``MoveTime``, the default move's whole seconds).  :meth:`choose` gives the engine's move
    within the limit's seconds (``stop`` sent then; ``seconds`` without one), or raises
    :class:`UciError` (the engine stopped) for a position not reached from the empty board, a
    hang, a crash or an answer that is not a legal move."""

    def __init__(
        self,
        command: str | Sequence[str],
        rules: RuleSet,
        seconds: float = 1.0,
        options: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.name = f"uci:{command if isinstance(command, str) else shlex.join(command)}"
        self.rules = rules
        self.seconds = seconds
        self.engine = UciEngine(
            command,
            {
                **engine_rules(rules),
                "MoveTime": str(max(1, math.ceil(seconds))),
                **(options or {}),
            },
            cwd=cwd,
        )

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        seconds = limit.seconds if limit and limit.seconds else self.seconds
        try:
            if state.rules != self.rules:
                raise UciError(f"a game of {str(state.rules)!r}, not of {str(self.rules)!r}")
            if state.setup or state.start != state.game.new().position_code():
                raise UciError("the UCI engine plays only games from the empty board")
            move, _ = self.engine.turn(state, uci_history(state.moves), seconds)
        except UciError as error:
            self.close()
            raise UciError(f"{self.name}: {error}") from None
        return move

    def close(self) -> None:
        """Stop the engine process."""
        self.engine.close()
