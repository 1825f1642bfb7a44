"""Fair dice: every roll of a game follows from a per-game secret seed (docs/fair-dice.md). A
neutral module: the web server rolls with it and `robinson verify` checks with it.

Two schemes. `hmac-sha256-bytes-v1` (below) rolls from the server's seed alone. In
`hmac-sha256-seeds-v2` every seat adds a seed after the server has committed to its own: the
rolls use the same derivation with the key `seeds_key(seed, contributions)` instead of the seed.

The server commits to the seed by publishing SHA-256(seed) when the game starts and reveals the
seed when it ends. Roll number k (0-based, counting only rolls) is derived from
HMAC-SHA256(seed, "k") by rejection sampling over its bytes, so every face is exactly 1/6 likely:
a byte b < 252 gives the face b % 6 + 1, a byte >= 252 is skipped. If all 32 bytes of a digest were
skipped (probability 2**-192) the next digest is HMAC-SHA256(seed, "k/1"), then "k/2", ...
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from robinson.engine import GameRecord, Roll

SCHEME = "hmac-sha256-bytes-v1"
SCHEME_V2 = "hmac-sha256-seeds-v2"
SCHEMES = (SCHEME, SCHEME_V2)
SEED_BYTES = 32
CONTRIBUTION_MIN, CONTRIBUTION_MAX = 16, 32  # bytes of a seat's seed (v2)
BY_PLAYER, BY_SERVER = "player", "server"
_LIMIT = 252  # the largest multiple of 6 not above 256: bytes below it map evenly onto 1..6


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published hash of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


def face(seed: bytes, index: int) -> int:
    """The face of roll number `index` (0-based) of the game with this seed."""
    keyed = _keyed(seed)
    attempt = 0
    while True:
        message = str(index) if attempt == 0 else f"{index}/{attempt}"
        mac = keyed.copy()
        mac.update(message.encode("ascii"))
        for byte in mac.digest():
            if byte < _LIMIT:
                return byte % 6 + 1
        attempt += 1


@functools.lru_cache(maxsize=2048)
def _keyed(seed: bytes) -> hmac.HMAC:
    """HMAC-SHA256 keyed with `seed`, before any message: each roll updates a copy. Keying
    anew for every roll (OpenSSL looks the digest up and pads the key each time) costs 2.5 us
    warm, a copy 1.1-1.3. Not `hmac.digest` either: as fast alone, but it lets go of the GIL
    on every call, and in the web server the store's writer thread then takes it (measured:
    30 us a roll, not 2). Bounded: the games being played in one process (each entry ~0.8 KB
    of memory, measured: 1.6 MB when full)."""
    return hmac.new(seed, digestmod=hashlib.sha256)


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
    """Check a record whose meta carries `dice: {scheme, seed, seed_sha256}` (and, in the
    second scheme, `seeds`: every seat's contribution)."""
    dice = record.meta.get("dice")
    if not isinstance(dice, dict):
        raise DiceMismatch(
            'the record has no "meta": {"dice": {...}} object to check', key="dice.no_meta"
        )
    if dice.get("scheme") not in SCHEMES:
        known = " | ".join(SCHEMES)
        raise DiceMismatch(
            f"unknown dice scheme {dice.get('scheme')!r}: expected {known!r}",
            key="dice.scheme",
            fields={"got": dice.get("scheme"), "known": known},
        )
    seed, digest = dice.get("seed"), dice.get("seed_sha256")
    if not isinstance(digest, str):
        raise DiceMismatch("meta.dice.seed_sha256 is missing", key="dice.no_digest")
    if not isinstance(seed, str):
        raise DiceMismatch(
            "meta.dice.seed is missing: the seed is revealed when the game ends", key="dice.no_seed"
        )
    rolls = [a.face for a in record.actions if isinstance(a, Roll)]
    if dice["scheme"] == SCHEME_V2:
        return verify_seeded(seed, digest, dice.get("seeds"), len(record.players), rolls)
    return verify_rolls(seed, digest, rolls)


# -- the second scheme: a seed from every seat --------------------------------------------------


def server_contribution(seed: bytes, seat: int) -> bytes:
    """The seed the server adds for a seat that gave none (a bot, a player who never came
    before the first roll): fixed by the server's own seed, so it is committed with it and
    gives the server no choice: HMAC-SHA256(seed, "robinson seat seed/<seat>")."""
    return hmac.new(seed, f"robinson seat seed/{seat}".encode("ascii"), hashlib.sha256).digest()


def seeds_key(seed: bytes, contributions: Sequence[bytes]) -> bytes:
    """The key the rolls are derived with: SHA-256("robinson dice v2", 0, the server's seed,
    then for each seat in order the length of its seed as one byte and the seed)."""
    h = hashlib.sha256(b"robinson dice v2\0" + seed)
    for c in contributions:
        h.update(bytes([len(c)]) + c)
    return h.digest()


def contribution(value: object) -> bytes | None:
    """A seat's seed as sent (hex, 16 to 32 bytes), else None."""
    if not isinstance(value, str) or not 2 * CONTRIBUTION_MIN <= len(value) <= 2 * CONTRIBUTION_MAX:
        return None
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        return None
    return raw if len(raw) * 2 == len(value) else None


def all_contributions(seed: bytes, seats: int, given: Mapping[int, bytes]) -> list[Entry]:
    """Every seat's entry, the server's where a seat gave none: what the first roll fixes."""
    return [
        Entry(s, given[s], BY_PLAYER)
        if s in given
        else Entry(s, server_contribution(seed, s), BY_SERVER)
        for s in range(seats)
    ]


class Entry(NamedTuple):
    seat: int
    seed: bytes
    by: str  # BY_PLAYER or BY_SERVER

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "seed": self.seed.hex(), "by": self.by}


