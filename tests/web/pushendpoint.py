"""A push service of the test's own (RFC 8030's receiving side): an HTTP server on 127.0.0.1, in
a thread, that takes what the server pushes and decrypts it (RFC 8291, aes128gcm) with the
keys of the subscriptions it handed out, as a browser would. Each subscription has its own P-256
key pair and auth secret, made here; a test can make one answer 410 (gone) as a browser's
service does after the user unsubscribed."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@dataclass
class Received:
    name: str  # the subscription's
    headers: dict[str, str]
    payload: dict[str, Any]  # the decrypted JSON


@dataclass
class Subscriber:
    name: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201  # what the service answers for it (410: gone)
    refused: int = 0  # pushes answered with a status >= 400


@dataclass
class PushEndpoint:
    subscribers: dict[str, Subscriber] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)
    server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscription(self, name: str) -> dict[str, Any]:
        """A browser's PushSubscription JSON, as `subscription.toJSON()` gives it."""
        key = ec.generate_private_key(ec.SECP256R1())
        self.subscribers[name] = Subscriber(name, key, os.urandom(16))
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "keys": {"p256dh": b64(point), "auth": b64(self.subscribers[name].auth)},
        }

    def of(self, name: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.name == name]

    def wait(self, count: int, name: str | None = None, timeout: float = 30.0) -> list[Received]:
        """Until `count` pushes (to `name`, or to anyone) have arrived; then all of them."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                got = [r for r in self.received if name is None or r.name == name]
                if len(got) >= count:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(got)} pushes arrived, {count} expected")
                self.lock.wait(left)

    def wait_refused(self, name: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.subscribers[name].refused == 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no push to {name} was refused")
                self.lock.wait(left)

    def take(self, name: str, body: bytes, headers: dict[str, str]) -> int:
        with self.lock:
            sub = self.subscribers.get(name)
            if sub is None:
                return 404
            if sub.status >= 400:
                sub.refused += 1
                self.lock.notify_all()
                return sub.status
        plain = http_ece.decrypt(body, private_key=sub.key, auth_secret=sub.auth)
        with self.lock:
            self.received.append(Received(name, headers, json.loads(plain)))
            self.lock.notify_all()
        return 201

    def start(self) -> PushEndpoint:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                name = self.path.rsplit("/", 1)[-1]
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = endpoint.take(name, body, headers)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass  # quiet

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # A short poll: `stop` (shutdown) waits for the loop's next look, 0.5 s by default, at
        # the end of every test that uses an endpoint.
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
