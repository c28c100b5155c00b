"""The optional dependencies and the version: a command that needs an extra not installed says
which one in a line and exits with status 2; ``ludoteca --version`` is the installed one's."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import pytest

import ludoteca
from ludoteca.cli import main


def test_the_version_is_the_installed_packages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"ludoteca {metadata.version('ludoteca')}\n"
    assert ludoteca.__version__ == metadata.version("ludoteca")


#: ``ludoteca ARGS`` with Ray made unimportable (``None`` in ``sys.modules``)
WITHOUT_RAY = (
    "import sys; sys.modules['ray'] = None; from ludoteca.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "felli", "--ray"],
        ["tournament", "felli", "--agents", "random", "random", "--games", "2", "--ray", "local"],
    ],
)
def test_ray_missing_is_one_line_naming_the_cluster_extra(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "pip install 'ludoteca[cluster]'" in done.stderr
