"""The ``ludoteca`` command line: perft, terminal play, record checks (and more per game).

Every error from bad input is one line on standard error, exit status 2; nothing is changed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from . import __version__, record, svg
from .ai import Agent, Limit, make_agent
from .core import Color, InvalidRecordError, LudotecaError, State
from .extras import require
from .games import family, game_names, load
from .i18n import Text
from .jobs import Pool
from .perft import perft_counts

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except LudotecaError as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"{error.strerror or error}: {error.filename}")
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ludoteca",
        description=(
            "Play and study abstract strategy games: "
            + ", ".join(f"{family(g).title} ({g})" for g in game_names())
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser(
        "serve",
        help="run the web app (lobby, games, spectators)",
        description="Run the web app. Each setting can also come from an environment "
        "variable, LUDOTECA_ and its name in capitals (LUDOTECA_DB, LUDOTECA_WORKERS, "
        "LUDOTECA_REDIS...); a flag given wins.",
    )
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="(default 8000)")
    p.add_argument(
        "--db",
        default=None,
        help="SQLAlchemy URL, e.g. postgresql+asyncpg://user@host/db (default: "
        "SQLite in your data directory)",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="processes for computer players (default 2)"
    )
    p.add_argument(
        "--open", action="store_true", default=None, help="open the lobby in a web browser"
    )
    p.add_argument(
        "--api-docs",
        action="store_true",
        default=None,
        help="serve the OpenAPI pages at /api/docs (off by default)",
    )
    p.add_argument(
        "--origin",
        action="append",
        default=None,
        help="another web origin whose pages may open game websockets "
        "(repeatable; the server's own origin always may)",
    )
    p.add_argument(
        "--tables",
        action="store_true",
        default=None,
        help="build the solved tables not built yet (Felli with Mullahs, the Morris "
        "tables) in the background at low priority; the levels use each table "
        "once it is built, and a build stopped with the server goes on at its next start",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="one of several server processes sharing the --db (PostgreSQL): "
        "changes, chat and game duties go through this Redis "
        "(redis://host:6379/0)",
    )
    p.add_argument(
        "--queue",
        action="store_true",
        default=None,
        help="with --redis: put the computer's moves on the Redis queue for "
        "`ludoteca worker` processes instead of thinking here",
    )
    p.add_argument(
        "--sqlite-sync",
        choices=("normal", "full"),
        default=None,
        help="on a SQLite file: sync to disk at every commit (full: survives a power cut), or "
        "when the write-ahead log is checkpointed (normal, the default: survives a crash)",
    )
    p.add_argument(
        "--chat-words",
        type=Path,
        default=None,
        metavar="FILE",
        help="refuse chat lines holding a word or phrase of FILE (one a line; # comments)",
    )
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=None,
        help="log lines for people, or one JSON object a line (with game ids; default text)",
    )
    p.set_defaults(handler=_serve)

    p = sub.add_parser(
        "worker",
        help="think for every server: take the computer's moves "
        "from the Redis queue (see serve --queue)",
    )
    p.add_argument("--redis", required=True, metavar="URL", help="redis://host:6379/0")
    p.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="moves thought out at once, one process each (default: one a core)",
    )
    p.set_defaults(handler=_worker)

    p = sub.add_parser("perft", help="count move sequences of each length from a position")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    _add_start_options(p)
    p.add_argument("--moves", default="", help='moves to play first, e.g. "d6 f4"')
    p.add_argument(
        "--compiled",
        action="store_true",
        help="count with the game's compiled kernel (fast; no repetition draws)",
    )
    p.set_defaults(handler=_perft)

    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game")
    _add_start_options(p)
    p.add_argument("--white", default="human", help="human or a computer player (random, ...)")
    p.add_argument("--black", default="human", help="human or a computer player (random, ...)")
    p.add_argument("--seed", type=int, default=None, help="seed for computer players")
    p.add_argument("--save", type=Path, default=None, help="write the game record to this file")
    p.set_defaults(handler=_play)

    p = sub.add_parser(
        "solve",
        help="solve a rule set outright, or build its endgame tables (where the game has a solver)",
    )
    p.add_argument("game")
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument(
        "--men",
        type=int,
        default=None,
        help="the most men (pieces) a side in the table (default: the game's choice)",
    )
    p.add_argument(
        "--stats", action="store_true", help="print each material class's win, loss and draw counts"
    )
    _add_ray_option(p)
    p.set_defaults(handler=_solve)

    p = sub.add_parser("tournament", help="a round robin between agents, with Elo ratings")
    p.add_argument("game")
    p.add_argument(
        "--agents",
        nargs="+",
        required=True,
        help="agent specs: level:N, search:depth=D, mcts:sims=N, random, perfect, engine:COMMAND",
    )
    p.add_argument("--games", type=int, default=10, help="games per pair (colours alternate)")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes")
    p.add_argument("--rules", default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=None, help="seconds per move for every agent")
    p.add_argument("--out", type=Path, default=None, help="file for the game records")
    p.add_argument(
        "--store-ratings",
        action="store_true",
        help="save the ratings of level:N agents as the ladder's measured ratings",
    )
    p.add_argument(
        "--adjacent",
        action="store_true",
        help="only neighbouring agents play each other (a ladder's next levels)",
    )
    _add_ray_option(p)
    p.set_defaults(handler=_tournament)

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
    _add_ray_option(p)
    p.set_defaults(handler=_sprt)

    p = sub.add_parser("levels", help="the computer levels of a game and their ratings")
    p.add_argument("game")
    p.add_argument("--rules", default=None)
    p.set_defaults(handler=_levels)

    p = sub.add_parser("analyse", help="best move, evaluation and main line of a position")
    p.add_argument("game")
    _add_start_options(p)
    p.add_argument("--moves", default="", help="moves to play first")
    p.add_argument("--time", type=float, default=1.0, help="seconds to think")
    p.add_argument(
        "--depth", type=int, default=None, help="search this deep instead (deterministic)"
    )
    p.add_argument(
        "--nodes", type=int, default=None, help="search this many nodes instead (deterministic)"
    )
    p.set_defaults(handler=_analyse)

    p = sub.add_parser(
        "puzzles",
        help="generate puzzles verified by a solved table or the search, or check a file",
        description="`ludoteca puzzles GAME --count N` finds N positions with one winning "
        "move and writes them as JSON lines (docs/formats.md); `ludoteca puzzles check "
        "FILE` verifies every puzzle of a file and reports the first bad one.",
    )
    p.add_argument("game", help="a game or rule set to generate for, or `check`")
    p.add_argument("file", nargs="?", type=Path, help="(check) the puzzle file")
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument("--count", type=int, default=None, help="how many puzzles")
    p.add_argument("--seed", type=int, default=0, help="which generating games (default 0)")
    p.add_argument("--out", type=Path, default=None, help="the file (default: standard output)")
    p.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    p.add_argument(
        "--men", type=int, default=None, help="the endgame tables' size, where there is a choice"
    )
    p.add_argument(
        "--depth", type=int, default=2, help="without a table: the search depth (default 2)"
    )
    p.add_argument(
        "--games", type=int, default=None, help="give up after this many generating games"
    )
    p.set_defaults(handler=_puzzles)

    p = sub.add_parser("engine", help="speak the engine protocol on stdin/stdout")
    p.set_defaults(handler=_engine)

    p = sub.add_parser("record", help="check or show game records")
    rsub = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for name, handler, text in (
        ("check", _record_check, "replay every game and report errors"),
        ("show", _record_show, "replay and draw the final position"),
        ("review", _record_review, "mark the mistakes of each game"),
    ):
        rp = rsub.add_parser(name, help=text)
        rp.add_argument("file", type=Path)
        rp.set_defaults(handler=handler)
        if name == "review":
            rp.add_argument("--time", type=float, default=0.5, help="seconds per position")
        if name == "show":
            rp.add_argument(
                "--svg",
                type=Path,
                default=None,
                help="also write the final position as an SVG picture to this file "
                "(NAME-2.svg, NAME-3.svg, ... for further games)",
            )
    from .ai.book_build import register as register_book  # ludoteca book build/show

    register_book(sub)
    from .solve.transfer import register as register_tables  # ludoteca tables export/import

    register_tables(sub)
    from .ai.tune import register as register_tune  # ludoteca tune

    register_tune(sub)
    from .backup import register as register_db  # ludoteca db backup/restore

    register_db(sub)
    from .users import register as register_users  # ludoteca users list/grant/revoke

    register_users(sub)
    from .server.tournaments.command import register as register_tournaments  # (operator's)

    register_tournaments(sub)
    from .bot import register as register_bot  # ludoteca bot

    register_bot(sub)
    return parser


#: the setting each ``serve`` flag gives (see ``ludoteca.server.settings``)
_SERVE_FLAGS = {
    "host": "host",
    "port": "port",
    "db": "db",
    "workers": "workers",
    "open": "open_browser",
    "api_docs": "api_docs",
    "origin": "origins",
    "tables": "tables",
    "redis": "redis",
    "queue": "queue",
    "log_format": "log_format",
    "sqlite_sync": "sqlite_sync",
    "chat_words": "chat_words",
}


def _serve(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from .server import Settings, serve

    given = {
        setting: getattr(args, flag)
        for flag, setting in _SERVE_FLAGS.items()
        if getattr(args, flag) is not None
    }
    try:
        settings = Settings(**given)
    except ValidationError as error:
        flags = {setting: flag.replace("_", "-") for flag, setting in _SERVE_FLAGS.items()}
        problems = []
        for problem in error.errors():
            where = [str(part) for part in problem["loc"]]
            said = str(problem.get("ctx", {}).get("error", problem["msg"]))
            problems.append(f"--{flags.get(where[0], where[0])}: {said}" if where else said)
        return _fail("; ".join(problems))
    serve(settings)
    return 0


def _worker(args: argparse.Namespace) -> int:
    from .server.computer.queue import run_worker

    if args.jobs < 1:
        return _fail("--jobs is at least 1")
    run_worker(args.redis, args.jobs)
    return 0


def _add_ray_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        default=None,
        metavar="ADDRESS",
        help="spread the work over a Ray cluster (default address: auto, the cluster this "
        "machine joined with `ray start`; docs/scaling.md)",
    )


def _pool(args: argparse.Namespace) -> Pool:
    """Where a long job runs: ``--jobs`` local processes, or the ``--ray`` cluster (Ray
    required at once, before any work, though a job found in the cache would not use it)."""
    if getattr(args, "jobs", 1) < 1:
        raise LudotecaError("--jobs is at least 1")
    if args.ray is not None:
        require("ray", extra="cluster")
    return Pool(getattr(args, "jobs", 1), args.ray)


def _add_start_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument("--setup", default=None, help="setup string (games with a random setup)")
    p.add_argument("--position", default=None, help="start from this position code")


def _start(args: argparse.Namespace) -> State:
    game = load(args.game, args.rules)
    if args.position:
        return game.from_position_code(args.position)
    return game.new(setup=args.setup, seed=getattr(args, "seed", None))


def _perft(args: argparse.Namespace) -> int:
    if args.depth < 1:
        return _fail("depth must be at least 1")
    state = _start(args)
    for word in args.moves.split():
        state.push(word)
    if args.compiled:
        from .compiled.drivers import perft_counts as compiled_counts

        if state.game.kernel is None:
            return _fail(f"{state.game.title} has no compiled kernel")
        if args.depth > 64:
            return _fail("a compiled perft goes at most 64 moves deep")
        for depth in range(1, args.depth + 1):  # one walk a depth, so each line comes when done
            print(f"{depth} {compiled_counts(state, depth)[-1]}", flush=True)
        return 0
    for depth, count in perft_counts(state, args.depth):
        print(f"{depth} {count}", flush=True)
    return 0


def _solve(args: argparse.Namespace) -> int:
    from .solve import progress_bar

    game = load(args.game, args.rules)
    rules = game.rules
    solver = game.solver(args.men)
    if solver is None:
        return _fail(
            f"no solver for {rules}: {game.title} under these rules is not solved outright"
        )
    started = time.perf_counter()
    report, bar = progress_bar()
    try:
        table, cached = solver.load(report, _pool(args))
    finally:
        bar.close()
    for line in table.summary():
        print(line)
    if args.stats:
        for line in table.stats():
            print(line)
    how = "read from the cache" if cached else f"solved in {table.seconds:.1f}s and cached"
    print(f"table: {how} ({time.perf_counter() - started:.1f}s)")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from .ai.tournament import ProgressBar, run_tournament

    game = load(args.game, args.rules)
    rules = game.rules
    started = time.perf_counter()
    result = run_tournament(
        game.name,
        args.agents,
        args.games,
        _pool(args),
        str(rules),
        args.seed,
        args.time,
        ProgressBar(),
        adjacent=args.adjacent,
    )
    print(
        f"{game.title} ({rules}), {len(result.results)} games, {time.perf_counter() - started:.0f}s"
    )
    print(result.crosstable())
    failures = [r.failure for r in result.results if r.failure]
    for failure in failures:
        print(f"forfeit: {failure}")
    out = args.out or Path(f"tournament-{game.name}-{time.strftime('%Y%m%d-%H%M%S')}.txt")
    out.write_text("\n".join(r.record_text for r in result.results), encoding="utf-8")
    print(f"records written to {out}")
    if args.store_ratings:
        from .ai.levels import store_ratings

        store_ratings(rules, result.level_ratings())
        print("ratings stored for the levels")
    return 0


def _sprt(args: argparse.Namespace) -> int:
    from .ai.sprt_runner import Match, Player, run_sprt, summary_path
    from .ai.versions import checkout, engine_spec, warm_up

    game = load(args.game, args.rules)
    if args.resume and args.out is None:
        return _fail("--resume needs --out")
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
        match, players[0], players[1], out, _pool(args), args.resume, lambda s: print(s.line())
    )
    print(f"{status.verdict_text()} ({time.perf_counter() - started:.0f}s)")
    if status.forfeits:
        print(f"{status.forfeits} game(s) forfeited: see {out}")
    print(f"games written to {out}, the summary to {summary_path(out)}")
    return 0


def _levels(args: argparse.Namespace) -> int:
    from .ai.levels import levels

    rules = load(args.game, args.rules).rules
    for level in levels(rules):
        rating = (
            "not measured"
            if level.rating is None
            else f"ladder Elo {level.rating[0]:.0f} ±{level.rating[1]:.0f} (level 1 = 1000, "
            f"{level.rating[2]} games between the levels)"
        )
        print(f"level {level.number}, {level.name}: {level.description} [{level.spec}] - {rating}")
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from .ai.analysis import analyse
    from .ai.search import SearchResult

    state = _start(args)
    for word in args.moves.split():
        state.push(word)
    outcome = state.outcome()
    if outcome is not None:
        print(outcome.explain())
        return 0

    def report(result: SearchResult) -> None:
        print(
            f"depth {result.depth} score {result.score} nodes {result.nodes} "
            f"nps {result.nps} time {result.seconds:.3f} pv " + " ".join(str(m) for m in result.pv),
            flush=True,
        )

    limit = Limit(
        seconds=None if args.depth or args.nodes else args.time, depth=args.depth, nodes=args.nodes
    )
    found = analyse(state, limit, on_iteration=report)
    print(f"best move: {found.move}")
    print(
        f"evaluation: {found.text} (White's share {found.white_share:.2f}"
        f"{', exact' if found.exact else ''})"
    )
    print("main line: " + " ".join(str(m) for m in found.pv))
    return 0


def _puzzles(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .solve import progress_bar
    from .study import puzzles

    if args.game == "check":
        if args.file is None:
            return _fail("puzzles check: name the file (ludoteca puzzles check FILE)")
        with tqdm(desc="checking", unit=" puzzles", file=sys.stderr, disable=None) as bar:
            good, bad = puzzles.check(args.file, bar.update)
        if bad is not None:
            return _fail(f"{bad} ({good} puzzle(s) before it verified)")
        if not good:
            return _fail(f"{args.file}: no puzzle found")
        print(f"{args.file}: {good} puzzle(s), every solution unique")
        return 0
    if args.file is not None:
        return _fail("puzzles: only `ludoteca puzzles check FILE` takes a file (see --out)")
    if args.count is None or args.count < 1:
        return _fail("puzzles: say how many with --count N (at least 1)")
    if args.jobs < 1 or args.depth < 1:
        return _fail("puzzles: --jobs and --depth are at least 1")
    game = load(args.game, args.rules)
    solver = game.solver(args.men)
    if solver is not None and not solver.ready():
        report, building = progress_bar("building the table")
        try:
            solver.load(report)
        finally:
            building.close()
    with tqdm(total=args.count, desc=f"puzzles {game.rules}", file=sys.stderr, disable=None) as bar:
        found = puzzles.generate(
            str(game.rules),
            args.count,
            seed=args.seed,
            jobs=args.jobs,
            men=args.men,
            depth=args.depth,
            max_games=args.games,
            progress=bar.update,
        )
    if args.out is None:
        for puzzle in found:
            print(puzzles.dumps(puzzle))
    else:
        puzzles.write(found, args.out)
    if len(found) < args.count:
        print(f"only {len(found)} of {args.count} puzzles found", file=sys.stderr)
        return 1
    return 0


def _engine(args: argparse.Namespace) -> int:
    from .protocol import serve

    return serve()


def _record_check(args: argparse.Namespace) -> int:
    count = 0
    with args.file.open(encoding="utf-8") as stream:
        try:
            for game in record.read_games(stream):
                count += 1
                print(
                    f"game {count}: {game.tags['Game']} ({game.tags['Rules']}), "
                    f"{len(game.state.move_stack)} plies, result {game.result}"
                )
        except InvalidRecordError as error:
            raise InvalidRecordError(
                Text("game %(number)s, %(error)s", number=count + 1, error=error)
            ) from None
    if not count:
        return _fail(f"{args.file}: no game record found")
    print(f"{args.file}: {count} game(s), all valid")
    return 0


def _read_records(path: Path) -> list[record.GameRecord]:
    with path.open(encoding="utf-8") as stream:
        games = list(record.read_games(stream))
    if not games:
        raise LudotecaError(f"{path}: no game record found")
    return games


def _record_show(args: argparse.Namespace) -> int:
    for number, game in enumerate(_read_records(args.file), start=1):
        if args.svg:
            path = args.svg if number == 1 else args.svg.with_stem(f"{args.svg.stem}-{number}")
            path.write_text(svg.render(game.state))
        for key, value in game.tags.items():
            print(f"{key}: {value}")
        print("Moves: " + " ".join(game.moves))
        print(game.state)
        outcome = game.state.outcome()
        print(outcome.explain() if outcome else f"Result: {game.result}")
        print()
    return 0


def _record_review(args: argparse.Namespace) -> int:
    from .ai.analysis import review

    for number, game in enumerate(_read_records(args.file), start=1):
        mistakes = review(game.state, Limit(seconds=args.time))
        print(
            f"game {number}: {game.tags.get('White', '?')} - {game.tags.get('Black', '?')}, "
            f"{len(game.moves)} plies, {len(mistakes)} mistake(s)"
        )
        for ply, move, best, loss in mistakes:
            print(f"  ply {ply}: {move} gave away {loss:.0%}; better {best.move} ({best.text})")
    return 0


HELP = """Type a move in the game's notation, or one of:
  moves   list the legal moves        undo   take back your last move
  board   draw the board again        code   print the position code
  hint    suggest a move (1 s)        help   this text
  quit    stop (the record is kept with --save)"""


def _play(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    state = _start(args)
    players: dict[Color, Agent | None] = {}
    for color, spec in ((Color.WHITE, args.white), (Color.BLACK, args.black)):
        seed = None if args.seed is None else args.seed + int(color)
        players[color] = (
            None if spec.strip().lower() == "human" else make_agent(spec, state.rules, seed)
        )
    print(f"{state.game.title} ({state.rules}). Type 'help' for commands.")
    print(state)
    while (outcome := state.outcome()) is None:
        agent = players[state.turn]
        if agent is not None:
            started = time.perf_counter()
            move = agent.choose(state)
            state.push(move)
            print(
                f"{state.turn.other.title} ({agent.name}) plays {move} "
                f"[{time.perf_counter() - started:.2f}s]"
            )
            print(state)
            continue
        print(f"{state.turn.title} to move> ", end="", flush=True)
        line = stdin.readline()
        if not line:
            print()
            break
        word = line.strip()
        if not word:
            continue
        command = word.lower()
        if command in ("quit", "exit"):
            break
        if command in ("help", "?"):
            print(HELP)
        elif command == "moves":
            print(" ".join(str(m) for m in state.legal_moves))
        elif command == "board":
            print(state)
        elif command == "code":
            print(state.position_code())
        elif command == "undo":
            _undo(state, players)
        elif command == "hint":
            from .ai.analysis import analyse

            found = analyse(state, Limit(seconds=1.0))
            print(f"hint: {found.move} ({found.text}; line: {' '.join(str(m) for m in found.pv)})")
        else:
            try:
                state.push(word)
            except LudotecaError as error:
                print(f"! {error}")
                continue
            print(state)
    if outcome is not None:
        print(outcome.explain())
    if args.save is not None:
        names = {c: "human" if agent is None else agent.name for c, agent in players.items()}
        game = record.from_state(state, white=names[Color.WHITE], black=names[Color.BLACK])
        args.save.write_text(record.dumps(game), encoding="utf-8")
        print(f"record saved to {args.save}")
    return 0


def _undo(state: State, players: dict[Color, Agent | None]) -> None:
    """Take back moves until it is a human's turn again, at least one move."""
    if not state.move_stack:
        print("! nothing to take back")
        return
    state.pop()
    while state.move_stack and players[state.turn] is not None:
        state.pop()
    print(state)


if __name__ == "__main__":
    raise SystemExit(main())
