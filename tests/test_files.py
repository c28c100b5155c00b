"""Files written whole (``ludoteca.files``): a reader sees the old file or the new one, two
writers of one path at once both finish, and a failed write leaves the old file and no
temporary one; a file wanted by two processes at once is built once, a damaged one again."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO
from unittest.mock import patch

import pytest
from filelock import FileLock, Timeout

from ludoteca import files
from ludoteca.files import read_or_build, write_atomically


def test_two_writers_of_one_path_at_once_both_finish_with_a_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "table.npz"
    both = threading.Barrier(2)
    errors: list[BaseException] = []

    def writer(text: bytes) -> None:
        def write(out: BinaryIO) -> None:
            out.write(text[:3])
            both.wait(timeout=10)  # both temporary files are half written now
            out.write(text[3:])

        try:
            write_atomically(path, write, durable=True)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(t,)) for t in (b"first", b"second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert path.read_bytes() in (b"first", b"second")
    assert [p.name for p in path.parent.iterdir()] == ["table.npz"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "book.json.xz"
    path.write_bytes(b"old")

    def broken(out: BinaryIO) -> None:
        out.write(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, broken)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["book.json.xz"]


def _build_slowly(path: Path, log: Path, name: str) -> None:
    """Ask for ``path``; a build (the first process's) goes on until the other process has
    logged that its lock attempt failed ("waits": the first holds the file's lock), so that it
    waits for the build whenever it starts; log who asked, who waited, who built and who
    read."""

    def build() -> bytes:
        with log.open("a") as out:
            out.write(f"{name} builds\n")
        deadline = time.monotonic() + 30  # (then the test fails: nobody waited)
        while "waits" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.01)  # polling the log: the other process has not tried the lock yet
        return name.encode()

    lock = FileLock  # (the first process's: the real one)
    if name != "first":

        class Announced(FileLock):
            """The lock of ``ludoteca.files``, logging "waits" when taking it fails at first."""

            def acquire(self, *args: Any, **kwargs: Any) -> Any:
                try:
                    return super().acquire(blocking=False)
                except Timeout:
                    with log.open("a") as out:
                        out.write(f"{name} waits\n")
                return super().acquire(*args, **kwargs)

        lock = Announced
        with log.open("a") as out:
            out.write(f"{name} asks\n")
    with patch.object(files, "FileLock", lock):
        content, read = read_or_build(path, Path.read_bytes, build, lambda out, b: out.write(b))
    with log.open("a") as out:
        out.write(f"{name} {'read' if read else 'built'} {content.decode()}\n")


def test_a_file_two_processes_want_at_once_is_built_once(tmp_path: Path) -> None:
    path, log = tmp_path / "table.npy", tmp_path / "log"
    context = multiprocessing.get_context("spawn")
    first = context.Process(target=_build_slowly, args=(path, log, "first"))
    first.start()
    deadline = time.monotonic() + 60
    while not log.exists() and time.monotonic() < deadline:  # the first one is building
        time.sleep(0.01)
    second = context.Process(target=_build_slowly, args=(path, log, "second"))
    second.start()
    for process in (first, second):
        process.join(60)
        if process.exitcode is None:
            process.kill()
            process.join()
    lines = log.read_text().splitlines()
    # the second asked while the first was building, found the lock taken, waited, and read
    # the first's file
    assert lines == [
        "first builds",
        "second asks",
        "second waits",
        "first built first",
        "second read first",
    ]
    assert (first.exitcode, second.exitcode) == (0, 0)


def test_a_damaged_file_is_built_again(tmp_path: Path) -> None:
    path = tmp_path / "table.npy"
    path.write_bytes(b"damaged")

    def read(path: Path) -> bytes:
        raise ValueError("not a table")

    assert read_or_build(path, read, lambda: b"whole", lambda out, b: out.write(b)) == (
        b"whole",
        False,
    )
    assert path.read_bytes() == b"whole"
