"""Morelli speed: random playouts (pure Python engine and the compiled kernel) and perft.

    python -m bench.morelli_bench [--games N] [--seed S]

Prints random moves/s for both paths (the goal is 100,000 moves/s on one core) and perft(2)
nodes/s from a fixed setup.
"""

from __future__ import annotations

import argparse
import random
import time

import ludoteca
from ludoteca.compiled.drivers import random_plies
from ludoteca.games.morelli import Morelli
from ludoteca.perft import perft

SETUP = "BBBBBBBBBBBBBWWWWWWWWWWWWWWWWWWWWWWWWBBBBBBBBBBB"


def pure(games: int, seed: int) -> tuple[float, int]:
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        state = Morelli.of().new(seed=seed + g)
        while codes := state.legal_codes():
            state.push_code(rng.choice(codes))
        moves += state.ply
    return time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seconds, moves = pure(args.games, args.seed)
    print(
        f"pure python   {moves / seconds:11,.0f} random moves/s "
        f"({args.games / seconds:.1f} games/s, {moves / args.games:.1f} moves/game)"
    )
    start_state = ludoteca.new_game("morelli", seed=args.seed)
    random_plies(start_state, 1, 0)  # compile (or load the cache) outside the timing
    games = args.games * 20
    start = time.perf_counter()
    moves = random_plies(start_state, games, args.seed)
    seconds = time.perf_counter() - start
    print(f"numba kernel  {moves / seconds:11,.0f} random moves/s ({games / seconds:.1f} games/s)")
    state = Morelli.of().new(setup=SETUP)
    start = time.perf_counter()
    nodes = perft(state, 3)
    seconds = time.perf_counter() - start
    print(f"perft 3: {nodes} nodes in {seconds:.2f}s = {nodes / seconds:,.0f} nodes/s")


if __name__ == "__main__":
    main()
