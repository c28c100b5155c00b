"""Our top Morelli level against Boardspace's Morelli robot (its Java code, driven headless).

    python -m bench.vs_boardspace_morelli --driver "java -cp DIR morelli.Driver"
        [--robot bestbot] [--sizes 9 11 13] [--games 4] [--seed K] [--time SECONDS]
        [--robot-time SECONDS] [--threads N] [--out FILE]
    python -m bench.vs_boardspace_morelli --summary FILE [FILE ...]

Contract:

- The robot is Boardspace's own (``MorelliBoard`` and ``MorelliPlay``, its UCT search): GPL
  Java kept and built outside the repository (bench/README.md says how), behind a small driver
  speaking a line protocol on stdin/stdout: ``version``, ``seed S``, ``threads N``,
  ``time T``, ``new N SQ=C ...`` (a game from the stones given: ``0`` the first player's,
  ``1`` the second's), ``move Move C R C R``, ``go LEVEL`` (answered ``bestmove SPEC
  SECONDS``), ``state`` (answered ``state TURN OVER WIN0 WIN1 SQ=C,...``, the Throne's
  stone marked ``*``), ``quit``; ``error ...`` for a refused command.
- Plays ``--games`` games on each of ``--sizes`` (9, 11, 13: ``morelli-9``, ``morelli-11``,
  ``morelli``) between our ladder's top level (its spec, with ``time=`` set to ``--time`` when
  given) and the robot at ``--robot`` (weakbot, dumbot, smartbot, bestbot: its own budget,
  unless ``--robot-time`` gives it other seconds a move), one fresh driver process a game.
  Games come in pairs from the same random-opposite setup (from ``--seed``); we are Black
  (moving first, Boardspace's P0) in the first game of a pair, White in the second.
- Moves go both ways through :func:`~ludoteca.games.morelli.boardspace.move_spec` and
  :func:`~ludoteca.games.morelli.boardspace.read_move_spec` (ours ``A5-L5``, Boardspace's
  ``Move A 5 L 5``) and are replayed by our engine.  Before each robot move the driver's board
  (stones, Throne, side to move) is compared with ours; at our game's end the driver must say
  the game is over with the same winner.  A robot move that is unreadable or illegal here, a
  board unlike ours, a game the two rules end differently, a crash or a hang (``--hang``
  seconds a command) makes the game void: reported with its reason, not counted.  A robot
  ``Resign`` is our win by resignation.
- Prints each game as it ends (size, setup, colours, result, how it ended, moves, think times),
  then our W-D-L, the score and its 95% interval (:mod:`bench.match_summary`) and each side's
  think times, over all sizes and for each.  ``--out`` appends one JSON line per game (our
  moves, the robot's specs as it wrote them, think times, result); ``--summary`` prints the
  summary of the games in such files (``.xz`` too) and plays none.
"""

from __future__ import annotations

import argparse
import random
import re
import select
import shlex
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.match_summary import read_games, report, score_lines, scored, think_lines
from ludoteca.ai import make_agent
from ludoteca.ai.levels import levels
from ludoteca.core import Color, IllegalMoveError, InvalidRecordError, Outcome, Termination
from ludoteca.games import load
from ludoteca.games.morelli.board import geometry
from ludoteca.games.morelli.boardspace import move_spec, read_move_spec
from ludoteca.games.morelli.rules import Morelli, MorelliState

#: board sizes → our rule sets
RULES = {9: "morelli-9", 11: "morelli-11", 13: "morelli"}
ROBOTS = ("weakbot", "dumbot", "smartbot", "bestbot")
SIDES = (("ours", "Ludoteca, a move"), ("theirs", "Boardspace's robot, a move"))


class DriverError(Exception):
    """The driver refused a command, died, hung, or disagrees with our engine."""


