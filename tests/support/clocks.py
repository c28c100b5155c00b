"""Moving the server's clocks forward in a test, where the code reads the time through a
function of its own (``store.now``, ``clock.now_ms``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest


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
