"""Sanmill's engine and ours agree on the legal moves of random positions of every Morris rule set
both play (issue 54); Sanmill's C++ engine asked over UCI.

    python -m bench.vs_sanmill_moves --engine /tmp/scratch/sanmill/src/sanmill
        [--positions 1000] [--seed 1] [--every 8] [--rules NAME ...]

Contract:

- The rule sets: every rule set of the family that :func:`~ludoteca.games.morris.uci.engine_rules`
  maps onto Sanmill's rule options (``--rules`` picks some); Morabaraba, where Black starts,
  with the colours exchanged (Sanmill's White always starts; the engine's White then stands for
  our Black: no other rule of the family tells the colours apart).  The others are listed with
  the reason (Six Men's Morris: its 16-point board).  Sanmill's draw rules are switched off
  (no repetition, its move rules at their 200-ply maximum): the comparison is of the legal
  moves and of the losses, not of when a draw is called.
- For each rule set, seeded random games (seeded by ``--seed`` and the rule set's name) from
  the empty board, played by three random players in turn (a game each, :data:`PLAYERS`):
  one picks each legal whole move (ours) alike; one is shy of mills while placing (a move that
  takes a man only when no other is legal), which fills the board (full boards, blockades);
  one is keen on them (a move that takes a man whenever there is one), which brings the
  exception of a man taken from a mill when all stand in one.  Each position is compared with
  chance ``1/--every``, and always the position that ends a game, every position where a
  removal alone is due and every one where Sanmill's engine restricts a removal (a game ended
  by one of our draw rules stops before that position, uncompared), until ``--positions``
  positions.
- At a position (reached by the game's moves, sent as ``position startpos moves …`` in
  Sanmill's tokens, a mill's removal a token of its own): Sanmill's board (``d``) must be ours
  (men, marked points, side to move, men in hand, the points of the mills each side has
  closed under one-time mills, the removals each side has due); its legal tokens (its
  ``analyze`` command, which lists them) are, where a removal is due, the removals ``xP``,
  each a whole move (ours ``xg7``, a turn of its own), else placements and moves; each of
  these is played (``position … moves … TOKEN``) and, where Sanmill then has a removal due
  by the same side in the same phase (a mill's; not placing's end, whose removals are turns of
  their own), its legal removals are asked in turn, so that its whole moves (``a1-a4xg7``)
  are the token with each legal removal.  These must be our legal moves, exactly; and the
  game must be over (ours: no legal move, fewer than three men, a full board; Sanmill's:
  phase ``o``) for both or neither.  Where Sanmill's game is over it has no
  legal move (its ``do_move`` refuses them all, though ``analyze`` still lists the removals of
  the turn that won), and its side to move and action stay as the last move left them, so
  only its men, marks, hands and mill records are compared there.  One difference of
  representation is set aside and counted (:data:`MARKS_KEPT`), and one defect of Sanmill's
  engine (:func:`adjacent_only`: a mill's removals restricted to men next to the mover's,
  in Dooz): compared as Sanmill plays it, counted, and the game cut where our random player
  makes a removal the engine would refuse.
- Prints each rule set's options, its positions compared (by phase: placing, moving, flying,
  over; with a mill to close, a man standing in a mill to take, marked points, a mill
  record; the endings compared, by how our rules ended the game), its agreements, and each
  disagreement: the game and ply, our position code, ours minus theirs, theirs minus ours, and
  what else differs (the board, the end of the game, a removal due with none legal).

Building Sanmill's engine (its C++ engine was deleted at ff357aa; 77209bd is the last commit
with it, but its Makefile and ``main.cpp`` were deleted before, at 7984ea7; their parent,
df5f3c6, has the same engine code as 77209bd — ``git diff df5f3c6 77209bd -- src include``
changes only those two files — and builds)::

    git --git-dir=SANMILL.git archive df5f3c632 src include ':(exclude)src/ui' \\
        | tar -x -C /tmp/scratch/sanmill
    cd /tmp/scratch/sanmill/src && nice make -j2 sanmill ARCH=x86-64-modern optimize=yes debug=no
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import ludoteca
from ludoteca.core import Color, Termination
from ludoteca.games.morris.board import bits
from ludoteca.games.morris.rules import Morris, MorrisMove, MorrisState
from ludoteca.games.morris.uci import (
    RINGS,
    EngineBoard,
    UciEngine,
    UciError,
    engine_rules,
    to_uci,
)

#: Sanmill's draw rules off: no repetition, its move rules at their longest
DRAWS_OFF = {"ThreefoldRepetitionRule": "false", "NMoveRule": "200", "EndgameNMoveRule": "200"}
#: our draws, which Sanmill's rules (draws off) do not call: a game ending so is not compared
OUR_DRAWS = (Termination.THREEFOLD_REPETITION, Termination.MOVE_RULE, Termination.THREE_MEN_RULE)


def compared_rule_sets() -> tuple[dict[str, bool], dict[str, str]]:
    """The rule sets Sanmill plays (name → whether the colours are exchanged) and the others
    (name → why not); the named rule sets, not the custom one (whose spec, bare, is
    ``morris``)."""
    played: dict[str, bool] = {}
    others: dict[str, str] = {}
    for definition in Morris.rule_sets:
        rules = ludoteca.new_game(definition.name).rules
        if rules.name != definition.name:
            continue
        swapped = definition.first is Color.BLACK
        try:
            engine_rules(rules, swapped=swapped)
        except UciError as why:
            others[definition.name] = str(why)
        else:
            played[definition.name] = swapped
    return played, others


def engine_options(name: str, swapped: bool) -> dict[str, str]:
    """Sanmill's options for rule set ``name``: its rules, draws off."""
    rules = ludoteca.new_game(name).rules
    return {**engine_rules(rules, swapped=swapped), **DRAWS_OFF}


