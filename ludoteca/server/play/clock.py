"""Time controls for games between people.

A live clock ``M+S`` (minutes for the game, seconds added after each move,
:class:`TimeControl`) keeps, in a game's row, milliseconds left per side and the moment the
running clock started.  A correspondence control ``Nd`` (:class:`DaysPerMove`, N of
:data:`DAYS`) gives the side to move N days for each move: every move sets its opponent's
deadline to N days from then (the time does not accumulate); the row keeps the deadline and
the side it is for.  :func:`parse_control` reads either; :func:`ticking` tells a live clock."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TypeGuard

from ...i18n import Text

__all__ = [
    "DAYS",
    "DaysPerMove",
    "TimeControl",
    "deadline_fields",
    "now_ms",
    "parse_control",
    "ticking",
]

_SPEC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")
_DAYS_SPEC = re.compile(r"^\s*(\d{1,3})\s*d\s*$")
#: the days per move a correspondence game may have
DAYS = (1, 2, 3, 5, 7, 14)
DAY_MS = 86_400_000


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


@dataclass(frozen=True)
class DaysPerMove:
    """A correspondence control: ``days`` (one of :data:`DAYS`) for each move."""

    days: int

    @classmethod
    def parse(cls, text: str) -> DaysPerMove:
        """``"3d"``; ``ValueError`` with a sentence if malformed or not one of :data:`DAYS`."""
        match = _DAYS_SPEC.match(text)
        if not match or int(match[1]) not in DAYS:
            raise ValueError(
                Text(
                    "days per move are one of %(choices)s, not %(text)s",
                    choices=", ".join(f"{d}d" for d in DAYS),
                    text=repr(text),
                )
            )
        return cls(int(match[1]))

    def __str__(self) -> str:
        return f"{self.days}d"

    def deadline(self, now: int) -> int:
        """The deadline (epoch ms) of a move whose time starts at ``now`` (epoch ms)."""
        return now + self.days * DAY_MS


def parse_control(text: str) -> TimeControl | DaysPerMove:
    """A live clock (``"5+0"``) or days per move (``"3d"``); ``ValueError`` with a sentence
    if it is neither."""
    if _DAYS_SPEC.match(text):
        return DaysPerMove.parse(text)
    return TimeControl.parse(text)


def ticking(clock: str | None) -> TypeGuard[str]:
    """Whether a stored time control (``GameRow.clock``, checked when stored) is a live clock,
    whose time runs on the page and in the server's timers; days per move do not."""
    return bool(clock) and not _DAYS_SPEC.match(clock or "")


def deadline_fields(clock: str | None, side: str, now: int) -> dict[str, object]:
    """The row's fields giving ``side`` ("white" or "black") its move's time from ``now``
    (epoch ms) under the stored time control ``clock``: its deadline under days per move,
    nothing under a live clock or none."""
    if not clock or ticking(clock):
        return {}
    return {"deadline": DaysPerMove.parse(clock).deadline(now), "to_move": side}
