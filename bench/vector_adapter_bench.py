"""The OpenSpiel adapter's speed, side by side with OpenSpiel's C++ Nine Men's Morris.

    python bench/vector_adapter_bench.py [--seconds S] [--rules R ...]

Uniformly random games through ``pyspiel`` as a Python caller plays them (``legal_actions``,
``apply_action``, ``is_terminal``, ``current_player``): OpenSpiel's own ``nine_mens_morris``
(C++), then ``ludoteca_morris`` (and the other rule sets asked for) through our adapter, whose
states are stepped by the compiled kernel.  Counted in plies (a mill and its removal are two
of OpenSpiel's actions and one ply; a Felli chain is one action a leap and one ply); prints
plies/s, CPU seconds a ply, and the ratio to OpenSpiel's, OpenSpiel measured before and after.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ludoteca.adapters.openspiel import register


def plies_per_second(name: str, params: dict[str, str], seconds: float, seed: int) -> float:
    """Random games of the pyspiel game ``name`` for ``seconds`` of CPU time: plies a second."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal() or state.current_player() != player:
                plies += 1
    return plies / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["morris", "felli", "morelli"])
    args = parser.parse_args()
    before = plies_per_second("nine_mens_morris", {}, args.seconds, args.seed)
    print(f"openspiel nine_mens_morris (C++):   {before:10,.0f} plies/s", flush=True)
    rows = []
    for rules in args.rules:
        name = register(rules.split(":")[0].split("-")[0])
        plies_per_second(name, {"rules": rules}, 1.0, 0)  # compiled or loaded, untimed
        rows.append((rules, plies_per_second(name, {"rules": rules}, args.seconds, args.seed)))
    after = plies_per_second("nine_mens_morris", {}, args.seconds, args.seed + 1)
    base = (before + after) / 2
    for rules, rate in rows:
        print(
            f"ludoteca_{rules:24} {rate:10,.0f} plies/s  {1e6 / rate:6.2f} us a ply  "
            f"{rate / base:5.2f}x openspiel's nine_mens_morris"
        )
    print(f"openspiel nine_mens_morris again:   {after:10,.0f} plies/s")


if __name__ == "__main__":
    main()
