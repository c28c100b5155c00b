"""A browser's record of the puzzles of a set it has shown, as the puzzle page keeps it
(``static/lib/seen-puzzles.js``) and ``/api/puzzles/next`` reads it: written here from the
numbers marked, for the tests that draw puzzles through the API."""

from __future__ import annotations

import base64


def seen_record(marked: int) -> str:
    """The record of the puzzle numbers whose bits ``marked`` holds (number n: bit n): its
    bytes, the lowest first, in base64url without padding ("" for none)."""
    data = marked.to_bytes((marked.bit_length() + 7) // 8, "little")
    return base64.urlsafe_b64encode(data).decode().rstrip("=")
