"""``ludoteca bot``: connect an engine to a Ludoteca server as a bot account (see ``docs/web.md``,
the Bot API).

    ludoteca bot --server URL --token TOKEN --engine "COMMAND" [--uci] [--games N]

Contract: reads the account's event stream; accepts each challenge to it whose game the
engine plays (``games`` of the engine protocol's ``ludo`` answer) while it plays fewer than
``--games`` games (declined otherwise: "variant", "later"); plays each game it starts in a
thread of its own: streams the game and, on its turn, asks the engine (a fresh
:class:`~.ai.engine.EngineAgent` a game) for a move within a share of its clock (a thirtieth of
the time left, 0.1 s to :data:`MOST_SECONDS`; :data:`UNTIMED_SECONDS` without a clock) and
plays it; an engine that fails (a hang, a crash, a move that is not legal) resigns the game,
and the reason is printed on stderr.  Runs until the event stream ends (the server stopped) or
Ctrl-C.

With ``--uci`` the engine speaks UCI as a Morris engine (Sanmill's, in its notation:
:mod:`.uci`, a fresh :class:`~.uci.UciAgent` a game): it plays only the Morris rule sets
:func:`~.uci.engine_rules` maps (those on the 24-point board where White starts), and a
challenge of any other game or rule set is declined with "variant", the reason printed on
stderr.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

from .ai.base import Limit
from .ai.engine import EngineAgent, EngineError, LinePipe
from .core import LudotecaError
from .games import load
from .games.morris.uci import UciAgent, engine_rules

__all__ = ["register"]

#: seconds a move with no clock, and at most with one
UNTIMED_SECONDS = 1.0
MOST_SECONDS = 5.0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``ludoteca bot`` to the command line's subcommands."""
    p = sub.add_parser("bot", help="play as a bot account of a server with an engine")
    p.add_argument("--server", required=True, metavar="URL", help="the server, http://HOST:PORT")
    p.add_argument("--token", required=True, help="the bot account's API token")
    p.add_argument(
        "--engine", required=True, metavar="COMMAND", help="an engine speaking our protocol"
    )
    p.add_argument(
        "--uci",
        action="store_true",
        help="the engine speaks UCI as a Nine Men's Morris engine (Sanmill's notation); "
        "it plays standard Nine Men's Morris only",
    )
    p.add_argument("--games", type=int, default=1, help="games at once, at most (default 1)")
    p.set_defaults(handler=run)


