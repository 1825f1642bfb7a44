"""The dice seed at rest (issue 22): a live game's seed is stored encrypted with a key kept
outside the database, so a copy of the database predicts no roll (docs/fair-dice.md).

The key is 32 random bytes in a file of its own: given by `robinson serve --seed-key FILE`, else
`robinson-seed.key` beside the SQLite file (or in the user data directory for a database on a
server), made on first start (mode 0600). Every process of a cluster must read the same file.

A stored seed is `k1:` and the hex of the seed XOR a keystream: HMAC-SHA256(key, "robinson
seed" | game id | block number), one 32-byte block per 32 bytes of seed. Game ids are unique,
so no keystream is used twice. Reading checks the result against the game's published
SHA-256 of its seed: a wrong key is a clear error, never wrong dice. A seed stored in the clear
(before this, or by a store without a key) is read as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

PREFIX = "k1:"
KEY_FILE = "robinson-seed.key"
KEY_BYTES = 32


class SeedKeyError(Exception):
    """The seeds cannot be read or sealed: no key, a wrong key, or an unreadable key file."""


def _xor(data: bytes, key: bytes, game_id: str) -> bytes:
    return bytes(a ^ b for a, b in zip(data, _stream(key, game_id, len(data)), strict=True))


def _stream(key: bytes, game_id: str, length: int) -> bytes:
    out = b""
    block = 0
    while len(out) < length:
        message = b"robinson seed\0" + game_id.encode() + b"\0" + block.to_bytes(4, "big")
        out += hmac.new(key, message, hashlib.sha256).digest()
        block += 1
    return out[:length]


class SeedBox:
    """Seals and opens the seeds of one key (None: seeds are stored in the clear)."""

    def __init__(self, key: bytes | None) -> None:
        if key is not None and len(key) != KEY_BYTES:
            raise SeedKeyError(f"a seed key is {KEY_BYTES} bytes, got {len(key)}")
        self.key = key

    def seal(self, game_id: str, seed_hex: str) -> str:
        if self.key is None:
            return seed_hex
        seed = bytes.fromhex(seed_hex)
        hidden = _xor(seed, self.key, game_id)
        return PREFIX + hidden.hex()

    def open(self, game_id: str, stored: str, seed_sha256: str) -> str:
        """The seed's hex, checked against its published hash."""
        if not stored.startswith(PREFIX):
            return stored  # stored in the clear (an older database)
        if self.key is None:
            raise SeedKeyError(
                f"game {game_id}: its dice seed is encrypted and this server has no seed key "
                "(robinson serve --seed-key FILE)"
            )
        hidden = bytes.fromhex(stored[len(PREFIX) :])
        seed = _xor(hidden, self.key, game_id)
        if hashlib.sha256(seed).hexdigest() != seed_sha256.lower():
            raise SeedKeyError(
                f"game {game_id}: the seed key does not open its dice seed (a different key "
                "file than the one it was sealed with: every process needs the same one)"
            )
        return seed.hex()


def key_path(database: str | None, given: str | None, name: str = KEY_FILE) -> Path:
    """Where a key file `name` is: `given`, else beside the SQLite file, else the user data
    directory (the VAPID key, notify/vapid.py, is kept the same way)."""
    if given:
        return Path(given).expanduser()
    if database:
        folder = Path(database).expanduser().resolve().parent
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("robinson"))
    return folder / name


def make_private(path: Path, content: bytes) -> None:
    """Write `content` as a file readable by its owner alone, unless `path` exists: written
    whole beside it, then linked in, so no process ever reads it half made; when another
    process made it meanwhile, theirs stays."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(content)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass  # another process made it just now: read theirs
    finally:
        draft.unlink()


def load_key(path: Path) -> bytes:
    """The key in `path`, made there (readable by its owner alone) if there is none yet."""
    if not path.exists():
        make_private(path, (secrets.token_hex(KEY_BYTES) + "\n").encode("ascii"))
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise SeedKeyError(f"cannot read the seed key {path}: {e}") from None
    if len(key) != KEY_BYTES:
        raise SeedKeyError(f"the seed key {path} is not {KEY_BYTES} bytes of hex")
    return key