def seen_by_engine(state: MorrisState, swapped: bool) -> EngineBoard:
    """Our position as Sanmill's ``d`` would write it (colours exchanged if ``swapped``)."""
    index, names = state.board.index, state.board.points
    white, black = (state.men[1], state.men[0]) if swapped else (state.men[0], state.men[1])
    cells = "".join(
        "O"
        if white >> index[p] & 1
        else "@"
        if black >> index[p] & 1
        else "X"
        if state.marked >> index[p] & 1
        else "*"
        for p in RINGS
    )
    mills = [frozenset(names[p] for p in bits(used)) for used in state.used]
    hands = [state.hand[0], state.hand[1]]
    due = [state.due[0], state.due[1]]
    if swapped:
        mills.reverse()
        hands.reverse()
        due.reverse()
    over = state.outcome() is not None
    return EngineBoard(
        cells,
        "w" if (state.turn is Color.WHITE) != swapped else "b",
        "o" if over else "p" if state.hand[state.turn] else "m",  # Sanmill's, by the mover's hand
        "r" if state.due[state.turn] else "p" if state.hand[state.turn] else "s",
        (hands[0], hands[1]),
        (mills[0], mills[1]),
        (due[0], due[1]),
    )


@dataclass
class Verdict:
    """One position compared: ``ours_only`` and ``theirs_only`` the whole moves one side alone
    holds legal; ``notes`` what else differs (the board, the end of the game, a removal due
    with none legal); ``excused`` the known differences of representation set aside
    (:data:`MARKS_KEPT`)."""

    ours_only: list[str] = field(default_factory=list)
    theirs_only: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    excused: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not (self.ours_only or self.theirs_only or self.notes)


