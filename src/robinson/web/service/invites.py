"""Seats that stay yours (docs/protocol.md "Seats"): one-time invites, the host's secret, links
and their QR codes.

An invite code is derived, not stored: HMAC-SHA256 of the host's secret over the table, the seat
and the hash of the seat's current secret. The store keeps only the code's SHA-256, so the host
(who holds the secret) can be shown every unclaimed seat's link again at any time, while the
database alone reveals nothing. Claiming a seat gives it a new secret, which both spends the
invite (its hash is cleared) and makes the derived code a different one; a re-invite does the
same, so the old secret and the old link stop working together.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import re
import threading
from collections import OrderedDict

import segno

# The fragment of a page link: `/t/{table}#i:CODE` claims a seat, `#h:SECRET` is the host's.
INVITE_PREFIX = "i:"  # an invite's code, or a device code (`device_code`): the page takes both
DEVICE_SECONDS = 600  # a device code is good for this long
HOST_PREFIX = "h:"
ORIGIN = re.compile(
    r"https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?"
)


def invite_code(host_secret: str, table: str, seat: int, token_sha256: str) -> str:
    message = f"{table}:{seat}:{token_sha256}".encode()
    digest = hmac.new(host_secret.encode("utf-8"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


def device_code(key: bytes, table: str, seat: int, token_sha256: str, issued: int) -> str:
    """A one-time code to continue on another device: "seat.issued.mac", the MAC (the server's
    key) over the table, the seat, the hash of the seat's secret now and when it was made
    (Unix s). Not stored: it is good while the seat keeps that secret (taking it gives the
    seat a new one, so it works once; a revocation ends it too) and for DEVICE_SECONDS."""
    message = f"robinson device:{table}:{seat}:{token_sha256}:{issued}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return f"{seat}.{issued}.{base64.urlsafe_b64encode(digest[:18]).decode('ascii')}"


def device_parts(code: str) -> tuple[int, int] | None:
    """The seat and the time of a code of the device form, else None (an invite's)."""
    parts = code.split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


def invite_link(table: str, code: str) -> str:
    return f"/t/{table}#{INVITE_PREFIX}{code}"


def check_origin(origin: object) -> str | None:
    """The page's origin (scheme, host, port) if it is one, for absolute links; else None."""
    if isinstance(origin, str) and len(origin) <= 200 and ORIGIN.fullmatch(origin):
        return origin
    return None


def qr_svg(text: str) -> str:
    """`text` as a QR code, an inline SVG element (segno; no script, no external reference),
    made once and kept (the newest QR_KEPT): a link's code is made on the heavy lane
    (seats.py `qr_codes`), then read from here. Safe on any thread."""
    kept = qr_kept(text)
    if kept is not None:
        return kept
    out = io.BytesIO()
    qr = segno.make(text, error="m")
    qr.save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, nl=False)
    svg = out.getvalue().decode("ascii")
    with _qr_lock:
        _qr[text] = svg
        while len(_qr) > QR_KEPT:
            _qr.popitem(last=False)
    return svg


def qr_kept(text: str) -> str | None:
    """The code of `text` if it was made already."""
    with _qr_lock:
        svg = _qr.get(text)
        if svg is not None:
            _qr.move_to_end(text)
        return svg


QR_KEPT = 2000  # codes kept (about 5 kB each)
_qr: OrderedDict[str, str] = OrderedDict()
_qr_lock = threading.Lock()
