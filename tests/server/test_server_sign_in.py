"""Signing in, as docs/web.md promises: failed sign-ins throttled per address (20 in five
minutes, then 429 even with the right password) as well as per name; an unknown name answered
exactly like a wrong password, after the same password check; the session cookie ``Secure``
when the page came over HTTPS, directly or behind a proxy (``X-Forwarded-Proto``); a password
kept at the standard Argon2id cost, a hash of another cost made again at its owner's sign-in."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app
from ludoteca.server.deps import COOKIE

from ..support.postgres import sqlite_only
from .test_server_community import sign_up


def login(client: TestClient, name: str, password: str, **headers: str) -> Any:
    client.cookies.clear()
    return client.post("/api/login", json={"name": name, "password": password}, headers=headers)


@sqlite_only
def test_failed_sign_ins_are_throttled_per_address(client: TestClient) -> None:
    sign_up(client, "Dora", "the right one")
    # 20 failures from this address, never more than 4 for one name (under the name's limit)
    for attempt in range(20):
        assert login(client, f"guess{attempt // 4}", "wrong-wrong").status_code == 401
    assert login(client, "Dora", "the right one").status_code == 429  # the address waits
    # another address is not held back, nor is the account
    elsewhere = TestClient(client.app, client=("203.0.113.7", 4000))
    elsewhere.portal = client.portal  # the running app's own event loop
    answer = elsewhere.post("/api/login", json={"name": "dora", "password": "the right one"})
    assert answer.status_code == 200 and answer.json()["name"] == "Dora"


def test_an_unknown_name_is_answered_like_a_wrong_password(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "Emil", "the right one")
    checked: list[str] = []
    verify = PasswordHasher.verify

    def counting(self: PasswordHasher, hashed: str | bytes, password: str | bytes) -> bool:
        checked.append(str(password))
        return verify(self, hashed, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    wrong = login(client, "Emil", "not-this-one")
    unknown = login(client, "Nobody", "not-this-one")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert COOKIE not in wrong.cookies and COOKIE not in unknown.cookies
    # the same work for both: one Argon2 check each (an unknown name's against a dummy hash)
    assert checked == ["not-this-one", "not-this-one"]


@pytest.mark.parametrize(
    ("base", "headers", "secure"),
    [
        ("http://testserver", {}, False),
        ("https://testserver", {}, True),
        ("http://testserver", {"X-Forwarded-Proto": "https"}, True),
        ("http://testserver", {"X-Forwarded-Proto": "http"}, False),
    ],
)
@sqlite_only
def test_the_session_cookie_is_secure_over_https(
    client: TestClient, base: str, headers: dict[str, str], secure: bool
) -> None:
    client.cookies.clear()
    answer = client.post(
        f"{base}/api/signup", json={"name": "Fay", "password": "long enough"}, headers=headers
    )
    assert answer.status_code == 201
    cookie = next(
        value for name, value in answer.headers.multi_items() if name.lower() == "set-cookie"
    )
    assert cookie.startswith(f"{COOKIE}=")
    flags = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert ("secure" in flags) is secure
    assert {"httponly", "samesite=lax"} <= flags
    client.cookies.clear()


def stored_hash(database_url: str, name: str) -> str:
    """The password hash the SQLite file of ``database_url`` keeps for ``name``."""
    with sqlite3.connect(database_url.split("///", 1)[1]) as connection:
        query = "SELECT password FROM users WHERE name = ?"
        (hashed,) = connection.execute(query, (name,)).fetchone()
    return str(hashed)


#: the start of an Argon2id hash at argon2-cffi's recommended parameters (RFC 9106's second
#: choice: 64 MiB, 3 passes, 4 lanes), and at the least Argon2 allows
STANDARD, LOWEST = "$argon2id$v=19$m=65536,t=3,p=4$", "$argon2id$v=19$m=8,t=1,p=1$"


@sqlite_only
def test_a_password_is_kept_at_the_standard_cost_and_a_cheaper_hash_made_again(
    database_url: str,
) -> None:
    """The suite's servers hash at the lowest cost (tests/conftest.py); a server at the
    standard cost keeps a new password at it, and an account hashed at the lowest cost keeps
    its hash through a wrong password but has it made again at the standard cost at its
    right one, which still signs in."""

    def app(cost: str) -> TestClient:
        settings = Settings(db=database_url, workers=1, warm=False, password_cost=cost)
        return TestClient(create_app(settings))

    with app("lowest") as client:
        sign_up(client, "Gus", "the right one")
    assert stored_hash(database_url, "Gus").startswith(LOWEST)
    with app("standard") as client:
        sign_up(client, "Hal", "another one")
        assert stored_hash(database_url, "Hal").startswith(STANDARD)
        assert login(client, "Gus", "not this one").status_code == 401
        assert stored_hash(database_url, "Gus").startswith(LOWEST)
        assert login(client, "Gus", "the right one").status_code == 200
        assert stored_hash(database_url, "Gus").startswith(STANDARD)
        assert login(client, "Gus", "the right one").status_code == 200
        assert login(client, "Gus", "not this one").status_code == 401
