"""Seeks as docs/web.md describes them: offered only while the poster's lobby keeps asking
(20 s), at most three open a player, refused (403) to a player outside the rating range,
withdrawn by their poster only."""

from __future__ import annotations

import datetime

import pytest
from fastapi.testclient import TestClient

from ludoteca.server import store

from ..support.clocks import replace_everywhere
from ..support.postgres import sqlite_only
from .test_server_community import acting, post_seek, sign_up


def offered(client: TestClient) -> list[str]:
    client.cookies.clear()
    return [seek["id"] for seek in client.get("/api/seeks").json()]


@sqlite_only
def test_a_seek_is_offered_while_its_posters_lobby_asks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = sign_up(client, "Ann")
    seek = post_seek(client, ann, rules="morris", clock="5+0")  # her lobby asked just now
    real = store.now
    later = datetime.timedelta()

    def shifted() -> datetime.datetime:
        return real() + later

    replace_everywhere(monkeypatch, real, shifted)
    later = datetime.timedelta(seconds=19)
    assert offered(client) == [seek]
    later = datetime.timedelta(seconds=21)  # her lobby stopped asking 21 s ago
    assert offered(client) == []
    with acting(client, ann):
        assert [s["id"] for s in client.get("/api/seeks/mine").json()] == [seek]  # it asks
    assert offered(client) == [seek]
    later = datetime.timedelta(seconds=21 + 19)
    assert offered(client) == [seek]


def test_a_player_has_at_most_three_open_seeks(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    seeks = [post_seek(client, ann, rules="morris", clock=f"{m}+0") for m in (3, 5, 10)]
    with acting(client, ann) as csrf:
        fourth = client.post("/api/seeks", json={"game": "felli"}, headers=csrf)
        assert fourth.status_code == 429 and "3" in fourth.json()["error"]
        assert client.delete(f"/api/seeks/{seeks[0]}", headers=csrf).status_code == 200
    again = post_seek(client, ann, game="felli")  # room for one again
    assert sorted(offered(client)) == sorted([*seeks[1:], again])


def test_a_seek_is_refused_to_a_rating_outside_its_range(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")  # both rated 1500
    high = post_seek(client, ann, rules="morris", clock="5+0", min_rating=1600)
    low = post_seek(client, ann, rules="morris", clock="10+0", max_rating=1400)
    fits = post_seek(client, ann, rules="morris", clock="3+2", min_rating=1400, max_rating=1600)
    with acting(client, bob) as csrf:
        for seek in (high, low):
            answer = client.post(f"/api/seeks/{seek}/accept", headers=csrf)
            assert answer.status_code == 403 and "1500" in answer.json()["error"]
        assert client.post(f"/api/seeks/{fits}/accept", headers=csrf).status_code == 201
    assert sorted(offered(client)) == sorted([high, low])  # the refused ones still wait


def test_only_its_poster_withdraws_a_seek(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    seek = post_seek(client, ann, rules="morris", clock="5+0")
    with acting(client, bob) as csrf:
        assert client.delete(f"/api/seeks/{seek}", headers=csrf).status_code == 404
    assert offered(client) == [seek]
    with acting(client, ann) as csrf:
        assert client.delete(f"/api/seeks/{seek}", headers=csrf).status_code == 200
        assert client.get("/api/seeks/mine").json() == []
        assert client.delete(f"/api/seeks/{seek}", headers=csrf).status_code == 404
    assert offered(client) == []
    with acting(client, bob) as csrf:
        assert client.post(f"/api/seeks/{seek}/accept", headers=csrf).status_code == 409
