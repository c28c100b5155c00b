"""The error the server answers a refused request with."""

from __future__ import annotations

__all__ = ["ActionError"]


class ActionError(Exception):
    """A request the server refuses: an HTTP status and a sentence for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
