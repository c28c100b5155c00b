"""Batched environments' speed, side by side with OpenSpiel's C++ Nine Men's Morris.

    python bench/vector_bench.py [--envs N] [--seconds S] [--rules R ...]

OpenSpiel: uniformly random games of ``nine_mens_morris`` through ``pyspiel`` (``legal_actions``,
``apply_action``, as a Python caller plays it), counted in plies (a mill and its removal are
two of its actions and one ply).  Ours: ``ludoteca.vector.VectorEnv`` with N games a rule set,
``env.step(env.random_actions())`` in a loop (every step writes every game's observation
planes and action mask; games restart as they end), on one thread and on two; a step is one
action of every game (one ply, except each further leap of a Felli capture chain).  Prints
steps/s of wall time and of CPU time (all threads; what a shared machine leaves comparable)
and the ratios to OpenSpiel's plies/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ludoteca.vector import VectorEnv


def openspiel_plies(seconds: float, seed: int) -> tuple[float, float]:
    """Plies a second of wall time and of CPU time."""
    import pyspiel

    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(seed)
    plies = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal() or state.current_player() != player:
                plies += 1
    return plies / (time.perf_counter() - start), plies / (time.process_time() - cpu)


def ours(
    rules: str, envs: int, threads: int, seconds: float, seed: int
) -> tuple[float, float, int]:
    """Steps (one action in each game) a second of wall time and of CPU time (all threads),
    and the games ended."""
    env = VectorEnv(rules, envs, threads=threads)
    env.reset(seed)
    for _ in range(20):  # compiled or loaded from the cache, outside the timing
        env.step(env.random_actions())
    steps = ended = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            _, _, _, terminated, truncated = env.step(env.random_actions())
            ended += int(terminated.sum() + truncated.sum())
        steps += 10 * envs
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    env.close()
    return steps / wall, steps / used, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["morris", "morelli", "felli"])
    args = parser.parse_args()
    wall, cpu = openspiel_plies(args.seconds, args.seed)
    print(
        f"openspiel nine_mens_morris (C++ through pyspiel): {wall:12,.0f} plies/s "
        f"({cpu:,.0f} a CPU second)"
    )
    for rules in args.rules:
        for threads in (1, 2):
            rate, per_cpu, ended = ours(rules, args.envs, threads, args.seconds, args.seed)
            print(
                f"ludoteca.vector {rules:10} {args.envs} games, {threads} thread(s): "
                f"{rate:12,.0f} steps/s {rate / wall:6.1f}x openspiel  "
                f"({per_cpu:12,.0f} a CPU second, {per_cpu / cpu:5.1f}x; {ended:,} games ended)",
                flush=True,
            )
    wall, cpu = openspiel_plies(args.seconds, args.seed + 1)
    print(f"openspiel again: {wall:12,.0f} plies/s ({cpu:,.0f} a CPU second)")


if __name__ == "__main__":
    main()
