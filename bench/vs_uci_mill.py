"""Our top level of a mill rule set against a UCI Morris engine (built for Sanmill's C++ engine).

    python -m bench.vs_uci_mill --engine /tmp/sanmill/src/sanmill [--rules RULES] [--games N]
        [--time SECONDS] [--seed K] [--balanced MARGIN] [--spec SPEC] [--out FILE]
        [--option NAME=VALUE ...]
    python -m bench.vs_uci_mill --summary FILE [FILE ...]

Contract:

- Plays ``--games`` games of a rule set (``--rules``, default ``morris``: standard Nine Men's
  Morris, flying at three, a man in a mill safe unless all are, draws by threefold repetition
  and the move rule; any rule set :func:`~ludoteca.games.morris.uci.engine_rules` maps onto the
  engine's options: ``morris-12``, ``morabaraba``, ``morris-lasker``, ...) between
  our ladder's top level (its spec, with ``time=`` set to ``--time``; or ``--spec``, a candidate
  tried against the engine before it is adopted, its ``time=`` set alike) and the engine, one
  fresh engine process a game.  Games come in pairs: both start from the same opening of two random
  legal plies (from ``--seed``), and we play White in the first game of a pair, Black in the
  second.  With ``--balanced MARGIN`` only openings that our search to :data:`JUDGE_DEPTH`
  plies scores within ``MARGIN`` of even are played (random ones are drawn until one is): on
  the twelve-men boards many random openings win for the first player whoever it is, and such a
  pair scores 1-1 whatever the engines, pulling the match towards 50%.
- Each side gets ``--time`` seconds a decision: our agent through its spec (its compiled search
  and endgame table are loaded before the first game); the engine through its ``MoveTime``
  option (whole seconds, rounded up) and a ``stop`` sent once ``--time`` has passed.  The engine
  gives a mill's removal as a separate move (a second ``go``), so a turn that closes a mill gets
  two of its decisions; both are timed.
- Moves are translated both ways (ours ``d6``, ``a1-a4``, ``a1-a4xg7``; the engine's ``d6``,
  ``a1-a4``, then ``xg7``) by :mod:`ludoteca.games.morris.uci`, which also drives the
  engine's process.
  Morabaraba, whose Black starts, is played with the colours exchanged on the engine's side
  (the engine has no option for Black to start, and no other rule tells the colours apart).
  Before each engine turn its board (``d``) is compared with ours (men, marked points, hands,
  side to move, one-time mill records); every engine move must be
  legal in our engine.  A mismatch (a board unlike ours, or a game its rules have ended where
  ours have not), an illegal or unreadable move, a draw claim, a crash or a hang is an error:
  that game is void, reported, and not counted.
- Games end by our rules only (blockade, fewer than three men, repetition, move rule).
- Prints each game as it ends (opening, colours, result, how it ended, moves, think times), then
  our W-D-L, the score and its 95% interval (normal approximation over the counted games, a draw
  half a point) and each side's mean and longest think per decision.  ``--out`` appends one JSON
  line per game; ``--summary`` prints that summary of the games in such files (several runs
  together; compressed ``.xz`` files too, as bench/results keeps them) and plays none.

Engine options: single thread, the engine's strongest skill level (30) with the Flutter app's
default play settings (MTD(f), developer mode off, no perfect database), and the rules of the
standard game; ``--option NAME=VALUE`` overrides or adds one.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ludoteca
from bench.match_summary import read_games, report, score_lines, scored, think_lines
from bench.vs_sanmill_moves import seen_by_engine
from ludoteca.ai import Limit, make_agent
from ludoteca.ai.engine import EngineError
from ludoteca.ai.levels import levels
from ludoteca.ai.search import SearchAgent
from ludoteca.core import Color, State
from ludoteca.games.morris.rules import MorrisState
from ludoteca.games.morris.uci import (
    EngineBoard,
    UciEngine,
    UciError,
    engine_rules,
    to_uci,
)

STRONGEST: dict[str, str] = {
    "Threads": "1",
    "SkillLevel": "30",
    "Algorithm": "2",
    "UsePerfectDatabase": "false",
    "DeveloperMode": "false",
    "DrawOnHumanExperience": "true",
    "ConsiderMobility": "true",
    "FocusOnBlockingPaths": "false",
    "AiIsLazy": "false",
    "Shuffling": "true",
    "TrapAwareness": "false",
}


def check_board(state: MorrisState, fen: str, swapped: bool = False) -> None:
    """Raise :class:`UciError` unless the engine's board, side to move, hands and mill records
    are ours (the colours exchanged if ``swapped``)."""
    board = EngineBoard.read(fen)
    if board.phase == "o":
        raise UciError(f"the engine's rules have ended the game at {fen!r}; ours have not")
    ours = seen_by_engine(state, swapped)
    theirs = (board.cells, board.side, board.hands, board.mills)
    expected = (ours.cells, ours.side, ours.hands, ours.mills)
    if theirs != expected or board.action == "r":  # "r": a removal pending
        raise UciError(f"the engine's board {fen!r} is not ours {state.position_code()!r}")


def engine_turn(
    state: MorrisState, engine: UciEngine, moves: list[str], seconds: float, swapped: bool
) -> list[float]:
    """Ask the engine for its turn (a second ``go`` for a mill's removal), check it is legal here,
    play it on ``state`` and ``moves``; return the engine's think time for each ``go``."""
    check_board(state, engine.board(moves), swapped)
    move, spent = engine.turn(state, moves, seconds)
    moves += to_uci(move)
    state.push(move)
    return spent


def play(
    engine_path: str,
    options: dict[str, str],
    spec: str,
    opening: Sequence[str],
    ours: Color,
    seconds: float,
    seed: int,
    rules: str = "morris",
) -> dict[str, Any]:
    """One game of ``rules`` from ``opening``; its record (``score`` for us, or ``error`` if
    void)."""
    state = ludoteca.new_game(rules)
    assert isinstance(state, MorrisState)
    swapped = state.variant.first is Color.BLACK
    agent = make_agent(spec, state.rules, seed)
    moves: list[str] = []
    for text in opening:
        moves += to_uci(state.push(text))
    record: dict[str, Any] = {"opening": " ".join(opening), "ours": ours.name.lower()}
    think: dict[str, list[float]] = {"ours": [], "theirs": [], "their_go": []}
    engine: UciEngine | None = None
    try:
        engine = UciEngine([engine_path], options, cwd=str(Path(engine_path).resolve().parent))
        while (outcome := state.outcome()) is None:
            if state.turn is ours:
                started = time.perf_counter()
                move = agent.choose(state)
                think["ours"].append(time.perf_counter() - started)
                moves += to_uci(state.push(move))
            else:
                spent = engine_turn(state, engine, moves, seconds, swapped)
                think["theirs"].append(sum(spent))
                think["their_go"] += spent
    except EngineError as failure:
        record["error"] = str(failure)
    finally:
        if engine is not None:
            engine.close()
    record.update(think=think, plies=state.ply, moves=" ".join(str(m) for m in state.moves))
    return scored(record, outcome, ours)


#: the plies of the search that judges an opening balanced (``--balanced``)
JUDGE_DEPTH = 8


def random_opening(
    rng: random.Random, rules: str = "morris", balanced: int | None = None
) -> list[str]:
    """Two random legal plies from the start; with ``balanced``, the first such opening that a
    search to :data:`JUDGE_DEPTH` plies scores within ``balanced`` of even."""
    while True:
        state: State = ludoteca.new_game(rules)
        texts = []
        for _ in range(2):
            move = state.move_of(rng.choice(state.legal_codes()))
            state.push(move)
            texts.append(str(move))
        if balanced is None or abs(opening_score(state)) <= balanced:
            return texts


def opening_score(state: State) -> int:
    """The score of ``state`` for the side to move by a search to :data:`JUDGE_DEPTH` plies
    (deterministic: seeded, no time limit)."""
    judge = SearchAgent(seed=0)
    return judge.analyse(state, Limit(depth=JUDGE_DEPTH)).score


def summary(rows: Sequence[dict[str, Any]]) -> str:
    """W-D-L for us, the score with its 95% interval, the errors, and the think times."""
    sides = (
        ("ours", "Ludoteca, a turn"),
        ("their_go", "engine, a go (a mill's removal is a second go)"),
        ("theirs", "engine, a turn"),
    )
    return "\n".join(score_lines(rows) + think_lines(rows, sides))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", help="the UCI engine's executable")
    parser.add_argument(
        "--summary", nargs="+", type=Path, help="only summarise the games of these --out files"
    )
    parser.add_argument("--rules", default="morris", help="our rule set (default morris)")
    parser.add_argument("--games", type=int, default=16, help="games, in pairs (default 16)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings and our agent")
    parser.add_argument(
        "--balanced",
        type=int,
        metavar="MARGIN",
        help=f"only openings a {JUDGE_DEPTH}-ply search scores within MARGIN of even",
    )
    parser.add_argument(
        "--spec", help="our agent's spec instead of the top level's (its time= set by --time)"
    )
    parser.add_argument("--out", type=Path, help="append one JSON line per game to this file")
    parser.add_argument(
        "--option", action="append", default=[], help="an engine option NAME=VALUE (repeatable)"
    )
    args = parser.parse_args(argv)
    if args.summary:
        files = args.summary
        played = read_games(files)
        print(f"{len(played)} games from {len(files)} file(s)")
        print(summary(played))
        return 0
    if not args.engine:
        parser.error("--engine is required to play")
    warm = ludoteca.new_game(args.rules)  # (also loads the compiled search and the table once)
    assert isinstance(warm, MorrisState)
    rules = warm.rules
    top = levels(rules)[-1].spec
    spec = re.sub(r"time=[0-9.]+", f"time={args.time:g}", args.spec or top)
    options = {
        **engine_rules(rules, swapped=warm.variant.first is Color.BLACK),
        **STRONGEST,
        "MoveTime": str(max(1, math.ceil(args.time))),
    }
    for item in args.option:
        name, _, value = item.partition("=")
        options[name.strip()] = value.strip()
    make_agent("search:depth=2,tables=1", rules).choose(warm)
    print(
        f"{rules}: Ludoteca {spec} (top level {top}) against {args.engine} "
        f"at {args.time:g} s a move"
    )
    print("engine options: " + " ".join(f"{k}={v}" for k, v in options.items()), flush=True)
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    opening: list[str] = []
    for i in range(args.games):
        if i % 2 == 0:
            opening = random_opening(rng, args.rules, args.balanced)
        ours = Color.WHITE if i % 2 == 0 else Color.BLACK
        row = play(
            args.engine, options, spec, opening, ours, args.time, args.seed * 1000 + i, args.rules
        )
        row.update(game=i + 1, rules=str(rules), spec=spec, engine=args.engine, seconds=args.time)
        rows.append(row)
        heading = f"game {i + 1}/{args.games}: opening {row['opening']}, Ludoteca {row['ours']}"
        report(row, heading, args.out)
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
