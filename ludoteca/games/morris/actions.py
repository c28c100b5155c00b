"""Our Morris moves as the actions other programs write apart, and back: a placement (``d6``) or
a move (``a1-a4``), then each removal (``xg7``).  Our move carries the removal its mill takes
(``d6xg7``); a removal that is a turn of its own (the second of a double mill, a full board's,
the mill counts') is a move alone (``xg7``).  Sanmill's move lists (:mod:`.sanmill`) and the
Mill Interchange Format's events (:mod:`.mif`) write every removal apart; reading them, a
removal joins the placement or move before it only when that one closed a mill and takes a man
(:func:`awaits_removal`: the replay decides), else it is a removal alone.
"""

from __future__ import annotations

import re

from ...core import LudotecaError
from .rules import MorrisMove, MorrisState

__all__ = ["actions", "awaits_removal"]


def actions(move: str) -> list[str]:
    """The actions of one of our moves: ``d6xg7`` → ``d6``, ``xg7``; ``xg7`` → ``xg7``."""
    return [a for a in re.split(r"(?=x)", move) if a]


def awaits_removal(state: MorrisState, action: str) -> bool:
    """Whether the placement or move ``action`` (``d6``, ``a1-a4``) takes a man in every legal
    form in ``state``, so that the removal after it is its own (``d6xg7``); ``False`` for one
    that takes none, and for text that is no legal placement or move (the replay names it)."""
    try:
        wanted = MorrisMove.parse(action, state.board.key)
    except LudotecaError:
        return False
    forms = [
        m
        for m in (state.move_of(c) for c in state.legal_codes())
        if m.src == wanted.src and m.dst == wanted.dst and not m.removal_only
    ]
    return bool(forms) and all(m.remove is not None for m in forms)
