"""Specialising code written once against the kernel interface for each registered kernel.

The search, the drivers and the retrograde solver are plain Python functions marked
:func:`specialise` and written against the names of :mod:`.kernel` (``generate``, ``make``,
...).  :func:`bind` copies every marked function of a module with those names bound to one
registered kernel's functions (:mod:`.registry`) and compiles the copies with numba, so each
game gets its own compiled search, with its kernel inlined, and no code branches on the game.

numba keeps compiled code beside each module and checks only that function's own source for
changes, so code compiled from a kernel that has changed since would be reused.  The copies are
therefore named by a *fingerprint* of the sources they are compiled from (:func:`fingerprint`):
a changed kernel gets new cache files, and :func:`prune` (part of warming,
:func:`ludoteca.compiled.warm`) deletes the files of earlier fingerprints.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import types
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from numba import njit

from . import registry
from .kernel import IntArray, tactical

__all__ = ["bind", "fingerprint", "prune", "specialise"]

F = TypeVar("F", bound=Callable[..., Any])
_HERE = Path(__file__).parent


def specialise(**options: Any) -> Callable[[F], F]:
    """Mark a function written against the kernel interface for :func:`bind`, with the
    options numba compiles its copies with (``cache`` defaults to true)."""

    def mark(func: F) -> F:
        func.__specialise__ = {"cache": True, **options}  # type: ignore[attr-defined]
        return func

    return mark


@specialise()
def captures(st: IntArray, prm: IntArray, row: IntArray, n: int) -> int:
    """The default :func:`.kernel.captures`: one :func:`.kernel.tactical` test a move."""
    found = 0
    for j in range(n):
        move = row[j]
        if tactical(st, prm, move):
            row[j] = row[found]
            row[found] = move
            found += 1
    return found


@njit(cache=True, inline="always")
def can_move(st: IntArray, prm: IntArray, out: IntArray) -> bool:
    """The default :func:`.kernel.can_move`, never called: ``QUICK_MOVE`` is false."""
    return False


@njit(cache=True, inline="always")
def prior(st: IntArray, prm: IntArray, move: int) -> int:
    """The default :func:`.kernel.prior`: no quiet move looks better than another."""
    return 0


@cache
def bind(module_name: str, kernel: str, **named: str) -> types.SimpleNamespace:
    """The marked functions of the module ``module_name`` compiled for the registered
    ``kernel``, and the kernel's own functions, as attributes of a namespace (built once per
    process).  ``named``: more compiled functions the marked ones call by a global name, each
    given as ``"module:function"`` (a solver's functions of one game's table), bound like the
    kernel's, so that the copies take no function arguments and numba can cache them."""
    module = importlib.import_module(module_name)
    found = registry.functions(kernel)
    found.update({name: _named(target) for name, target in named.items()})
    namespace = dict(vars(module))
    namespace.update(found)
    namespace["QUICK_MOVE"] = "can_move" in found
    namespace["can_move"] = found.get("can_move", can_move)
    namespace["prior"] = found.get("prior", prior)
    templates = [(n, f) for n, f in vars(module).items() if hasattr(f, "__specialise__")]
    if "captures" not in found:
        templates.append(("captures", captures))
    digest = fingerprint(kernel, module_name, tuple(sorted(named.items())))
    bound: dict[str, Any] = {}
    for name, func in templates:
        copy = types.FunctionType(func.__code__, namespace, name, func.__defaults__)
        copy.__qualname__ = f"{func.__qualname__}_{kernel}_{digest}"
        copy.__module__ = func.__module__
        copy.__doc__ = func.__doc__
        namespace[name] = bound[name] = njit(**func.__specialise__)(copy)
    return types.SimpleNamespace(**found, **bound)


@cache
def fingerprint(kernel: str, module_name: str, named: tuple[tuple[str, str], ...] = ()) -> str:
    """A digest of the sources compiled into the code of the module ``module_name``
    specialised for ``kernel`` (and the ``named`` functions of :func:`bind`): that module, the
    kernel's module, the modules of the named functions, the Ludoteca modules these import, the
    interface and this module."""
    homes = {registry.registered()[kernel]} | {t.partition(":")[0] for _, t in named}
    sources = {_file(module_name), _HERE / "kernel.py", Path(__file__)}
    for home in homes:
        sources |= {_file(home)} | _imported(home)
    digest = hashlib.sha256(repr(named).encode() if named else b"")
    for source in sorted(sources):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _named(target: str) -> Any:
    """The function ``"module:function"``."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _file(module_name: str) -> Path:
    return Path(importlib.import_module(module_name).__file__ or "")


def _imported(module_name: str) -> set[Path]:
    """The source files of the Ludoteca modules the module ``module_name`` imports directly."""
    path = _file(module_name)
    package = module_name if path.name == "__init__.py" else module_name.rpartition(".")[0]
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            target = ".".join(filter(None, (base, node.module or "")))
            if target.split(".")[0] == "ludoteca":
                found.add(_file(target))
    return found


def prune(kernel: str, modules: Iterable[str]) -> int:
    """Delete this package's cache files of code specialised for ``kernel`` other than those
    of the current fingerprints of ``modules`` (see :func:`fingerprint`); return how many."""
    keep = {fingerprint(kernel, m) for m in modules}
    deleted = 0
    for cached in (_HERE / "__pycache__").glob(f"*_{kernel}_*.nb[ic]"):
        if cached.name.split(f"_{kernel}_", 1)[1].split("-", 1)[0] not in keep:
            cached.unlink(missing_ok=True)
            deleted += 1
    return deleted
