"""The analysis board's server side: positions with their legal moves, engine lines streamed
depth by depth and replaced when the position changes, the cap on a flood of positions, the
games and records it opens, and the check of an edited position."""

from __future__ import annotations

import asyncio
import random
import re
import types
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.server.computer.pool import JobKilled
from ludoteca.server.routers.analysis import FLOOD_POSITIONS
from ludoteca.server.study import analysis
from ludoteca.server.study.analysis import Analyst, search_lines
from ludoteca.server.study.schemas import AnalysisErrorMessage, AnalysisSent, LinesMessage

from .test_server_api import act, new, url, wait_for


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The board reads no stored games but those it opens: SQLite only."""
    return url(tmp_path)


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = orjson.loads(ws.receive_text())
    return message


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping others; an analysis that ends or fails instead
    fails the test (rather than leaving it waiting for lines that will never come)."""
    while True:
        message = receive(ws)
        if message["type"] == kind:
            return message
        assert message["type"] not in ("done", "error"), message


def test_lines_arrive_depth_by_depth_and_stop_on_a_new_position(client: TestClient) -> None:
    start = ludoteca.load("morris").new().child("a1")  # out of the opening book: searched
    legal = {str(start.move_of(c)) for c in start.legal_codes()}
    with client.websocket_connect("/ws/analysis") as ws:
        ask = {"type": "show", "id": 1, "game": "morris", "moves": ["a1"]}
        ws.send_text(orjson.dumps(ask).decode())
        shown = receive(ws)
        assert shown["type"] == "position" and shown["id"] == 1
        assert {entry.split()[0] for entry in shown["legal"]} == legal
        assert shown["board"]["points"] == list(start.game.board.points)
        assert shown["code"] == start.position_code()
        # a first glance: depth 1's best move alone, its value the best of every root move's
        glance = next_of(ws, "lines")
        assert glance["id"] == 1 and glance["depth"] == 1 and len(glance["lines"]) == 1
        depths, answers = [], []
        while len(depths) < 3:
            lines = next_of(ws, "lines")
            assert lines["id"] == 1
            depths.append(lines["depth"])
            answers.append(lines)
            assert 1 <= len(lines["lines"]) <= 3
            for line in lines["lines"]:
                assert line["pv"][0] in legal
                assert len(line["pv"]) <= lines["depth"] or lines["exact"]
        assert depths == [1, 2, 3]
        assert len(answers[0]["lines"]) == 3  # then every root move scored: the three best
        assert glance["lines"][0]["score"] == answers[0]["lines"][0]["score"]
        ws.send_text(
            orjson.dumps(
                {"type": "show", "id": 2, "game": "morris", "moves": ["a1", "d2"]}
            ).decode()
        )
        while (message := receive(ws))["type"] != "position":
            assert message["id"] == 1  # what was already on its way
        assert message["id"] == 2 and "board" not in message  # the board is sent once
        after = start.child("d2")
        assert message["pieces"] == after.pieces()
        assert message["turn"] == "white"
        replies = {str(after.move_of(c)) for c in after.legal_codes()}
        for _ in range(2):
            lines = next_of(ws, "lines")
            assert lines["id"] == 2  # nothing more of the first position
            assert {line["pv"][0] for line in lines["lines"]} <= replies


