"""``ludoteca sprt GAME (--base REF | --base-agent SPEC) (--new REF | --new-agent SPEC)
[--agent SPEC] [--base-plays SPEC] [--new-plays SPEC] [--rules R] [--elo0 E] [--elo1 E]
[--model M] [--alpha A] [--beta B] [--time S] [--jobs N] [--max-games N] [--seed N]
[--plies N] [--out FILE] [--resume] [--ray [ADDRESS]]``: a sequential probability ratio test
between two versions of the engine.

Contract: a version is a git ref of this checkout (or WORK, the working tree), checked out,
warmed up and played through the engine protocol; ``--base-agent``/``--new-agent`` play an
agent spec instead.  Plays game pairs (the same opening of ``--plies`` random plies, colours
swapped) over ``--jobs`` processes or the ``--ray`` cluster, a status line after each, until
the pentanomial GSPRT accepts H0 or H1 (or ``--max-games``), then prints the verdict.  The
games go to ``--out`` (JSON lines, default ``sprt-GAME-DATE-TIME.jsonl``) and a summary beside
it; ``--resume`` replays ``--out`` and goes on (without ``--out``: an error, exit status 2).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..games import load
from .options import add_ray_option, fail, pool

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca sprt`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "sprt",
        help="a sequential probability ratio test between two versions of the engine",
        description="Play game pairs (the same opening, colours swapped) between two versions "
        "of the engine until the pentanomial GSPRT decides whether the new one is --elo1 "
        "better (H1) or not (H0). A version is a git ref of this checkout or WORK (the "
        "working tree), played through the engine protocol; --base-agent/--new-agent play "
        "agent specs instead.",
    )
    p.add_argument("game")
    for side in ("base", "new"):
        group = p.add_mutually_exclusive_group(required=True)
        group.add_argument(f"--{side}", metavar="REF", help="a commit, branch or tag, or WORK")
        group.add_argument(f"--{side}-agent", metavar="SPEC", help="an agent spec instead")
    p.add_argument(
        "--agent",
        default="search",
        help="the agent spec each engine version plays (default search; without --time it "
        "plays with the spec's own limits, e.g. search:depth=4)",
    )
    for side in ("base", "new"):
        p.add_argument(
            f"--{side}-plays",
            metavar="SPEC",
            default=None,
            help=f"the agent spec the {side} version plays instead of --agent (a version's "
            "top level, say, with options an older version lacks)",
        )
    p.add_argument("--rules", default=None)
    p.add_argument("--elo0", type=float, default=0.0, help="H0: this Elo better (default 0)")
    p.add_argument("--elo1", type=float, default=5.0, help="H1: this Elo better (default 5)")
    p.add_argument(
        "--model",
        choices=("normalized", "logistic"),
        default="normalized",
        help="the Elo of --elo0/--elo1 (default normalized)",
    )
    p.add_argument("--alpha", type=float, default=0.05, help="false H1 rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="false H0 rate (default 0.05)")
    p.add_argument("--time", type=float, default=None, help="seconds per move for both")
    p.add_argument("--jobs", type=int, default=1, help="parallel games")
    p.add_argument(
        "--max-games", type=int, default=None, help="stop undecided after N games (whole pairs)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the openings and agents")
    p.add_argument("--plies", type=int, default=2, help="random plies of each opening")
    p.add_argument("--out", type=Path, default=None, help="file for the games (JSON lines)")
    p.add_argument("--resume", action="store_true", help="replay --out and go on")
    add_ray_option(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the test and report its verdict."""
    from ..ai.sprt_runner import Match, Player, run_sprt, summary_path
    from ..ai.versions import checkout, engine_spec, warm_up

    game = load(args.game, args.rules)
    if args.resume and args.out is None:
        return fail("--resume needs --out")
    players = []
    for side in ("base", "new"):
        spec = getattr(args, f"{side}_agent")
        if spec is not None:
            players.append(Player(spec, spec))
            continue
        version = checkout(getattr(args, side))
        print(
            f"{side}: {version.ref} at {version.commit[:10]}{' (dirty)' if version.dirty else ''}"
        )
        plays = getattr(args, f"{side}_plays") or args.agent
        warm_up(version, game.rules, plays)
        players.append(
            Player(version.ref, engine_spec(version, plays), version.commit, version.dirty)
        )
    match = Match(
        game.name,
        str(game.rules),
        args.elo0,
        args.elo1,
        args.alpha,
        args.beta,
        args.model,
        args.time,
        args.seed,
        args.plies,
        args.max_games,
    )
    out = args.out or Path(f"sprt-{game.name}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    started = time.perf_counter()
    status = run_sprt(
        match, players[0], players[1], out, pool(args), args.resume, lambda s: print(s.line())
    )
    print(f"{status.verdict_text()} ({time.perf_counter() - started:.0f}s)")
    if status.forfeits:
        print(f"{status.forfeits} game(s) forfeited: see {out}")
    print(f"games written to {out}, the summary to {summary_path(out)}")
    return 0
