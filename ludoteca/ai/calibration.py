"""The levels measured against perfect play, and the first level against a careless person.

In a rule set with a solved table (the whole game, or the endgames it covers), each level plays
the perfect player (:class:`.perfect.PerfectAgent`) from seeded openings, once with each colour,
and the table judges each of the level's moves in a position it covers: the move *keeps the
value* when the position after it has the same value for the mover as before
(:meth:`.perfect.PerfectAgent.keeping_codes`: a win stays a win, its distance may grow; a draw stays
a draw; in a lost position every move keeps it).  :func:`against_perfect` tallies the share of
moves kept and the games' results; :func:`against` plays two agents from the usual start (the
first level against :class:`.careless.CarelessAgent`, a stand-in for a person new to the game).
``bench/level_values.py`` runs them and stores the shares, which the levels list shows
(:func:`.levels.value_shares`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..core import Color, RuleSet, State
from ..games import load
from .agents import make_agent
from .base import Agent
from .perfect import PerfectAgent, table_for

__all__ = ["Games", "Judged", "against", "against_perfect", "openings", "wilson"]


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a share of ``hits`` in ``total``:
    ``(low, high)`` between 0 and 1; ``(0, 1)`` when ``total`` is 0."""
    if total == 0:
        return 0.0, 1.0
    share = hits / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    spread /= 1 + z * z / total
    return max(0.0, centre - spread), min(1.0, centre + spread)


@dataclass
class Games:
    """Results of one player's games: wins, draws, losses (a game cut at the rule set's longest
    game, which the draw rules never let happen, counts as a draw)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """The games played."""
        return self.wins + self.draws + self.losses

    def add(self, winner: Color | None, me: Color) -> None:
        """Count a game that ``winner`` won (``None``: drawn) from the side of ``me``."""
        if winner is None:
            self.draws += 1
        elif winner is me:
            self.wins += 1
        else:
            self.losses += 1

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


@dataclass
class Judged:
    """A level's moves judged by the table, and its games against the perfect player.

    ``moves``: its moves in positions the table covers; ``kept``: those that kept the value;
    ``choices``: those in positions where some legal move would not have kept it (a choice
    that mattered: not a lost position, not a forced move), ``kept_choices`` of them kept."""

    spec: str
    moves: int = 0
    kept: int = 0
    choices: int = 0
    kept_choices: int = 0
    games: Games = field(default_factory=Games)

    def judge(self, perfect: PerfectAgent, state: State, code: int) -> None:
        """Count the level's move ``code`` in ``state`` (a position the table covers)."""
        keeping = perfect.keeping_codes(state)
        kept = code in keeping
        self.moves += 1
        self.kept += kept
        if len(keeping) < len(state.legal_codes()):
            self.choices += 1
            self.kept_choices += kept


def openings(
    rules: RuleSet, perfect: PerfectAgent, count: int, seed: int, plies: int = 4
) -> list[State]:
    """``count`` seeded positions to start games from, each covered by ``perfect``'s table and
    not over: from the usual start, random play that takes material whenever it can (a tactical
    move, :meth:`State.tactical_codes`) until the table covers the position (at once where it
    covers the whole game), then ``plies`` random moves that keep the value (so the opening
    has the value of the position it was reached from).  A walk that ends the game or does not
    reach the table within the rule set's longest game is tried again with the next seed."""
    rng = random.Random(seed)
    game = load(rules)
    out: list[State] = []
    while len(out) < count:
        state = game.new(seed=rng.randrange(1 << 30))
        while not perfect.table.covers(state) and state.outcome() is None:
            if state.ply > game.longest_game:
                break
            codes = state.legal_codes()
            state.push_code(rng.choice(state.tactical_codes(codes) or codes))
        for _ in range(plies):
            if state.outcome() is not None or not perfect.table.covers(state):
                break
            state.push_code(rng.choice(perfect.keeping_codes(state)))
        if state.outcome() is None and perfect.table.covers(state):
            out.append(state)
    return out


def _play(
    state: State,
    players: dict[Color, Agent],
    judged: tuple[Color, Judged, PerfectAgent] | None = None,
) -> Color | None:
    """Play ``state`` out (it is changed) between ``players``; the winner, or ``None`` for a
    draw.  With ``judged`` (a colour, its tally, the judge), each move of that colour in a
    position the judge's table covers is judged."""
    cap = state.ply + state.game.longest_game
    while (outcome := state.outcome()) is None and state.ply < cap:
        code = players[state.turn].choose(state).code
        if judged is not None and state.turn is judged[0] and judged[2].table.covers(state):
            judged[1].judge(judged[2], state, code)
        state.push_code(code)
    return None if outcome is None else outcome.winner


def against_perfect(
    rules: RuleSet, spec: str, games: int, seed: int, plies: int = 4, lookahead: int = 2
) -> Judged:
    """``games`` games (rounded up to even) of the agent ``spec`` against the perfect player of
    ``rules`` (its table must be built: ``ValueError`` if not; it counts its traps
    ``lookahead`` plies ahead, :class:`.perfect.PerfectAgent`): half as many seeded openings
    (:func:`openings`, ``plies`` value-keeping random moves into the table), each played once
    with the agent as White and once as Black, and each of the agent's moves in a position the
    table covers judged."""
    table = table_for(rules)
    if table is None:
        raise ValueError(f"{rules} has no built table to judge moves by")
    judge = PerfectAgent(rules, seed, table)
    tally = Judged(spec)
    for i, start in enumerate(openings(rules, judge, (games + 1) // 2, seed, plies)):
        for me in (Color.WHITE, Color.BLACK):
            level = make_agent(spec, rules, seed * 1000 + 2 * i + me)
            perfect = PerfectAgent(rules, seed * 1000 + 2 * i + me + 1, table, lookahead)
            players: dict[Color, Agent] = {me: level, me.other: perfect}
            tally.games.add(_play(start.copy(), players, (me, tally, judge)), me)
    return tally


def against(rules: RuleSet, spec: str, opponent: str, games: int, seed: int) -> Games:
    """``games`` games of the agent ``spec`` against the agent ``opponent`` from the usual start,
    colours alternating (``spec`` White in the first), each agent seeded anew a game; the
    results from ``spec``'s side."""
    game = load(rules)
    results = Games()
    for i in range(games):
        me = Color.WHITE if i % 2 == 0 else Color.BLACK
        players: dict[Color, Agent] = {
            me: make_agent(spec, rules, seed * 1000 + 2 * i),
            me.other: make_agent(opponent, rules, seed * 1000 + 2 * i + 1),
        }
        results.add(_play(game.new(seed=seed + i), players), me)
    return results
