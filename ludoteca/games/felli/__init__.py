"""Felli (Fich): the board geometry (:mod:`.board`: points, lines, rays, symmetries, promotion
corners), the rules (:mod:`.rules`), the compiled kernel (:mod:`.kernel`), the solver of the
basic game (:mod:`.solver`), the tables of the Mullah rule sets (:mod:`.mullah_table`) and the
lessons (:mod:`.lessons`).

>>> from ludoteca.games.felli import Felli
>>> Felli.of("felli-mullah").rules["mullah"]
True
"""

from __future__ import annotations

from .rules import Felli

__all__ = ["Felli"]
