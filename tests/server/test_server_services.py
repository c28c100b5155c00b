"""The composition root (:mod:`ludoteca.server.services`): every service of
:class:`~ludoteca.server.deps.Services` is built there and nowhere else in the package, and each
has its one dependency in :mod:`ludoteca.server.deps` handing it to the routers."""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import typing
from pathlib import Path
from types import SimpleNamespace

import ludoteca
from ludoteca.server import deps
from ludoteca.server.deps import Services

PACKAGE = Path(ludoteca.__file__).parent
ROOT = PACKAGE / "server" / "services.py"


def _service_classes() -> dict[str, type]:
    """The classes of :class:`Services`' fields, by name."""
    return {kind.__name__: kind for kind in typing.get_type_hints(Services).values()}


def _constructions(path: Path, names: set[str]) -> list[str]:
    """Where the module at ``path`` calls one of the classes ``names``, or a class method of
    one (``Notifier.open(...)``, an async constructor): ``name:line`` each."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name):
                name = called.value.id if called.value.id in names else name
            if name in names:
                found.append(f"{name}:{node.lineno}")
    return found


def test_every_service_is_built_in_the_composition_root_alone() -> None:
    names = set(_service_classes())
    elsewhere = {
        str(path.relative_to(PACKAGE)): calls
        for path in PACKAGE.rglob("*.py")
        if path != ROOT and (calls := _constructions(path, names))
    }
    assert elsewhere == {}
    assert {call.split(":")[0] for call in _constructions(ROOT, names)} == names


def test_every_service_has_its_dependency() -> None:
    """``HubDep`` for ``hub`` (and so on): an ``Annotated`` of the field's class whose
    dependency hands over that field of the request's services."""
    stand_in = SimpleNamespace(**{field.name: object() for field in dataclasses.fields(Services)})
    for name, kind in _service_classes().items():
        alias = getattr(deps, f"{name}Dep")
        hinted, depends = typing.get_args(alias)
        assert hinted is kind
        field = next(f.name for f in dataclasses.fields(Services) if f.type == name)
        handed = asyncio.run(depends.dependency(stand_in))
        assert handed is getattr(stand_in, field), name
