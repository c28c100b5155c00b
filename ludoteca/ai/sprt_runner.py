"""An SPRT match between two players: game pairs on a process pool until the test decides.

A player is an agent spec, or a version of this repository's engine (:mod:`.versions`) played
through the engine protocol.  Pair ``k`` starts from the same opening twice, the new player
White in its first game and Black in its second; the opening is the game's start (set up from
the seed where the game has a random setup) after a few uniformly random plies, both drawn from
``(seed, k)``.  After each finished pair the pentanomial GSPRT of :mod:`.sprt` is updated;
the match stops when it accepts H0 or H1, or after ``max_games``.

The games are written, as they finish, to a file of JSON lines: a header (the match's
settings and players), then one line a game (its pair, which colour the new player had, the
new player's score, the game record...).  A match resumed from that file replays its pairs in
the order they finished (so it reaches the same verdict at the same pair) and plays on.  A
summary (counts, LLR, estimates, verdict) is written beside it after every pair.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core import LudotecaError
from ..games import load
from ..jobs import Pool
from . import sprt
from .agents import make_agent
from .base import RandomAgent
from .tournament import GameJob, play_games

__all__ = ["Match", "Player", "Status", "opening", "run_sprt", "summary_path"]


@dataclass(frozen=True)
class Player:
    """One side of the match: what it was asked as (a ref or an agent spec), the agent spec that
    plays it, and for an engine version its commit and whether its tree was dirty."""

    label: str
    spec: str
    commit: str | None = None
    dirty: bool = False


@dataclass(frozen=True)
class Match:
    """The settings of a match (all but ``max_games`` must agree to resume one)."""

    game: str
    rules: str
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: sprt.Model = "normalized"
    seconds: float | None = None
    seed: int = 1
    plies: int = 2
    max_games: int | None = None

    def bounds(self) -> tuple[float, float]:
        return sprt.llr_bounds(self.alpha, self.beta)


@dataclass
class Status:
    """Where the match stands: pentanomial counts, the new player's wins, draws and losses,
    the LLR and the verdict (``"H0"``, ``"H1"``, ``"max games"`` or None while running)."""

    match: Match
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    llr: float = 0.0
    verdict: str | None = None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add_pair(self, scores: tuple[float, float]) -> None:
        """Count a finished pair (the new player's score in each game) and decide if it can."""
        for score in scores:
            self.wins += score == 1
            self.draws += score == 0.5
            self.losses += score == 0
        self.counts[sprt.pair_kind(sum(scores))] += 1
        m = self.match
        self.llr = sprt.llr(self.counts, m.elo0, m.elo1, m.model)
        self.verdict = sprt.decide(self.llr, m.bounds())
        if self.verdict is None and m.max_games is not None and 2 * self.pairs >= m.max_games:
            self.verdict = "max games"

    def estimate(self) -> sprt.Estimate | None:
        return sprt.estimate(self.counts) if self.pairs else None

    def line(self) -> str:
        """One progress line: pairs, W/D/L, pentanomial counts, LLR and bounds, the estimates."""
        low, high = self.match.bounds()
        text = (
            f"pairs {self.pairs} ({2 * self.pairs} games)  W/D/L {self.wins}/{self.draws}/"
            f"{self.losses}  pentanomial {' '.join(map(str, self.counts))}  "
            f"LLR {self.llr:.2f} [{low:.2f}, {high:.2f}]"
        )
        found = self.estimate()
        if found is not None:
            text += (
                f"  Elo {_elo(found.elo)} [{_elo(found.elo_interval[0])}, "
                f"{_elo(found.elo_interval[1])}]  nElo {_elo(found.nelo)} "
                f"[{_elo(found.nelo_interval[0])}, {_elo(found.nelo_interval[1])}]"
            )
        return text

    def verdict_text(self) -> str:
        m = self.match
        scale = "normalised" if m.model == "normalized" else "logistic"
        if self.verdict == "H1":
            return f"H1 accepted: new is {m.elo1:g} {scale} Elo better (not {m.elo0:g})"
        if self.verdict == "H0":
            return f"H0 accepted: new is not {m.elo1:g} {scale} Elo better ({m.elo0:g} or less)"
        if self.verdict == "max games":
            return f"max games reached ({2 * self.pairs}) without a decision"
        return "no decision yet"

    def summary(self, base: Player, new: Player) -> dict[str, Any]:
        """Everything about the match, for the summary file."""
        found = self.estimate()
        return {
            "match": asdict(self.match),
            "base": asdict(base),
            "new": asdict(new),
            "pairs": self.pairs,
            "games": 2 * self.pairs,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "forfeits": self.forfeits,
            "pentanomial": self.counts,
            "llr": round(self.llr, 4),
            "bounds": [round(b, 4) for b in self.match.bounds()],
            "verdict": self.verdict,
            "verdict_text": self.verdict_text(),
            "estimate": None if found is None else _rounded(asdict(found)),
        }


def _elo(value: float) -> str:
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.1f}"
    return "+0.0" if text == "-0.0" else text


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 4) if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


