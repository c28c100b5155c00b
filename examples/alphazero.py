"""AlphaZero-style self-play on Ludoteca's batched environments, in numpy alone.

Train (resumes from the folder's checkpoint when there is one, with the settings it was started
with; every iteration is saved, so a stopped run loses at most one):

    python examples/alphazero.py train runs/felli --rules felli --iterations 30

Each iteration prints its games, positions, losses and CPU seconds, and the network's policy
(no search) against a random player.  The network alone is written to ``runs/felli/net.npz``
after every iteration, for the agent spec ``net:runs/felli/net.npz``.

Measure a network against a random player, the game's ladder and the solved table:

    python examples/alphazero.py evaluate runs/felli/net.npz --levels 4 --sims 0 64 --perfect

Details and the figures of the committed run: docs/research.md ("Learning by self-play").
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import MISSING, fields
from pathlib import Path

# small matrices: one BLAS thread is faster than several, and leaves the other cores alone
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from ludoteca.core import LudotecaError
from ludoteca.learn.evaluate import match, policy_against_random
from ludoteca.learn.net import PolicyValueNet
from ludoteca.learn.train import CHECKPOINT, Config, Iteration, Trainer

#: the random player's games after each iteration (on the batched environments: fast)
PROBE_GAMES = 200


def train(args: argparse.Namespace) -> None:
    folder: Path = args.folder
    if (folder / CHECKPOINT).exists():
        trainer = Trainer.resume(folder)
        print(f"resuming {folder} after iteration {trainer.iteration}: {trainer.config}")
    elif args.rules is None:
        raise SystemExit(f"{folder} holds no run to resume: a new run needs --rules")
    else:
        given = {f.name: getattr(args, f.name) for f in fields(Config) if f.name != "hidden"}
        config = Config(**given, hidden=tuple(args.hidden))
        trainer = Trainer(folder, config)
        print(f"new run in {folder}: {config} ({trainer.net.size} parameters)")

    def report(done: Iteration) -> None:
        trainer.net.save(folder / "net.npz")
        probe = policy_against_random(trainer.net, PROBE_GAMES, seed=done.number)
        losses = ", ".join(f"{k} {v:.3f}" for k, v in done.losses.items())
        print(
            f"iteration {done.number}: {done.games} games (White +{done.results[0]} "
            f"={done.results[1]} Black +{done.results[2]}), {done.positions} positions, "
            f"{losses}, {done.seconds:.0f} CPU s; policy against random {probe}",
            flush=True,
        )

    trainer.run(args.iterations, report, args.cpu_minutes * 60 if args.cpu_minutes else None)


def evaluate(args: argparse.Namespace) -> None:
    net = PolicyValueNet.load(args.net)
    print(f"{args.net}: {net.rules}, {net.size} parameters")
    print(f"policy against random, {args.games * 4} games: ", end="", flush=True)
    print(policy_against_random(net, args.games * 4, seed=args.seed))
    opponents = ["random", *(f"level:{n}" for n in range(1, args.levels + 1))]
    if args.perfect:
        opponents.append("perfect")
    for sims in args.sims:
        spec = f"net[sims={sims}]:{args.net}"
        for opponent in opponents:
            print(f"{spec} against {opponent}, {args.games} games: ", end="", flush=True)
            print(match(net.rules, spec, opponent, args.games, args.seed, args.workers))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(required=True)
    run = commands.add_parser("train", help="self-play and train, resuming a run")
    run.add_argument("folder", type=Path)
    run.add_argument("--iterations", type=int, default=30)
    run.add_argument(
        "--cpu-minutes", type=float, help="stop once the iterations have taken this much CPU"
    )
    for f in fields(Config):
        flag = f"--{f.name.replace('_', '-')}"
        if f.default is MISSING:
            run.add_argument(flag, help="needed for a new run")
        elif f.name == "hidden":
            run.add_argument(flag, type=int, nargs="+", default=list(f.default))
        else:
            run.add_argument(flag, type=type(f.default), default=f.default)
    run.set_defaults(command=train)
    test = commands.add_parser("evaluate", help="measure a network")
    test.add_argument("net", type=Path)
    test.add_argument("--games", type=int, default=100, help="games against each opponent")
    test.add_argument("--levels", type=int, default=3, help="ladder levels 1..K")
    test.add_argument(
        "--sims", type=int, nargs="+", default=[64], help="simulations an action (0: the policy)"
    )
    test.add_argument("--perfect", action="store_true", help="also against the solved table")
    test.add_argument("--seed", type=int, default=0)
    test.add_argument("--workers", type=int, default=1)
    test.set_defaults(command=evaluate)
    args = parser.parse_args()
    try:
        args.command(args)
    except LudotecaError as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
