"""A tiny UCI Morris engine for tests, in Sanmill's notation (a placement ``d6``, a move or
flight ``a1-a4``, a mill's removal a token of its own ``xg7``), written apart from
:mod:`ludoteca.games.morris.uci` (its own reading of the tokens) so that it checks that module.

    python -m tests.support.uci_engine [--illegal] [--lax] [--rules NAME]

Speaks ``uci`` (``id`` lines, ``uciok``), ``isready`` (``readyok``), ``setoption`` (accepted
and ignored), ``ucinewgame``, ``position startpos [moves …]``, ``go …`` (``bestmove``), ``stop``,
``quit``, and Sanmill's ``d`` and ``analyze``.  ``d`` writes the board as a ``Fen:`` line in
Sanmill's form: its points ring by ring from the inner one, ``O`` the first player (Sanmill's
White always starts), ``@`` the second, ``X`` a marked point, ``*`` empty; side (``w`` the
first player), phase, action, each side's men on the board and in hand, six unused fields, the
points of each side's closed mills under one-time mills as Sanmill's 64-bit mask, the quiet
plies and a move number.  ``analyze`` lists the legal tokens as ``info analysis d6=none(0) …``:
the placements and moves, or the removals ``xP`` when one is due.  It plays the first legal
move in sorted order of its text (our rules decide what is legal, under ``--rules``, default
``morris``): the move's placement or move token, and at the next ``go`` (the position then ends
with that token) the removal ``xP``; where removals are due (turns of their own), a removal
``xP`` alone, listed and played as one token.  ``--illegal``: it answers ``bestmove a1-g7`` (a move
along no line, illegal from the start).  ``--lax``: ``analyze`` lists every man of the
opponent as a removal, those standing in a mill too (a rule it gets wrong).
"""

from __future__ import annotations

import sys

from ludoteca.games import load
from ludoteca.games.morris.rules import MorrisState


def replay(tokens: list[str], rules: str = "morris") -> tuple[MorrisState, str | None]:
    """The position after ``tokens`` under ``rules``, and the move token whose removal is still
    due."""
    state = load(rules).new()
    assert isinstance(state, MorrisState)
    pending: str | None = None
    for token in tokens:
        if token.startswith("x") and pending is None:
            assert token in {str(m) for m in state.legal_moves}, f"removal {token} not due"
            state.push(token)
            continue
        if token.startswith("x"):
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
    first = state.variant.first
    own, other = state.men[first], state.men[1 - first]
    cells = "/".join(
        "".join(
            "O"
            if own >> index[p] & 1
            else "@"
            if other >> index[p] & 1
            else "X"
            if state.marked >> index[p] & 1
            else "*"
            for p in ring.split()
        )
        for ring in RINGS
    )
    points = " ".join(RINGS).split()
    mills = [
        sum(1 << (8 + i) for i, p in enumerate(points) if state.used[c] >> index[p] & 1)
        for c in (first, 1 - first)
    ]
    on = [state.men[c].bit_count() for c in (first, 1 - first)]
    hand = [state.hand[c] for c in (first, 1 - first)]
    phase = "o" if state.outcome() is not None else "p" if any(state.hand) else "m"
    due = [state.due[c] for c in (first, 1 - first)]
    action = "r" if pending or state.due[state.turn] else "p" if state.hand[state.turn] else "s"
    side = "w" if state.turn is first else "b"
    return (
        f"{cells} {side} {phase} {action} {on[0]} {hand[0]} {on[1]} {hand[1]} {due[0]} {due[1]} "
        f"0 0 0 0 {mills[0] << 32 | mills[1]} {state.quiet} 1"
    )


def legal_tokens(state: MorrisState, pending: str | None, lax: bool) -> list[str]:
    """The legal tokens: the removals after ``pending`` (every man of the opponent if
    ``lax``), else each placement or move once."""
    texts = sorted(str(m) for m in state.legal_moves)
    if state.due[state.turn]:
        return texts  # removals alone
    if pending is None:
        return sorted({t.split("x")[0] for t in texts})
    if lax:
        names = state.board.points
        return [
            "x" + names[p] for p in range(state.board.size) if state.men[1 - state.turn] >> p & 1
        ]
    return ["x" + t.split("x")[1] for t in texts if t.startswith(pending + "x")]


def answer(state: MorrisState, pending: str | None) -> str:
    """The engine's token: the removal due, or the first legal move's placement or move."""
    texts = sorted(str(m) for m in state.legal_moves)
    if pending is not None:
        first = next(t for t in texts if t.startswith(pending + "x"))
        return "x" + first.split("x")[1]
    if not texts:
        return "none"
    if state.due[state.turn]:
        return texts[0]  # a removal alone
    return texts[0].split("x")[0]


def main(argv: list[str]) -> int:
    illegal = "--illegal" in argv
    lax = "--lax" in argv
    rules = argv[argv.index("--rules") + 1] if "--rules" in argv else "morris"
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
            print("Fen: " + fen(*replay(tokens, rules)))
        elif command == "analyze":
            state, pending = replay(tokens, rules)
            found = [] if state.outcome() is not None else legal_tokens(state, pending, lax)
            print(" ".join(["info analysis", *(f"{t}=none(0)" for t in found)]))
        elif command == "go":
            if illegal:
                print("bestmove a1-g7")
            else:
                try:
                    print("bestmove " + answer(*replay(tokens, rules)))
                except (ValueError, AssertionError) as error:
                    print(f"info string {error}")
                    print("bestmove none")
        elif command == "quit":
            break
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