def _entries(seed: bytes, seeds: object, players: int) -> list[bytes]:
    """The contributions of a record's `meta.dice.seeds`, checked: one per seat in order, hex,
    and every one marked as the server's equal to the one its seed fixes."""
    if not isinstance(seeds, list) or len(seeds) != players:
        raise DiceMismatch(
            f"meta.dice.seeds must list one seed for each of the {players} seats",
            key="dice.seeds",
            fields={"players": players},
        )
    out = []
    for seat, item in enumerate(seeds):
        value = item.get("seed") if isinstance(item, dict) else None
        raw = contribution(value)
        if not isinstance(item, dict) or item.get("seat") != seat or raw is None:
            raise DiceMismatch(
                f"meta.dice.seeds[{seat}] must be {{seat: {seat}, seed: 32 to 64 hex digits}}",
                key="dice.seat_seed",
                fields={"seat": seat},
            )
        if item.get("by") == BY_SERVER and raw != server_contribution(seed, seat):
            raise DiceMismatch(
                f"the seed of seat {seat} is marked as the server's but does not follow from "
                "the server's seed",
                key="dice.server_seed",
                fields={"seat": seat},
            )
        out.append(raw)
    return out


def verify_seeded(
    seed_hex: str, seed_sha256: str, seeds: object, players: int, rolls: Iterable[int]
) -> int:
    """The second scheme: the server's seed against its hash, the seats' seeds, every roll."""
    verify_rolls(seed_hex, seed_sha256, [])  # the seed is hex and matches its commitment
    seed = bytes.fromhex(seed_hex)
    key = seeds_key(seed, _entries(seed, seeds, players))
    count = 0
    for index, rolled in enumerate(rolls):
        due = face(key, index)
        if rolled != due:
            raise DiceMismatch(
                f"roll {index} was {rolled}, but the server's seed and the seats' seeds give {due}",
                key="dice.roll_seeds",
                fields={"index": index, "rolled": rolled, "due": due},
            )
        count += 1
    return count
