"""Versions of this repository's engine, played against each other through the engine protocol.

A version is a git ref of the checkout this package runs from (a commit, branch or tag), or
:data:`WORK` for the working tree as it is.  A ref is checked out once, as a detached git
worktree (``git worktree add --detach``) in ``<cache>/worktrees/<commit>`` (the cache of
:func:`ludoteca.solve.cache_dir`), and reused while it is there.  Its engine is ``<this
python> -P -m ludoteca engine`` with the version's directory first on ``PYTHONPATH`` (``-P``
keeps the current directory off the path, so the version's package is the one imported).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..core import LudotecaError, RuleSet

__all__ = ["WORK", "Version", "checkout", "engine_spec", "remove", "repository", "warm_up"]

#: the ref that names the working tree itself
WORK = "WORK"


@dataclass(frozen=True)
class Version:
    """A checked-out version: the ref as given, its commit (for :data:`WORK`, the commit the
    working tree is on), the directory holding its ``ludoteca`` package, and whether that
    directory differs from the commit (only the working tree can)."""

    ref: str
    commit: str
    path: Path
    dirty: bool = False


def _git(*args: str, cwd: Path) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise LudotecaError("git is not installed: versions need it") from None
    if done.returncode:
        raise LudotecaError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def repository() -> Path:
    """The top level of the git checkout this package is imported from."""
    here = Path(__file__).resolve().parent
    try:
        return Path(_git("rev-parse", "--show-toplevel", cwd=here))
    except LudotecaError:
        raise LudotecaError(
            f"{here} is not in a git checkout: git refs name versions of a checkout"
        ) from None


def checkout(ref: str, cache: Path | None = None, root: Path | None = None) -> Version:
    """The version ``ref`` names in the git checkout ``root`` (default :func:`repository`),
    checked out as a detached worktree under ``cache`` (default ``<cache_dir()>/worktrees``)
    unless it is there already; :data:`WORK` is the working tree."""
    root = root or repository()
    if ref == WORK:
        commit = _git("rev-parse", "HEAD", cwd=root)
        return Version(ref, commit, root, dirty=bool(_git("status", "--porcelain", cwd=root)))
    try:
        commit = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", cwd=root)
    except LudotecaError:
        raise LudotecaError(f"{ref!r} is not a commit, branch or tag of {root}") from None
    if cache is None:
        from ..solve import cache_dir

        cache = cache_dir() / "worktrees"
    path = cache / commit
    if not (path / ".git").exists() or _git("rev-parse", "HEAD", cwd=path) != commit:
        if path.exists():
            raise LudotecaError(f"{path} exists but is not a worktree of {commit}: remove it")
        cache.mkdir(parents=True, exist_ok=True)
        _git("worktree", "prune", cwd=root)
        _git("worktree", "add", "--detach", str(path), commit, cwd=root)
    return Version(ref, commit, path)


def remove(version: Version, root: Path | None = None) -> None:
    """Delete a version's worktree of the checkout ``root`` (never the working tree)."""
    if version.ref != WORK:
        _git("worktree", "remove", "--force", str(version.path), cwd=root or repository())


def engine_command(version: Version) -> str:
    """The command line that runs the version's engine (``ludoteca engine``)."""
    path = [str(version.path), *filter(None, [os.environ.get("PYTHONPATH")])]
    pythonpath = f"PYTHONPATH={os.pathsep.join(path)}"
    return shlex.join(["env", pythonpath, sys.executable, "-P", "-m", "ludoteca", "engine"])


def engine_spec(version: Version, agent: str) -> str:
    """The tournament agent spec of the version's engine playing the agent spec ``agent``."""
    return f"engine[{agent}]:{engine_command(version)}"


def warm_up(version: Version, rules: RuleSet, agent: str, timeout: float = 1800.0) -> None:
    """Let the version's engine play ``agent`` one shallow move of ``rules``' start, with no
    limit on time but ``timeout``: the first search of a fresh checkout compiles the search
    (about a minute of a core) and games should not spend their move time on that.  Raises
    :class:`LudotecaError` with the engine's answer if it does not play the move."""
    script = "\n".join(
        [
            "ludo",
            f"newgame {rules.game} {rules}",
            f"setoption name agent value {agent}",
            "position startpos",
            "go depth 1",
            "isready",
            "quit",
            "",
        ]
    )
    try:
        done = subprocess.run(
            shlex.split(engine_command(version)),
            input=script,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise LudotecaError(f"{version.ref}: its engine took over {timeout:.0f}s to move") from None
    answers = done.stdout.splitlines()
    errors = [line for line in answers if line.startswith("error")]
    if errors or not any(line.startswith("bestmove") for line in answers):
        tail = done.stderr.strip().splitlines()
        reason = "; ".join(errors) or (tail[-1] if tail else "no bestmove")
        raise LudotecaError(f"{version.ref} ({version.commit[:10]}): {reason}")
