"""What a test needs from outside the package: a Python module or a program.

Under ``CI=true`` a missing one fails the run (``scripts/test`` installs everything); on a
developer's machine the tests that need it are skipped, saying what is missing."""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

#: Debian keeps PostgreSQL's server programs (``initdb``, ``pg_ctl``) off ``PATH``
_PROGRAM_FOLDERS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def need(name: str) -> Any:
    """The module imported as ``name``, or else the path of the program called ``name`` (looked
    for on ``PATH``, then among PostgreSQL's server programs).  When neither is there, skip the
    calling test (or, called at module level, its module), or under ``CI=true`` fail."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name.split(".")[0] and error.name != name:
            raise  # the module is there but needs something else: a real error
    search = os.pathsep.join([os.environ.get("PATH", ""), *map(str, _PROGRAM_FOLDERS)])
    program = shutil.which(name, path=search)
    if program is not None:
        return program
    if os.environ.get("CI") == "true":
        pytest.fail(f"{name} is missing under CI (scripts/test installs it)", pytrace=False)
    pytest.skip(f"{name} is not installed (scripts/test installs it)", allow_module_level=True)
