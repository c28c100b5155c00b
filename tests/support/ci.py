"""A run under ``CI=true`` fails when it skipped anything or marked a failure as expected (a
plugin of ``tests/conftest.py``, on its own so that ``tests/test_ci_plugin.py`` can run it on
a few tests of its own): CI installs every service and package, so a skip there is a test
that did not run and an xfail a promise known broken, each a promise left unchecked.  Skips
at collection count too (a file skipped as a whole, ``pytest.importorskip``); with
pytest-xdist the controller, which receives every worker's reports, decides."""

from __future__ import annotations

import os

import pytest

#: what this run skipped or let fail as expected (node ids with the reason), as the reports
#: reach this process (with xdist: the controller, which receives every worker's reports, the
#: collection's skipped ones too)
_SKIPPED: list[str] = []


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    return str(longrepr[2] if isinstance(longrepr, tuple) else longrepr)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember a skipped test, an expected failure (xfail) and an unexpected pass of a test
    marked xfail (xpass)."""
    if hasattr(report, "wasxfail"):
        if report.skipped or (report.passed and report.when == "call"):
            outcome = "xfailed" if report.skipped else "xpassed"
            _SKIPPED.append(f"{report.nodeid}: {outcome}: {report.wasxfail}")
    elif report.skipped:
        _SKIPPED.append(f"{report.nodeid}: skipped: {_reason(report)}")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Remember a file or class skipped while collected (``pytest.skip(...,
    allow_module_level=True)``, ``pytest.importorskip``): none of its tests ran."""
    if report.skipped:
        _SKIPPED.append(f"{report.nodeid}: skipped when collected: {_reason(report)}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under ``CI=true`` a run that skipped anything, or marked a failure as expected, fails
    (listing them)."""
    if os.environ.get("CI") != "true" or not _SKIPPED or hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_line(
            f"CI=true: {len(_SKIPPED)} test(s) skipped or expected to fail, which fails the run:"
        )
        for line in _SKIPPED:
            reporter.write_line(f"  {line}")
    if exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