def opening(match: Match, pair: int) -> tuple[int, tuple[str, ...]]:
    """The setup seed and the opening moves of a pair: ``match.plies`` uniformly random moves
    from the start set up from the seed, drawn again (from the next seed) in the rare case
    that they end the game."""
    game = load(match.game, match.rules)
    for attempt in range(100):
        setup_seed = match.seed * 1_000_003 + pair * 101 + attempt
        state = game.new(seed=setup_seed)
        chooser = RandomAgent(setup_seed)
        moves: list[str] = []
        while len(moves) < match.plies and state.outcome() is None:
            move = chooser.choose(state)
            state.push(move)
            moves.append(str(move))
        if state.outcome() is None:
            return setup_seed, tuple(moves)
    raise LudotecaError(f"{match.plies} random plies end every game tried: ask for fewer")


def summary_path(out: Path) -> Path:
    """Where the summary of the match written to ``out`` goes: ``NAME.summary.json``."""
    return out.with_name(f"{out.stem}.summary.json")


def _seed(match: Match, pair: int, game: int) -> int:
    return match.seed * 100_003 + 2 * pair + game


def _jobs(match: Match, base: Player, new: Player, done: set[tuple[int, int]]) -> Iterator[GameJob]:
    pair = 0
    while match.max_games is None or 2 * pair < match.max_games:
        setup_seed, moves = opening(match, pair)
        if (pair, 0) not in done:
            yield GameJob((new.spec, base.spec), (1, 0), _seed(match, pair, 0), setup_seed, moves)
        if (pair, 1) not in done:
            yield GameJob((base.spec, new.spec), (0, 1), _seed(match, pair, 1), setup_seed, moves)
        pair += 1


def _header(match: Match, base: Player, new: Player) -> dict[str, Any]:
    settings = asdict(match)
    del settings["max_games"]
    return {"sprt": settings, "base": asdict(base), "new": asdict(new)}


class _Tally:
    """The games of pairs not finished yet, and the status of the finished ones."""

    def __init__(self, status: Status) -> None:
        self.status = status
        self.waiting: dict[int, float] = {}  # pair -> the score of its game already in
        self.played: set[tuple[int, int]] = set()

    def add(self, game: dict[str, Any]) -> bool:
        """Note a game (a line of the file); True if it finished its pair."""
        pair = game["pair"]
        self.played.add((pair, game["game"]))
        self.status.forfeits += bool(game["failure"])
        if pair not in self.waiting:
            self.waiting[pair] = game["score"]
            return False
        self.status.add_pair((self.waiting.pop(pair), game["score"]))
        return True


def run_sprt(
    match: Match,
    base: Player,
    new: Player,
    out: Path,
    jobs: int | Pool = 1,
    resume: bool = False,
    progress: Callable[[Status], None] | None = None,
) -> Status:
    """Play the match (on ``jobs``: a :class:`~ludoteca.jobs.Pool`, or that many local
    processes) until the test decides; ``progress(status)``
    after every pair counted (when resuming, once for the pairs replayed from ``out``).

    ``out`` must not exist unless ``resume``; resuming needs the same settings and players
    (``max_games`` may change).  The summary (:func:`summary_path`) is rewritten after every
    pair."""
    if match.plies < 0:
        raise LudotecaError("the opening's random plies cannot be negative")
    if match.max_games is not None and match.max_games < 2:
        raise LudotecaError("a match plays at least one pair: at least 2 games")
    match.bounds()  # check alpha and beta before any game
    rules = load(match.game, match.rules).rules
    for player in (base, new):
        if not player.spec.startswith("engine"):
            make_agent(player.spec, rules, 0)
    header = _header(match, base, new)
    status = Status(match)
    tally = _Tally(status)
    if resume and out.exists():
        lines = out.read_text(encoding="utf-8").splitlines()
        if not lines or json.loads(lines[0]) != header:
            raise LudotecaError(f"{out} holds a match with other settings or players")
        for line in lines[1:]:
            tally.add(json.loads(line))
            if status.verdict is not None:
                break
        if progress and status.pairs:
            progress(status)
    elif out.exists():
        raise LudotecaError(f"{out} exists: resume it (--resume) or write elsewhere")
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    summary = summary_path(out)
    summary.write_text(json.dumps(status.summary(base, new), indent=1) + "\n", encoding="utf-8")
    if status.verdict is not None:
        return status
    games = play_games(
        match.game, match.rules, _jobs(match, base, new, tally.played), jobs, match.seconds
    )
    with out.open("a", encoding="utf-8") as stream, closing(games):
        for job, result in games:
            pair, g = divmod(job.seed - _seed(match, 0, 0), 2)
            game = {
                "pair": pair,
                "game": g,
                "new_white": result.white == 1,
                "score": result.score if result.white == 1 else 1.0 - result.score,
                "plies": result.plies,
                "failure": result.failure,
                "record": result.record_text,
            }
            stream.write(json.dumps(game) + "\n")
            stream.flush()
            if tally.add(game):
                summary.write_text(
                    json.dumps(status.summary(base, new), indent=1) + "\n", encoding="utf-8"
                )
                if progress:
                    progress(status)
                if status.verdict is not None:
                    break
    return status
