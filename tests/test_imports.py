"""How the package hangs together: no import cycle across packages (function-level imports
counted), nothing compiled loaded until a game's kernel is asked for, and no engine test loading
the server."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import ludoteca

ROOT = Path(ludoteca.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.AST) -> bool:
    checking = ("TYPE_CHECKING", "typing.TYPE_CHECKING")
    return isinstance(node, ast.If) and ast.unparse(node.test) in checking


def import_graph() -> dict[str, set[str]]:
    """Every module of ``ludoteca`` and the modules it imports, at any level of the file
    (imports only made for type checkers excepted)."""
    files = {_module_name(p): p for p in ROOT.rglob("*.py")}
    packages = {_module_name(p) for p in ROOT.rglob("__init__.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if module in packages else module.rpartition(".")[0]
        found: set[str] = set()
        stack: list[ast.AST] = [ast.parse(path.read_text())]
        while stack:
            node = stack.pop()
            if _type_checking_only(node):
                continue
            stack.extend(ast.iter_child_nodes(node))
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                target = ".".join(filter(None, (base, node.module or "")))
                modules = [f"{target}.{a.name}" for a in node.names]
                submodules = [m for m in modules if m in files]  # from a package import a module
                targets = submodules if len(submodules) == len(modules) else [target, *submodules]
            found |= {t for t in targets if t in files and t != module}
        graph[module] = found
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> dict[str, str | None]:
    """Every module reachable from ``start``, each with the module it was reached from."""
    seen: dict[str, str | None] = {start: None}
    stack = [start]
    while stack:
        here = stack.pop()
        for there in graph[here]:
            if there not in seen:
                seen[there] = here
                stack.append(there)
    return seen


def test_no_import_cycle_crosses_a_package() -> None:
    graph = import_graph()
    packages = {m for m in graph if (ROOT.parent / m.replace(".", "/") / "__init__.py").exists()}

    def package(module: str) -> str:
        return module if module in packages else module.rpartition(".")[0]

    reach = {m: _reachable(graph, m) for m in graph}
    for a in sorted(graph):
        for b in sorted(reach[a]):
            if package(a) != package(b) and a in reach[b]:
                path = [b]
                while path[-1] != a:
                    path.append(reach[a][path[-1]] or a)
                back = [a]
                while back[-1] != b:
                    back.append(reach[b][back[-1]] or b)
                cycle = [*reversed(path), *reversed(back[:-1])]
                raise AssertionError("import cycle across packages: " + " -> ".join(cycle))


def test_the_graph_sees_function_level_imports() -> None:
    graph = import_graph()
    assert "ludoteca.compiled.search" in graph["ludoteca.ai.search"]  # imported inside a method
    assert "ludoteca.compiled.registry" not in graph["ludoteca.core"]  # for type checkers only


def test_numba_is_loaded_only_for_a_kernel() -> None:
    code = (
        "import sys, ludoteca\n"
        "assert 'numba' not in sys.modules, 'import ludoteca'\n"
        "state = ludoteca.new_game('morris')\n"
        "assert state.legal_moves.count() == 24\n"
        "assert 'numba' not in sys.modules, 'playing a game'\n"
        "assert state.game.kernel is not None\n"
        "assert 'numba' in sys.modules, 'the kernel'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _cycle(graph: dict[str, set[str]], nodes: set[str]) -> list[str] | None:
    """A cycle of imports among ``nodes`` (the first module repeated at its end), or None."""
    done: set[str] = set()
    for start in sorted(nodes):
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start] & nodes))]
        if start in done:
            continue
        path.append(start)
        on_path.add(start)
        while stack:
            here, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                on_path.discard(here)
                done.add(here)
                continue
            there = todo.pop()
            if there in on_path:
                return [*path[path.index(there) :], there]
            if there not in done:
                stack.append((there, sorted(graph[there] & nodes)))
                path.append(there)
                on_path.add(there)
    return None


def test_the_ai_package_has_no_import_cycle() -> None:
    graph = import_graph()
    ai = {m for m in graph if m == "ludoteca.ai" or m.startswith("ludoteca.ai.")}
    cycle = _cycle(graph, ai)
    assert cycle is None, "import cycle in ludoteca.ai: " + " -> ".join(cycle or ())


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"b"}, "d": set()}
    assert _cycle(graph, set(graph)) == ["b", "c", "b"]
    assert _cycle(graph, {"a", "b", "d"}) is None


def _private(name: str) -> bool:
    """A name private to its module: a leading underscore, neither a dunder nor gettext's ``_``."""
    return name.startswith("_") and name != "_" and not name.startswith("__")


