"""How the package hangs together: no import cycle across packages (function-level imports
counted), and nothing compiled loaded until a game's kernel is asked for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
