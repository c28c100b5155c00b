"""E-mail through the SMTP server the operator configured (``LUDOTECA_SMTP_*``, see
:class:`~..settings.Settings`), sent with ``aiosmtplib`` on the event loop (no thread), each
e-mail bounded by a timeout."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Literal

import aiosmtplib

from ...i18n import _
from ..errors import ActionError

__all__ = ["MAIL_TIMEOUT", "Mailer", "SmtpTls", "check_address"]

#: seconds the SMTP server has for each step of sending one e-mail
MAIL_TIMEOUT = 15.0
#: how the connection to the SMTP server is secured: upgraded with STARTTLS (port 587), TLS
#: from the start (port 465), or not at all (a relay on the same machine)
SmtpTls = Literal["starttls", "tls", "none"]
#: an address as people write it: something, "@", a domain with a dot (no spaces, no brackets)
ADDRESS = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\".]+")


def check_address(address: str) -> str:
    """The e-mail address, trimmed, or :class:`ActionError` (400) if it does not look like one
    (the address is not verified: a mistyped one only gets no mail)."""
    address = address.strip()
    if not ADDRESS.fullmatch(address):
        raise ActionError(400, _("%(address)s is not an e-mail address", address=repr(address)))
    return address


@dataclass(frozen=True)
class Mailer:
    """Sends e-mails from ``sender`` through the SMTP server at ``host``:``port``, signed in as
    ``user`` with ``password`` when given, secured as ``tls`` says."""

    host: str
    port: int
    sender: str
    tls: SmtpTls = "starttls"
    user: str | None = None
    password: str | None = None

    async def send(self, to: str, subject: str, body: str) -> None:
        """Send one plain-text e-mail; ``aiosmtplib``'s errors (refused, no answer within
        :data:`MAIL_TIMEOUT`) pass on to the caller."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        await aiosmtplib.send(
            message,
            hostname=self.host,
            port=self.port,
            username=self.user,
            password=self.password,
            use_tls=self.tls == "tls",
            start_tls=self.tls == "starttls",
            timeout=MAIL_TIMEOUT,
        )
