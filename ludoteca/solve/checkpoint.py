"""Checkpoints of a table build: the stages solved so far, kept beside the table's cache file,
so that a build stopped halfway (a server that stops, a killed process) goes on where it
stopped instead of starting over (see :func:`~ludoteca.solve.retrograde.solve_pairs`).

A checkpoint is the folder ``<table file>.partial/``: one file a stage solved
(``stage-NNNNN.npy``, the ``int16`` codes of the stage's pairs one after the other) and
``manifest.json``: the checkpoint format's version, the build's *fingerprint* (a SHA-256 of
that version, the table's key, its size, every stage's pairs and the game's layout data) and the
SHA-256 of each stage saved, in order.  Every file is written under another name and then
renamed over its place, the stage before the manifest that names it, so a process killed at
any moment leaves the earlier checkpoint or the new one, never half of one.  A build uses a
checkpoint only when its fingerprint is the build's own and every stage it names checks out;
otherwise (another layout, rule set or format; a damaged file) it logs why, deletes it and
builds from the start.  The table's solver deletes the checkpoint once the table is written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..files import write_atomically

if TYPE_CHECKING:
    from ..tables import Solver

__all__ = ["FORMAT", "Checkpoint"]

#: the version of the checkpoint's files (part of every fingerprint)
FORMAT = 1
MANIFEST = "manifest.json"
log = logging.getLogger("ludoteca.tables")

CodeArray = npt.NDArray[np.int16]
#: a stage: the ``(lo, hi)`` entries of each of its pairs
Stage = Sequence[tuple[int, int]]


class Checkpoint:
    """The checkpoint of one table's build, in ``folder`` (see the module's notes); ``key``
    names the table (:attr:`Solver.key`)."""

    def __init__(self, folder: Path, key: str) -> None:
        self.folder = folder
        self.key = key
        self._fingerprint = ""
        self._stages: list[list[tuple[int, int]]] = []
        self._saved: list[str] = []

    @classmethod
    def of(cls, solver: Solver) -> Checkpoint:
        """The checkpoint of ``solver``'s table: ``<its cache file>.partial/``."""
        table = solver.path()
        return cls(table.with_name(table.name + ".partial"), solver.key)

    def saved(self) -> tuple[int, int] | None:
        """``(stages saved, stages)`` as the checkpoint's manifest says (not checked against a
        build: for people, before one starts); None when there is no readable manifest."""
        try:
            manifest = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
            return len(manifest["solved"]), int(manifest["stages"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def resume(self, table: CodeArray, stages: Sequence[Stage], data: Any) -> int:
        """Start the checkpoint of a build of ``table`` (its stages in solving order; ``data``:
        anything else the table's layout depends on, numbers, strings and arrays in tuples), and
        copy into ``table`` the stages that a checkpoint of this very build holds; the number
        of stages copied, the first ones.  ``table``'s entries in the stages are zero before;
        a checkpoint that does not fit is deleted (0 stages copied)."""
        self._stages = [[(int(lo), int(hi)) for lo, hi in stage] for stage in stages]
        self._fingerprint = _fingerprint(self.key, table.size, self._stages, data)
        self._saved = []
        if not self.folder.exists():
            return 0
        try:
            manifest = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:  # killed before its first stage was complete
            self.clear()
            return 0
        except (OSError, ValueError) as error:
            return self._discard(table, f"its manifest is unreadable: {error}")
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            return self._discard(table, "its format is another", warn=False)
        if manifest.get("fingerprint") != self._fingerprint:
            return self._discard(table, "it belongs to another table layout or rules", warn=False)
        solved = manifest.get("solved")
        if not isinstance(solved, list) or len(solved) > len(self._stages):
            return self._discard(table, "its manifest is damaged")
        for k, digest in enumerate(solved):
            try:
                codes = np.load(self._file(k), allow_pickle=False)
            except (OSError, ValueError, EOFError, SyntaxError) as error:
                return self._discard(table, f"stage {k} is unreadable: {error}")
            spans = self._stages[k]
            if (
                codes.dtype != np.int16
                or codes.shape != (sum(hi - lo for lo, hi in spans),)
                or _digest(codes) != digest
            ):
                return self._discard(table, f"stage {k} does not match its checksum")
            at = 0
            for lo, hi in spans:
                table[lo:hi] = codes[at : at + hi - lo]
                at += hi - lo
            self._saved.append(digest)
        return len(solved)

    def save(self, table: CodeArray) -> None:
        """Save the next stage of the build (the first not saved yet), solved in ``table``."""
        k = len(self._saved)
        codes = np.concatenate([table[lo:hi] for lo, hi in self._stages[k]])
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomically(
            self._file(k), lambda out: np.save(out, codes, allow_pickle=False), durable=True
        )
        self._saved.append(_digest(codes))
        manifest = {
            "format": FORMAT,
            "table": self.key,
            "fingerprint": self._fingerprint,
            "stages": len(self._stages),
            "solved": self._saved,
        }
        text = json.dumps(manifest, indent=1).encode()
        write_atomically(self.folder / MANIFEST, lambda out: out.write(text), durable=True)

    def clear(self) -> None:
        """Delete the checkpoint (there may be none)."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def _file(self, k: int) -> Path:
        return self.folder / f"stage-{k:05d}.npy"

    def _discard(self, table: CodeArray, why: str, warn: bool = True) -> int:
        """Delete the checkpoint, undo the stages already copied into ``table``, log ``why``."""
        for stage in self._stages[: len(self._saved)]:
            for lo, hi in stage:
                table[lo:hi] = 0
        self._saved = []
        self.clear()
        (log.warning if warn else log.info)(
            "the checkpoint %s is not used (%s): the table is built from the start",
            self.folder,
            why,
        )
        return 0


def _digest(codes: CodeArray) -> str:
    return hashlib.sha256(np.ascontiguousarray(codes).data).hexdigest()


def _fingerprint(key: str, size: int, stages: list[list[tuple[int, int]]], data: Any) -> str:
    digest = hashlib.sha256(json.dumps([FORMAT, key, size, stages]).encode())
    _feed(digest, data)
    return digest.hexdigest()


def _feed(digest: Any, value: Any) -> None:
    """Feed ``value`` (numbers, strings, arrays, nested in tuples or lists) to ``digest``."""
    if isinstance(value, np.ndarray):
        digest.update(f"array {value.dtype.str} {value.shape}".encode())
        digest.update(np.ascontiguousarray(value).data)
    elif isinstance(value, (tuple, list)):
        digest.update(f"sequence {len(value)}".encode())
        for item in value:
            _feed(digest, item)
    else:
        digest.update(f"{type(value).__name__} {value!r}".encode())
