"""The Ludoteca engine protocol: a line protocol over stdin/stdout in the spirit of UCI.

:func:`serve` runs our AI as an engine (``ludoteca engine``); :class:`EngineAgent` drives any
engine that speaks the protocol as an agent (the tournament runner's ``engine:COMMAND``).
The protocol is documented in docs/engine-protocol.md.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from typing import TextIO

from . import __version__
from .ai.agents import Agent, Limit, make_agent
from .ai.search import WIN, SearchAgent, SearchResult, is_mate
from .core import LudotecaError, Move, RuleSet, State
from .games import game_names, resolve

__all__ = ["EngineAgent", "EngineError", "serve"]


class EngineError(LudotecaError):
    """An outside engine hung, crashed, or answered something that is not a legal move."""


def _format_score(score: int) -> str:
    if is_mate(score):
        return f"{'win' if score > 0 else 'loss'} {WIN - abs(score)}"
    return f"value {score}"


class _Session:
    """The engine side: one game, one position, one agent, one search at a time."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.game_name = game_names()[0]
        self.rules: RuleSet | None = None
        self.state: State | None = None
        self.agent_spec = "level:5"
        self.agent: Agent | None = None
        self.worker: threading.Thread | None = None

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Handle one command; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        try:
            if command == "ludo":
                self.send(f"id name Ludoteca {__version__}")
                self.send("id author the Ludoteca developers")
                self.send("games " + " ".join(game_names()))
                self.send(
                    "option agent (an agent spec: level:N, search:time=T, mcts:sims=N, "
                    "random, perfect)"
                )
                self.send("ludook")
            elif command == "isready":
                self._wait()
                self.send("readyok")
            elif command == "newgame":
                self._wait()
                if not args:
                    raise LudotecaError("newgame needs a game name")
                game, rules = resolve(args[0], args[1] if len(args) > 1 else None)
                self.game_name, self.rules = game.name, rules
                self.state = None
                self.agent = None
            elif command == "setoption":
                self._set_option(args)
            elif command == "position":
                self._wait()
                self._position(args)
            elif command == "go":
                self._go(args)
            elif command == "stop":
                stop = getattr(self.agent, "stop", None)
                if callable(stop):
                    stop()
                self._wait()
            elif command == "quit":
                stop = getattr(self.agent, "stop", None)
                if callable(stop):
                    stop()
                return False
            else:
                raise LudotecaError(f"unknown command {command!r}")
        except LudotecaError as error:
            self.send(f"error {error}")
        return True

    def _wait(self) -> None:
        if self.worker is not None:
            self.worker.join()
            self.worker = None

    def _set_option(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise LudotecaError("write: setoption name NAME value VALUE")
        name, value = text[5:].split(" value ", 1)
        if name.strip().lower() != "agent":
            raise LudotecaError(f"unknown option {name.strip()!r} (known: agent)")
        make_agent(value.strip(), resolve(self.game_name, self.rules)[1])  # validate it now
        self.agent_spec = value.strip()
        self.agent = None

    def _position(self, args: list[str]) -> None:
        game, rules = resolve(self.game_name, self.rules)
        moves: list[str] = []
        if "moves" in args:
            at = args.index("moves")
            args, moves = args[:at], args[at + 1 :]
        if args[:1] == ["startpos"]:
            setup = None
            if args[1:2] == ["setup"] and len(args) > 2:
                setup = args[2]
            elif len(args) > 1:
                raise LudotecaError("write: position startpos [setup S] [moves ...]")
            state = game.new(rules, setup=setup)
        elif args[:1] == ["code"] and len(args) > 1:
            state = game.from_position_code(" ".join(args[1:]), rules)
        else:
            raise LudotecaError("write: position startpos|code CODE [moves m1 m2 ...]")
        for move in moves:
            state.push(move)
        self.state = state

    def _go(self, args: list[str]) -> None:
        self._wait()
        if self.state is None:
            raise LudotecaError("no position: send position first")
        if self.state.outcome() is not None:
            raise LudotecaError("the game is over in this position")
        options: dict[str, str | None] = {"time": None, "nodes": None, "depth": None}
        it = iter(args)
        for key in it:
            if key not in options:
                raise LudotecaError(f"unknown go option {key!r} (time, nodes, depth)")
            try:
                options[key] = next(it)
            except StopIteration:
                raise LudotecaError(f"go {key} needs a value") from None
        try:
            limit = Limit(
                seconds=None if options["time"] is None else float(options["time"]),
                nodes=None if options["nodes"] is None else int(options["nodes"]),
                depth=None if options["depth"] is None else int(options["depth"]),
            )
        except ValueError:
            raise LudotecaError("go takes numbers: go time 1.5 nodes 10000 depth 4") from None
        if self.agent is None:
            self.agent = make_agent(self.agent_spec, self.state.rules)
        agent, state = self.agent, self.state.copy()
        use_default = limit == Limit()

        def work() -> None:
            try:
                if isinstance(agent, SearchAgent):

                    def report(result: SearchResult) -> None:
                        pv = " ".join(str(m) for m in result.pv)
                        self.send(
                            f"info depth {result.depth} score {_format_score(result.score)}"
                            f" nodes {result.nodes} nps {result.nps}"
                            f" time {result.seconds:.3f} pv {pv}"
                        )

                    found = agent.analyse(state, None if use_default else limit, report)
                    move = found.move
                else:
                    move = agent.choose(state, None if use_default else limit)
                self.send(f"bestmove {move}")
            except (LudotecaError, ValueError) as error:
                self.send(f"error {error}")

        self.worker = threading.Thread(target=work, daemon=True)
        self.worker.start()


def serve(lines: Iterable[str] | None = None, out: TextIO | None = None) -> int:
    """Run the engine side of the protocol until ``quit`` or end of input."""
    session = _Session(out or sys.stdout)
    for line in lines if lines is not None else sys.stdin:
        if not session.handle(line.strip()):
            break
    session._wait()
    return 0


class EngineAgent:
    """An agent played by an outside engine process speaking this protocol.

    ``timeout`` bounds the handshake and, added to the move time, each move; an engine that goes
    past it, exits, or answers something other than a legal move raises :class:`EngineError`
    (and is stopped).
    """

    def __init__(
        self, command: str, rules: RuleSet, seconds: float = 1.0, timeout: float = 10.0
    ) -> None:
        self.name = f"engine:{command}"
        self.rules = rules
        self.seconds = seconds
        self.timeout = timeout
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send("ludo")
        self._expect("ludook", self.timeout)
        self._send(f"newgame {rules.game} {rules}")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _send(self, line: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise EngineError(f"{self.name}: the engine has exited") from None

    def _expect(self, prefix: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                self.close()
                raise EngineError(f"{self.name}: no {prefix!r} within {seconds:.1f}s") from None
            if line is None:
                self.close()
                raise EngineError(f"{self.name}: the engine exited (waiting for {prefix!r})")
            if line.startswith("error"):
                self.close()
                raise EngineError(f"{self.name}: {line}")
            if line.split(" ", 1)[0] == prefix:
                return line

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        seconds = limit.seconds if limit and limit.seconds else self.seconds
        if state.setup:
            start = f"startpos setup {state.setup}"
        elif state.start != state.game.new(state.rules).position_code():
            start = f"code {state.start}"
        else:
            start = "startpos"
        moves = " ".join(str(m) for m in state.moves)
        self._send(f"position {start}" + (f" moves {moves}" if moves else ""))
        self._send(f"go time {seconds}")
        line = self._expect("bestmove", seconds + self.timeout)
        text = line.split(" ", 1)[1].strip() if " " in line else ""
        try:
            return state.parse_move(text)
        except LudotecaError as error:
            self.close()
            raise EngineError(f"{self.name}: answered {text!r}: {error}") from None

    def close(self) -> None:
        """Stop the engine process."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                self.proc.kill()
                self.proc.wait()
