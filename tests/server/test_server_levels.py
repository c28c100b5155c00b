"""The computer levels as the server shows them: by name and description, with a rating on
people's scale only once enough signed-in players' games against a level exist (Glicko-2,
checked against a second implementation); the share of a level's moves that keep the value
against perfect play where it was measured; rule sets by their titles in the lists."""

from __future__ import annotations

import asyncio
import datetime
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from ludoteca.ai.levels import VALUES_FILE
from ludoteca.server.community import level_ratings
from ludoteca.server.community.level_ratings import MIN_GAMES
from ludoteca.server.community.ratings import RatingRow
from ludoteca.server.store import GameRow

from ..support import glicko2_reference
from ..support.postgres import sqlite_only
from .test_server_community import query, sign_up


def write(client: TestClient, table: Any, rows: list[dict[str, Any]]) -> None:
    """Rows written straight into the app's database."""

    async def run() -> None:
        engine = create_async_engine(client.app.state.url)  # type: ignore[attr-defined]
        async with engine.begin() as connection:
            await connection.execute(insert(table), rows)
        await engine.dispose()

    asyncio.run(run())


def computer_games(
    user: int | None, count: int, result: str, start: int, position: str | None = None
) -> list[dict[str, Any]]:
    """Finished Six Men's Morris games of ``user`` (White) against level 2."""
    return [
        {
            "id": f"g{start + i}",
            "game": "morris",
            "rules": "morris-6",
            "mode": "computer",
            "white": "human",
            "black": "level:2",
            "white_user": user,
            "status": "over",
            "ply": 30,
            "result": result,
            "position": position,
        }
        for i in range(count)
    ]


def level_two(client: TestClient) -> dict[str, Any]:
    levels = client.get("/api/levels", params={"game": "morris", "rules": "morris-6"}).json()
    (catalogued,) = [
        r
        for g in client.get("/api/catalogue").json()
        for r in g["rule_sets"]
        if r["name"] == "morris-6"
    ]
    assert catalogued["levels"] == levels
    return dict(levels[1])


def test_a_level_is_rated_on_peoples_scale_once_enough_people_played_it(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    ann = dict(query(client, "SELECT name, id FROM users"))["Ann"]
    write(
        client,
        RatingRow,
        [
            {
                "user_id": ann,
                "game": "morris",
                "category": "untimed",
                "rating": 1800.0,
                "deviation": 60.0,
                "volatility": 0.06,
                "games": 20,
                "updated": datetime.datetime.now(datetime.UTC),
            }
        ],
    )
    # the levels have names and descriptions, and no number before people have played them
    level = level_two(client)
    assert (level["number"], level["name"]) == (2, "Novice")
    assert level["description"] and level["rating"] is None and level["games"] == 0
    # games that do not count: a guest's, and one from a set-up position
    write(client, GameRow, computer_games(None, MIN_GAMES, "0-1", 0))
    write(client, GameRow, computer_games(ann, 1, "0-1", 100, position=".../... w 0 0"))
    write(client, GameRow, computer_games(ann, MIN_GAMES - 1, "0-1", 200))
    assert level_two(client)["rating"] is None  # one game short
    write(client, GameRow, computer_games(ann, 1, "1/2-1/2", 300))
    level = level_two(client)
    # level 2 beat an 1800 player 29 times and drew once: Glicko-2 puts it far above her
    expected = glicko2_reference.rate(
        1500, 350, 0.06, [(1800, 60, 1.0)] * (MIN_GAMES - 1) + [(1800, 60, 0.5)]
    )
    assert level["games"] == MIN_GAMES
    assert abs(level["rating"] - expected[0]) <= 1 and level["rating"] > 1800
    assert abs(level["deviation"] - expected[1]) <= 1
    # the other levels still have no number
    levels = client.get("/api/levels", params={"game": "morris", "rules": "morris-6"}).json()
    assert [lv["rating"] is None for lv in levels] == [n != 2 for n in range(1, len(levels) + 1)]


@sqlite_only
def test_rule_sets_are_shown_by_their_titles(client: TestClient) -> None:
    titles = {
        r["name"]: r["title"] for g in client.get("/api/catalogue").json() for r in g["rule_sets"]
    }
    assert titles["morris-6"] == "Six Men's Morris"
    assert titles["felli-mullah"] == "Felli with Mullahs"
    assert titles["morelli-9"] == "Morelli 9x9"
    sign_up(client, "Ann")
    ann = dict(query(client, "SELECT name, id FROM users"))["Ann"]
    write(client, GameRow, computer_games(ann, 1, "1-0", 0))
    (row,) = client.get("/api/finished").json()["games"]
    assert (row["rules"], row["rules_title"]) == ("morris-6", "Six Men's Morris")


@sqlite_only
def test_the_estimates_are_worked_out_again_only_when_games_against_the_computer_finish(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked_out: list[int] = []
    real = level_ratings.estimates

    async def counted(store: Any) -> level_ratings.Estimates:
        worked_out.append(1)
        return await real(store)

    monkeypatch.setattr(level_ratings, "estimates", counted)
    for _ in range(3):
        level_two(client)  # /api/levels and /api/catalogue: six requests
    assert len(worked_out) == 1
    write(client, GameRow, computer_games(None, 1, "0-1", 0))
    level_two(client)
    assert len(worked_out) == 2
    monkeypatch.setattr(level_ratings, "FRESH", 0.0)  # and after FRESH seconds, whatever happened
    level_two(client)
    assert len(worked_out) == 4


@sqlite_only
def test_levels_show_their_share_of_value_keeping_moves_where_measured(
    client: TestClient,
) -> None:
    shipped = json.loads(VALUES_FILE.read_text())["felli-mullah"]["levels"]
    levels = client.get("/api/levels", params={"game": "felli", "rules": "felli-mullah"}).json()
    for level in levels[:4]:  # the searching levels (the top one is perfect once solved)
        entry = shipped[str(level["number"])]
        assert level["kept"] == 100 * entry["kept"] // entry["moves"]
        assert (level["kept_moves"], level["kept_endgame"]) == (entry["moves"], False)
    # nothing measured, nothing shown: Morelli has no table
    morelli = client.get("/api/levels", params={"game": "morelli"}).json()
    assert [(lv["kept"], lv["kept_moves"]) for lv in morelli] == [(None, 0)] * len(morelli)
