"""The store commits moves that arrive together in one transaction, each checked on its own:
a stale move (its game has moved on) is refused and written nowhere; the others land."""

from __future__ import annotations

import asyncio
from pathlib import Path

import anyio
import pytest
from sqlalchemy import text

from ludoteca.server import store as store_module
from ludoteca.server.store import GameRow, StaleError, Store
from ludoteca.server.timings import Timings


async def _store_with(tmp_path: Path, *games: tuple[str, str, int]) -> Store:
    """An open store on a SQLite file holding live games given as (id, mode, ply)."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
    await store.open()
    for game_id, mode, ply in games:
        await store.add_game(
            GameRow(
                id=game_id,
                game="morris",
                rules="morris",
                mode=mode,
                white="human",
                black="human",
                status="live",
                ply=ply,
                result="*",
            )
        )
    return store


def test_a_stale_move_in_a_batch_is_refused_and_the_others_land(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await _store_with(tmp_path, *((game_id, "hotseat", 0) for game_id in "abc"))
        answers = await asyncio.gather(
            store.add_move("a", 0, "d2", draw_offer=None),
            store.add_move("b", 5, "d2", draw_offer=None),  # b is at ply 0
            store.add_move("c", 0, "f4", draw_offer=None),
            return_exceptions=True,
        )
        assert answers[0] is None and answers[2] is None
        assert isinstance(answers[1], StaleError)
        for game_id, ply, moves in (("a", 1, ["d2"]), ("b", 0, []), ("c", 1, ["f4"])):
            found = await store.game(game_id)
            assert found is not None
            assert (found[0].ply, found[1]) == (ply, moves)
        await store.close()

    asyncio.run(scenario())


def test_a_game_ends_once_however_many_processes_end_it(tmp_path: Path) -> None:
    """Two ends of one game (a flag seen by two processes): one lands with its extra work (the
    ratings), the other is stale and does nothing."""

    async def scenario() -> list[object]:
        store = await _store_with(tmp_path, ("g", "online", 3))
        settled: list[str] = []
        ending = {"status": "over", "result": "0-1", "termination": "time forfeit"}
        answers = await asyncio.gather(
            *(
                store.finish("g", 3, then=lambda _c, n=n: settled.append(n), **ending)
                for n in ("one", "two")
            ),
            return_exceptions=True,
        )
        found = await store.game("g")
        assert found is not None and found[0].status == "over"
        await store.close()
        return [*answers, settled]

    first, second, settled = asyncio.run(scenario())
    assert sorted([first is None, second is None]) == [False, True]
    assert isinstance(first if first is not None else second, StaleError)
    assert isinstance(settled, list) and len(settled) == 1


def test_reads_cancelled_at_any_point_leave_nothing_running_after_close(tmp_path: Path) -> None:
    """Readers cancelled at every stage of their reads, by a cancelled task group (as the
    server's framework cancels a closing websocket's handler: again at every await until it
    ends): once the store is closed no task of the database driver is left behind, so the
    server's shutdown cannot wait on one."""

    async def scenario() -> list[str]:
        store = await _store_with(tmp_path, ("g", "hotseat", 0))
        await store.add_move("g", 0, "d2", draw_offer=None)

        async def reader() -> None:
            while True:
                assert await store.game("g") is not None
                assert len(await store.listing("live")) == 1
                await asyncio.sleep(0)  # a turn of the event loop between reads

        for steps in range(40):
            async with anyio.create_task_group() as readers:
                for _ in range(4):
                    readers.start_soon(reader)
                for _ in range(steps):
                    await asyncio.sleep(0)  # cancel after this many turns of the event loop
                readers.cancel_scope.cancel()
        found = await store.game("g")
        assert found is not None and found[1] == ["d2"]
        await store.close()
        others = asyncio.all_tasks() - {asyncio.current_task()}
        if others:  # a task ending as the store closes may take a moment more, no longer
            await asyncio.wait(others, timeout=0.2)
        return [repr(task.get_coro()) for task in others if not task.done()]

    assert asyncio.run(scenario()) == []


