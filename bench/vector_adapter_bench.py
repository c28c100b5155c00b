"""The OpenSpiel adapter's speed, side by side with OpenSpiel's C++ Nine Men's Morris.

    python -m bench.vector_adapter_bench [--seconds S] [--rules R ...]

Uniformly random games through ``pyspiel`` as a Python caller plays them (``legal_actions``,
``apply_action``, ``is_terminal``, ``current_player``, and ``returns`` at the end): OpenSpiel's
own ``nine_mens_morris`` (C++) and ``ludoteca_morris`` (and the other rule sets asked for)
through our adapter, whose states are stepped by the compiled kernel.  The games take turns in
slices of a fifth of a CPU second until each has had ``S`` CPU seconds, so that a shared
machine's changing load weighs on all of them alike.  Counted in plies (a mill and its removal
are two of OpenSpiel's actions and one ply; a Felli chain is one action a leap and one ply);
prints plies/s, CPU microseconds a ply, and the ratio to OpenSpiel's, and the spread of
OpenSpiel's rate over its slices.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

from ludoteca.adapters.openspiel import register

SLICE = 0.2


class Runner:
    """Random games of one pyspiel game, played a slice of CPU time at a time."""

    def __init__(self, name: str, params: dict[str, str], seed: int) -> None:
        self.game: Any = pyspiel.load_game(name, params)
        self.rng = random.Random(seed)
        self.plies = 0
        self.seconds = 0.0
        self.rates: list[float] = []

    def play(self, seconds: float) -> None:
        """Play whole games for at least ``seconds`` of CPU time."""
        rng, plies = self.rng, 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                player = state.current_player()
                state.apply_action(rng.choice(state.legal_actions()))
                if state.is_terminal() or state.current_player() != player:
                    plies += 1
            state.returns()
        spent = time.process_time() - start
        self.plies += plies
        self.seconds += spent
        self.rates.append(plies / spent)

    @property
    def rate(self) -> float:
        return self.plies / self.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["morris", "felli", "morelli"])
    args = parser.parse_args()
    openspiel = Runner("nine_mens_morris", {}, args.seed)
    ours = {}
    for rules in args.rules:
        name = register(rules.split(":")[0].split("-")[0])
        ours[rules] = Runner(name, {"rules": rules}, args.seed)
        ours[rules].play(1.0)  # compiled or loaded, untimed
        ours[rules] = Runner(name, {"rules": rules}, args.seed)
    runners = [openspiel, *ours.values()]
    while min(r.seconds for r in runners) < args.seconds:
        for runner in runners:
            runner.play(SLICE)
    base = openspiel.rate
    print(f"openspiel nine_mens_morris (C++):   {base:10,.0f} plies/s  {1e6 / base:6.2f} us a ply")
    for rules, runner in ours.items():
        rate = runner.rate
        print(
            f"ludoteca_{rules:24} {rate:10,.0f} plies/s  {1e6 / rate:6.2f} us a ply  "
            f"{rate / base:5.2f}x openspiel's nine_mens_morris"
        )
    low, high = min(openspiel.rates), max(openspiel.rates)
    print(f"openspiel's rate over its {len(openspiel.rates)} slices: {low:,.0f} to {high:,.0f}")


if __name__ == "__main__":
    main()
