"""Web Push (RFC 8030), its payload encrypted for the browser (RFC 8291, ``aes128gcm``) and the
server identified to the push service by VAPID (RFC 8292), through ``pywebpush`` and
``py-vapid``.

The server's VAPID key pair is derived from a secret kept in the database (``Store.secret``),
so every process of a cluster signs with the same key and browsers' subscriptions outlive
restarts.  Sending is blocking (``requests``): it runs in a small thread pool of its own, each
request bounded by a timeout, so a slow push service never holds up the event loop.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import ipaddress
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from ...i18n import _
from ..errors import ActionError
from .schemas import PushSubscription

__all__ = ["SEND_TIMEOUT", "Delivery", "Push", "PushFailed", "check_subscription", "derive_key"]

#: seconds a push service has to answer one push
SEND_TIMEOUT = 10.0
#: how long a push service keeps a push for a browser that is offline (seconds)
TIME_TO_LIVE = 24 * 3600
#: pushes sent at once (threads)
SENDERS = 4
#: the order of the P-256 group: a private key is a number in [1, ORDER - 1]
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
#: the status codes with which a push service says a subscription is gone for good
GONE = frozenset({404, 410})


class PushFailed(Exception):
    """A push service refused a push or did not answer (the subscription is kept)."""


def _unbase64(text: str) -> bytes:
    """Bytes of base64url text, padded or not; :class:`ValueError` if it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(text) from None


def _base64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def derive_key(secret: str) -> ec.EllipticCurvePrivateKey:
    """The VAPID private key of a server: a P-256 key derived from ``secret`` (its SHA-256
    brought into the group's range), the same for the same secret."""
    digest = int.from_bytes(hashlib.sha256(b"ludoteca vapid\0" + secret.encode()).digest())
    return ec.derive_private_key(digest % (ORDER - 1) + 1, ec.SECP256R1())


def _local(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_subscription(subscription: PushSubscription, local: bool) -> None:
    """:class:`ActionError` (400) saying what is wrong unless ``subscription`` is one a push
    service could take: an ``https`` endpoint with a host (with ``local``, a test setting,
    ``http`` on a loopback address too), a P-256 public key (65 bytes, an uncompressed point on
    the curve) and a 16-byte authentication secret, both base64url."""
    parts = urlsplit(subscription.endpoint)
    secure = parts.scheme == "https" and bool(parts.hostname)
    if not secure and not (local and parts.scheme == "http" and _local(parts.hostname or "")):
        raise ActionError(400, _("a push endpoint is an https:// address"))
    try:
        point = _unbase64(subscription.keys.p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError(point)
    except ValueError:
        raise ActionError(
            400, _("keys.p256dh is not a P-256 public key (65 bytes, base64url)")
        ) from None
    try:
        auth = _unbase64(subscription.keys.auth)
    except ValueError:
        auth = b""
    if len(auth) != 16:
        raise ActionError(400, _("keys.auth is not a 16-byte secret (base64url)"))


@dataclass(frozen=True)
class Delivery:
    """Where one push goes: the endpoint and the browser's keys."""

    endpoint: str
    p256dh: str
    auth: str


class Push:
    """Sends pushes signed with ``key`` (see :func:`derive_key`); ``contact``: who the push
    services may write to about this server (VAPID's ``sub``, a ``mailto:`` or ``https:``
    address)."""

    def __init__(self, key: ec.EllipticCurvePrivateKey, contact: str) -> None:
        self.vapid = Vapid(key)
        self.contact = contact
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        #: the public key pages subscribe with (``applicationServerKey``, base64url)
        self.public_key = _base64(point)
        self._threads = ThreadPoolExecutor(SENDERS, thread_name_prefix="push")

    def _send(self, delivery: Delivery, payload: str) -> bool:
        try:
            webpush(
                {
                    "endpoint": delivery.endpoint,
                    "keys": {"p256dh": delivery.p256dh, "auth": delivery.auth},
                },
                payload,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.contact},  # (a new dict: pywebpush fills it in)
                timeout=SEND_TIMEOUT,
                ttl=TIME_TO_LIVE,
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in GONE:
                return False
            raise PushFailed(str(error)) from None
        except OSError as error:  # (requests' errors: no connection, timed out)
            raise PushFailed(str(error)) from None
        return True

    async def send(self, delivery: Delivery, payload: str) -> bool:
        """Push ``payload`` (text) to one browser, in a thread of the pool: True once the push
        service took it, False if it says the subscription is gone (404, 410: forget it);
        :class:`PushFailed` on any other answer, or none within :data:`SEND_TIMEOUT`."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, self._send, delivery, payload)

    def close(self) -> None:
        """Stop the threads (pushes under way finish first)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
