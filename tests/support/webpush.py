"""A push service and a browser for tests of Web Push, speaking the real protocols: the service
is an HTTP server on 127.0.0.1 that checks each push's VAPID token (RFC 8292) against the
server's public key, and the browser holds a subscription's P-256 key pair and authentication
secret and decrypts the ``aes128gcm`` payload (RFC 8291) as a browser would."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from .ports import reserved_port


def unbase64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """One browser's push subscription: its key pair and secret, and its endpoint."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": base64url(point), "auth": base64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> Any:
        """The JSON of a push's encrypted body."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def check_vapid(authorization: str, audience: str) -> tuple[str, dict[str, Any]]:
    """The public key (base64url) and the claims of a VAPID ``Authorization`` header, once its
    ES256 signature is checked against that key and its claims are valid for ``audience``;
    AssertionError otherwise."""
    scheme, _space, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(part.split("=", 1) for part in rest.split(","))
    token, key = parts["t"], parts["k"]
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unbase64(key))
    header, claims, signature = token.split(".")
    raw = unbase64(signature)
    assert len(raw) == 64
    der = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    try:
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID token's signature is wrong") from None
    assert json.loads(unbase64(header)) == {"typ": "JWT", "alg": "ES256"}
    said: dict[str, Any] = json.loads(unbase64(claims))
    assert said["aud"] == audience and said["exp"] > time.time()
    return key, said


@dataclass
class Received:
    """One push as the service received it."""

    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """The push service: records what it receives; answers ``status[path]`` (default 201)."""

    def __init__(self, port: int) -> None:
        self.origin = f"http://127.0.0.1:{port}"
        self.received: list[Received] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Received(self.path, headers, body))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)

    def browser(self, name: str) -> Browser:
        """A new browser subscribed at this service's ``/push/<name>``."""
        return Browser(f"{self.origin}/push/{name}")


@contextmanager
def push_service() -> Iterator[PushService]:
    """A :class:`PushService` serving on a reserved port until the block ends."""
    with reserved_port() as port:
        service = PushService(port)
        thread = threading.Thread(target=service.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield service
        finally:
            service.server.shutdown()
            service.server.server_close()
            thread.join(10)
