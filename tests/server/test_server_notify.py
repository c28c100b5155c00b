"""Being told it is your turn, end to end with the real protocols, on SQLite and PostgreSQL: a
push service on 127.0.0.1 that checks each push's VAPID signature against the server's public
key, a browser's key pair that decrypts the ``aes128gcm`` payload, and an SMTP server (aiosmtpd)
that receives the e-mails.  A move in a game between two accounts tells the player now to move,
unless a websocket of theirs watches the game; preferences turned off send nothing; a
subscription the service says is gone is deleted; an account holds at most ten subscriptions;
bad input is refused with a sentence and changes nothing."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app
from ludoteca.server.deps import COOKIE
from ludoteca.server.errors import ActionError
from ludoteca.server.notify.notifier import MAX_SUBSCRIPTIONS
from ludoteca.server.notify.push import check_subscription
from ludoteca.server.notify.schemas import PushSubscription

from ..support.ports import reserved_port
from ..support.postgres import sqlite_only
from ..support.webpush import Browser, PushService, check_vapid, push_service
from .test_server_community import Person, acting, post_seek, query, sign_up

CONTACT = "mailto:operator@ludoteca.test"
SITE = "https://ludoteca.test"
SENDER = "games@ludoteca.test"


@dataclass
class Inbox:
    """The SMTP server's handler: every e-mail received, with its envelope's recipients."""

    messages: list[tuple[list[str], EmailMessage]]

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    """A throw-away SMTP server on 127.0.0.1: its inbox and port."""
    with reserved_port() as port:
        found = Inbox([])
        controller = Controller(found, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            yield found, port
        finally:
            controller.stop()


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


@pytest.fixture
def client(database_url: str, inbox: tuple[Inbox, int]) -> Iterator[TestClient]:
    """The app on SQLite or PostgreSQL, sending pushes to 127.0.0.1 and e-mails to
    :func:`inbox`."""
    settings = Settings(
        db=database_url,
        workers=1,
        warm=False,
        push_local=True,
        push_contact=CONTACT,
        site_url=SITE,
        smtp_host="127.0.0.1",
        smtp_port=inbox[1],
        smtp_tls="none",
        smtp_from=SENDER,
    )
    app = create_app(settings)
    app.state.url = database_url
    with TestClient(app) as test_client:
        yield test_client


def drain(client: TestClient) -> None:
    """Wait until every queued notification is sent."""
    notifier = client.app.state.services.notifier  # type: ignore[attr-defined]
    client.portal.call(notifier.drain)  # type: ignore[union-attr]


def subscribe(client: TestClient, person: Person, browser: Browser) -> Any:
    with acting(client, person) as csrf:
        return client.post("/api/push/subscriptions", json=browser.subscription(), headers=csrf)


def choose(client: TestClient, person: Person, **preferences: Any) -> Any:
    with acting(client, person) as csrf:
        return client.put("/api/notifications", json=preferences, headers=csrf)


def move(client: TestClient, person: Person, game_id: str, point: str, ply: int) -> None:
    with acting(client, person) as csrf:
        answer = client.post(
            f"/api/games/{game_id}/actions",
            headers=csrf,
            json={"type": "move", "move": point, "ply": ply},
        )
        assert answer.status_code == 200, answer.text


def new_game(client: TestClient, white: Person, black: Person) -> str:
    """A game between two accounts (a seek of ``white``'s taken by ``black``)."""
    seek = post_seek(client, white, colour="white")
    with acting(client, black) as csrf:
        game_id: str = client.post(f"/api/seeks/{seek}/accept", headers=csrf).json()["game"]
    return game_id


def test_a_move_tells_the_player_to_move_by_push_and_email_unless_watching(
    client: TestClient, service: PushService, inbox: tuple[Inbox, int]
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    bobs = service.browser("bob")
    assert subscribe(client, bob, bobs).status_code == 201
    everything = {"push": True, "email": True}
    chosen = choose(client, bob, email=" bob@example.org ", kinds={"turn": everything})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["email"] == "bob@example.org"
    assert chosen.json()["kinds"]["over"] == {"push": True, "email": False}  # the default
    key = client.get("/api/push/key").json()["key"]
    game_id = new_game(client, ann, bob)
    assert service.received == [] and inbox[0].messages == []  # no move yet

    move(client, ann, game_id, "d6", 0)
    drain(client)
    (push,) = service.received
    assert push.path == "/push/bob"
    signer, claims = check_vapid(push.headers["authorization"], service.origin)
    assert signer == key and claims["sub"] == CONTACT
    assert push.headers["content-encoding"] == "aes128gcm" and int(push.headers["ttl"]) > 0
    notice = bobs.decrypt(push.body)
    assert notice == {
        "kind": "turn",
        "title": "Your move against Ann",
        "body": "Nine Men's Morris: Ann played d6.",
        "url": f"/game/{game_id}",
        "game": game_id,
        "tag": f"game-{game_id}",
    }
    ((to, mail),) = inbox[0].messages
    assert to == ["bob@example.org"] and mail["To"] == "bob@example.org"
    assert mail["From"] == SENDER and mail["Subject"] == "Your move against Ann"
    text = mail.get_content()
    assert "Ann played d6." in text and f"{SITE}/game/{game_id}" in text

    # Bob has the game open: Ann's next move tells him nothing; his move tells Ann (no browser
    # of hers, no address: nothing sent either)
    client.cookies.set(COOKIE, bob.cookie)
    with client.websocket_connect(f"/ws/games/{game_id}") as watching:
        watching.send_json({"type": "hello"})
        assert watching.receive_json()["type"] == "state"
        move(client, bob, game_id, "f4", 1)
        move(client, ann, game_id, "b4", 2)
        drain(client)
    assert len(service.received) == 1 and len(inbox[0].messages) == 1

    # the game ends (Ann resigns): Bob, not watching, is told by push (e-mail is off for it)
    with acting(client, ann) as csrf:
        client.post(f"/api/games/{game_id}/actions", headers=csrf, json={"type": "resign"})
    drain(client)
    over = bobs.decrypt(service.received[-1].body)
    assert over["kind"] == "over" and over["title"] == "Your game against Ann is over"
    assert over["body"].startswith("Nine Men's Morris: Bob wins")
    assert len(service.received) == 2 and len(inbox[0].messages) == 1


@sqlite_only
def test_notifications_are_written_in_the_accounts_language(
    client: TestClient, service: PushService
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    bobs = service.browser("bob")
    with acting(client, bob) as csrf:  # the page's language is kept
        french = {"Accept-Language": "fr", **csrf}
        answer = client.post("/api/push/subscriptions", json=bobs.subscription(), headers=french)
        assert answer.status_code == 201
    move(client, ann, new_game(client, ann, bob), "d6", 0)
    drain(client)
    notice = bobs.decrypt(service.received[-1].body)
    assert notice["title"] == "À vous de jouer contre Ann"


def test_preferences_turned_off_send_nothing(
    client: TestClient, service: PushService, inbox: tuple[Inbox, int]
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    assert subscribe(client, bob, service.browser("bob")).status_code == 201
    off = {"push": False, "email": False}
    chosen = choose(client, bob, email="bob@example.org", kinds={"turn": off, "over": off})
    assert chosen.status_code == 200
    with acting(client, bob):
        assert client.get("/api/notifications").json() == chosen.json()
    game_id = new_game(client, ann, bob)
    move(client, ann, game_id, "d6", 0)
    with acting(client, ann) as csrf:
        client.post(f"/api/games/{game_id}/actions", headers=csrf, json={"type": "resign"})
    drain(client)
    assert service.received == [] and inbox[0].messages == []


def test_a_gone_subscription_is_deleted_and_a_failing_one_kept(
    client: TestClient, service: PushService
) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    gone, failing = service.browser("gone"), service.browser("failing")
    for browser in (gone, failing):
        assert subscribe(client, bob, browser).status_code == 201
    service.status = {"/push/gone": 410, "/push/failing": 500}
    game_id = new_game(client, ann, bob)
    move(client, ann, game_id, "d6", 0)
    drain(client)
    assert sorted(push.path for push in service.received) == ["/push/failing", "/push/gone"]
    assert query(client, "SELECT endpoint FROM push_subscriptions") == [(failing.endpoint,)]


def test_an_account_holds_at_most_ten_subscriptions_the_oldest_replaced(
    client: TestClient, service: PushService
) -> None:
    bob = sign_up(client, "Bob")
    browsers = [service.browser(f"b{number}") for number in range(MAX_SUBSCRIPTIONS + 2)]
    for browser in browsers:
        assert subscribe(client, bob, browser).status_code == 201
    assert subscribe(client, bob, browsers[-1]).status_code == 201  # again: the same row
    kept = query(client, "SELECT endpoint FROM push_subscriptions ORDER BY id")
    assert [endpoint for (endpoint,) in kept] == [b.endpoint for b in browsers[2:]]
    # another account subscribing the same browser takes it over
    cleo = sign_up(client, "Cleo")
    assert subscribe(client, cleo, browsers[-1]).status_code == 201
    assert len(query(client, "SELECT 1 FROM push_subscriptions")) == MAX_SUBSCRIPTIONS
    with acting(client, bob) as csrf:
        gone = client.post(
            "/api/push/unsubscribe", json={"endpoint": browsers[-1].endpoint}, headers=csrf
        )
        assert gone.status_code == 404 and gone.json() == {
            "error": "this browser is not subscribed"
        }
        done = client.post(
            "/api/push/unsubscribe", json={"endpoint": browsers[2].endpoint}, headers=csrf
        )
        assert done.status_code == 200
    assert len(query(client, "SELECT 1 FROM push_subscriptions")) == MAX_SUBSCRIPTIONS - 1


def _with(subscription: dict[str, Any], **keys: str) -> dict[str, Any]:
    return {**subscription, "keys": {**subscription["keys"], **keys}}


@sqlite_only
def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(
    client: TestClient, service: PushService
) -> None:
    bob = sign_up(client, "Bob")
    good = service.browser("bob").subscription()
    point = good["keys"]["p256dh"]
    off_the_curve = point[:40] + ("A" if point[40] != "A" else "B") + point[41:]
    wrong = [
        ({**good, "endpoint": "http://push.example/x"}, "a push endpoint is an https:// address"),
        ({**good, "endpoint": "ftp://127.0.0.1/x"}, "a push endpoint is an https:// address"),
        (_with(good, p256dh="AAAA"), "keys.p256dh is not a P-256 public key"),
        (_with(good, p256dh=off_the_curve), "keys.p256dh is not a P-256 public key"),
        (_with(good, auth="%%%"), "keys.auth is not a 16-byte secret (base64url)"),
        (_with(good, auth="AAAA"), "keys.auth is not a 16-byte secret (base64url)"),
        ({"endpoint": good["endpoint"]}, "keys"),
        ({**good, "endpoint": "https://" + "x" * 1000}, "endpoint"),
    ]
    for body, said in wrong:
        with acting(client, bob) as csrf:
            answer = client.post("/api/push/subscriptions", json=body, headers=csrf)
        assert answer.status_code == 400, body
        assert said in answer.json()["error"], answer.json()
    with acting(client, bob):  # the CSRF token is needed
        assert client.post("/api/push/subscriptions", json=good).status_code == 403
    with acting(client, None):  # and an account
        assert client.post("/api/push/subscriptions", json=good).status_code == 401
        assert client.get("/api/notifications").status_code == 401
    answer = choose(client, bob, email="not an address", kinds={"turn": {"push": False}})
    assert answer.status_code == 400
    assert answer.json()["error"] == "'not an address' is not an e-mail address"
    assert choose(client, bob, kinds={"never": {"push": False}}).status_code == 400
    assert query(client, "SELECT 1 FROM push_subscriptions") == []
    assert query(client, "SELECT 1 FROM notify_settings") == []
    # plain http on a loopback address only with the test setting
    local = PushSubscription.model_validate(good)
    check_subscription(local, local=True)
    with pytest.raises(ActionError, match="https://"):
        check_subscription(local, local=False)
