"""Seeded, counter-based dice: the k-th draw of game g under seed s is a pure function of (s, g, k).

A counter-based generator (SplitMix64's output mix applied to a counter, as in Steele, Lea and
Flood, "Fast splittable pseudorandom number generators", 2014) lets every game have its own dice
stream without any shared state, so games can be simulated in any order on any number of threads
and any single game's dice can be handed to the pure engine for replay.

Each 64-bit draw is cut into four 16-bit chunks, low bits first, and a chunk c gives the face
c % 6 + 1. Faces are exactly uniform: a chunk c >= 65532 (= 65536 - 65536 % 6, probability
4 / 65536) is skipped and the next chunk is used instead. Four faces per draw make the dice about
a quarter of the cost of one draw per face. The same arithmetic exists twice, as plain
Python here (for the engine replay and tests) and compiled in `kernel.py`; a test pins them equal.
"""

from __future__ import annotations

from collections.abc import Iterator

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # the golden-ratio increment of SplitMix64
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
GAME_SALT = 0xD1B54A32D192ED03  # keeps (seed, game) and (game, seed) apart
LIMIT16 = 65536 - 65536 % 6  # chunks at or above this are skipped


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit integers with good avalanche."""
    z &= MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def game_key(seed: int, game: int) -> int:
    """The key of one game's dice stream."""
    return mix64(mix64(seed) ^ ((game * GAME_SALT) & MASK))


def faces(seed: int, game: int) -> Iterator[int]:
    """The endless sequence of die faces (1..6) of game `game` under `seed`."""
    key = game_key(seed, game)
    counter = 0
    while True:
        counter += 1
        bits = mix64(key + counter * GAMMA)
        for _ in range(4):
            chunk = bits & 0xFFFF
            bits >>= 16
            if chunk < LIMIT16:
                yield chunk % 6 + 1


def check_seed(seed: object) -> int:
    """A seed is a whole number from 0 to 2**64 - 1."""
    if type(seed) is not int or not 0 <= seed <= MASK:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    return seed
