"""Moving the server's clocks forward in a test, where the code reads the time through a
function of its own (``store.now``, ``clock.now_ms``): time passes without waiting for it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from ludoteca.server.play.clock import now_ms


def replace_everywhere(
    monkeypatch: pytest.MonkeyPatch, original: Callable[[], Any], replacement: Callable[[], Any]
) -> None:
    """Make every loaded ``ludoteca`` module that holds ``original`` (imported by name) hold
    ``replacement`` instead, until the test ends."""
    found = 0
    for name, module in list(sys.modules.items()):
        if name.startswith("ludoteca") and module is not None:
            for attribute, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attribute, replacement)
                    found += 1
    assert found, f"no module holds {original.__qualname__}"


class ServerClock:
    """The game clocks' time (``now_ms``, wherever the server imported it) running ``ahead``
    milliseconds ahead of the real one, until the test ends."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ahead = 0
        replace_everywhere(monkeypatch, now_ms, lambda: now_ms() + self.ahead)
