"""Test-wide settings: solved tables go to a temporary cache, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_table_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("ludoteca-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_CACHE", str(path))
        yield path
