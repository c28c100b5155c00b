"""An outside engine as an agent: it speaks the Ludoteca engine protocol (docs/engine-protocol.md,
served by :mod:`ludoteca.protocol`) over its stdin/stdout."""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time

from ..core import LudotecaError, Move, RuleSet, State
from .base import Limit

__all__ = ["EngineAgent", "EngineError", "LinePipe"]


class EngineError(LudotecaError):
    """An outside engine hung, crashed, or answered something that is not a legal move."""


class LinePipe:
    """A child process (``proc``) spoken to a line at a time: :meth:`send` writes a line to its
    input, :meth:`receive` waits for the next line of its output, which a thread of its own
    reads as it comes."""

    def __init__(
        self, argv: list[str], *, stderr: int = subprocess.DEVNULL, cwd: str | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
            cwd=cwd,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Write ``line``; ``EngineError`` if the process no longer reads."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError("the engine has exited") from None

    def receive(self, deadline: float) -> str | None:
        """The next line, None once the process has closed its output; ``TimeoutError`` if
        none came by ``deadline`` (of ``time.monotonic``)."""
        try:
            return self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            raise TimeoutError from None

    def stop(self, command: str, seconds: float) -> None:
        """Ask the process to end with ``command``; kill it if it has not within ``seconds``."""
        if self.proc.poll() is None:
            try:
                self.send(command)
                self.proc.wait(timeout=seconds)
            except (EngineError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class EngineAgent:
    """An agent played by an outside engine process speaking this protocol.

    ``timeout`` bounds the handshake and, added to the move time, each move (the first move
    also gets ``startup`` more: an engine may load its search then, which takes seconds on a
    busy machine); an engine that goes past it, exits, or answers something other than a legal
    move raises :class:`EngineError` (and is stopped).

    ``agent``, if given, is the agent spec the engine is told to play
    (``setoption name agent``); with ``seconds`` None (and no time in the move's limit) it is
    sent a bare ``go`` and plays with that agent's own limits.
    """

    def __init__(
        self,
        command: str,
        rules: RuleSet,
        seconds: float | None = 1.0,
        timeout: float = 10.0,
        agent: str | None = None,
        startup: float = 0.0,
    ) -> None:
        self.name = f"engine:{command}"
        self.rules = rules
        self.seconds = seconds
        self.timeout = timeout
        self.startup = startup  # spent by the first move
        self.pipe = LinePipe(shlex.split(command))
        self._send("ludo")
        self._expect("ludook", self.timeout)
        self._send(f"newgame {rules.game} {rules}")
        if agent:
            self._send(f"setoption name agent value {agent}")
            self._send("isready")
            self._expect("readyok", self.timeout)

    def _send(self, line: str) -> None:
        try:
            self.pipe.send(line)
        except EngineError:
            self.close()
            raise EngineError(f"{self.name}: the engine has exited") from None

    def _expect(self, prefix: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.pipe.receive(deadline)
            except TimeoutError:
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
        elif state.start != state.game.new().position_code():
            start = f"code {state.start}"
        else:
            start = "startpos"
        moves = " ".join(str(m) for m in state.moves)
        self._send(f"position {start}" + (f" moves {moves}" if moves else ""))
        self._send(f"go time {seconds}" if seconds else "go")
        line = self._expect("bestmove", (seconds or 0.0) + self.timeout + self.startup)
        self.startup = 0.0
        text = line.split(" ", 1)[1].strip() if " " in line else ""
        try:
            return state.parse_move(text)
        except LudotecaError as error:
            self.close()
            raise EngineError(f"{self.name}: answered {text!r}: {error}") from None

    def close(self) -> None:
        """Stop the engine process."""
        self.pipe.stop("quit", 1.0)
