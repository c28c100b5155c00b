"""The compiled kernels checked against the readable engines, for the tests (small slices) and
``bench/kernel_check.py`` (thousands of games a rule set).

- :func:`follow_random_games`: seeded random games played by the engine; at every position the
  kernel's legal moves equal the engine's, so do its tactical moves (captures, removals,
  conversions), whether it has a move at all (where the kernel tells it without generating the
  moves), its ending and its moves' action paths (with its own listing of first actions, where
  it has one), and make, unmake and the incremental Zobrist key agree with packing the
  engine's position afresh.
- :func:`compare_perft`: perft from positions of seeded random games, counted by the engine
  (:func:`ludoteca.perft.perft_counts`) and by the kernel (:func:`ludoteca.compiled.drivers.
  perft_counts`), to the deepest depth whose walk stays within a node budget.

The kernels know no repetition draw (the search tracks repetition itself), so both play each
rule set with repetition switched off.
"""

from __future__ import annotations

import random

import numpy as np

import ludoteca
from ludoteca.compiled import search
from ludoteca.compiled.dispatch import bind
from ludoteca.compiled.drivers import perft_counts
from ludoteca.compiled.kernel import DRAW, LOSS, ONGOING, TURN, UNDO, WIN
from ludoteca.core import State, Termination
from ludoteca.perft import perft_counts as engine_perft_counts

__all__ = ["compare_perft", "follow_random_games", "without_repetition"]


def without_repetition(rules: str, seed: int) -> State:
    """A new game of ``rules`` (from the seed's setup where the game has setups) with the
    repetition draw switched off where the rule set has one."""
    state = ludoteca.new_game(rules, seed=seed)
    if "repetition" not in state.rules.settings:
        return state
    spec = str(state.rules)
    spec += ("," if ":" in spec else ":") + "repetition=0"
    return ludoteca.new_game(spec, seed=seed)


def follow_random_games(
    rules: str, games: int, first_seed: int = 0, start: str | None = None
) -> int:
    """Play ``games`` seeded random games of ``rules`` with the engine (from the position code
    ``start``, else from the start), checking the kernel at every position
    (``AssertionError`` naming the position on the first difference); the number of positions
    checked."""
    rng = random.Random(f"{rules}/{first_seed}")
    out = np.zeros(4096, dtype=np.int64)
    undo = np.zeros((1, UNDO), dtype=np.int64)
    positions = 0
    for game in range(first_seed, first_seed + games):
        state = without_repetition(rules, game)
        if start is not None:
            state = state.game.from_position_code(start)
        kernel = state.game.kernel
        assert kernel is not None, f"{rules} has no kernel"
        fields = kernel.fields
        k = bind(search.__name__, kernel.name)  # the kernel's functions, as the search has them
        st = kernel.pack(state)
        while True:
            positions += 1
            quick = int(k.can_move(st, kernel.prm, out)) if hasattr(k, "can_move") else -1
            n = k.generate(st, kernel.prm, out)
            assert quick in (-1, int(n > 0)), f"can_move differs at {state.position_code()}"
            ended = k.status(st, kernel.prm, n)
            outcome = state.outcome()
            if outcome is None:
                assert ended == ONGOING, f"kernel ended {state.position_code()}"
                legal = state.legal_codes()
                assert sorted(out[:n].tolist()) == sorted(legal), (
                    f"legal moves differ at {state.position_code()}"
                )
                row = out[:n].copy()
                found = k.captures(st, kernel.prm, row, n)
                assert sorted(row[:found].tolist()) == sorted(state.tactical_codes(legal)), (
                    f"tactical moves differ at {state.position_code()}"
                )
                assert (st[:fields] == kernel.pack(state)[:fields]).all()
                _check_actions(k, st, kernel.prm, state, out[:n].tolist())
            else:
                expected = (
                    DRAW
                    if outcome.winner is None
                    else (WIN if outcome.winner is state.turn else LOSS)
                )
                assert ended == expected, f"ending differs at {state.position_code()}: {outcome}"
                assert outcome.termination is not Termination.THREEFOLD_REPETITION
                break
            code = rng.choice(state.legal_codes())
            before = st[:fields].copy()
            k.make(st, kernel.prm, code, undo, 0)
            state.push_code(code)
            assert (st[:fields] == kernel.pack(state)[:fields]).all(), (
                f"make differs after {state.position_code()}"
            )
            assert st[TURN] == int(state.turn), f"the turn differs after {state.position_code()}"
            k.unmake(st, kernel.prm, code, undo, 0)
            assert (st[:fields] == before).all(), f"unmake differs after {state.position_code()}"
            k.make(st, kernel.prm, code, undo, 0)
    return positions


def _check_actions(
    k: object, st: np.ndarray, prm: np.ndarray, state: State, moves: list[int]
) -> None:
    """The kernel's :func:`~ludoteca.compiled.kernel.action_path` of each of ``moves`` (its
    legal moves, in its order) is the engine's; where it lists first actions itself, they are
    those of its moves, once each in their order, and :func:`~ludoteca.compiled.kernel.
    moves_with` gives each one's moves in that order."""
    if not hasattr(k, "action_path"):
        return
    buffer = np.zeros(64, dtype=np.int64)
    paths = {}
    for code in moves:
        length = k.action_path(prm, code, buffer)
        paths[code] = tuple(buffer[:length].tolist())
        assert paths[code] == state.action_path(code), f"action path of {code} differs"
    if not hasattr(k, "next_actions"):
        return
    listed = np.zeros(4096, dtype=np.int64)
    count = k.next_actions(st, prm, listed)
    firsts = list(dict.fromkeys(paths[code][0] for code in moves))
    assert listed[:count].tolist() == firsts, f"first actions differ at {state.position_code()}"
    for action in firsts:
        found = k.moves_with(st, prm, action, listed)
        expected = [code for code in moves if paths[code][0] == action]
        assert listed[:found].tolist() == expected, (
            f"the moves of action {action} differ at {state.position_code()}"
        )


def compare_perft(
    rules: str, positions: int, budget: int, first_seed: int = 0, max_depth: int = 6
) -> list[tuple[str, list[int]]]:
    """Perft from ``positions`` positions still in play (each a seeded random game's, a random
    number of plies before its end or its 200th ply), by engine and kernel alike, to the
    deepest depth (at most ``max_depth``) at which the engine's walk visits at most ``budget``
    inner nodes; ``AssertionError`` on the first difference.  Each position's code and
    counts."""
    rng = random.Random(f"perft/{rules}/{first_seed}")
    checked = []
    for seed in range(first_seed, first_seed + positions):
        state = without_repetition(rules, seed)
        while len(state.move_stack) < 200 and (codes := state.legal_codes()):
            state.push_code(rng.choice(codes))
        for _ in range(1 + rng.randrange(len(state.move_stack))):  # back to a position in play
            state.pop_code()
        depth = 1
        while depth < max_depth and sum(perft_counts(state, depth)) <= budget:
            depth += 1
        compiled = perft_counts(state, depth)
        engine = [n for _, n in engine_perft_counts(state, depth)]
        assert compiled == engine, (
            f"perft differs at {state.position_code()}: {compiled} != {engine}"
        )
        checked.append((state.position_code(), engine))
    return checked
