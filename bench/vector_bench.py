"""Batched environments' speed, side by side with OpenSpiel's C++ Nine Men's Morris.

    python -m bench.vector_bench [--envs N] [--seconds S] [--rules R ...]

OpenSpiel: uniformly random games of ``nine_mens_morris`` through ``pyspiel`` (``legal_actions``,
``apply_action``, as a Python caller plays it), counted in plies (a mill and its removal are
two of its actions and one ply).  Ours: ``ludoteca.vector.VectorEnv`` with N games a rule set,
``env.step(env.random_actions())`` in a loop (every step writes every game's observation
planes and action mask; games restart as they end), on one thread and on two; a step is one
action of every game, counted in plies as OpenSpiel's are: the timed steps are stepped again
from the same seed, untimed, and a game's ply ends where the side to act changes or the game
ends (a mill's removal and each further leap of a Felli capture chain are actions of the same
ply).  Prints plies/s of wall time and of CPU time (all threads; what a shared machine leaves
comparable), the ratios to OpenSpiel's, and steps/s.
"""

from __future__ import annotations

import argparse
import random
import time

from ludoteca.vector import VectorEnv

#: steps taken before the timing (compiling or loading the code)
WARM = 20


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
) -> tuple[float, float, float, int]:
    """Plies a second of wall time and of CPU time (all threads), steps (one action in each
    game) a second of wall time, and the games ended."""
    env = VectorEnv(rules, envs, threads=threads)
    env.reset(seed)
    for _ in range(WARM):  # compiled or loaded from the cache, outside the timing
        env.step(env.random_actions())
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            env.step(env.random_actions())
        steps += 10
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    env.close()
    plies, ended = replay(rules, envs, seed, steps)
    return plies / wall, plies / used, steps * envs / wall, ended


def replay(rules: str, envs: int, seed: int, steps: int) -> tuple[int, int]:
    """The plies and the games ended in ``steps`` steps of :func:`ours` (after its warming
    steps), stepped again from the same seed: a game's ply ends where the side to act changes
    or the game ends."""
    env = VectorEnv(rules, envs)
    env.reset(seed)
    for _ in range(WARM):
        env.step(env.random_actions())
    plies = ended = 0
    for _ in range(steps):
        before = env.to_play
        _, _, _, terminated, truncated = env.step(env.random_actions())
        over = terminated | truncated
        plies += int(((env.to_play != before) | over).sum())
        ended += int(over.sum())
    return plies, ended


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
            rate, per_cpu, steps, ended = ours(rules, args.envs, threads, args.seconds, args.seed)
            print(
                f"ludoteca.vector {rules:10} {args.envs} games, {threads} thread(s): "
                f"{rate:12,.0f} plies/s {rate / wall:6.1f}x openspiel  "
                f"({per_cpu:12,.0f} a CPU second, {per_cpu / cpu:5.1f}x; "
                f"{steps:,.0f} steps/s; {ended:,} games ended)",
                flush=True,
            )
    wall, cpu = openspiel_plies(args.seconds, args.seed + 1)
    print(f"openspiel again: {wall:12,.0f} plies/s ({cpu:,.0f} a CPU second)")


if __name__ == "__main__":
    main()
