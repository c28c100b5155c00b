"""The lock files pin every dependency pyproject.toml declares, at a version its range admits:
a dependency added or tightened without running scripts/lock fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pins(lock: str) -> dict[str, str]:
    """Package name -> pinned version of a lock file."""
    text = (ROOT / "requirements" / lock).read_text()
    found = re.findall(r"^([A-Za-z0-9_.\-\[\],]+)==([^\s;\\]+)", text, flags=re.MULTILINE)
    return {canonicalize_name(name.partition("[")[0]): version for name, version in found}


@pytest.mark.parametrize(
    ("lock", "requirements"),
    [
        ("app.lock", PROJECT["dependencies"]),
        ("test.lock", PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]),
    ],
)
def test_lock_pins_every_dependency_within_its_range(lock: str, requirements: list[str]) -> None:
    pinned = pins(lock)
    for line in requirements:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{lock} lacks {name}: run scripts/lock"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{lock} pins {name}=={pinned[name]}, outside {requirement.specifier}: run scripts/lock"
        )


def test_the_app_lock_is_a_subset_of_the_test_lock_at_the_same_versions() -> None:
    app, test = pins("app.lock"), pins("test.lock")
    assert {name: test.get(name) for name in app} == app


def test_the_test_extra_holds_every_other_extra() -> None:
    """The tests use every extra (Ray, OpenSpiel...): the test extra, which scripts/setup and
    test.lock install, lists each one's requirements, at the same range."""
    extras = PROJECT["optional-dependencies"]
    for name, requirements in extras.items():
        assert set(requirements) <= set(extras["test"]), f"the test extra lacks {name}'s"
