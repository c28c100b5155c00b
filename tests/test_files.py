"""Files written whole (``ludoteca.files``): a reader sees the old file or the new one, two
writers of one path at once both finish, and a failed write leaves the old file and no
temporary one."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import BinaryIO

import pytest

from ludoteca.files import write_atomically


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
