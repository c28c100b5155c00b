"""Round-robin tournaments between agents, in parallel processes, with Elo ratings.

Each pair of agents plays ``games`` games, alternating colours; in games with a random setup
each setup is played twice with colours swapped.  An agent spec ``engine:COMMAND`` is an
outside engine driven through the engine protocol (one second a move unless a time is given);
``engine[SPEC]:COMMAND`` is one told to play the agent spec SPEC (with SPEC's own limits unless
a time is given).  An engine that hangs, crashes or answers garbage forfeits that game, which is
reported, and the tournament goes on.  :func:`play_games` plays any stream of games on local
processes or a Ray cluster (:mod:`ludoteca.jobs`): the tournaments here, the SPRT of
:mod:`.sprt_runner`.

Ratings are maximum-likelihood Elo (Bradley-Terry, a draw is half a win) with one virtual draw
per pair as a prior, anchored so that the first agent has 1000; error bars are 95% intervals from
the Fisher information.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations

from tqdm import tqdm

from .. import record
from ..core import LudotecaError, RuleSet, Termination
from ..games import load
from ..jobs import Pool, parallel_map
from .agents import make_agent
from .base import Agent, Limit, parse_spec
from .engine import EngineAgent

__all__ = [
    "GameJob",
    "GameResult",
    "ProgressBar",
    "Tournament",
    "elo_ratings",
    "play_game",
    "play_games",
    "run_tournament",
]


@dataclass
class GameResult:
    """One finished game: who played, the score for White, the record and any engine failure."""

    white: int
    black: int
    score: float  # for White: 1, 0.5 or 0
    record_text: str
    plies: int
    failure: str | None = None


#: the seconds an engine version's first move may take beyond its time: it loads its compiled
#: search then (a second of a core, far longer on a busy machine)
STARTUP = 60.0


def _agent(spec: str, rules: RuleSet, seed: int, seconds: float | None) -> Agent:
    if spec.startswith("engine:"):
        return EngineAgent(spec[7:], rules, seconds=seconds or 1.0)
    if spec.startswith("engine["):  # a version of this engine: it loads its search at first
        agent, _, command = spec[7:].partition("]:")
        return EngineAgent(command, rules, seconds=seconds, agent=agent, startup=STARTUP)
    return make_agent(spec, rules, seed)


def play_game(
    game: str,
    rules_spec: str,
    specs: tuple[str, str],
    pair: tuple[int, int],
    seed: int,
    setup_seed: int,
    seconds: float | None = None,
    max_plies: int = 1000,
    opening: Sequence[str] = (),
) -> GameResult:
    """Play one game between two agent specs (White first in ``specs``) from the start (set up
    from ``setup_seed``) after the ``opening`` moves; safe in a worker."""
    bound = load(game, rules_spec)
    rules = bound.rules
    state = bound.new(seed=setup_seed)
    for word in opening:
        state.push(word)
    agents: list[Agent | None] = [None, None]
    failure = None
    result: str | None = None
    termination: Termination | None = None
    limit = Limit(seconds=seconds) if seconds else None
    try:
        for i in (0, 1):
            try:
                agents[i] = _agent(specs[i], rules, seed * 2 + i, seconds)
            except LudotecaError as error:
                failure = f"{specs[i]}: {error}"
                result = "0-1" if i == 0 else "1-0"
                termination = Termination.FORFEIT
                break
        while result is None and state.outcome() is None and state.ply < max_plies:
            side = int(state.turn)
            agent = agents[side]
            assert agent is not None
            try:
                move = agent.choose(state, limit)
                state.push(move)
            except LudotecaError as error:
                failure = f"{specs[side]}: {error}"
                result = "0-1" if side == 0 else "1-0"
                termination = Termination.FORFEIT
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    outcome = state.outcome()
    if outcome is not None:
        result = outcome.result
    elif result is None:  # the ply cap: a draw, recorded as agreed
        result, termination = "1/2-1/2", Termination.DRAW_AGREED
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    rec = record.from_state(
        state,
        white=specs[0],
        black=specs[1],
        result=result,
        termination=termination,
        extra={"Round": f"{seed}"},
        comments={len(state.move_stack): failure} if failure else None,
    )
    return GameResult(pair[0], pair[1], score, record.dumps(rec), state.ply, failure)


@dataclass(frozen=True)
class GameJob:
    """One game to play: the agent specs (White first), their numbers (:attr:`GameResult.white`
    and ``black``), the agents' seed, the setup's seed and the opening moves played first."""

    specs: tuple[str, str]
    pair: tuple[int, int]
    seed: int
    setup_seed: int
    opening: tuple[str, ...] = ()


def _play(game: str, rules_spec: str, seconds: float | None, job: GameJob) -> GameResult:
    return play_game(
        game,
        rules_spec,
        job.specs,
        job.pair,
        job.seed,
        job.setup_seed,
        seconds,
        opening=job.opening,
    )


def play_games(
    game: str,
    rules_spec: str,
    jobs: Iterable[GameJob],
    workers: int | Pool = 1,
    seconds: float | None = None,
) -> Generator[tuple[GameJob, GameResult]]:
    """Play ``jobs`` on a :class:`~ludoteca.jobs.Pool` (an int: that many local processes),
    yielding each job with its result as the games finish.  A job is taken from ``jobs`` only
    when a worker is free, so ``jobs`` may be endless; closing the iterator starts no further
    game (the running ones finish first)."""
    pool = workers if isinstance(workers, Pool) else Pool(workers)
    return parallel_map(partial(_play, game, rules_spec, seconds), jobs, pool)


@dataclass
class Tournament:
    """Results of a round robin: the agents, every game, and the score table."""

    agents: list[str]
    results: list[GameResult] = field(default_factory=list)

    def scores(self) -> list[list[float]]:
        """``scores[i][j]``: points agent i took from agent j."""
        n = len(self.agents)
        table = [[0.0] * n for _ in range(n)]
        for r in self.results:
            table[r.white][r.black] += r.score
            table[r.black][r.white] += 1.0 - r.score
        return table

    def games_between(self) -> list[list[int]]:
        n = len(self.agents)
        table = [[0] * n for _ in range(n)]
        for r in self.results:
            table[r.white][r.black] += 1
            table[r.black][r.white] += 1
        return table

    def level_ratings(self) -> dict[int, tuple[float, float, int]]:
        """The Elo, 95% error and number of games of each ``level:N`` agent, by N (Elo as
        :func:`elo_ratings` anchors it: the first agent at 1000)."""
        scores, games = self.scores(), self.games_between()
        elo = elo_ratings(scores, games)
        return {
            int(parse_spec(spec)[1]["level"]): (elo[i][0], elo[i][1], sum(games[i]))
            for i, spec in enumerate(self.agents)
            if spec.strip().lower().startswith("level:")
        }

    def crosstable(self) -> str:
        """The crosstable, one row per agent, with totals and ratings."""
        scores, games = self.scores(), self.games_between()
        ratings = elo_ratings(scores, games)
        gaps = [*elo_gaps(scores, games), None]
        width = max(len(a) for a in self.agents)
        n = len(self.agents)
        head = f"{'':>3} {'agent':<{width}} " + " ".join(f"{j + 1:>7}" for j in range(n))
        lines = [head + "   score   games     elo   next (gap ±95%)"]
        for i, name in enumerate(self.agents):
            cells = []
            for j in range(n):
                cells.append(f"{'-':>7}" if i == j else f"{scores[i][j]:>4g}/{games[i][j]:<2}")
            total = sum(scores[i])
            played = sum(games[i])
            elo, err = ratings[i]
            gap = gaps[i]
            lines.append(
                f"{i + 1:>3} {name:<{width}} "
                + " ".join(cells)
                + f" {total:>7g} {played:>7} {elo:>7.0f} ±{err:<4.0f}"
                + (f" {gap[0]:>+6.0f} ±{gap[1]:.0f}" if gap else "")
            )
        return "\n".join(lines)


def elo_ratings(scores: list[list[float]], games: list[list[int]]) -> list[tuple[float, float]]:
    """(Elo, 95% error) per agent from a score table; the first agent is anchored at 1000."""
    theta, covariance = _fit(scores, games)
    return [
        (1000 + FACTOR * t, 1.96 * FACTOR * math.sqrt(max(covariance[i][i], 0.0)))
        for i, t in enumerate(theta)
    ]


def elo_gaps(scores: list[list[float]], games: list[list[int]]) -> list[tuple[float, float]]:
    """For each agent but the last, (Elo of the next agent minus its own, 95% error of that
    difference), from the same fit as :func:`elo_ratings`: the difference's own error, not the
    two ratings' errors added (they share the anchor and are correlated)."""
    theta, cov = _fit(scores, games)
    gaps = []
    for i in range(len(theta) - 1):
        variance = cov[i][i] + cov[i + 1][i + 1] - 2 * cov[i][i + 1]
        gaps.append(
            (FACTOR * (theta[i + 1] - theta[i]), 1.96 * FACTOR * math.sqrt(max(variance, 0.0)))
        )
    return gaps