def test_a_flood_of_positions_is_capped_with_a_sentence(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as ws:
        answers = []
        for i in range(FLOOD_POSITIONS + 2):
            ask = {"type": "show", "id": i, "game": "felli", "analyse": False}
            ws.send_text(orjson.dumps(ask).decode())
            answers.append(receive(ws))
        assert [a["type"] for a in answers[:FLOOD_POSITIONS]] == ["position"] * FLOOD_POSITIONS
        for refused in answers[FLOOD_POSITIONS:]:
            assert refused["type"] == "error"
            assert "too many positions" in refused["message"]


def test_illegal_moves_and_unknown_games_are_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_text(orjson.dumps({"type": "show", "id": 1, "game": "nosuch"}).decode())
        assert receive(ws)["type"] == "error"
        ask = {"type": "show", "id": 2, "game": "morris", "moves": ["d2", "d2"]}
        ws.send_text(orjson.dumps(ask).decode())
        refused = receive(ws)
        assert refused["type"] == "error" and "d2" in refused["message"]


def test_a_game_and_its_record_open_the_same_line(client: TestClient) -> None:
    game_id, tokens = new(client, game="morris", opponent="hotseat")
    for ply, move in enumerate(["d2", "d6", "f4"]):
        answer = act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
        assert answer.status_code == 200, answer.text
    record = client.get(f"/api/games/{game_id}/record").text
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_text(orjson.dumps({"type": "open", "game_id": game_id}).decode())
        line = receive(ws)
        ws.send_text(orjson.dumps({"type": "open", "record": record}).decode())
        again = receive(ws)
        ws.send_text(orjson.dumps({"type": "open", "record": "not a record"}).decode())
        bad = receive(ws)
    assert line["type"] == "line" and line["moves"] == ["d2", "d6", "f4"]
    assert line["start"] == ludoteca.load("morris").new().position_code()
    assert {k: again[k] for k in ("game", "rules", "start", "moves")} == {
        k: line[k] for k in ("game", "rules", "start", "moves")
    }
    assert bad["type"] == "error"


def test_an_impossible_edited_position_is_refused_with_the_reason(client: TestClient) -> None:
    game = ludoteca.load("morris")
    code = "W../.../.../....../.../.../... b 8 9 0 1"
    answer = client.post("/api/analysis/position", json={"game": "morris", "code": code})
    assert answer.status_code == 200
    assert answer.json()["code"] == game.from_position_code(code).position_code()
    too_many = "W../.../.../....../.../.../... w 9 9 0 0"
    refused = client.post("/api/analysis/position", json={"game": "morris", "code": too_many})
    assert refused.status_code == 400
    assert refused.json()["error"] == "White has more than 9 men on the board and in hand"


@pytest.mark.parametrize("name", ["morris", "morris-6", "morris-12", "felli", "morelli"])
def test_the_editor_code_of_a_played_position_gives_that_position(name: str) -> None:
    game = ludoteca.load(name)
    rng = random.Random(name)
    for seed in range(20):
        state = game.new(seed=seed)
        for _ in range(rng.randrange(80)):
            if state.outcome() is not None:
                break
            state.push_code(rng.choice(state.legal_codes()))
        if state.outcome() is not None:
            continue
        code = game.position_code_of(state.pieces(), state.turn, state.in_hand())
        back = game.from_position_code(code)
        assert (back.pieces(), back.turn, back.in_hand()) == (
            state.pieces(),
            state.turn,
            state.in_hand(),
        )


def test_pieces_from_the_editor_are_checked_by_the_game(client: TestClient) -> None:
    points = ludoteca.load("felli").board.points
    pieces = [""] * len(points)
    pieces[points.index("c3")] = "w"
    lonely = {"game": "felli", "pieces": pieces, "turn": "white"}
    refused = client.post("/api/analysis/position", json=lonely)
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        "Black has no piece left, so the game ended before White's turn"
    )
    pieces[points.index("a5")] = "b"
    answer = client.post("/api/analysis/position", json={**lonely, "pieces": pieces})
    assert answer.status_code == 200
    state = ludoteca.load("felli").from_position_code(answer.json()["code"])
    assert state.pieces() == pieces and state.turn.name == "WHITE"
    short = client.post("/api/analysis/position", json={**lonely, "pieces": ["w"]})
    assert short.status_code == 400 and "13 points" in short.json()["error"]


def metric(text: str, line: str) -> float:
    """The value of one series in the Prometheus text ``text``."""
    return float(next(row for row in text.splitlines() if row.startswith(line + " ")).split()[-1])


