"""The installed package is the tested package: the wheel built from the checkout's tracked files
holds every file of the package, and, installed into a venv of its own and run from a folder
outside the checkout, serves every file its pages use, plays with its tuned weights, books,
ratings and puzzle sets, and runs its commands.

The wheel is built once a run (``uv build``: an sdist of the tracked files, then the wheel from
it, as an index would get them) and installed without dependencies into a fresh venv that finds
them in this interpreter's site-packages (a ``.pth`` line: the test venv's own ``.pth`` files,
such as an editable install of the checkout, are not run there)."""

from __future__ import annotations

import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from zipfile import ZipFile

import pytest

from .support.ports import ReservedPort

ROOT = Path(__file__).resolve().parent.parent


def tracked(under: str) -> list[str]:
    """The checkout's tracked files under ``under`` (paths from the checkout's root), as in its
    index: committed or added."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", under], cwd=ROOT, capture_output=True, check=True
    )
    return [name for name in listed.stdout.decode().split("\0") if name]


@dataclass(frozen=True)
class Installed:
    """The built wheel and the venv it is installed in (with ``env``, the environment its
    commands run with: no ``PYTHONPATH``, caches and data in the test's folder)."""

    wheel: Path
    sdist: Path
    venv: Path
    outside: Path
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``ludoteca ARGS...`` of the venv, run in :attr:`outside`; fails on a non-zero exit."""
        done = subprocess.run(
            [str(self.venv / "bin" / "ludoteca"), *args],
            cwd=self.outside,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"ludoteca {' '.join(args)}:\n{done.stderr}"
        return done

    def python(self, code: str, *args: str) -> str:
        """What ``code`` prints, run by the venv's Python in :attr:`outside` (``sys.argv[1:]``
        is ``args``)."""
        done = subprocess.run(
            [str(self.venv / "bin" / "python"), "-c", code, *args],
            cwd=self.outside,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel of the checkout's tracked files, installed into a venv of its own."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    for name in tracked("."):
        if (ROOT / name).is_file():  # (a tracked file deleted in the work tree is not built)
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or "uv"
    subprocess.run(
        [uv, "build", "--quiet", "--out-dir", str(base / "dist"), str(source)], check=True
    )
    (wheel,) = (base / "dist").glob("*.whl")
    (sdist,) = (base / "dist").glob("*.tar.gz")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = Path(
        subprocess.check_output(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            text=True,
        ).strip()
    )
    shared = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (purelib / "_shared_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(shared)))
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--compile-bytecode",  # (as pip installs a wheel)
            "--python",
            str(venv / "bin" / "python"),
            str(wheel),
        ],
        check=True,
    )
    outside = base / "outside"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {
        "HOME": str(outside),
        "XDG_DATA_HOME": str(outside / "data"),
        "XDG_CACHE_HOME": str(outside / "cache"),
        "LUDOTECA_WARM": "false",
        "PYTHONUNBUFFERED": "1",
    }
    return Installed(wheel, sdist, venv, outside, env)


def test_the_wheel_holds_every_tracked_file_of_the_package(installed: Installed) -> None:
    in_wheel = set(ZipFile(installed.wheel).namelist())
    missing = [
        name
        for name in tracked("ludoteca")
        if "__pycache__" not in name and (ROOT / name).is_file() and name not in in_wheel
    ]
    assert not missing, f"not in the wheel: {missing}"


def test_the_sdist_holds_the_deployment_files_and_the_wheel_does_not(
    installed: Installed,
) -> None:
    """The nginx and systemd files docs/operating.md installs come with the source
    distribution (an operator copies them from it), not inside the installed package."""
    with tarfile.open(installed.sdist) as sdist:
        in_sdist = {name.partition("/")[2] for name in sdist.getnames()}
    deployment = tracked("deploy")
    assert deployment and not [name for name in deployment if name not in in_sdist]
    assert not [name for name in ZipFile(installed.wheel).namelist() if "deploy/" in name]


def test_the_installed_package_is_the_one_run(installed: Installed) -> None:
    where = installed.python("import ludoteca; print(ludoteca.__file__)")
    assert Path(where.strip()).is_relative_to(installed.venv)


#: a static file's URL in a page (src, href), a module (import ... from, import()) or a style
#: sheet (url())
_REFERENCE = re.compile(
    r"""(?:\bsrc=|\bhref=|\bfrom\s*|\bimport\s*\(?\s*|url\()\s*["']?(/static/[^"'\s)>]*)"""
)
#: the pages the site's header and lobby lead to
PAGES = ("/", "/review", "/account", "/games", "/leaderboard", "/puzzles", "/lessons")


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def _answers(url: str) -> bool:
    try:
        return _get(url)[0] == 200
    except OSError:  # (nothing listens yet)
        return False


@pytest.fixture(scope="module")
def server(installed: Installed) -> Iterator[str]:
    """The installed ``ludoteca serve`` on a free port, run outside the checkout: its base URL."""
    port = ReservedPort()
    base = f"http://127.0.0.1:{port.number}"
    with (installed.outside / "serve.log").open("w") as log:
        process = subprocess.Popen(
            [
                str(installed.venv / "bin" / "ludoteca"),
                "serve",
                "--port",
                str(port.number),
                "--workers",
                "1",
                "--db",
                f"sqlite+aiosqlite:///{installed.outside / 'games.db'}",
            ],
            cwd=installed.outside,
            env=installed.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 120
            while not _answers(base + "/healthz"):
                assert process.poll() is None, (installed.outside / "serve.log").read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)  # polling: a starting server sends no event to wait on
            yield base
        finally:
            process.terminate()
            process.wait(30)
            port.release()


def test_every_file_the_pages_the_manifest_and_the_service_worker_use_is_served(
    server: str,
) -> None:
    status, manifest = _get(server + "/manifest.webmanifest")
    assert status == 200
    status, worker = _get(server + "/sw.js")
    assert status == 200
    assets = re.search(rb"^const ASSETS = (.*);$", worker, re.MULTILINE)
    assert assets is not None
    shell = re.search(rb"^const SHELL = (.*);$", worker, re.MULTILINE)
    assert shell is not None
    wanted = [
        *PAGES,
        *json.loads(assets[1]),
        *json.loads(shell[1]),
        *(icon["src"] for icon in json.loads(manifest)["icons"]),
        json.loads(manifest)["start_url"],
    ]
    # the tracked static files too: the service worker lists only those the package holds
    wanted += [
        f"/{name.removeprefix('ludoteca/server/')}" for name in tracked("ludoteca/server/static")
    ]
    seen: dict[str, int] = {}
    while wanted:
        url = wanted.pop().split("#")[0].split("?")[0]
        if url in seen or url.startswith("//") or url in ("/sw.js", "/manifest.webmanifest"):
            continue
        status, body = _get(server + url)
        seen[url] = status
        if url.endswith((".js", ".css")) or url in PAGES:  # (a page or module it loads)
            wanted += _REFERENCE.findall(body.decode(errors="replace"))
    missing = {url: status for url, status in seen.items() if status != 200}
    assert not missing, f"not served: {missing}"
    assert "/static/icons/icon-512.png" in seen and "/static/pages/app.js" in seen


#: the tuned weights' files (``ludoteca tune``'s) of the games that have them
WEIGHTS = ("morelli/weights.json", "morris/weights.json")


def test_the_tuned_weights_books_ratings_and_puzzle_sets_are_the_installed_ones(
    installed: Installed,
) -> None:
    games = ROOT / "ludoteca" / "games"
    weights = {name: json.loads((games / name).read_text()) for name in WEIGHTS}
    books = [path.name for path in (games / "morris" / "books").glob("*.json.xz")]
    found = json.loads(
        installed.python(
            """
import json, sys
from ludoteca.ai.book import book_for
from ludoteca.ai.levels import ratings
from ludoteca.games import load
from ludoteca.games.morelli import kernel as morelli_kernel
from ludoteca.games.morris import kernel as morris_kernel
from ludoteca.study.puzzles import read, shipped
weights, books = json.loads(sys.argv[1])
print(json.dumps({
    "weights": {
        name: {rules: kernel.weights(rules) for rules in weights[name]}
        for kernel in (morelli_kernel, morris_kernel)
        for name in [f"{kernel.WEIGHTS_FILE.parent.name}/{kernel.WEIGHTS_FILE.name}"]
    },
    "books": {name: book_for(load(name.removesuffix(".json.xz"))) is not None for name in books},
    "ratings": ratings(),
    "puzzles": {path.name: sum(1 for _ in read(path)) for path in shipped()},
}))
""",
            json.dumps([{name: list(tuned) for name, tuned in weights.items()}, books]),
        )
    )
    for name, shipped_weights in weights.items():
        for rules, tuned in shipped_weights.items():
            assert tuned["weights"].items() <= found["weights"][name][rules].items(), (name, rules)
    assert found["books"] == dict.fromkeys(books, True)
    assert found["ratings"] == json.loads((games / "ratings.json").read_text())
    data = ROOT / "ludoteca" / "study" / "data"
    assert found["puzzles"] == {
        path.name: sum(
            1 for line in lzma.decompress(path.read_bytes()).splitlines() if line.strip()
        )
        for path in data.glob("*.jsonl.xz")
    }


def test_the_installed_commands_run(installed: Installed) -> None:
    assert "level" in installed.run("levels", "morris").stdout.lower()
    assert installed.run("analyse", "morris", "--depth", "2").stdout.strip()
    played = installed.run(
        "play", "morris", "--white", "random", "--black", "random", "--seed", "1"
    )
    assert played.stdout.strip()
