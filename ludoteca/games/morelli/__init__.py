"""Morelli: the board geometry (:mod:`.board`: squares, bands, frames), the rules
(:mod:`.rules`), the compiled kernel (:mod:`.kernel`), the lessons (:mod:`.lessons`) and the
tuned weights (``weights.json``).

>>> from ludoteca.games.morelli import Morelli
>>> Morelli.name
'morelli'
"""

from __future__ import annotations

from .rules import Morelli

__all__ = ["Morelli"]
