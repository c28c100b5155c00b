"""The compiled layer (numba), loaded only when asked for.

- :mod:`.kernel`: the interface a game's kernel implements, and helpers for kernels;
- :mod:`.registry`: the kernels by name (each game's kernel module,
  ``ludoteca/games/<game>/kernel.py``, registers itself) and :class:`~.registry.Kernel`, a
  kernel bound to a rule set;
- :mod:`.dispatch`: the search and drivers, written once, specialised for each kernel;
- :mod:`.search`: the alpha-beta search and the playouts of the Monte Carlo search;
- :mod:`.drivers`: random games and move counts (perft) by a kernel alone.

Importing this package loads nothing compiled; :func:`warm` prepares a game's compiled code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core import Game

__all__ = ["warm"]


def warm(game: Game) -> bool:
    """Prepare ``game``'s compiled search: fingerprint the sources it is compiled from, delete
    cache files of earlier fingerprints, then load the compiled code from the cache (or compile
    and cache it, about a minute of a core) by a one-ply search of the start position.
    ``False`` if the game has no kernel."""
    kernel = game.kernel
    if kernel is None:
        return False
    from . import batch, dispatch, drivers, search

    dispatch.prune(kernel.name, [search.__name__, drivers.__name__, batch.__name__])
    search.CompiledSearch(kernel).run(game.new(seed=0), max_depth=1)
    return True
