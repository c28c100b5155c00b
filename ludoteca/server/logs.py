"""The server's log: plain lines for people, or one JSON object a line for log collectors.

Game events name their game with ``extra={"game": id}``; the JSON form carries it as the field
``game`` (with ``time``, ``level``, ``logger`` and ``message``, and ``error`` for an exception).
"""

from __future__ import annotations

import datetime
import json
import logging

__all__ = ["JsonFormatter", "configure", "game"]


def game(game_id: str) -> dict[str, str]:
    """The ``extra`` of a log call about one game."""
    return {"game": game_id}


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        game_id = getattr(record, "game", None)
        if game_id:
            entry["game"] = str(game_id)
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(form: str = "text") -> None:
    """Log INFO and above to standard error, as ``text`` or ``json``."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter()
        if form == "json"
        else logging.Formatter("%(asctime)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