def test_a_sqlite_file_is_synced_as_asked(tmp_path: Path) -> None:
    async def level(sync: str | None) -> int:
        url = f"sqlite+aiosqlite:///{tmp_path / f'{sync}.db'}"
        store = Store(url) if sync is None else Store(url, sync)
        await store.open()
        try:
            async with store.session() as session:  # (read on the plain connection)
                plain = (await session.execute(text("PRAGMA synchronous"))).scalar_one()
            async with store.engine.connect() as connection:  # (and on the async driver's)
                driver = (await connection.execute(text("PRAGMA synchronous"))).scalar_one()
            assert plain == driver
            return int(plain)
        finally:
            await store.close()

    # SQLite's levels: 1 NORMAL (the log synced at checkpoints), 2 FULL (every commit)
    assert anyio.run(level, None) == 1
    assert anyio.run(level, "normal") == 1
    assert anyio.run(level, "full") == 2
    with pytest.raises(ValueError, match="full, normal"):
        Store(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", "off")


def _log_size_after_writes(tmp_path: Path, every: float, rounds: int, pause: float) -> int:
    """The largest size (pages) the write-ahead log of an open SQLite store reached while
    ``rounds`` rounds of 50 transactions, each writing 8,000 random bytes (four pages of log),
    went in with ``pause`` seconds after each round; its checkpoints ``every`` seconds."""

    async def scenario() -> int:
        path = tmp_path / f"log-{every}.db"
        store = Store(f"sqlite+aiosqlite:///{path}", checkpoint_every=every)
        await store.open()
        log = path.with_name(path.name + "-wal")
        largest = 0
        try:
            await store.write(lambda c: c.exec_driver_sql("CREATE TABLE filler (x BLOB)"))
            for _ in range(rounds):
                for _ in range(50):
                    await store.write(
                        lambda c: c.exec_driver_sql("INSERT INTO filler VALUES (randomblob(8000))")
                    )
                largest = max(largest, log.stat().st_size)
                await asyncio.sleep(pause)
            return largest // 4096
        finally:
            await store.close()

    return asyncio.run(scenario())


def test_a_commit_never_copies_the_log_and_the_checkpoints_keep_it_short(tmp_path: Path) -> None:
    """A SQLite file's log is copied into the database off the event loop: with the thread's
    checkpoints held off, 750 transactions of 8 KB grow the log past SQLite's automatic
    checkpoint (1,000 pages), which no commit now runs; with checkpoints every 50 ms, the log
    is copied and begun again between rounds, so it never holds much more than a round (with
    the automatic checkpoint it would reach 1,000 pages)."""
    held_off = _log_size_after_writes(tmp_path, every=3600, rounds=15, pause=0)
    assert held_off > 2_500  # every page of the 750 transactions is still in the log
    checkpointed = _log_size_after_writes(tmp_path, every=0.05, rounds=15, pause=0.2)
    assert checkpointed < 500  # a round is some 200 pages


def test_moves_that_arrive_within_the_commit_gap_share_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after a commit, the moves that arrive before COMMIT_GAP has passed wait for it
    and are committed together."""
    monkeypatch.setattr(store_module, "COMMIT_GAP", 0.5)  # (however slow the machine)

    async def scenario() -> list[int]:
        store = await _store_with(tmp_path, *((game_id, "hotseat", 0) for game_id in "abcd"))
        timings = Timings()
        store.timings = timings
        await store.add_move("a", 0, "d2", draw_offer=None)  # a commit: the gap starts
        first = asyncio.ensure_future(store.add_move("b", 0, "d2", draw_offer=None))
        await asyncio.sleep(0)  # (its batch is waiting for the gap)
        second = asyncio.ensure_future(store.add_move("c", 0, "d2", draw_offer=None))
        third = asyncio.ensure_future(store.add_move("d", 0, "d2", draw_offer=None))
        await asyncio.gather(first, second, third)
        await store.close()
        return timings.batch_moves.counts

    counts = asyncio.run(scenario())
    assert counts[:3] == [1, 0, 1]  # a commit of one move (a), then one of three (b, c, d)
    assert sum(counts) == 2


def test_two_stores_writing_the_same_ply_cannot_both_succeed(database_url: str) -> None:
    """Two server processes (two stores on one database) storing different moves at the same
    ply of the same games at once: for each game exactly one move lands, the other writer is
    told :class:`StaleError` (not a database error), and the game holds the winner's move."""
    games = [f"g{i}" for i in range(12)]

    async def scenario() -> None:
        first, second = Store(database_url), Store(database_url)
        await first.open()
        for game_id in games:
            await first.add_game(
                GameRow(
                    id=game_id,
                    game="morris",
                    rules="morris",
                    mode="online",
                    white="human",
                    black="human",
                    status="live",
                    ply=0,
                    result="*",
                )
            )
        answers = await asyncio.gather(
            *(
                store.add_move(game_id, 0, move, draw_offer=None)
                for game_id in games
                for store, move in ((first, "d2"), (second, "f4"))
            ),
            return_exceptions=True,
        )
        for index, game_id in enumerate(games):
            mine, theirs = answers[2 * index], answers[2 * index + 1]
            assert sorted([mine is None, theirs is None]) == [False, True], (mine, theirs)
            loser = mine if mine is not None else theirs
            assert isinstance(loser, StaleError), repr(loser)
            found = await second.game(game_id)
            assert found is not None
            assert found[0].ply == 1
            assert found[1] == ["d2" if mine is None else "f4"]
        await first.close()
        await second.close()

    asyncio.run(scenario())
