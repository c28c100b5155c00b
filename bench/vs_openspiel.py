"""Our top level against OpenSpiel's MCTSBot (1,000 simulations, random rollouts).

    python bench/vs_openspiel.py [--games N] [--game morris|felli|morelli ...] [--agent SPEC]

Nine Men's Morris is played on OpenSpiel's own C++ game (our moves translated to its actions);
Felli and Morelli through our OpenSpiel adapter.  Each game is played N times with each colour.
Prints our score, the game count, and the mean time per move of both sides.  OpenSpiel's Morris
stops games after 200 turns: those count as draws.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import ludoteca
from ludoteca.adapters.openspiel import nine_mens_morris_points, register
from ludoteca.ai import make_agent
from ludoteca.ai.levels import levels
from ludoteca.core import Color
from ludoteca.games.morris import POINTS


def make_bot(game: object, seed: int) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2.0, 1000, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def play_morris(spec: str, ours: Color, seed: int, clock: dict[str, float]) -> float:
    names = nine_mens_morris_points()
    to_os = {name: i for i, name in enumerate(names)}
    game = pyspiel.load_game("nine_mens_morris")
    bot = make_bot(game, seed)
    state = ludoteca.new_game("morris", rules="morris:repetition=0,move_rule=0")
    agent = make_agent(spec, state.rules, seed)
    theirs = game.new_initial_state()
    while not theirs.is_terminal():
        if int(theirs.current_player()) == int(ours):
            started = time.perf_counter()
            move = agent.choose(state)
            clock["ours"] += time.perf_counter() - started
            clock["our_moves"] += 1
            src, dst, rem = move.src, move.dst, move.remove  # type: ignore[attr-defined]
            actions = [to_os[POINTS[dst]] if src is None
                       else 24 + to_os[POINTS[src]] * 24 + to_os[POINTS[dst]]]
            if rem is not None:
                actions.append(to_os[POINTS[rem]])
            for action in actions:
                theirs.apply_action(action)
            state.push(move)
        else:
            player = theirs.current_player()
            started = time.perf_counter()
            text = []
            while not theirs.is_terminal() and theirs.current_player() == player:
                action = bot.step(theirs)
                text.append(action)
                theirs.apply_action(action)
            clock["theirs"] += time.perf_counter() - started
            clock["their_moves"] += 1
            first, *rest = text
            word = names[first] if first < 24 else (
                f"{names[(first - 24) // 24]}-{names[(first - 24) % 24]}")
            if rest:
                word += f"x{names[rest[0]]}"
            state.push(word)
    returns = theirs.returns()
    return (returns[int(ours)] + 1) / 2


def play_adapted(name: str, spec: str, ours: Color, seed: int, clock: dict[str, float]) -> float:
    game = pyspiel.load_game(register(name), {"seed": seed})
    bot = make_bot(game, seed)
    state = game.new_initial_state()
    agent = make_agent(spec, state.engine.rules, seed)
    while not state.is_terminal():
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
    return (state.returns()[int(ours)] + 1) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per colour")
    parser.add_argument("--game", nargs="+", default=["morris", "felli", "morelli"])
    parser.add_argument("--agent", default=None, help="our agent (default: the top level)")
    args = parser.parse_args()
    random.seed(1)
    for name in args.game:
        rules = ludoteca.find_game(name).rules()
        spec = args.agent or f"level:{len(levels(rules))}"
        clock = {"ours": 0.0, "theirs": 0.0, "our_moves": 0, "their_moves": 0}
        score = 0.0
        games = 0
        for g in range(args.games):
            for ours in (Color.WHITE, Color.BLACK):
                seed = 1000 + g
                if name == "morris":
                    score += play_morris(spec, ours, seed, clock)
                else:
                    score += play_adapted(name, spec, ours, seed, clock)
                games += 1
                print(f"\r{name}: {score:g}/{games}", end="", flush=True)
        print(f"\r{name}: ludoteca {spec} scored {score:g}/{games} = {100 * score / games:.0f}% "
              f"against MCTSBot(1000 sims); time per move: ours "
              f"{clock['ours'] / max(clock['our_moves'], 1):.2f}s, MCTS "
              f"{clock['theirs'] / max(clock['their_moves'], 1):.2f}s")


if __name__ == "__main__":
    main()
