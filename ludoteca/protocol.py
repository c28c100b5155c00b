"""The Ludoteca engine protocol: a line protocol over stdin/stdout in the spirit of UCI.

:func:`serve` runs our AI as an engine (``ludoteca engine``); :class:`ludoteca.ai.engine.
EngineAgent` drives any engine that speaks the protocol as an agent (the tournament runner's
``engine:COMMAND``).  The protocol is documented in docs/engine-protocol.md.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import TextIO

from . import __version__
from .ai import Agent, Limit, make_agent
from .ai.search import WIN, SearchAgent, SearchResult, is_mate
from .core import Game, LudotecaError, State
from .games import game_names, load

__all__ = ["serve"]


def _format_score(score: int) -> str:
    if is_mate(score):
        return f"{'win' if score > 0 else 'loss'} {WIN - abs(score)}"
    return f"value {score}"


class _Session:
    """The engine side: one game, one position, one agent, one search at a time."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.game: Game = load(game_names()[0])
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
                self.game = load(args[0], args[1] if len(args) > 1 else None)
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
        make_agent(value.strip(), self.game.rules)  # validate it now
        self.agent_spec = value.strip()
        self.agent = None

    def _position(self, args: list[str]) -> None:
        game = self.game
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
            state = game.new(setup=setup)
        elif args[:1] == ["code"] and len(args) > 1:
            state = game.from_position_code(" ".join(args[1:]))
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
