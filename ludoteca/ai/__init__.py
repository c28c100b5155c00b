"""Computer players. Every agent answers ``choose(state, limit) -> move`` for any game."""

from .agents import Agent, Limit, RandomAgent, make_agent

__all__ = ["Agent", "Limit", "RandomAgent", "make_agent"]