class Driver:
    """One driver process and its line protocol."""

    def __init__(self, command: Sequence[str], hang: float) -> None:
        self.hang = hang
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, line: str) -> str:
        """Send ``line`` and return the reply; :class:`DriverError` for ``error ...``, an end
        of output or no reply within ``hang`` seconds."""
        assert self.process.stdin and self.process.stdout
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError as failure:
            raise DriverError(f"the driver is gone ({failure}) at {line!r}") from None
        ready, _, _ = select.select([self.process.stdout], [], [], self.hang)
        if not ready:
            raise DriverError(f"no reply within {self.hang:g} s to {line!r}")
        reply = self.process.stdout.readline().strip()
        if not reply:
            raise DriverError(f"the driver ended at {line!r}")
        if reply.startswith("error"):
            raise DriverError(f"the driver refused {line!r}: {reply[5:].strip()}")
        return reply

    def close(self) -> None:
        try:
            assert self.process.stdin
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def stones(state: MorelliState) -> str:
    """The driver's ``new`` command for ``state``'s board (Black's stones ``0``: Black moves
    first, as Boardspace's P0)."""
    geo = geometry(state.n)
    cells = [f"{geo.names[s]}={v - 1}" for s, v in enumerate(state.board) if v]
    return f"new {state.n} " + " ".join(cells)


def read_state(reply: str) -> tuple[int, bool, tuple[bool, bool], dict[str, int], int]:
    """The driver's ``state`` reply: the player to move (0 first), whether the game is over,
    each player's win, the stones (square → 0 or 1) and the Throne's holder (-1: vacant)."""
    words = reply.split()
    if len(words) not in (5, 6) or words[0] != "state":
        raise DriverError(f"unreadable state {reply!r}")
    turn, over, win0, win1 = (int(w) for w in words[1:5])
    cells: dict[str, int] = {}
    throne = -1
    for item in words[5].split(",") if len(words) == 6 else []:
        square, _, value = item.partition("=")
        if value.endswith("*"):
            throne = int(value[:-1])
        else:
            cells[square] = int(value)
    return turn, bool(over), (bool(win0), bool(win1)), cells, throne


def check_board(state: MorelliState, reply: str) -> None:
    """Raise :class:`DriverError` unless the driver's board, Throne and side to move are ours."""
    turn, over, _, cells, throne = read_state(reply)
    geo = geometry(state.n)
    ours = {geo.names[s]: v - 1 for s, v in enumerate(state.board) if v}
    our_turn = 0 if state.turn is Color.BLACK else 1
    if over or turn != our_turn or cells != ours or throne != state.king - 1:
        raise DriverError(f"the driver's board {reply!r} is not ours {state.position_code()!r}")


def check_end(state: MorelliState, outcome: Outcome, reply: str) -> None:
    """Raise :class:`DriverError` unless the driver's game is over with our winner."""
    _, over, wins, _, _ = read_state(reply)
    winner = None if not any(wins) else Color.BLACK if wins[0] else Color.WHITE
    if not over or winner is not outcome.winner:
        raise DriverError(
            f"our game is over ({outcome.result}, {outcome.termination.label}) but the "
            f"driver's is {reply!r}"
        )


def play(
    command: Sequence[str],
    robot: str,
    spec: str,
    setup: str,
    ours: Color,
    rules: str,
    seed: int,
    options: Sequence[str] = (),
    hang: float = 600.0,
) -> dict[str, Any]:
    """One game of ``rules`` from ``setup``; its record (``score`` for us, or ``error`` if
    void).  ``options`` are driver commands sent before the game (``threads 1``, ...)."""
    game = load(rules)
    assert isinstance(game, Morelli)
    state = game.new(setup=setup)
    agent = make_agent(spec, state.rules, seed)
    record: dict[str, Any] = {"setup": setup, "ours": ours.name.lower()}
    think: dict[str, list[float]] = {"ours": [], "theirs": []}
    specs: list[str] = []
    outcome: Outcome | None = None
    driver: Driver | None = None
    try:
        driver = Driver(command, hang)
        record["driver"] = driver.ask("version").removeprefix("version").strip()
        for option in (*options, f"seed {seed}", stones(state)):
            driver.ask(option)
        while (outcome := state.outcome()) is None:
            if state.turn is ours:
                started = time.perf_counter()
                move = agent.choose(state)
                think["ours"].append(time.perf_counter() - started)
                driver.ask("move " + move_spec(str(state.push(move))))
                continue
            check_board(state, driver.ask("state"))
            words = driver.ask(f"go {robot}").split()
            think["theirs"].append(float(words[-1]))
            said = " ".join(words[1:-1])
            specs.append(said)
            if said.lower() == "resign":
                outcome = Outcome(Termination.RESIGNATION, ours)
                break
            try:
                text = read_move_spec(said)
            except InvalidRecordError as failure:
                raise DriverError(f"the robot's move is unreadable: {failure}") from None
            try:
                move = state.parse_move(text)
            except IllegalMoveError as failure:
                raise DriverError(f"the robot's move {said!r} is illegal here: {failure}") from None
            driver.ask("move " + said)
            state.push(move)
        if outcome.termination is not Termination.RESIGNATION:
            check_end(state, outcome, driver.ask("state"))
    except DriverError as failure:
        record["error"] = str(failure)
    finally:
        if driver is not None:
            driver.close()
    record.update(
        think=think,
        plies=state.ply,
        moves=" ".join(str(m) for m in state.moves),
        robot_moves=specs,
    )
    return scored(record, outcome, ours)


