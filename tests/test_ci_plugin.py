"""The suite's CI rule (``tests/support/ci.py``), run on a few tests of its own in a pytest of
their own: under ``CI=true`` a skipped test, an expected failure, an unexpected pass of an
xfail test and a file skipped as it is collected each fail the run, named in its output;
without ``CI=true`` the same run passes.  (In one process: across pytest-xdist's, each kind
reaches the controller's hooks the same way, the collection's skips included, as xdist sends
a worker's collection reports that did not pass; seen once, at 10 s a run, left out here.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TESTS = """
import pytest

def test_runs():
    pass

def test_skipped():
    pytest.skip("no service")

@pytest.mark.xfail(reason="known broken")
def test_expected_to_fail():
    assert False

@pytest.mark.xfail(reason="fixed meanwhile")
def test_passing_though_marked():
    pass
"""

SKIPPED_FILE = """
import pytest

pytest.skip("a package is missing", allow_module_level=True)

def test_never_collected():
    pass
"""


def run(folder: Path, ci: bool, *options: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # (the installed plugins: seconds to load)
    if ci:
        env["CI"] = "true"
    command = [sys.executable, "-m", "pytest", "-p", "tests.support.ci", "-p", "no:cacheprovider"]
    command += ["-c", os.devnull, "--rootdir", str(folder)]
    return subprocess.run(
        [*command, *options, str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_ci_run_fails_on_a_skip_an_xfail_and_a_file_skipped_when_collected(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_sample.py").write_text(TESTS)
    (tmp_path / "test_skipped_file.py").write_text(SKIPPED_FILE)
    ci = run(tmp_path, True)
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "CI=true: 4 test(s) skipped or expected to fail, which fails the run" in ci.stdout
    for line in (
        "test_sample.py::test_skipped: skipped: Skipped: no service",
        "test_sample.py::test_expected_to_fail: xfailed: known broken",
        "test_sample.py::test_passing_though_marked: xpassed: fixed meanwhile",
        "test_skipped_file.py: skipped when collected: Skipped: a package is missing",
    ):
        assert f"\n  {line}\n" in ci.stdout, ci.stdout
    calm = run(tmp_path, False)
    assert calm.returncode == 0, calm.stdout + calm.stderr
    assert "CI=true" not in calm.stdout
