"""``ludoteca play GAME [--rules R] [--setup S] [--position CODE] [--white SPEC]
[--black SPEC] [--seed N] [--save FILE]``: play a game in the terminal.

Contract: each side is a human (``human``, the default) or a computer player (an agent spec,
e.g. ``random`` or ``level:3``, seeded with ``--seed`` plus the colour's number).  A human
types a move in the game's notation or one of the commands of :data:`HELP` on standard input;
an illegal move is said (``! ...``) and asked again.  The board is drawn after each move; the
game ends at its end (the outcome is printed), at ``quit`` or at the end of input, and with
``--save`` its record is written (a human side named ``human``).  An unknown player spec is an
error (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import record
from ..ai import Agent, Limit, make_agent
from ..core import Color, LudotecaError, State
from .options import add_start_options, start

__all__ = ["HELP", "register"]

HELP = """Type a move in the game's notation, or one of:
  moves   list the legal moves        undo   take back your last move
  board   draw the board again        code   print the position code
  hint    suggest a move (1 s)        help   this text
  quit    stop (the record is kept with --save)"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca play`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game")
    add_start_options(p)
    p.add_argument("--white", default="human", help="human or a computer player (random, ...)")
    p.add_argument("--black", default="human", help="human or a computer player (random, ...)")
    p.add_argument("--seed", type=int, default=None, help="seed for computer players")
    p.add_argument("--save", type=Path, default=None, help="write the game record to this file")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the game to its end, a quit or the end of input."""
    state = start(args)
    players: dict[Color, Agent | None] = {}
    for color, spec in ((Color.WHITE, args.white), (Color.BLACK, args.black)):
        seed = None if args.seed is None else args.seed + int(color)
        players[color] = (
            None if spec.strip().lower() == "human" else make_agent(spec, state.rules, seed)
        )
    print(f"{state.game.title} ({state.rules}). Type 'help' for commands.")
    print(state)
    while (outcome := state.outcome()) is None:
        agent = players[state.turn]
        if agent is not None:
            started = time.perf_counter()
            move = agent.choose(state)
            state.push(move)
            print(
                f"{state.turn.other.title} ({agent.name}) plays {move} "
                f"[{time.perf_counter() - started:.2f}s]"
            )
            print(state)
            continue
        print(f"{state.turn.title} to move> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            break
        word = line.strip()
        if not word:
            continue
        command = word.lower()
        if command in ("quit", "exit"):
            break
        if command in ("help", "?"):
            print(HELP)
        elif command == "moves":
            print(" ".join(str(m) for m in state.legal_moves))
        elif command == "board":
            print(state)
        elif command == "code":
            print(state.position_code())
        elif command == "undo":
            _undo(state, players)
        elif command == "hint":
            from ..ai.analysis import analyse

            found = analyse(state, Limit(seconds=1.0))
            print(f"hint: {found.move} ({found.text}; line: {' '.join(str(m) for m in found.pv)})")
        else:
            try:
                state.push(word)
            except LudotecaError as error:
                print(f"! {error}")
                continue
            print(state)
    if outcome is not None:
        print(outcome.explain())
    if args.save is not None:
        names = {c: "human" if agent is None else agent.name for c, agent in players.items()}
        game = record.from_state(state, white=names[Color.WHITE], black=names[Color.BLACK])
        args.save.write_text(record.dumps(game), encoding="utf-8")
        print(f"record saved to {args.save}")
    return 0


def _undo(state: State, players: dict[Color, Agent | None]) -> None:
    """Take back moves until it is a human's turn again, at least one move."""
    if not state.move_stack:
        print("! nothing to take back")
        return
    state.pop()
    while state.move_stack and players[state.turn] is not None:
        state.pop()
    print(state)
