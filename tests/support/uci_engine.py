"""A tiny UCI Nine Men's Morris engine for tests, in Sanmill's notation (a placement ``d6``, a
move or flight ``a1-a4``, a mill's removal a token of its own ``xg7``), written apart from
:mod:`ludoteca.games.morris.uci` (its own reading of the tokens) so that it checks that module.

    python -m tests.support.uci_engine [--illegal]

Speaks ``uci`` (``id`` lines, ``uciok``), ``isready`` (``readyok``), ``setoption`` (accepted
and ignored), ``ucinewgame``, ``position startpos [moves …]``, ``go …`` (``bestmove``), ``stop``,
``quit``, and Sanmill's ``d`` (the board: a ``Fen:`` line in the form bench/vs_uci_mill.py
reads, its points ring by ring from the inner one, ``O`` White, ``@`` Black, ``*`` empty; side,
phase, action, then each side's men on the board and in hand).  It plays the first legal move
in sorted order of its text (our rules decide what is legal): the move's placement or move
token, and at the next ``go`` (the position then ends with that token) the removal ``xP``.
``--illegal``: it answers ``bestmove a1-g7`` (a move along no line, illegal from the start).
"""

from __future__ import annotations

import sys

from ludoteca.games import load
from ludoteca.games.morris.rules import MorrisState


def replay(tokens: list[str]) -> tuple[MorrisState, str | None]:
    """The position after ``tokens``, and the move token whose removal is still due."""
    state = load("morris").new()
    assert isinstance(state, MorrisState)
    pending: str | None = None
    for token in tokens:
        if token.startswith("x"):
            assert pending is not None, f"removal {token} with no mill"
            state.push(f"{pending}{token}")
            pending = None
            continue
        assert pending is None, f"{token} while the removal after {pending} is due"
        texts = {str(m) for m in state.legal_moves}
        if token in texts:
            state.push(token)
        elif any(t.startswith(token + "x") for t in texts):
            pending = token
        else:
            raise ValueError(f"illegal token {token}")
    return state, pending


#: the points in the order of Sanmill's board text: inner, middle, outer ring, each clockwise
#: from its top middle point
RINGS = [
    "d5 e5 e4 e3 d3 c3 c4 c5",
    "d6 f6 f4 f2 d2 b2 b4 b6",
    "d7 g7 g4 g1 d1 a1 a4 a7",
]


def fen(state: MorrisState, pending: str | None) -> str:
    """The position as Sanmill's ``d`` writes it."""
    index = state.board.index
    cells = "/".join(
        "".join(
            "O" if state.men[0] >> index[p] & 1 else "@" if state.men[1] >> index[p] & 1 else "*"
            for p in ring.split()
        )
        for ring in RINGS
    )
    on = [state.men[0].bit_count(), state.men[1].bit_count()]
    phase = "o" if state.outcome() is not None else "p" if any(state.hand) else "m"
    action = "r" if pending else "p" if state.hand[state.turn] else "s"
    side = "b" if state.turn else "w"
    return f"{cells} {side} {phase} {action} {on[0]} {state.hand[0]} {on[1]} {state.hand[1]} 0 0"


def answer(state: MorrisState, pending: str | None) -> str:
    """The engine's token: the removal due, or the first legal move's placement or move."""
    texts = sorted(str(m) for m in state.legal_moves)
    if pending is not None:
        first = next(t for t in texts if t.startswith(pending + "x"))
        return "x" + first.split("x")[1]
    if not texts:
        return "none"
    return texts[0].split("x")[0]


def main(argv: list[str]) -> int:
    illegal = "--illegal" in argv
    tokens: list[str] = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            print("id name Ludoteca test UCI engine")
            print("id author the Ludoteca developers")
            print("uciok")
        elif command == "isready":
            print("readyok")
        elif command == "position":
            tokens = words[words.index("moves") + 1 :] if "moves" in words else []
        elif command == "d":
            print("Fen: " + fen(*replay(tokens)))
        elif command == "go":
            if illegal:
                print("bestmove a1-g7")
            else:
                try:
                    print("bestmove " + answer(*replay(tokens)))
                except (ValueError, AssertionError) as error:
                    print(f"info string {error}")
                    print("bestmove none")
        elif command == "quit":
            break
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
