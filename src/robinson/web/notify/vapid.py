"""The server's VAPID key (RFC 8292): it signs every push, and its public half is what a browser
subscribes with (`GET /api/push/key`). Made on first start, like the dice seeds' key
(store/seeds.py): `robinson serve --vapid-key FILE`, else `robinson-vapid.pem` beside the SQLite
file (or in the user data directory for a database on a server), mode 0600. Every process of a
cluster must read the same file: a browser's subscription is bound to the key it was made with.
"""

from __future__ import annotations

import base64
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from robinson.web.store import seeds

KEY_FILE = "robinson-vapid.pem"


class VapidKeyError(Exception):
    """The VAPID key file cannot be read or made."""


def key_path(database: str | None, given: str | None) -> Path:
    """Where the key is: `given`, else beside the SQLite file, else the user data directory."""
    return seeds.key_path(database, given, KEY_FILE)


def load_key(path: Path) -> Vapid02:
    """The key in `path` (PEM), made there (readable by its owner alone) if there is none."""
    if not path.exists():
        fresh = Vapid02()
        fresh.generate_keys()
        seeds.make_private(path, fresh.private_pem())
    try:
        pem = path.read_bytes()
        key = serialization.load_pem_private_key(pem, password=None)
    except (OSError, ValueError, TypeError) as e:
        raise VapidKeyError(f"cannot read the VAPID key {path}: {e}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise VapidKeyError(f"the VAPID key {path} is not a P-256 (prime256v1) EC key")
    return Vapid02(key)


def public_key(vapid: Vapid02) -> str:
    """The key a browser's `pushManager.subscribe` takes (`applicationServerKey`): the P-256
    point, uncompressed, in URL-safe base64 without padding."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")