def their_moves(
    engine: UciEngine, tokens: Sequence[str]
) -> tuple[EngineBoard, set[str], list[str]]:
    """Sanmill's board after ``tokens``, its whole moves there (a token closing a mill joined
    with each of its legal removals; where a removal is due at the position itself, each legal
    removal alone ``xP``), and notes on what is odd (a removal due with none legal, a removal
    where a move is due)."""
    fen, listed = engine.legal(tokens)
    board = EngineBoard.read(fen)
    moves: set[str] = set()
    notes: list[str] = []
    if board.phase == "o":
        # over: Sanmill plays no move (its do_move refuses them all), though ``analyze`` may
        # still list the removals of the turn that won
        return board, moves, notes
    if board.action == "r":
        # a removal due: a turn of its own (ours ``xg7``)
        if not listed:
            notes.append("Sanmill has a removal due and none legal")
        return board, set(listed), notes
    for word in listed:
        if word.startswith("x"):
            notes.append(f"Sanmill lists a removal {word!r} where a move is due")
            continue
        after = EngineBoard.read(engine.board([*tokens, word]))
        # a removal due after the token is its mill's when the same side is to make it in the
        # same phase; else it is a turn of its own (placing's end: a full board's removals, the
        # mill counts'), and the token a whole move
        mill = after.action == "r" and (after.side, after.phase) == (board.side, board.phase)
        if not mill:
            moves.add(word)
            continue
        _, removals = engine.legal([*tokens, word])
        if not removals:
            moves.add(f"{word} (a removal due, none legal)")
        moves.update(word + r for r in removals)
    return board, moves, notes


#: the one known difference of representation: when the last man placed closes mills that take
#: more than one man (Da San Qi), Sanmill keeps the points of the men its removals mark blocked
#: (``X``) until the last removal is made (its ``remove_marked_pieces`` when placing ends), ours
#: frees them once the last man is placed; in between only removals are legal, and a marked
#: point is no man to take, so no move differs
MARKS_KEPT = "marks kept until placing's removals are made"


#: where Sanmill's engine restricts a mill's removals to the men next to the mover's (below),
#: and the games cut there, by a removal it would refuse
ADJACENT_ONLY = "Sanmill's adjacency restriction"
CUT = "games cut by it"


def adjacent_only(state: MorrisState, move: MorrisMove) -> bool | None:
    """Whether Sanmill's engine restricts the removal of ``move`` to the men next to one of
    the mover's (``None``: it does not restrict it).  Its ``is_board_full_removal_at_placing
    _phase_end`` (``position.cpp`` at ``77209bd``), meant for the removals of a full board,
    holds whenever its board-full action removes (ours ``first-removes``, ``both-remove``),
    both hands are empty, its phase is still placing and its Black has no mill, without
    asking whether the board is full; it then takes a removal for a "stalemate removal" of a
    man next to the remover's.  On a full board it never holds (its phase is moving by the
    removal), but it holds for the removals of a mill closed by the last man placed (Dooz,
    where a man taken from a hand lets White place last), which our rules (and Sanmill's
    rules table) let take any man."""
    variant = state.variant
    if variant.full_board not in ("first-removes", "both-remove") or move.remove is None:
        return None
    last = move.src is None and not move.removal_only and state.hand[state.turn] == 1
    if not ((last and not state.hand[1 - state.turn]) or (move.removal_only and state.closing)):
        return None
    mover = state.men[state.turn] | (0 if move.removal_only else 1 << move.dst)
    black = mover if state.turn is Color.BLACK else state.men[Color.BLACK]
    if any(black & mask == mask for mask in state.board.mill_masks):
        return None
    return bool(state.board.adjacent[move.remove] & mover)


def always(state: MorrisState) -> bool:
    """Whether the position is compared whatever the chance: a removal alone is due, or Sanmill's
    engine restricts some removal (:func:`adjacent_only`)."""
    if state.due[state.turn]:
        return True
    return any(adjacent_only(state, state.move_of(c)) is not None for c in state.legal_codes())


