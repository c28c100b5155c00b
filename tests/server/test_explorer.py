"""The opening explorer (ludoteca/server/study/explorer.py): the moves played from a position in
the finished games of the database, with their results and the engine's (or table's) value, on
SQLite and PostgreSQL; transpositions merge; abandoned games and games in play do not count;
the index is rebuilt from the games table when the server starts; a bad position is refused."""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.analysis import move_values
from ludoteca.ai.perfect import covering_table
from ludoteca.server import Settings, create_app
from ludoteca.server.study import explorer
from ludoteca.server.study.explorer import VALUE_LIMIT

from .test_server_api import act, new

#: two games that reach the same position after three plies by different orders
WHITE_WINS = ["a7", "g1", "d7", "g4", "a1"]  # then Black resigns
BLACK_WINS = ["d7", "g1", "a7", "a1"]  # then White resigns


def app_on(database_url: str) -> Any:
    # the reports of the finished games, made in the same pool, at a small depth
    return create_app(Settings(db=database_url, workers=1, warm=False, report_limit=Limit(depth=3)))


def play(client: TestClient, game: str, moves: list[str], resign: bool) -> str:
    """A hotseat game of ``moves``, then resigned by the side to move (or left in play)."""
    game_id, tokens = new(client, game=game, opponent="hotseat")
    for ply, move in enumerate(moves):
        answer = act(client, game_id, tokens["white"], type="move", move=move, ply=ply)
        assert answer.status_code == 200, answer.text
    if resign:
        assert act(client, game_id, tokens["white"], type="resign").status_code == 200
    return game_id


def explore(client: TestClient, game: str, position: str | None = None) -> dict[str, Any]:
    """The explorer's answer for a position, asked again until its values have come."""
    query = {"game": game} | ({"position": position} if position else {})
    deadline = time.monotonic() + 300
    while True:
        answer = client.get("/api/explorer", params=query)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        if found["valued"] or time.monotonic() > deadline:
            return found
        assert all(move["value"] is None for move in found["moves"])
        time.sleep(0.5)  # polling: the values are worked out meanwhile


def code_after(game: str, moves: list[str]) -> str:
    state = ludoteca.load(game).new()
    for move in moves:
        state.push(move)
    return state.position_code()


def moves_of(found: dict[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    return {m["move"]: (m["games"], m["white"], m["draws"], m["black"]) for m in found["moves"]}


def test_counts_results_transpositions_and_values(database_url: str) -> None:
    with TestClient(app_on(database_url)) as client:
        play(client, "morris", WHITE_WINS, True)
        play(client, "morris", BLACK_WINS, True)
        play(client, "morris", ["a7", "d2"], False)  # in play: not counted
        start = explore(client, "morris")
        assert (start["games"], start["white"], start["draws"], start["black"]) == (2, 1, 0, 1)
        assert moves_of(start) == {"a7": (1, 1, 0, 0), "d7": (1, 0, 0, 1)}
        # the two orders reach one position: its moves are those of both games
        merged = explore(client, "morris", code_after("morris", WHITE_WINS[:3]))
        assert merged["position"] == code_after("morris", BLACK_WINS[:3])
        assert merged["games"] == 2
        assert moves_of(merged) == {"g4": (1, 1, 0, 0), "a1": (1, 0, 0, 1)}
        # each move's value is the engine's, searched in the position to the explorer's limit
        state = ludoteca.load("morris").from_position_code(merged["position"])
        values, _ = move_values(state, VALUE_LIMIT)
        for entry in merged["moves"]:
            expected = values[state.parse_move(entry["move"]).code]
            assert entry["value"]["score"] == expected
            assert entry["value"]["exact"] is False
        # a position no game reached
        assert explore(client, "morris", code_after("morris", ["g7"]))["moves"] == []
    with TestClient(app_on(database_url)) as client:  # rebuilt from the games table
        assert moves_of(explore(client, "morris")) == {"a7": (1, 1, 0, 0), "d7": (1, 0, 0, 1)}


def test_abandoned_games_do_not_count_and_tables_give_exact_values(database_url: str) -> None:
    with TestClient(app_on(database_url)) as client:
        play(client, "felli", ["b2-c3"], True)
        play(client, "felli", ["c2-c3"], False)
        store = client.app.state.services.store  # type: ignore[attr-defined]
        ended = client.portal.call(  # type: ignore[union-attr]
            store.abandon, datetime.timedelta(0), datetime.timedelta(0)
        )
        assert len(ended) == 1
        start = explore(client, "felli")
        assert moves_of(start) == {"b2-c3": (1, 1, 0, 0)}
        state = ludoteca.load("felli").new()
        assert covering_table(state) is not None
        values, _ = move_values(state)
        value = start["moves"][0]["value"]
        assert value["exact"] is True
        assert value["score"] == values[state.parse_move("b2-c3").code]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"game": "morris", "position": "not a code"}, "6 fields"),
        ({"game": "nothing"}, "nothing"),
        ({"game": "felli", "rules": "felli:wings"}, "wings"),
    ],
)
def test_a_bad_position_or_rule_set_is_refused_with_a_sentence(
    tmp_path: Any, query: dict[str, str], words: str
) -> None:
    with TestClient(app_on(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as client:
        answer = client.get("/api/explorer", params=query)
        assert answer.status_code == 400
        assert words in answer.json()["error"]


def test_games_finished_by_another_process_are_counted(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two server processes on one database: the games one finishes reach the other's index
    when it next looks at the games table (here at once: its refresh period made 0)."""
    monkeypatch.setattr(explorer, "REFRESH", 0.0)
    with TestClient(app_on(database_url)) as reader, TestClient(app_on(database_url)) as player:
        assert explore(reader, "morris")["games"] == 0
        play(player, "morris", WHITE_WINS, True)
        assert moves_of(explore(reader, "morris")) == {"a7": (1, 1, 0, 0)}


def test_values_are_worked_out_for_a_few_positions_at_a_time(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`~ludoteca.server.study.explorer.VALUING` positions under way (here none may
    be), an answer comes with its counts and without values, and asks the pool for nothing."""
    monkeypatch.setattr(explorer, "VALUING", 0)
    with TestClient(app_on(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")) as client:
        play(client, "morris", WHITE_WINS, True)
        found = client.get("/api/explorer", params={"game": "morris"}).json()
        assert not found["valued"]
        assert [(m["move"], m["games"], m["value"]) for m in found["moves"]] == [("a7", 1, None)]
        assert client.app.state.services.hub.explorer._valuing == {}  # type: ignore[attr-defined]