def _lines(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The JSON events of a newline-delimited stream (keep-alive empty lines skipped)."""
    for line in response.iter_lines():
        if line.strip():
            yield json.loads(line)


def engine_games(command: str) -> set[str]:
    """The games an engine plays (its ``ludo`` handshake's ``games`` line)."""
    pipe = LinePipe(shlex.split(command))
    try:
        pipe.send("ludo")
        found: set[str] = set()
        deadline = time.monotonic() + 30.0
        while (line := pipe.receive(deadline)) is not None and line != "ludook":
            if line.startswith("games "):
                found = set(line.split()[1:])
        return found
    finally:
        pipe.stop("quit", 1.0)


def _say(text: str) -> None:
    print(f"ludoteca bot: {text}", file=sys.stderr, flush=True)


class Bot:
    """One bot connection: ``client`` (the server, with the token), the ``engine`` command,
    the games it plays, and at most ``most`` games at once; ``uci``: the engine speaks UCI (a
    Morris engine), and plays only the rule sets :func:`~.uci.engine_rules` maps."""

    def __init__(
        self, client: httpx.Client, engine: str, games: set[str], most: int, uci: bool = False
    ) -> None:
        self.client = client
        self.engine = engine
        self.games = games
        self.most = most
        self.uci = uci
        self.name = client.get("/api/bot/account").raise_for_status().json()["name"]
        self.playing: dict[str, threading.Thread] = {}

    def run(self) -> None:
        """Answer the event stream until it ends."""
        with self.client.stream("GET", "/api/bot/stream/event") as events:
            events.raise_for_status()
            for event in _lines(events):
                if event["type"] == "challenge":
                    self.answer(event["challenge"])
                elif event["type"] == "gameStart":
                    self.start(event["game"]["id"])

    def answer(self, challenge: dict[str, Any]) -> None:
        """Accept a challenge to this bot it can play, decline it otherwise."""
        if challenge["challenged"] != self.name or challenge["status"] != "open":
            return
        self.playing = {g: t for g, t in self.playing.items() if t.is_alive()}
        why = self.cannot_play(challenge["game"], challenge["rules"])
        reason = "variant" if why else "later" if len(self.playing) >= self.most else None
        path = f"/api/challenge/{challenge['id']}"
        if reason is None:
            self.client.post(f"{path}/accept")
        else:
            if why:
                _say(f"declined {challenge['challenger']}'s challenge {challenge['id']}: {why}")
            self.client.post(f"{path}/decline", json={"reason": reason})

    def cannot_play(self, game: str, rules: str | None) -> str | None:
        """Why the engine cannot play ``game`` under ``rules`` (None if it can)."""
        if game not in self.games:
            return f"the engine does not play {game!r}"
        if self.uci:
            try:
                engine_rules(load(game, rules or None).rules)
            except LudotecaError as error:
                return str(error)
        return None

    def start(self, game_id: str) -> None:
        if game_id not in self.playing:
            thread = threading.Thread(target=self.play, args=(game_id,), daemon=True)
            self.playing[game_id] = thread
            thread.start()

    def play(self, game_id: str) -> None:
        """Play one game to its end: its stream read, the engine asked on each turn."""
        agent: EngineAgent | UciAgent | None = None
        try:
            with self.client.stream("GET", f"/api/bot/game/stream/{game_id}") as stream:
                stream.raise_for_status()
                events = _lines(stream)
                full = next(events)
                game = load(full["game"], full["rules"])
                mine = "white" if full["white"]["name"] == self.name else "black"
                agent = (
                    UciAgent(self.engine, game.rules, seconds=UNTIMED_SECONDS)
                    if self.uci
                    else EngineAgent(self.engine, game.rules, startup=30.0)
                )
                state_event = full["state"]
                while state_event["status"] != "over":
                    self.turn(game_id, full, state_event, mine, agent)
                    state_event = next(events)
        except (EngineError, httpx.HTTPError, StopIteration) as error:
            _say(f"resigning game {game_id}: {error or type(error).__name__}")
            self.client.post(f"/api/bot/game/{game_id}/resign")
        finally:
            if agent is not None:
                agent.close()

    def turn(
        self,
        game_id: str,
        full: dict[str, Any],
        now: dict[str, Any],
        mine: str,
        agent: EngineAgent | UciAgent,
    ) -> None:
        """Move if it is this bot's turn in the game as ``now`` says."""
        if now["status"] != "live":
            return
        game = load(full["game"], full["rules"])
        state = game.from_position_code(full["code"]) if full["code"] else game.new(full["setup"])
        for move in now["moves"].split():
            state.push(move)
        if ("white" if state.turn == 0 else "black") != mine:
            return
        left = now["wtime" if mine == "white" else "btime"]
        seconds = UNTIMED_SECONDS if left is None else min(max(left / 30000, 0.1), MOST_SECONDS)
        move = agent.choose(state, Limit(seconds=seconds))
        self.client.post(f"/api/bot/game/{game_id}/move/{move}")


def run(args: argparse.Namespace) -> int:
    """``ludoteca bot``: play until the server's event stream ends."""
    headers = {"Authorization": f"Bearer {args.token}"}
    timeout = httpx.Timeout(30.0, read=None)
    with httpx.Client(base_url=args.server.rstrip("/"), headers=headers, timeout=timeout) as client:
        games = {"morris"} if args.uci else engine_games(args.engine)
        Bot(client, args.engine, games, args.games, uci=args.uci).run()
    return 0
