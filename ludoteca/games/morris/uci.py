"""A Nine Men's Morris engine speaking UCI, as Sanmill's does: its process driver, the
translation between its move notation and ours, and an agent it plays (``ludoteca bot --uci``,
``bench/vs_uci_mill.py``).

The engine's notation (Sanmill's) names the points as we do (``a1`` … ``g7``) but gives each
*action* a token of its own: a placement ``d6``, a move ``a1-a4`` (a flight is written the same
way), and a mill's removal as a separate token ``xg7`` after the move that closed the mill.  Our
moves carry the removal (``d6xg7``, ``a1-a4xg7``).  So:

- :func:`to_uci` gives our move's tokens (one, or two with a removal); :func:`uci_history` a
  whole game's, as ``position startpos moves …`` wants them;
- :func:`from_uci` reads such a token sequence back into our moves, checking each is legal;
- :func:`read_action` reads the engine's answer to one ``go`` at a position (a token not legal
  there raises :class:`UciError`, never a crash); a move that closes a mill needs the engine's
  second ``go`` for its removal (:meth:`UciEngine.turn` asks it).

The engine plays only Nine Men's Morris, and of our rule sets only the standard ``morris``
(:func:`engine_rules` maps its settings onto the engine's rule options, or says why not);
a game must start from the empty board.
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
from ...core import LudotecaError, Move, RuleSet, State
from .. import load
from .board import NINE
from .rules import MorrisMove, MorrisState

__all__ = [
    "GRACE",
    "STANDARD_RULES",
    "Action",
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
#: settings add ``MayFly``, ``ThreefoldRepetitionRule``, ``NMoveRule``, ``EndgameNMoveRule``)
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
    "StopPlacingWhenTwoEmptySquares": "false",
    "StalemateAction": "0",
    "CustodianCaptureEnabled": "false",
    "InterventionCaptureEnabled": "false",
    "LeapCaptureEnabled": "false",
}
#: seconds an engine may take past its time (or to start, or to answer ``isready``) before it
#: counts as hung
GRACE = 15.0
BESTMOVE = re.compile(r"\bbestmove\s+(\S+)")


class UciError(EngineError):
    """The UCI engine hung, exited, or answered something that is not a legal action here; or
    a rule set or position it cannot play."""


# --- the rules ----------------------------------------------------------------------------------
def engine_rules(rules: RuleSet) -> dict[str, str]:
    """The engine's rule options for ``rules``: only our standard Nine Men's Morris (the
    ``morris`` rule set, flying on or off, repetition 3 or off, any move rule of 1 ply or more;
    the three men rule off); :class:`UciError` saying why otherwise."""
    if rules.game != "morris" or rules.name != "morris":
        raise UciError(
            f"the UCI engine plays only Nine Men's Morris's standard rules (morris), "
            f"not {str(rules)!r}"
        )
    settings = rules.settings
    repetition = int(settings.get("repetition", 3))
    move_rule = int(settings.get("move_rule", 100))
    if int(settings.get("three_men_rule", 0)):
        raise UciError(f"the UCI engine has no three men rule ({str(rules)!r})")
    if repetition not in (0, 3):
        raise UciError(f"the UCI engine draws at threefold repetition or never ({str(rules)!r})")
    if move_rule < 1:
        raise UciError(f"the UCI engine needs a move rule ({str(rules)!r})")
    return {
        **STANDARD_RULES,
        "MayFly": "true" if settings.get("flying", True) else "false",
        "ThreefoldRepetitionRule": "true" if repetition else "false",
        "NMoveRule": str(move_rule),
        "EndgameNMoveRule": str(move_rule),  # off when not shorter than the move rule
    }


# --- the notation -------------------------------------------------------------------------------
def to_uci(move: Move) -> list[str]:
    """Our Nine Men's Morris move in the engine's tokens: ``d6`` → ``["d6"]``, ``a1-a4`` →
    ``["a1-a4"]``, ``d6xg7`` → ``["d6", "xg7"]``, ``a1-a4xg7`` → ``["a1-a4", "xg7"]``."""
    if not isinstance(move, MorrisMove) or move.board != NINE.key:
        raise UciError(f"{move} is not a Nine Men's Morris move")
    names = NINE.points
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


@dataclass(frozen=True)
class Action:
    """The engine's answer to one ``go``, read at a position: ``move`` when it is a whole move,
    else ``None`` and ``word`` (a move closing a mill: its removal is still to come)."""

    word: str
    move: MorrisMove | None


def read_action(state: State, word: str, removal: str | None = None) -> Action:
    """Read the engine's token ``word`` (and ``removal``, its ``xP`` token after a mill) as a
    move legal in ``state``: an :class:`Action` whose ``move`` is ``None`` when ``word`` closes
    a mill and ``removal`` is not given yet; :class:`UciError` for a token that is unreadable or
    illegal here (a removal of a man that may not be removed, one where none is due, none where
    one is due)."""
    if not isinstance(state, MorrisState) or state.board is not NINE:
        raise UciError("the UCI engine plays only Nine Men's Morris")
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
        legal there: a ``go``, and a second one for a mill's removal; with the seconds each
        took.  Neither ``state`` nor ``tokens`` is changed."""
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
    """An agent played by a UCI Morris engine (``command``) under ``rules`` (standard Nine
    Men's Morris: :func:`engine_rules`, else :class:`UciError` at once).  ``options`` add to or
    override the engine's options (its rule options, and ``MoveTime``, the default move's
    whole seconds).  :meth:`choose` gives the engine's move within the limit's seconds
    (``stop`` sent then; ``seconds`` without one), or raises :class:`UciError` (the engine
    stopped) for a position not reached from the empty board, a hang, a crash or an answer
    that is not a legal move."""

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
