"""Ludoteca: rules engines, records and computer opponents for Morelli, Nine Men's Morris and Felli.

>>> import ludoteca
>>> state = ludoteca.new_game("morris")
>>> state.legal_moves.count()
24
"""

from importlib import metadata

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

try:
    #: the installed version (pyproject.toml's, the one place it is written)
    __version__ = metadata.version("ludoteca")
except metadata.PackageNotFoundError:  # a checkout on sys.path, never installed
    __version__ = "0+unknown"

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
    "__version__",
    "family",
    "game_names",
    "load",
    "new_game",
]
