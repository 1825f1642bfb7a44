"""A real SMTP server for the e-mail tests: aiosmtpd on 127.0.0.1 (in a thread of the test's
process), keeping every message it accepts, with a login when the test wants one."""

from __future__ import annotations

import email
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.web.conftest import Server, free_port


class Inbox:
    """What the server accepted: each message parsed, with its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._lock = threading.Lock()

    async def handle_DATA(
        self, server: Any, session: Any, envelope: Any
    ) -> str:  # aiosmtpd calls it by this name
        msg = email.message_from_bytes(envelope.content, policy=default)
        with self._lock:
            self.messages.append(msg)
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    def count(self) -> int:
        with self._lock:
            return len(self.messages)

    def wait_for(self, n: int, seconds: float = 30.0) -> list[EmailMessage]:
        """Until `n` messages have come (a ceiling for a loaded machine, not a timing)."""
        deadline = time.monotonic() + seconds
        while self.count() < n:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.count()} e-mails came, not {n}")
            time.sleep(0.02)
        with self._lock:
            return list(self.messages)


def parts(msg: EmailMessage) -> tuple[str, str]:
    """The plain-text and the HTML part of an e-mail (both must be there)."""
    plain = msg.get_body(("plain",))
    page = msg.get_body(("html",))
    assert plain is not None and page is not None, msg
    return plain.get_content(), page.get_content()


def link(msg: EmailMessage, kind: str) -> str:
    """The path (and query) of the e-mail's `/email/<kind>/CODE?lang=` link (its plain-text
    part)."""
    found = re.search(
        rf"https?://[^/\s]+(/email/{kind}/[A-Za-z0-9_\-]+\?lang=[a-z]+)", parts(msg)[0]
    )
    assert found, parts(msg)[0]
    return found.group(1)


def unsubscribe_path(msg: EmailMessage) -> str:
    """The path of the List-Unsubscribe header's URL (RFC 8058)."""
    found = re.fullmatch(r"<https?://[^/]+(/email/unsubscribe/[A-Za-z0-9_\-]+\?lang=[a-z]+)>",
                         str(msg["List-Unsubscribe"]).strip())  # fmt: skip
    assert found, msg["List-Unsubscribe"]
    return found.group(1)


@contextmanager
def smtp_server(login: tuple[str, str] | None = None) -> Iterator[tuple[Inbox, int]]:
    """A running SMTP server and its port; with `login`, it accepts only that name and
    password (AUTH without TLS: on the loopback alone)."""
    inbox = Inbox()
    port = free_port()
    options: dict[str, Any] = {}
    if login is not None:

        def check(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
            ok = (
                isinstance(data, LoginPassword)
                and (
                    data.login.decode(),
                    data.password.decode(),
                )
                == login
            )
            return AuthResult(success=ok)

        options = {"authenticator": check, "auth_require_tls": False, "auth_required": True}
    controller = Controller(inbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


# The fixtures of the tests that start a server sending to this one (import them by name).
LOGIN = ("robinson", "s3cret pass")


@pytest.fixture
def smtp_login() -> Iterator[tuple[Inbox, int]]:
    """An SMTP server that wants the name and password of LOGIN."""
    with smtp_server(LOGIN) as running:
        yield running


@pytest.fixture
def mail_server(
    fresh_server: Callable[..., Server],
    smtp_login: tuple[Inbox, int],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Server, Inbox]:
    """A `robinson serve` sending by `smtp_login` (the password from its environment)."""
    inbox, port = smtp_login
    monkeypatch.setenv("ROBINSON_SMTP_PASSWORD", LOGIN[1])  # the child process reads it
    options = ("--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--smtp-security", "none",
               "--smtp-user", LOGIN[0], "--mail-from", "robinson@example.test",
               "--public-url", "https://robinson.example/")  # fmt: skip
    srv = fresh_server(options=options)
    srv.start()
    return srv, inbox
