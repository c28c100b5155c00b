"""The agent a spec names: each kind of spec resolved, through :data:`KINDS`, to the factory of
the module that holds that agent, imported only when a spec of its kind is first made.

Agent specs, used by the command line, the tournament runner and the engine protocol (the spec
language: :func:`.base.parse_spec`):

- ``random``: a uniformly random legal move;
- ``careless``: random play that takes a win at once and gives nothing away one ply ahead
  (:mod:`.careless`: a stand-in for a person new to the game);
- ``search[:depth=D,time=T,nodes=N,noise=X,quiesce=Q,python=1,tables=1,book=1,keep=1,reduce=R]``:
  alpha-beta
  (:mod:`.search`; compiled where the game has a kernel, the readable Python search with
  ``python=1``; ``quiesce``: the most plies of tactical moves searched past the horizon, 4 by
  default; with ``tables=1`` it plays perfectly wherever a built table covers the position;
  with ``book=1`` it plays from the rule set's opening book, :mod:`.book`, while it has the
  position; with ``keep=1`` each move's search starts from what the search before found, with
  ``keep=0`` from nothing; by default a search for a time keeps, one to a depth or a node
  budget does not; ``reduce=R``: quiet moves after the first R searched a ply shallower first,
  ``reduce=0`` every move in full, by default as the game's kernel declares: Morelli reduces
  after the third, the others do not);
- ``mcts[:sims=N,time=T]``: Monte Carlo tree search (:mod:`.mcts`);
- ``perfect``: the solved-table player (rule sets whose game declares a solver);
- ``level:N``: level N of the game's ladder (:mod:`.levels`);
- ``net:PATH``, ``net[sims=N]:PATH``: a trained policy-value network's tree search
  (:mod:`ludoteca.learn.agent`; ``sims=0``: its policy alone).
"""

from __future__ import annotations

import importlib
import re

from ..core import LudotecaError, RuleSet
from .base import Agent, AgentFactory

__all__ = ["KINDS", "make_agent"]

#: each kind of agent spec and its factory (an :data:`.base.AgentFactory`), as
#: ``"module:function"``
KINDS = {
    "random": "ludoteca.ai.base:random_agent",
    "careless": "ludoteca.ai.careless:careless_agent",
    "search": "ludoteca.ai.search:search_agent",
    "mcts": "ludoteca.ai.mcts:mcts_agent",
    "perfect": "ludoteca.ai.perfect:perfect_agent",
    "level": "ludoteca.ai.levels:level_agent",
    "net": "ludoteca.learn.agent:net_agent",
}

#: the kinds as the refusal of an unknown player lists them (``human`` is the command line's)
_KNOWN = "human, random, careless, search, mcts, perfect, level:N, net:PATH"


def make_agent(spec: str, rules: RuleSet, seed: int | None = None) -> Agent:
    """The agent a spec names, for a rule set, seeded (see the module docstring);
    ``LudotecaError`` for an unknown kind or a spec its factory refuses."""
    spec = spec.strip()
    kind = re.split(r"[:\[]", spec, maxsplit=1)[0].lower()
    if kind not in KINDS:
        raise LudotecaError(f"unknown player {spec!r} (known: {_KNOWN})")
    module, _, name = KINDS[kind].partition(":")
    factory: AgentFactory = getattr(importlib.import_module(module), name)
    return factory(spec, rules, seed)
