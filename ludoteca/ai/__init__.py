"""Computer players. Every agent answers ``choose(state, limit) -> move`` for any game."""

from .agents import make_agent
from .base import Agent, Limit, RandomAgent

__all__ = ["Agent", "Limit", "RandomAgent", "make_agent"]
