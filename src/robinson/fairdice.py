"""Fair dice: every roll of a game follows from a per-game secret seed (docs/fair-dice.md). A
neutral module: the web server rolls with it and `robinson verify` checks with it.

The server commits to the seed by publishing SHA-256(seed) when the game starts and reveals the
seed when it ends. Roll number k (0-based, counting only rolls) is derived from
HMAC-SHA256(seed, "k") by rejection sampling over its bytes, so every face is exactly 1/6 likely:
a byte b < 252 gives the face b % 6 + 1, a byte >= 252 is skipped. If all 32 bytes of a digest were
skipped (probability 2**-192) the next digest is HMAC-SHA256(seed, "k/1"), then "k/2", ...
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from robinson.engine import GameRecord, Roll

SCHEME = "hmac-sha256-bytes-v1"
SEED_BYTES = 32
_LIMIT = 252  # the largest multiple of 6 not above 256: bytes below it map evenly onto 1..6


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published hash of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def face(seed: bytes, index: int) -> int:
    """The face of roll number `index` (0-based) of the game with this seed."""
    attempt = 0
    while True:
        message = str(index) if attempt == 0 else f"{index}/{attempt}"
        digest = hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest()
        for byte in digest:
            if byte < _LIMIT:
                return byte % 6 + 1
        attempt += 1


def faces(seed: bytes, count: int) -> list[int]:
    return [face(seed, k) for k in range(count)]


class DiceMismatch(ValueError):
    """A record whose seed or rolls do not follow the scheme. Like the engine's errors it
    carries a message key and fields (`robinson.i18n.errors` says it in the user's language)."""

    def __init__(
        self, message: str, *, key: str | None = None, fields: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.fields = dict(fields or {})


def verify_rolls(seed_hex: str, seed_sha256: str, rolls: Iterable[int]) -> int:
    """Check the seed against its published hash and each roll against the seed.
    Returns the number of rolls checked; raises `DiceMismatch` naming the first bad one."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise DiceMismatch(
            f"the seed must be hex digits, got {seed_hex!r}",
            key="dice.seed_hex",
            fields={"got": seed_hex},
        ) from None
    if commitment(seed) != seed_sha256.lower():
        raise DiceMismatch(
            f"SHA-256 of the seed is {commitment(seed)}, but the game published {seed_sha256}",
            key="dice.commitment",
            fields={"actual": commitment(seed), "published": seed_sha256},
        )
    count = 0
    for index, rolled in enumerate(rolls):
        due = face(seed, index)
        if rolled != due:
            raise DiceMismatch(
                f"roll {index} was {rolled}, but the seed gives {due}",
                key="dice.roll",
                fields={"index": index, "rolled": rolled, "due": due},
            )
        count += 1
    return count


def verify_record(record: GameRecord) -> int:
    """Check a record whose meta carries `dice: {scheme, seed, seed_sha256}`."""
    dice = record.meta.get("dice")
    if not isinstance(dice, dict):
        raise DiceMismatch(
            'the record has no "meta": {"dice": {...}} object to check', key="dice.no_meta"
        )
    if dice.get("scheme") != SCHEME:
        raise DiceMismatch(
            f"unknown dice scheme {dice.get('scheme')!r}: expected {SCHEME!r}",
            key="dice.scheme",
            fields={"got": dice.get("scheme"), "known": SCHEME},
        )
    seed, digest = dice.get("seed"), dice.get("seed_sha256")
    if not isinstance(digest, str):
        raise DiceMismatch("meta.dice.seed_sha256 is missing", key="dice.no_digest")
    if not isinstance(seed, str):
        raise DiceMismatch(
            "meta.dice.seed is missing: the seed is revealed when the game ends", key="dice.no_seed"
        )
    rolls = [a.face for a in record.actions if isinstance(a, Roll)]
    return verify_rolls(seed, digest, rolls)