FACTOR = 400 / math.log(10)


def _fit(
    scores: list[list[float]], games: list[list[int]]
) -> tuple[list[float], list[list[float]]]:
    """The Bradley-Terry strengths (natural log scale, the first agent 0; one drawn game of
    prior between agents that met) and their covariance matrix (the first row and column 0)."""
    n = len(scores)
    prior = [[1.0 if games[i][j] and i != j else 0.0 for j in range(n)] for i in range(n)]
    wins = [[scores[i][j] + 0.5 * prior[i][j] for j in range(n)] for i in range(n)]
    played = [[games[i][j] + prior[i][j] for j in range(n)] for i in range(n)]
    gamma = [1.0] * n
    for _ in range(2000):  # minorise-maximise (Hunter 2004)
        new = []
        for i in range(n):
            w = sum(wins[i])
            denominator = sum(played[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(w / denominator if denominator else gamma[i])
        scale = new[0]
        new = [g / scale for g in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True)) < 1e-10
        gamma = new
        if done:
            break
    theta = [math.log(g) for g in gamma]
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and played[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                v = played[i][j] * p * (1 - p)
                info[i][i] += v
                info[i][j] -= v
    covariance = [[0.0] * n for _ in range(n)]
    if n > 1:
        inverse = _invert([row[1:] for row in info[1:]])
        for a in range(n - 1):
            for b in range(n - 1):
                covariance[a + 1][b + 1] = inverse[a][b]
    return theta, covariance


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return [[math.inf] * size for _ in range(size)]
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(size):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[size:] for row in a]


def run_tournament(
    game: str,
    specs: list[str],
    games: int,
    jobs: int | Pool = 1,
    rules: str | None = None,
    seed: int = 1,
    seconds: float | None = None,
    progress: Callable[[int, int, GameResult], None] | None = None,
    adjacent: bool = False,
) -> Tournament:
    """Play the round robin (or, with ``adjacent``, only neighbours in ``specs``: a ladder's
    consecutive levels) on ``jobs`` (a :class:`~ludoteca.jobs.Pool`, or that many local
    processes); ``progress(done, total, result)`` after every game."""
    if len(specs) < 2:
        raise LudotecaError("a tournament needs at least two agents")
    if games < 1:
        raise LudotecaError("each pair must play at least one game")
    ruleset = load(game, rules).rules
    for spec in specs:  # reject a bad spec before starting any process
        if not spec.startswith("engine"):
            make_agent(spec, ruleset, 0)
    jobs_list: list[GameJob] = []
    pairs = (
        [(i, i + 1) for i in range(len(specs) - 1)]
        if adjacent
        else list(combinations(range(len(specs)), 2))
    )
    for i, j in pairs:
        for g in range(games):
            white, black = (i, j) if g % 2 == 0 else (j, i)
            round_seed = seed * 100_003 + len(jobs_list)
            setup_seed = seed * 1_000_003 + (i * len(specs) + j) * 10_007 + g // 2
            jobs_list.append(
                GameJob((specs[white], specs[black]), (white, black), round_seed, setup_seed)
            )
    tournament = Tournament(list(specs))
    total = len(jobs_list)
    played: list[tuple[int, GameResult]] = []
    for job, result in play_games(ruleset.game, str(ruleset), jobs_list, jobs, seconds):
        played.append((job.seed, result))
        if progress:
            progress(len(played), total, result)
    tournament.results = [result for _, result in sorted(played, key=lambda p: p[0])]
    return tournament


class ProgressBar:
    """A tqdm progress bar of games on standard error, with forfeits written above it; call it
    as the ``progress`` of :func:`run_tournament`."""

    def __init__(self) -> None:
        self._bar: tqdm | None = None

    def __call__(self, done: int, total: int, result: GameResult) -> None:
        if self._bar is None:
            self._bar = tqdm(total=total, unit="game", file=sys.stderr, disable=None)
        if result.failure:
            self._bar.write(f"! game forfeited: {result.failure}", file=sys.stderr)
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()