def summary(rows: Sequence[dict[str, Any]]) -> str:
    """The score over all games, then for each board size, and the think times."""
    lines = score_lines(rows)
    for size in sorted({r["size"] for r in rows}):
        lines += [
            f"{size}x{size}: " + line
            for line in score_lines([r for r in rows if r["size"] == size])
        ]
    return "\n".join(lines + think_lines(rows, SIDES))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--driver", help="the driver's command line (java -cp DIR morelli.Driver)")
    parser.add_argument(
        "--summary", nargs="+", type=Path, help="only summarise the games of these --out files"
    )
    parser.add_argument("--robot", choices=ROBOTS, default="bestbot", help="(default bestbot)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", choices=sorted(RULES), default=sorted(RULES)
    )
    parser.add_argument("--games", type=int, default=4, help="games a size, in pairs (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the setups and both sides")
    parser.add_argument("--time", type=float, help="our seconds a move (default: the level's)")
    parser.add_argument(
        "--robot-time", type=float, help="the robot's seconds a move (default: its own budget)"
    )
    parser.add_argument("--threads", type=int, default=1, help="the robot's threads (default 1)")
    parser.add_argument("--hang", type=float, default=600.0, help="seconds a driver reply may take")
    parser.add_argument("--out", type=Path, help="append one JSON line per game to this file")
    args = parser.parse_args(argv)
    if args.summary:
        played = read_games(args.summary)
        print(f"{len(played)} games from {len(args.summary)} file(s)")
        print(summary(played))
        return 0
    if not args.driver:
        parser.error("--driver is required to play")
    command = shlex.split(args.driver)
    options = [f"threads {args.threads}", f"time {args.robot_time or 0:g}"]
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    for size in args.sizes:
        rules = RULES[size]
        game = load(rules)
        assert isinstance(game, Morelli)
        warm = game.new(seed=0)  # (also loads the compiled search once)
        top = levels(warm.rules)[-1].spec
        spec = top if args.time is None else re.sub(r"time=[0-9.]+", f"time={args.time:g}", top)
        make_agent("search:depth=2", warm.rules).choose(warm)
        budget = "its own budget" if args.robot_time is None else f"{args.robot_time:g} s a move"
        print(
            f"{rules}: Ludoteca {spec} (top level {top}) against Boardspace's {args.robot} "
            f"({budget}, {args.threads} thread(s)) by {args.driver}",
            flush=True,
        )
        setup = ""
        for i in range(args.games):
            if i % 2 == 0:
                setup = game.random_setup(rng.randrange(1 << 30))
            ours = Color.BLACK if i % 2 == 0 else Color.WHITE
            row = play(
                command,
                args.robot,
                spec,
                setup,
                ours,
                rules,
                args.seed * 1000 + i,
                options,
                args.hang,
            )
            row.update(game=i + 1, size=size, rules=rules, spec=spec, robot=args.robot)
            row.update(robot_time=args.robot_time, threads=args.threads)
            rows.append(row)
            heading = (
                f"{size}x{size} game {i + 1}/{args.games}: setup {setup}, Ludoteca {row['ours']}"
            )
            report(row, heading, args.out)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
