"""The optional dependencies, installed with an *extra* of the package: ``ludoteca[cluster]``
(Ray, for ``--ray``) and ``ludoteca[research]`` (OpenSpiel, PettingZoo, gymnasium, for the
adapters).  The core install has neither; what needs one asks for it with :func:`require`."""

from __future__ import annotations

import importlib
from types import ModuleType

from .core import LudotecaError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(LudotecaError):
    """An optional dependency is not installed; the message, one line, names the extra that
    installs it (the command line prints it and exits with status 2)."""


def require(module: str, *, extra: str) -> ModuleType:
    """The module ``module``, imported; :class:`MissingExtraError` naming ``ludoteca[extra]``
    when it cannot be imported."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"this needs {module}, which is not installed: pip install 'ludoteca[{extra}]'"
        ) from None
