"""What every retrograde solver shares: where tables are cached, progress for people, and the
predecessor look-up over a move graph stored by child (numpy).

Each game's own solver lives with the game (``Game.solver``); this package holds no game.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from ..tables import Progress

__all__ = ["cache_dir", "parents_of", "progress_bar"]


def cache_dir() -> Path:
    """Where solved tables are kept: ``$LUDOTECA_CACHE`` or ``~/.cache/ludoteca``."""
    return Path(os.environ.get("LUDOTECA_CACHE") or Path.home() / ".cache" / "ludoteca")


def parents_of(
    by_child: npt.NDArray[np.int32], offsets: npt.NDArray[np.int64], nodes: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The parents of every node in ``nodes`` (with repeats, one per move), from the parents
    sorted by child (``by_child``) and each child's start in that array (``offsets``)."""
    starts = offsets[nodes]
    counts = offsets[nodes + 1] - starts
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    shift = np.repeat(starts - np.cumsum(counts) + counts, counts)
    return by_child[shift + np.arange(total)].astype(np.int64)


def progress_bar(label: str = "solving", steps: bool = True) -> tuple[Progress, tqdm]:
    """A progress callback for the command line (a tqdm status bar on standard error; when
    standard error is not a terminal, one line per step, or none without ``steps``: the caller
    then says in one line what was done) and the bar, to close when done."""
    bar = tqdm(
        desc=label, bar_format="{desc}: {postfix} [{elapsed}]", file=sys.stderr, disable=None
    )

    def report(message: str) -> None:
        if not bar.disable:
            bar.set_postfix_str(message)
        elif steps:
            print(f"  {message}", file=sys.stderr, flush=True)

    return report, bar