def compare(engine: UciEngine, state: MorrisState, tokens: Sequence[str], swapped: bool) -> Verdict:
    """Our legal moves and game end at ``state`` (reached by ``tokens``) against Sanmill's."""
    board, theirs, notes = their_moves(engine, tokens)
    expected = seen_by_engine(state, swapped)
    excused: list[str] = []
    if state.closing and state.variant.marking and "X" in board.cells:
        board = replace(board, cells=board.cells.replace("X", "*"))
        excused.append(MARKS_KEPT)
    ours_over, theirs_over = state.outcome() is not None, board.phase == "o"
    # once over, Sanmill's side to move, action and removals due are left as the last move
    # left them
    same = (
        (board.cells, board.hands, board.mills) == (expected.cells, expected.hands, expected.mills)
        if theirs_over
        else (board.cells, board.side, board.action, board.hands, board.mills, board.due)
        == (
            expected.cells,
            expected.side,
            expected.action,
            expected.hands,
            expected.mills,
            expected.due,
        )
    )
    if not same:
        notes.append(f"Sanmill's board differs: {board} where ours is {expected}")
    if ours_over != theirs_over:
        notes.append(
            f"the game is over for {'us' if ours_over else 'Sanmill'} only "
            f"(ours: {state.outcome()}, Sanmill's phase {board.phase!r})"
        )
    ours = {str(m) for m in state.legal_moves}
    restricted = {
        str(m) for m in state.legal_moves if adjacent_only(state, state.move_of(m.code)) is False
    }
    if restricted and ours - theirs == restricted and not theirs - ours:
        ours -= restricted
        excused.append(ADJACENT_ONLY)
    return Verdict(sorted(ours - theirs), sorted(theirs - ours), notes, excused)


def kinds(state: MorrisState) -> list[str]:
    """What the position holds, for the coverage counts: its phase (placing, moving, flying,
    over, and then how it ended) and whether a mill can be closed, a man standing in a mill
    taken, points are marked, a mill record is kept, a removal alone is due (of an enemy man
    or, under mill counts, of one's own), a man taken from a hand (the hands no longer as
    the placements alternate)."""
    c = state.turn
    outcome = state.outcome()
    if outcome is not None:
        found = ["over", f"ended: {outcome.termination.label}"]
    elif state.hand[c]:
        found = ["placing"]
    elif state.rules["flying"] and state.men[c].bit_count() == 3:
        found = ["flying"]
    else:
        found = ["moving"]
    moves = [state.move_of(code) for code in state.legal_codes()]
    removed = {m.remove for m in moves if m.remove is not None}
    if removed:
        found.append("a mill to close")
    opp = state.men[1 - c]
    in_mills = [mask for mask in state.board.mill_masks if opp & mask == mask]
    if any(mask >> r & 1 for mask in in_mills for r in removed):
        found.append("a man in a mill to take")
    if state.marked:
        found.append("marked points")
    if any(state.used):
        found.append("a mill record")
    if state.due[c]:
        found.append("a removal alone" if state.due[c] > 0 else "a removal of one's own")
    first = state.variant.first
    if state.variant.hand_removal and state.hand[1 - first] - state.hand[first] not in (0, 1):
        found.append("a man taken from the hand")
    return found


@dataclass
class Report:
    """A rule set's comparison: positions compared, their kinds, games played, and each
    disagreement (game, ply, position code, verdict)."""

    name: str
    positions: int = 0
    games: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    disagreements: list[tuple[int, int, str, Verdict]] = field(default_factory=list)


#: the random players, in turn a game: every legal move alike; shy of mills while placing
#: (fills the board: full boards, blockades); keen on mills (takes a man whenever it can)
PLAYERS = ("uniform", "shy", "keen")


def choices(state: MorrisState, player: str) -> list[int]:
    """The moves ``player`` (one of :data:`PLAYERS`) picks from at random: all legal ones, or
    those that take no man (``shy``, while placing) or those that take one (``keen``) when
    there are some."""
    legal = state.legal_codes()
    size = state.board.size
    if player == "shy" and state.hand[state.turn]:
        return [code for code in legal if code % (size + 1) == size] or legal
    if player == "keen":
        return [code for code in legal if code % (size + 1) != size] or legal
    return legal


