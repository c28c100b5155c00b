"""The store commits moves that arrive together in one transaction, each checked on its own:
a stale move (its game has moved on) is refused and written nowhere; the others land."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ludoteca.server.store import GameRow, StaleError, Store


def test_a_stale_move_in_a_batch_is_refused_and_the_others_land(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
        await store.open()
        for game_id in ("a", "b", "c"):
            await store.add_game(GameRow(
                id=game_id, game="morris", rules="morris", mode="hotseat", white="human",
                black="human", status="live", ply=0, result="*"))
        answers = await asyncio.gather(
            store.add_move("a", 0, "d2", draw_offer=None),
            store.add_move("b", 5, "d2", draw_offer=None),  # b is at ply 0
            store.add_move("c", 0, "f4", draw_offer=None),
            return_exceptions=True)
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
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
        await store.open()
        await store.add_game(GameRow(id="g", game="morris", rules="morris", mode="online",
                                     white="human", black="human", status="live", ply=3,
                                     result="*"))
        settled: list[str] = []
        ending = {"status": "over", "result": "0-1", "termination": "time forfeit"}
        answers = await asyncio.gather(
            *(store.finish("g", 3, then=lambda _c, n=n: settled.append(n), **ending)
              for n in ("one", "two")), return_exceptions=True)
        found = await store.game("g")
        assert found is not None and found[0].status == "over"
        await store.close()
        return [*answers, settled]

    first, second, settled = asyncio.run(scenario())
    assert sorted([first is None, second is None]) == [False, True]
    assert isinstance(first if first is not None else second, StaleError)
    assert isinstance(settled, list) and len(settled) == 1