def test_a_live_analysis_never_delays_a_computer_move(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_text(orjson.dumps({"type": "show", "id": 1, "game": "morelli"}).decode())
        next_of(ws, "lines")  # the analysis process is at work on deeper depths now
        busy = client.get("/metrics").text
        assert metric(busy, 'ludoteca_jobs_running{queue="analysis"}') == 1
        game_id, _ = new(client, game="morris", opponent="computer", level=1, colour="black")
        wait_for(client, game_id, lambda state: state["ply"] == 1, seconds=120)
        text = client.get("/metrics").text
    waited = 'ludoteca_job_wait_seconds_bucket{le="0.01",queue="moves"}'
    asked = metric(text, 'ludoteca_job_wait_seconds_count{queue="moves"}')
    # the scheduler's bound: a move job starts as soon as a worker of its own pool is free
    # (none is busy here), whatever the analysis pool is doing
    assert asked >= 1 and metric(text, waited) == asked


def test_a_solved_position_is_answered_exactly_once(client: TestClient) -> None:
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_text(orjson.dumps({"type": "show", "id": 1, "game": "felli"}).decode())
        lines = next_of(ws, "lines")
        assert receive(ws) == {"type": "done", "id": 1}  # the table says all at once
    assert lines["exact"] and len(lines["lines"]) == 3
    # Felli is a draw with best play (its solved value), so its best moves all draw
    assert lines["lines"][0]["bar"] == "Draw" and lines["lines"][0]["white_share"] == 0.5


def test_a_forced_win_ends_the_analysis_with_the_winner_named(client: TestClient) -> None:
    mill = "B.B/.B./.../.....W/.../.W./WW. w 0 0 0 40"  # g4-g1 closes a mill and wins
    with client.websocket_connect("/ws/analysis") as ws:
        ask = {"type": "show", "id": 7, "game": "morris", "start": mill}
        ws.send_text(orjson.dumps(ask).decode())
        shown = []
        while (message := receive(ws))["type"] != "done":
            if message["type"] == "lines":
                shown.append(message)
    best = shown[-1]["lines"][0]
    assert best["pv"][0].startswith("g4-g1x")
    assert re.fullmatch(r"White wins in \d+", best["bar"]) and best["white_share"] == 1.0
    assert [m["depth"] for m in shown] == list(range(1, len(shown) + 1))


def test_a_table_line_counts_the_plies_from_the_position_shown() -> None:
    endgame = ludoteca.load("felli").from_position_code(".../b.././.../w.. w 0 0")
    endgame.push("a1-b2")
    found = search_lines(endgame.game.name, str(endgame.rules), endgame.position_code(), 1, 3.0, [])
    assert found["exact"]
    lines = {line["pv"][0]: line for line in found["lines"]}
    # b4-c3 walks into b2xd4, which takes Black's last man: White wins 2 plies from here
    assert lines["b4-c3"]["pv"] == ["b4-c3", "b2xd4"]
    assert lines["b4-c3"]["bar"] == "White wins in 2"
    assert found["lines"][-1]["pv"][0] == "b4-c3"  # the worst for Black comes last


@pytest.mark.parametrize("playing", [False, True])
def test_while_people_play_an_analysis_thinks_at_most_half_the_time(playing: bool) -> None:
    """Each depth after the glance is followed, while people play, by a pause as long as the
    depth took (none otherwise): the analysis pool's share of the time is at most a half."""
    spans: list[tuple[float, float]] = []

    async def run(_expected: float, _work: Any, *args: Any) -> dict[str, Any]:
        started = asyncio.get_running_loop().time()
        await asyncio.sleep(0.05)  # the depth's search
        spans.append((started, asyncio.get_running_loop().time()))
        assert args[-1] is playing  # the job thinks at the idle priority only while people play
        return _found(args[3], spans[-1][1] - started)

    computer = types.SimpleNamespace(advisers=types.SimpleNamespace(run=run), interrupts=None)

    async def tell(_: AnalysisSent) -> None:
        pass

    async def main() -> None:
        analyst = Analyst(computer, tell, lambda: playing)  # type: ignore[arg-type]
        analyst.show(1, ludoteca.load("morris").new())
        while len(spans) < 6:  # the spans the fake pool records: the analyst runs on its own
            await asyncio.sleep(0.01)
        analyst.stop()

    asyncio.run(main())
    deep = spans[1:]  # after the glance: each depth, then its pause, until the next starts
    busy = sum(end - start for start, end in deep[:-1])
    share = busy / (deep[-1][0] - deep[0][0])
    assert share <= 0.55 if playing else share >= 0.8, (share, spans)


def test_a_depth_that_fails_ends_the_analysis_with_a_sentence() -> None:
    """A depth's job killed at its hard deadline (or its process lost) ends the analysis with
    an error the page shows, instead of leaving it waiting for lines."""
    told: list[AnalysisSent] = []

    async def run(_expected: float, _work: Any, *args: Any) -> dict[str, Any]:
        if not args[-2]:  # after the first glance
            raise JobKilled("search_lines ran past its hard deadline")
        return _found(args[3], 0.01)

    computer = types.SimpleNamespace(advisers=types.SimpleNamespace(run=run), interrupts=None)

    async def tell(message: AnalysisSent) -> None:
        told.append(message)

    async def main() -> None:
        analyst = Analyst(computer, tell)  # type: ignore[arg-type]
        analyst.show(7, ludoteca.load("morris").new())
        assert analyst.task is not None
        await asyncio.wait_for(analyst.task, 10)

    asyncio.run(main())
    assert [m.type for m in told] == ["lines", "error"]
    error = told[1]
    assert isinstance(error, AnalysisErrorMessage)
    assert error.id == 7 and "show it again" in error.message


def test_an_analysis_counts_the_engines_time_not_its_waits_for_the_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A position gets ``TOTAL_SECONDS`` of the engine's time (here 0.6 s, up to depth 12): a
    depth that waited long for its pool (a process starting on a busy machine, other jobs
    before it) does not end the analysis early; the time its searches took does."""
    monkeypatch.setattr(analysis, "TOTAL_SECONDS", 0.6)
    monkeypatch.setattr(analysis, "MAX_DEPTH", 12)

    async def analyse(waited: float, searched: float) -> list[int]:
        depths: list[int] = []

        async def run(_expected: float, _work: Any, *args: Any) -> dict[str, Any]:
            await asyncio.sleep(waited)  # the pool's queue; the search then reports its time
            return _found(args[3], searched)

        async def tell(message: AnalysisSent) -> None:
            if isinstance(message, LinesMessage):
                depths.append(message.depth)

        computer = types.SimpleNamespace(advisers=types.SimpleNamespace(run=run), interrupts=None)
        analyst = Analyst(computer, tell)  # type: ignore[arg-type]
        analyst.show(1, ludoteca.load("morris").new())
        assert analyst.task is not None
        await asyncio.wait_for(analyst.task, 30)
        return depths

    # 1.3 s of waits in all, twice the engine's time, and 0.13 s searched: every depth is told
    assert asyncio.run(analyse(0.1, 0.01)) == [1, *range(1, 13)]
    # a glance of a third of the time: three more depths like it would pass it, so it stops
    assert asyncio.run(analyse(0.0, 0.21)) == [1]
    # searches of a twelfth each: after the ninth answer (the glance, depths 1 to 8) the time
    # spent and three more such depths pass 0.6 s, after the eighth they do not
    assert asyncio.run(analyse(0.0, 0.0501)) == [1, *range(1, 9)]


def _found(depth: int, seconds: float) -> dict[str, Any]:
    """What :func:`search_lines` answers: one line at ``depth``, thought for ``seconds``."""
    line = {"score": 10, "bar": "+0.1", "white_share": 0.5, "text": "", "pv": [], "gesture": []}
    return {"depth": depth, "exact": False, "lines": [line], "candidates": [], "seconds": seconds}
