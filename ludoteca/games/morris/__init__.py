"""The Morris family (Nine Men's Morris and its relatives): the board geometry (:mod:`.board`:
the boards' points, lines and mills, adjacency, symmetries), the rules (:mod:`.rules`), the
compiled kernel (:mod:`.kernel`), the tables (:mod:`.table`), the lessons (:mod:`.lessons`, and
:mod:`.rule_lessons` for the rules where other rule sets differ), the tuned weights
(``weights.json``) and the opening books (``books/``).

>>> from ludoteca.games.morris import Morris
>>> Morris.of("morris-12").title
"Twelve Men's Morris"
"""

from __future__ import annotations

from .rules import Morris

__all__ = ["Morris"]
