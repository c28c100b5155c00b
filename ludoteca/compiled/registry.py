"""The registry of compiled kernels: each game's kernel module registered under a name.

A game's kernel module (numba code beside the game's rules, ``ludoteca/games/<family>/kernel.py``)
registers itself when it is imported (``register("felli", __name__)``) and builds a
:class:`Kernel` per rule set, named by that registered name.  The compiled search and drivers
(:mod:`.dispatch`) are then specialised for it from the functions the module defines (see
:mod:`.kernel` for the interface).
Nothing here imports numba: a game can name its kernel without loading the compiler.

>>> register("felli", "ludoteca.games.felli.kernel")
>>> registered()["felli"]
'ludoteca.games.felli.kernel'
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..core import State

__all__ = [
    "OPTIONAL",
    "REQUIRED",
    "Kernel",
    "functions",
    "register",
    "registered",
    "tuned_weights",
]

#: the functions every kernel module defines (see :mod:`.kernel`)
REQUIRED = ("generate", "make", "unmake", "status", "evaluate", "tactical")
#: the functions a kernel module may define where it does better than the default (or, for
#: ``planes``, to be played as a batch of environments: :mod:`.batch`; for
#: ``next_actions`` and ``moves_with``, to step them quicker there; for ``features``, to have the
#: evaluation's weights tuned, ``ludoteca.ai.tune``)
OPTIONAL = (
    "captures",
    "can_move",
    "prior",
    "action_path",
    "next_actions",
    "moves_with",
    "planes",
    "features",
)

_MODULES: dict[str, str] = {}


@dataclass(frozen=True)
class Kernel:
    """A game's compiled face for one rule set: the name its kernel module is registered
    under, its parameters ``prm``, how a :class:`State` becomes the kernel's ``st`` array, and
    how many of its first slots describe the position (the rest is the kernel's scratch space).

    ``reduce_after`` tunes the search for the game's branching: at a node two plies or more
    from the horizon, the quiet moves ordered after the first ``reduce_after`` (neither the
    table's move, a tactical move nor a killer) are first searched one ply shallower and
    searched again in full only if they beat the best so far; 0 searches every move in full.

    ``weights``: for a kernel whose ``features`` writes its evaluation's features, each
    feature's name and weight in that order (``evaluate`` is their dot product); empty for a
    kernel whose evaluation cannot be tuned.  ``base_weights``: the same for the weights a
    tuning starts from (the game's hand-set ones), whatever weights the kernel plays with, so
    that tuning again gives the same weights."""

    name: str
    prm: npt.NDArray[np.int64]
    pack: Callable[[State], npt.NDArray[np.int64]]
    fields: int
    reduce_after: int = 0
    weights: tuple[tuple[str, int], ...] = ()
    base_weights: tuple[tuple[str, int], ...] = ()


def tuned_weights(path: Path, rules: str, defaults: Mapping[str, int]) -> dict[str, int]:
    """The evaluation's weights for the rule set ``rules`` (its canonical spec): ``defaults``
    (the game's hand-set ones, in its features' order), each replaced by the one the weights
    file ``path`` (``ludoteca tune``'s: ``{rules: {"weights": {feature: weight}, ...}}``) holds
    for that rule set.  ``ValueError`` if the file names a feature the game does not have."""
    tuned = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    chosen = {**defaults, **tuned.get(rules, {}).get("weights", {})}
    if chosen.keys() != defaults.keys():
        raise ValueError(f"{path}: the weights of {rules} are not {', '.join(defaults)}")
    return {f: int(chosen[f]) for f in defaults}


def register(name: str, module: str) -> None:
    """Register the kernel module ``module`` (a dotted import path) under ``name``; a name
    registered to another module is an error."""
    owner = _MODULES.setdefault(name, module)
    if owner != module:
        raise ValueError(f"kernel name {name!r} is taken by {owner}")


def registered() -> Mapping[str, str]:
    """Every registered kernel name and its module's import path."""
    return dict(_MODULES)


def functions(name: str) -> dict[str, Any]:
    """The compiled functions of the kernel registered as ``name``: every one of
    :data:`REQUIRED` and those of :data:`OPTIONAL` it defines.  Raises ``LookupError`` for an
    unknown name or a module that lacks a required function."""
    if name not in _MODULES:
        raise LookupError(f"no kernel is registered as {name!r}")
    module = importlib.import_module(_MODULES[name])
    missing = [f for f in REQUIRED if not hasattr(module, f)]
    if missing:
        raise LookupError(f"kernel {name!r} ({module.__name__}) lacks {', '.join(missing)}")
    return {f: getattr(module, f) for f in (*REQUIRED, *OPTIONAL) if hasattr(module, f)}
