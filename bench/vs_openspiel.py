"""Our top level against OpenSpiel's MCTSBot (``--sims`` simulations, random rollouts, UCT c = 2).

    python -m bench.vs_openspiel [--games N] [--game morris felli morelli] [--agent SPEC]
                                 [--jobs J] [--sims S] [--out FILE [--resume]]

Each game is played N times with each colour, in J worker processes.  Prints our score, the game
count and the mean time per move of both sides, and appends one JSON line per game to FILE;
``--resume`` plays only the games FILE lacks (a run cut short goes on where it stopped).

- Nine Men's Morris is played on OpenSpiel's own C++ game with OpenSpiel's C++ ``MCTSBot`` (the
  same algorithm as the Python one; our moves are translated to its actions).  OpenSpiel's Morris
  stops games after 200 turns: those count as draws.
- Felli and Morelli are played through our OpenSpiel adapter (one action per leap of a Felli
  capture chain, as OpenSpiel sees the game) with OpenSpiel's Python ``MCTSBot``; its random
  rollouts are played by our compiled kernel (:class:`KernelRollouts`): uniformly random moves
  to the end of the game, as ``RandomRolloutEvaluator`` plays them through the adapter, tens of
  times faster.  (In Felli a rollout picks among whole moves, where the adapter's rollout would
  pick among first leaps: the same random player up to how a chain's branches are weighted.)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import ludoteca
from checks.openspiel_morris import nine_mens_morris_points
from ludoteca.adapters.openspiel import LudotecaState, register
from ludoteca.ai import make_agent
from ludoteca.ai.levels import levels
from ludoteca.core import Color
from ludoteca.games.morris.board import NINE

POINTS = NINE.points

#: MCTSBot's simulations per move (``--sims``; passed to the worker processes by environment)
SIMULATIONS = int(os.environ.get("LUDOTECA_MCTS_SIMS", "1000"))
UCT_C = 2.0


class KernelRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Uniformly random playouts to the end of the game, played by the compiled kernel
    (:func:`ludoteca.compiled.drivers.random_game`), as ``RandomRolloutEvaluator`` plays them
    through the adapter, tens of times faster.  A capture chain in progress (some of its leaps
    taken as actions) is first completed by one of its legal continuations at random."""

    def __init__(self, rng: np.random.RandomState) -> None:
        from ludoteca.compiled.drivers import random_game

        self.rng = rng
        self.random_game = random_game

    def evaluate(self, state: LudotecaState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        engine = state.engine
        if state.prefix:
            n = len(state.prefix)
            codes = [c for c in engine.legal_codes() if engine.action_path(c)[:n] == state.prefix]
            engine = engine.copy()
            engine.push_code(codes[self.rng.randint(len(codes))])
            outcome = engine.outcome()
            if outcome is not None:
                return self._returns(outcome.winner)
        _, _, winner = self.random_game(engine, int(self.rng.randint(2**31)))
        return self._returns(winner)

    @staticmethod
    def _returns(winner: Color | None) -> np.ndarray:
        if winner is None:
            return np.zeros(2)
        returns = -np.ones(2)
        returns[int(winner)] = 1.0
        return returns

    def prior(self, state: LudotecaState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def play_morris(spec: str, ours: Color, seed: int) -> dict[str, Any]:
    names = nine_mens_morris_points()
    to_os = {name: i for i, name in enumerate(names)}
    game = pyspiel.load_game("nine_mens_morris")
    bot = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, SIMULATIONS, 1000, False, seed, False
    )
    state = ludoteca.new_game("morris", rules="morris:repetition=0,move_rule=0")
    agent = make_agent(spec, state.rules, seed)
    theirs = game.new_initial_state()
    clock = {"ours": 0.0, "theirs": 0.0, "our_moves": 0, "their_moves": 0}
    while not theirs.is_terminal():
        if int(theirs.current_player()) == int(ours):
            started = time.perf_counter()
            move = agent.choose(state)
            clock["ours"] += time.perf_counter() - started
            clock["our_moves"] += 1
            src, dst, rem = move.src, move.dst, move.remove  # type: ignore[attr-defined]
            actions = [
                to_os[POINTS[dst]]
                if src is None
                else 24 + to_os[POINTS[src]] * 24 + to_os[POINTS[dst]]
            ]
            if rem is not None:
                actions.append(to_os[POINTS[rem]])
            for action in actions:
                theirs.apply_action(action)
            state.push(move)
        else:
            player = theirs.current_player()
            started = time.perf_counter()
            taken = []
            while not theirs.is_terminal() and theirs.current_player() == player:
                action = bot.step(theirs)
                taken.append(action)
                theirs.apply_action(action)
            clock["theirs"] += time.perf_counter() - started
            clock["their_moves"] += 1
            first, *rest = taken
            word = (
                names[first]
                if first < 24
                else (f"{names[(first - 24) // 24]}-{names[(first - 24) % 24]}")
            )
            if rest:
                word += f"x{names[rest[0]]}"
            state.push(word)
    return {
        "score": (theirs.returns()[int(ours)] + 1) / 2,
        "plies": len(state.move_stack),
        "moves": " ".join(str(m) for m in state.moves),
        **clock,
    }


def play_adapted(name: str, spec: str, ours: Color, seed: int) -> dict[str, Any]:
    game = pyspiel.load_game(register(name), {"seed": seed})
    rng = np.random.RandomState(seed)
    evaluator = KernelRollouts(rng)
    bot = mcts.MCTSBot(game, UCT_C, SIMULATIONS, evaluator, random_state=rng)
    state = game.new_initial_state()
    agent = make_agent(spec, state.engine.rules, seed)
    clock = {"ours": 0.0, "theirs": 0.0, "our_moves": 0, "their_moves": 0}
    plies = 0
    while not state.is_terminal():
        plies += 1
        if state.current_player() == int(ours):
            started = time.perf_counter()
            move = agent.choose(state.engine)
            clock["ours"] += time.perf_counter() - started
            clock["our_moves"] += 1
            for action in state.engine.action_path(move.code):
                state.apply_action(action)
        else:
            player = state.current_player()
            started = time.perf_counter()
            while not state.is_terminal() and state.current_player() == player:
                state.apply_action(bot.step(state))
            clock["theirs"] += time.perf_counter() - started
            clock["their_moves"] += 1
    outcome = state.engine.outcome()
    return {
        "score": (state.returns()[int(ours)] + 1) / 2,
        "plies": plies,
        "termination": outcome.termination.label if outcome else "",
        "start": state.engine.start,
        "moves": " ".join(str(m) for m in state.engine.moves),
        **clock,
    }


def play_one(name: str, spec: str, ours: Color, seed: int) -> dict[str, Any]:
    """One game; the result record (score for us, plies, clocks)."""
    result = (
        play_morris(spec, ours, seed) if name == "morris" else play_adapted(name, spec, ours, seed)
    )
    return {
        "game": name,
        "agent": spec,
        "colour": ours.name.lower(),
        "seed": seed,
        "sims": SIMULATIONS,
        **result,
    }


def summarise(name: str, rows: Sequence[dict[str, Any]]) -> str:
    score = sum(r["score"] for r in rows)
    by_colour = {c: [r["score"] for r in rows if r["colour"] == c] for c in ("white", "black")}
    ours = sum(r["ours"] for r in rows) / max(sum(r["our_moves"] for r in rows), 1)
    theirs = sum(r["theirs"] for r in rows) / max(sum(r["their_moves"] for r in rows), 1)
    colours = ", ".join(f"as {c} {sum(s):g}/{len(s)}" for c, s in by_colour.items())
    return (
        f"{name}: ludoteca {rows[0]['agent']} scored {score:g}/{len(rows)} = "
        f"{100 * score / len(rows):.0f}% ({colours}) against MCTSBot({SIMULATIONS} sims); "
        f"time per move: ours {ours:.2f}s, MCTS {theirs:.2f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per colour")
    parser.add_argument("--game", nargs="+", default=["morris", "felli", "morelli"])
    parser.add_argument("--agent", default=None, help="our agent (default: the top level)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--sims", type=int, default=1000, help="MCTSBot simulations a move")
    parser.add_argument("--out", default=None, help="append one JSON line per game here")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="play only the games not yet in --out, and count those in it",
    )
    args = parser.parse_args()
    global SIMULATIONS
    SIMULATIONS = args.sims
    os.environ["LUDOTECA_MCTS_SIMS"] = str(args.sims)
    tasks = []
    for name in args.game:
        spec = args.agent or f"level:{len(levels(ludoteca.load(name).rules))}"
        for g in range(args.games):
            for ours in (Color.WHITE, Color.BLACK):
                tasks.append((name, spec, ours, 1000 + g))
    total = len(tasks)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in args.game}
    if args.resume and args.out and Path(args.out).exists():
        for line in Path(args.out).read_text().splitlines():
            row = json.loads(line)
            if row["game"] in results and row["sims"] == SIMULATIONS:
                results[row["game"]].append(row)
        done = {(r["game"], r["colour"], r["seed"]) for rows in results.values() for r in rows}
        tasks = [t for t in tasks if (t[0], t[2].name.lower(), t[3]) not in done]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play_one, *task) for task in tasks]
        for future in as_completed(futures):
            row = future.result()
            results[row["game"]].append(row)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(row) + "\n")
            played = sum(len(v) for v in results.values())
            print(f"\r{played}/{total} games", end="", flush=True)
    print()
    for name, rows in results.items():
        print(summarise(name, rows))


if __name__ == "__main__":
    main()
