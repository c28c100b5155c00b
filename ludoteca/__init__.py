"""Ludoteca: rules engines, records and computer opponents for Morelli, Nine Men's Morris and Felli.

>>> import ludoteca
>>> state = ludoteca.new_game("morris")
>>> state.legal_moves.count()
24
"""

from .core import (
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    LudotecaError,
    Move,
    Outcome,
    RuleSet,
    State,
    Termination,
    UnknownGameError,
)
from .games import family, game_names, load, new_game

__version__ = "0.1.0"

__all__ = [
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "LudotecaError",
    "Move",
    "Outcome",
    "RuleSet",
    "State",
    "Termination",
    "UnknownGameError",
    "family",
    "game_names",
    "load",
    "new_game",
]
