"""Web Push (RFC 8030, 8291, 8292): a browser's subscription per seat, and the channel that
tells it a `Notice` (docs/notifications.md).

The payload is JSON, encrypted for the subscription (aes128gcm) by pywebpush's async path and
signed with the server's VAPID key (vapid.py): `{"title", "body", "url", "tag"}` in the
language the player chose, the tag one per table (the page's service worker shows a newer
notice of a table in place of an older one). Headers: `TTL` 12 hours (a notice older than that
is worth nothing), `Topic` one per table (a push service holding an undelivered notice of the
table replaces it with the newer one), `Urgency` high for a reminder, else normal. A push
service that answers 404 or 410 has forgotten the subscription: it is removed here too.

A subscription's endpoint is where this server will send requests: only `https://` hosts of
the known push services are taken (`Settings.push_services`; a test adds its own local one).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from robinson.i18n import LANGUAGES
from robinson.web.notify.vapid import public_key
from robinson.web.notify.wording import words
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.notices import Notice
from robinson.web.store.push import PushRow, PushSubscriptions

if TYPE_CHECKING:
    import aiohttp
    from py_vapid import Vapid02

    from robinson.web.store import Store

log = logging.getLogger("robinson.web.push")

TTL = 43200  # seconds a push service keeps an undelivered notice: 12 hours
SEND_TIMEOUT = 10.0  # seconds for one push service's answer
# The push services of the browsers people use (Chrome, Firefox, Edge, Safari): a subscription's
# endpoint must be at one of these hosts (or under one), over https.
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
)
GONE = (404, 410)


def _b64(value: object, size: int, what: str) -> str:
    """A key of the subscription: URL-safe base64 (padding optional) of `size` bytes."""
    bad = ServiceError("bad_subscription", f"keys.{what} must be {size} bytes in URL-safe base64")
    if not isinstance(value, str) or len(value) > 200:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise bad from None
    if len(raw) != size:
        raise bad
    return value.rstrip("=")


def topic(table_id: str) -> str:
    """The `Topic` of a table's pushes: at most 32 characters of URL-safe base64."""
    digest = hashlib.sha256(table_id.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:32]


class PushChannel:
    def __init__(
        self,
        store: Store,
        vapid: Vapid02,
        subject: str,
        services: Sequence[str] = PUSH_SERVICES,
    ) -> None:
        self.subscriptions = PushSubscriptions(store.engine)
        self.vapid = vapid
        self.subject = subject
        self.services = tuple(services)
        self.key = public_key(vapid)
        self._session: aiohttp.ClientSession | None = None
        self.sent = 0  # pushes the push services accepted (for the logs and the tests)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    # -- subscriptions -------------------------------------------------------------------------

    def allowed(self, endpoint: str) -> bool:
        """An endpoint at a known push service over https, or at a service given by its origin
        (`http://127.0.0.1:8123`: a test's own)."""
        try:
            parts = urlsplit(endpoint)
            host = parts.hostname or ""
            origin = f"{parts.scheme}://{parts.netloc}"
        except ValueError:
            return False
        for service in self.services:
            if "://" in service:
                if origin == service.rstrip("/"):
                    return True
            elif parts.scheme == "https" and (host == service or host.endswith("." + service)):
                return True
        return False

    def check(self, table_id: str, seat: int, subscription: Any, language: object) -> PushRow:
        """A browser's PushSubscription (its JSON) for the seat, or `bad_subscription`."""
        if not isinstance(subscription, dict):
            raise ServiceError("bad_subscription", "subscription must be a PushSubscription")
        endpoint = subscription.get("endpoint")
        if not isinstance(endpoint, str) or not 10 <= len(endpoint) <= 1000:
            raise ServiceError("bad_subscription", "subscription.endpoint must be a URL")
        if not self.allowed(endpoint):
            raise ServiceError(
                "bad_subscription",
                "subscription.endpoint is not at a push service this server sends to "
                f"(https at {', '.join(s for s in self.services if '://' not in s)})",
            )
        keys = subscription.get("keys")
        if not isinstance(keys, dict):
            raise ServiceError("bad_subscription", "subscription.keys must hold p256dh and auth")
        if language not in LANGUAGES:
            languages = ", ".join(LANGUAGES)
            raise ServiceError("bad_subscription", f"language must be one of {languages}")
        p256dh = _b64(keys.get("p256dh"), 65, "p256dh")
        auth = _b64(keys.get("auth"), 16, "auth")
        return PushRow(table_id, seat, endpoint, p256dh, auth, str(language))

    async def subscribe(self, row: PushRow, token_sha256: str, now_ms: int) -> None:
        await asyncio.to_thread(self.subscriptions.add, row, token_sha256, now_ms)

    async def unsubscribe(self, table_id: str, seat: int, endpoint: object) -> bool:
        if not isinstance(endpoint, str) or len(endpoint) > 1000:
            raise ServiceError("bad_subscription", "endpoint must be the subscription's URL")
        return await asyncio.to_thread(self.subscriptions.remove, table_id, seat, endpoint)

    # -- telling -------------------------------------------------------------------------------

    async def deliver(self, notice: Notice) -> None:
        """Push `notice` to every browser subscribed for its seat, each in its language."""
        try:
            rows = await asyncio.to_thread(self.subscriptions.of_seat, notice.table_id, notice.seat)
            await asyncio.gather(*(self._push(row, notice) for row in rows))
        except Exception as e:  # a channel never raises: the move that caused it is done
            log.warning("push of %s failed: %s", notice.key, e)

    def payload(self, notice: Notice, lang: str) -> str:
        title, body = words(notice, lang)
        tag = f"robinson-{notice.table_id}"
        return json.dumps(
            {
                "title": title,
                "body": body,
                "url": notice.path,
                "tag": tag,
                "kind": notice.kind,
                "lang": lang,
            },
            ensure_ascii=False,
        )

    async def _push(self, row: PushRow, notice: Notice) -> None:
        import aiohttp
        from pywebpush import WebPushException, webpush_async

        if self._session is None:
            self._session = aiohttp.ClientSession()
        info = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
        headers = {
            "Topic": topic(notice.table_id),
            "Urgency": "high" if notice.kind == "reminder" else "normal",
        }
        try:
            await webpush_async(
                info,
                self.payload(notice, row.language),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},  # a new dict: pywebpush adds aud and exp
                ttl=TTL,
                headers=headers,
                timeout=SEND_TIMEOUT,
                aiohttp_session=self._session,
            )
            self.sent += 1
        except WebPushException as e:
            status = e.response.status if e.response is not None else None
            if status in GONE:  # the browser unsubscribed, or the service dropped it
                await asyncio.to_thread(self.subscriptions.gone, row.endpoint)
                log.info("push subscription gone (%s): removed", status)
            else:
                log.warning("push service refused %s: %s", notice.key, status or e)
        except (aiohttp.ClientError, TimeoutError, OSError) as e:
            log.warning("push service not reached for %s: %s", notice.key, e)
