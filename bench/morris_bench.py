"""Nine Men's Morris speed: random games against OpenSpiel's C++ engine, and perft nodes/s.

    python -m bench.morris_bench [--games N] [--seed S]

Both engines play uniformly random games with OpenSpiel's rules (no repetition or move-count
draws, at most 200 plies); a mill move is one ply for us and two actions for OpenSpiel.  Ours
runs twice: the pure Python engine, and the compiled playout kernel (numba) that plays the same
moves (tests/compiled/test_kernel_replay.py replays its games in the engine).  Prints games/s and
plies/s for each and the ratios to OpenSpiel.

Our random player picks uniformly among whole moves (a mill move with k possible removals counts
k times), OpenSpiel's among actions (the move, then the removal), so mills are likelier for us
and our random games are shorter: compare plies/s as well as games/s.
"""

from __future__ import annotations

import argparse
import random
import time

import ludoteca
from ludoteca.compiled.drivers import random_plies
from ludoteca.perft import perft

CAP = 200


def ours(games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = ludoteca.new_game("morris", rules="morris:repetition=0,move_rule=0")
        while state.ply < CAP:
            codes = state.legal_codes()
            if not codes:
                break
            state.push_code(rng.choice(codes))
        plies += state.ply
    return time.perf_counter() - start, plies


def openspiel(games: int, seed: int) -> tuple[float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal() or state.current_player() != player:
                plies += 1
    return time.perf_counter() - start, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perft-depth", type=int, default=5)
    args = parser.parse_args()

    rows = {"ludoteca (pure python)": ours(args.games, args.seed)}
    start_state = ludoteca.new_game("morris:repetition=0,move_rule=0")
    random_plies(start_state, 1, 0, 200)  # compile (or load the cached build) outside the timing
    start = time.perf_counter()
    plies = random_plies(start_state, args.games, args.seed, 200)
    rows["ludoteca (numba kernel)"] = (time.perf_counter() - start, plies)
    theirs = openspiel(args.games, args.seed)
    if theirs is None:
        print("openspiel not installed (pip install open-spiel)")
    else:
        rows["openspiel (C++ core)"] = theirs
    for name, (seconds, plies) in rows.items():
        print(
            f"{name:24} {args.games / seconds:10.1f} games/s {plies / seconds:12,.0f} "
            f"plies/s ({plies / args.games:.1f} plies/game)"
        )
    if theirs is not None:
        base_games = args.games / theirs[0]
        base_plies = theirs[1] / theirs[0]
        for name, (seconds, plies) in rows.items():
            if name.startswith("ludoteca"):
                print(
                    f"ratio {name} / openspiel: {args.games / seconds / base_games:.2f}x "
                    f"games/s, {plies / seconds / base_plies:.2f}x plies/s"
                )
    state = ludoteca.new_game("morris")
    start = time.perf_counter()
    nodes = perft(state, args.perft_depth)
    seconds = time.perf_counter() - start
    print(
        f"perft {args.perft_depth}: {nodes} nodes in {seconds:.2f}s = {nodes / seconds:,.0f} "
        "nodes/s"
    )


if __name__ == "__main__":
    main()