def private_uses() -> list[str]:
    """Every place a module of ``ludoteca`` uses another module's private name: ``from x import
    _y``, or ``x._y`` where ``x`` names a module of the package (function-level imports
    included)."""
    files = {_module_name(p): p for p in ROOT.rglob("*.py")}
    packages = {_module_name(p) for p in ROOT.rglob("__init__.py")}
    found = []
    for module, path in sorted(files.items()):
        package = module if module in packages else module.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        bound: dict[str, str] = {}  # a local name -> the package's module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                target = ".".join(filter(None, (base, node.module or "")))
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{path}:{node.lineno}: from {target} import {alias.name}")
                    if f"{target}.{alias.name}" in files:
                        bound[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in files:
                        local = alias.asname or alias.name.partition(".")[0]
                        bound[local] = alias.name if alias.asname else local
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                head, *rest = ast.unparse(node.value).split(".")
                if head in bound and ".".join([bound[head], *rest]) in files:
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_uses_another_modules_private_name() -> None:
    assert private_uses() == []


def test_the_private_scan_sees_both_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "ludoteca"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("_hidden = 1\n")
    (package / "b.py").write_text("def f():\n    from .a import _hidden\n    return _hidden\n")
    (package / "c.py").write_text("from . import a\nfrom .i18n import _\nprint(a._hidden)\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", package)
    assert [use.partition(": ")[2] for use in private_uses()] == [
        "from ludoteca.a import _hidden",
        "a._hidden",
    ]


#: what playing a computer level needs not load: the tournament runner, the outside-engine and
#: process-pool plumbing it drives, and its progress bars
TOURNAMENT_ONLY = ("ludoteca.ai.tournament", "ludoteca.ai.engine", "ludoteca.jobs", "tqdm")


@pytest.mark.parametrize(
    ("module", "unloaded"),
    [
        # the levels start no process at all
        ("ludoteca.ai.levels", (*TOURNAMENT_ONLY, "subprocess")),
        # the server's computer player has a process pool of its own
        ("ludoteca.server.computer.computer", TOURNAMENT_ONLY),
    ],
)
def test_the_levels_do_not_load_the_tournament(module: str, unloaded: tuple[str, ...]) -> None:
    code = (
        f"import sys, {module}\n"
        f"loaded = [m for m in {unloaded!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _installed_with(requirements: list[str]) -> set[str]:
    """The distributions that installing ``requirements`` (PEP 508 strings) brings, by their
    normalised names: each and, recursively, what it requires (with the extras asked for) as
    the installed metadata says."""
    seen: set[str] = set()
    todo = [Requirement(text) for text in requirements]
    while todo:
        wanted = todo.pop()
        name = canonicalize_name(wanted.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            needs = importlib.metadata.requires(wanted.name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        extras = wanted.extras or {""}
        for text in needs:
            need = Requirement(text)
            if need.marker is None or any(need.marker.evaluate({"extra": e}) for e in extras):
                todo.append(need)
    return seen


def _top_level_imports(path: Path) -> set[str]:
    """The top-level names of the modules ``path`` imports when it is loaded: its imports at
    module level (in ``if``/``with`` blocks too), not those in functions, in a ``try`` that
    catches ``ImportError`` or for type checkers only."""
    found: set[str] = set()
    stack: list[ast.AST] = [ast.parse(path.read_text())]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (
            (
                isinstance(node, ast.Try)
                and any(
                    "ImportError" in ast.unparse(h.type or ast.Constant(None))
                    for h in node.handlers
                )
            )
            or _type_checking_only(node)
            or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        ):
            continue
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def test_every_module_loads_with_the_runtime_dependencies_alone() -> None:
    """What a module imports when it is loaded comes from the standard library, the package
    or what pyproject.toml's ``dependencies`` install (the installed app has those alone:
    ``scripts/app``'s lock), never from the tests' tools only (``ludoteca bot`` once loaded
    httpx, a test tool, and with it every command); an adapter's may come from the
    ``research`` extra it documents."""
    project = tomllib.loads((ROOT.parent / "pyproject.toml").read_text())["project"]
    runtime = _installed_with(project["dependencies"])
    research = runtime | _installed_with(project["optional-dependencies"]["research"])
    distributions = importlib.metadata.packages_distributions()
    missing: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        allowed = research if path.parent.name == "adapters" else runtime
        for name in _top_level_imports(path):
            if name in sys.stdlib_module_names or name in ("ludoteca", "__future__"):
                continue
            if not {canonicalize_name(d) for d in distributions.get(name, [name])} & allowed:
                missing.setdefault(name, []).append(str(path.relative_to(ROOT.parent)))
    assert not missing, missing


def test_the_dependency_scan_sees_what_is_loaded_with_a_module(tmp_path: Path) -> None:
    """The scan counts module-level imports (in an ``if`` too) and skips function-level ones,
    guarded ones and those for type checkers."""
    module = tmp_path / "m.py"
    module.write_text(
        "import httpx.client\nfrom numpy import array\nif True:\n    import yaml\n"
        "try:\n    import ray\nexcept ImportError:\n    ray = None\n"
        "if TYPE_CHECKING:\n    import scipy\n"
        "def f():\n    import pyspiel\nfrom . import sibling\n"
    )
    assert _top_level_imports(module) == {"httpx", "numpy", "yaml"}


#: the server's frameworks, which no test of the engines should load
SERVER_MODULES = ("fastapi", "sqlalchemy", "starlette", "ludoteca.server")


def _loaded_by_collecting(folder: str) -> list[str]:
    """Which of :data:`SERVER_MODULES` a pytest process has loaded once it has collected (so
    imported, with their ``conftest.py`` files) the tests of ``tests/<folder>``."""
    code = (
        "import json, sys, pytest\n"
        f"status = pytest.main(['tests/{folder}', '--collect-only', '-q', '-p', 'no:randomly',"
        " '-p', 'no:cacheprovider'])\n"
        "assert status == 0, status\n"
        f"print(json.dumps([m for m in {SERVER_MODULES!r} if m in sys.modules]))\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return list(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("folder", ["games", "ai", "compiled", "solve", "adapters"])
def test_the_engines_tests_load_no_server_code(folder: str) -> None:
    """The tests of rules, players, the compiled code, the solvers and the adapters load neither
    the web framework nor the database layer (their packages have no server fixtures)."""
    assert _loaded_by_collecting(folder) == []


def test_the_collection_check_sees_the_server_loaded() -> None:
    """The check above sees a package whose tests do load the server: the records' tests
    (``study/``) take the app's fixtures."""
    assert set(_loaded_by_collecting("study")) == set(SERVER_MODULES)
