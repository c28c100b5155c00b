"""Chess clocks for games between people: a time control ``M+S`` (minutes for the game, seconds
added after each move) and the arithmetic of the two times, kept in a game's row as
milliseconds left per side and the moment the running clock started."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ...i18n import Text

__all__ = ["TimeControl", "now_ms"]

_SPEC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")


def now_ms() -> int:
    """Wall-clock milliseconds (stored, so it must survive a restart)."""
    return int(time.time() * 1000)


@dataclass(frozen=True)
class TimeControl:
    """Minutes each side has for the game and seconds added after each of its moves."""

    minutes: float
    increment: float

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+0"``, ``"10+5"``; ``ValueError`` with a sentence if malformed or out of range."""
        match = _SPEC.match(text)
        if not match:
            raise ValueError(
                Text("a clock is MINUTES+SECONDS, e.g. 5+0 or 10+5, not %(text)s", text=repr(text))
            )
        minutes, increment = float(match[1]), float(match[2])
        if not 0 < minutes <= 180 or increment > 60:
            raise ValueError(
                Text(
                    "a clock has more than 0 and at most 180 minutes, and adds at most "
                    "60 seconds a move"
                )
            )
        return cls(minutes, increment)

    def __str__(self) -> str:
        return f"{self.minutes:g}+{self.increment:g}"

    @property
    def start_ms(self) -> int:
        return int(self.minutes * 60_000)

    @property
    def increment_ms(self) -> int:
        return int(self.increment * 1000)