def run(engine_argv: Sequence[str], name: str, positions: int, seed: int, every: int) -> Report:
    """Compare ``positions`` positions of rule set ``name`` (see the module's contract)."""
    played, others = compared_rule_sets()
    if name not in played:
        raise UciError(f"Sanmill does not play {name!r}: {others.get(name, 'no such rule set')}")
    swapped = played[name]
    rng = random.Random(f"{seed}:{name}")
    report = Report(name)
    engine = UciEngine(list(engine_argv), engine_options(name, swapped))
    try:
        while report.positions < positions:
            report.games += 1
            state = ludoteca.new_game(name)
            assert isinstance(state, MorrisState)
            tokens: list[str] = []
            while report.positions < positions:
                outcome = state.outcome()
                if outcome is not None and outcome.termination in OUR_DRAWS:
                    break
                if outcome is not None or always(state) or rng.random() * every < 1:
                    verdict = compare(engine, state, tokens, swapped)
                    report.positions += 1
                    report.kinds.update(kinds(state) + verdict.excused)
                    if not verdict.agrees:
                        report.disagreements.append(
                            (report.games, state.ply, state.position_code(), verdict)
                        )
                if outcome is not None:
                    break
                player = PLAYERS[(report.games - 1) % len(PLAYERS)]
                move = state.move_of(rng.choice(choices(state, player)))
                if adjacent_only(state, move) is False:
                    report.kinds[CUT] += 1  # Sanmill's engine would refuse it
                    break
                tokens += to_uci(move)
                state.push(move)
    finally:
        engine.close()
    return report


def describe(report: Report) -> str:
    """The report's lines: counts, then each disagreement."""
    agree = report.positions - len(report.disagreements)
    order = ["placing", "moving", "flying", "over", "a mill to close", "a man in a mill to take"]
    order += ["marked points", "a mill record"]
    extra: tuple[str, ...] = ("a removal alone", "a removal of one's own")
    extra += ("a man taken from the hand", MARKS_KEPT, ADJACENT_ONLY, CUT)
    order += [k for k in extra if k in report.kinds]
    endings = sorted((k, n) for k, n in report.kinds.items() if k.startswith("ended: "))
    lines = [
        f"{report.name}: {report.positions} positions compared from {report.games} random "
        f"games ({', '.join(f'{k} {report.kinds[k]}' for k in order)}; "
        f"{', '.join(f'{k} {n}' for k, n in endings) or 'no game ended'}): "
        f"{agree} agree, {len(report.disagreements)} disagree"
    ]
    for game, ply, code, verdict in report.disagreements:
        lines.append(
            f"  DISAGREE game {game} ply {ply} {code!r}: ours only {verdict.ours_only}, "
            f"Sanmill's only {verdict.theirs_only}" + "".join(f"; {note}" for note in verdict.notes)
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="Sanmill's UCI engine (its command)")
    parser.add_argument("--positions", type=int, default=1000, help="positions a rule set")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    parser.add_argument(
        "--every", type=int, default=8, help="compare a position with chance 1/EVERY (default 8)"
    )
    parser.add_argument("--rules", nargs="+", help="only these rule sets")
    args = parser.parse_args(argv)
    played, others = compared_rule_sets()
    names = args.rules or list(played)
    argv_engine = args.engine.split()
    print(
        f"Sanmill's engine {args.engine}; {args.positions} positions a rule set, seed "
        f"{args.seed}, a position compared with chance 1/{args.every}"
    )
    for name, why in others.items():
        print(f"not compared: {name}: {why}")
    failed = 0
    for name in names:
        options = engine_options(name, played.get(name, False))
        print(
            f"{name}{' (colours exchanged)' if played.get(name) else ''}: options "
            + " ".join(f"{k}={v}" for k, v in options.items()),
            flush=True,
        )
        report = run(argv_engine, name, args.positions, args.seed, args.every)
        failed += len(report.disagreements)
        print(describe(report), flush=True)
    print(f"disagreements in all: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
