"""Solved tables as downloads: a table built once is exported to one file and imported on
another machine into its cache, so that a club's server need not spend the CPU again.

An exported file is a line ``LUDOTECA TABLE``, a line of JSON (the header) and the table's
cached file, byte for byte.  The header names the export format's version, the game and rule
set, the ``men`` that gives the game's solver for this table, the table's key and cached file
name (which ends with the table format's version, ``-vN``), the table's size in bytes and its
SHA-256.  An import checks all of it before writing anything: a file that is not an export, is
damaged (cut short, changed: the checksum), belongs to a table this version of Ludoteca builds
differently (another format version), or whose table is not the one its rule set (or the
``--rules`` asked for) uses, is refused with a sentence and the cache is left as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path
from typing import Any, BinaryIO

from ..core import LudotecaError
from ..files import write_atomically
from ..games import load
from ..i18n import _
from ..tables import Solver
from .checkpoint import Checkpoint

__all__ = ["MAGIC", "VERSION", "export_table", "import_table", "register"]

#: the first line of every exported table
MAGIC = b"LUDOTECA TABLE\n"
#: the version of the export format (the header's fields)
VERSION = 1
_CHUNK = 1 << 20
_FIELDS = ("version", "game", "rules", "men", "table", "file", "bytes", "sha256")


def _solver(rules: str, men: int | None) -> Solver:
    """The solver of a rule set's table, ``men`` its size where the game has a choice."""
    game = load(rules)
    solver = game.solver(men)
    if solver is None:
        raise LudotecaError(
            _("%(rules)s has no solved table: nothing to export or import", rules=game.rules)
        )
    return solver


def _copy(source: BinaryIO, target: BinaryIO | None, digest: Any, limit: int | None) -> int:
    """Copy ``source`` to ``target`` (or only read it), ``limit`` bytes at most (None: all),
    feeding ``digest``; the number of bytes read."""
    done = 0
    while limit is None or done < limit:
        chunk = source.read(_CHUNK if limit is None else min(_CHUNK, limit - done))
        if not chunk:
            break
        digest.update(chunk)
        if target is not None:
            target.write(chunk)
        done += len(chunk)
    return done


def export_table(rules: str, out: Path, men: int | None = None) -> dict[str, Any]:
    """Write the built table of ``rules`` (``men``: its size where the game has a choice) to
    ``out``; its header.  Raises :class:`LudotecaError` when the table is not built here."""
    solver = _solver(rules, men)
    source = solver.path()
    if not source.exists():
        raise LudotecaError(
            _(
                "the table of %(rules)s is not built here: build it first (ludoteca solve)",
                rules=solver.rules,
            )
        )
    digest = hashlib.sha256()
    with source.open("rb") as stream:
        size = _copy(stream, None, digest, None)
    header = {
        "version": VERSION,
        "game": solver.rules.game,
        "rules": str(solver.rules),
        "men": solver.choice,
        "table": solver.key,
        "file": source.name,
        "bytes": size,
        "sha256": digest.hexdigest(),
    }

    def copy(target: BinaryIO) -> None:
        with source.open("rb") as stream:
            target.write(MAGIC + json.dumps(header).encode() + b"\n")
            _copy(stream, target, hashlib.sha256(), None)

    write_atomically(out, copy)
    return header


def _header(stream: BinaryIO, name: Path) -> dict[str, Any]:
    if stream.read(len(MAGIC)) != MAGIC:
        raise LudotecaError(_("%(file)s is not an exported Ludoteca table", file=name))
    try:
        header = json.loads(stream.readline(1 << 16))
    except ValueError:
        header = None
    if not isinstance(header, dict) or any(key not in header for key in _FIELDS):
        raise LudotecaError(_("%(file)s is damaged: its header cannot be read", file=name))
    if header["version"] != VERSION:
        raise LudotecaError(
            _(
                "%(file)s was exported in format %(theirs)s; this version of Ludoteca reads "
                "format %(ours)s",
                file=name,
                theirs=header["version"],
                ours=VERSION,
            )
        )
    return header


def import_table(file: Path, rules: str | None = None) -> tuple[dict[str, Any], Path]:
    """Check the exported table ``file`` (and, with ``rules``, that it is that rule set's
    table) and put it into the cache; its header and where it went.  Raises
    :class:`LudotecaError`, having written nothing, for a file it refuses."""
    with file.open("rb") as stream:
        header = _header(stream, file)
        try:
            solver = _solver(str(header["rules"]), header["men"])
        except LudotecaError as error:
            raise LudotecaError(
                _("%(file)s belongs to a rule set unknown here: %(why)s", file=file, why=error)
            ) from None
        if solver.key != header["table"]:
            raise LudotecaError(
                _(
                    "%(file)s holds the table %(table)s, which is not the table of its rule "
                    "set %(rules)s (%(key)s)",
                    file=file,
                    table=header["table"],
                    rules=header["rules"],
                    key=solver.key,
                )
            )
        if rules is not None:
            wanted = _solver(rules, header["men"])
            if wanted.key != solver.key:
                raise LudotecaError(
                    _(
                        "%(file)s holds the table of %(theirs)s, not of %(rules)s",
                        file=file,
                        theirs=header["rules"],
                        rules=wanted.rules,
                    )
                )
        target = solver.path()
        if target.name != header["file"]:
            raise LudotecaError(
                _(
                    "%(file)s holds the table as %(theirs)s; this version of Ludoteca builds "
                    "it as %(ours)s (another table format): build it here instead",
                    file=file,
                    theirs=header["file"],
                    ours=target.name,
                )
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.import")
        digest = hashlib.sha256()
        try:
            with tmp.open("wb") as out:
                size = _copy(stream, out, digest, header["bytes"])
            if size != header["bytes"] or stream.read(1) or digest.hexdigest() != header["sha256"]:
                raise LudotecaError(
                    _(
                        "%(file)s is damaged: its table does not match its checksum "
                        "(cut short or changed); nothing was imported",
                        file=file,
                    )
                )
            tmp.replace(target)
            Checkpoint.of(solver).clear()  # an interrupted build of it is not needed now
        finally:
            tmp.unlink(missing_ok=True)
    return header, target


def _export(args: argparse.Namespace) -> int:
    header = export_table(args.rules, args.file, args.men)
    print(
        _(
            "%(table)s (%(rules)s, %(size)s bytes, sha256 %(sum)s) exported to %(file)s",
            table=header["table"],
            rules=header["rules"],
            size=f"{header['bytes']:,}",
            sum=header["sha256"][:16],
            file=args.file,
        )
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    header, target = import_table(args.file, args.rules)
    print(
        _(
            "%(table)s (%(rules)s) imported to %(target)s",
            table=header["table"],
            rules=header["rules"],
            target=target,
        )
    )
    return 0


def register(sub: Any) -> None:
    """Add ``ludoteca tables export RULES FILE [--men N]`` and ``ludoteca tables import FILE
    [--rules R]`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "tables", help=_("export a built table to a file, or import one built elsewhere")
    )
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    export = actions.add_parser("export", help=_("write the built table of a rule set to a file"))
    export.add_argument("rules", help=_("the rule set, e.g. felli-mullah or morris"))
    export.add_argument("file", type=Path)
    export.add_argument(
        "--men", type=int, default=None, help=_("the table's size, where there is a choice")
    )
    export.set_defaults(handler=_export)
    imported = actions.add_parser(
        "import", help=_("check an exported table and put it into the cache")
    )
    imported.add_argument("file", type=Path)
    imported.add_argument(
        "--rules", default=None, help=_("refuse the file unless it is this rule set's")
    )
    imported.set_defaults(handler=_import)
