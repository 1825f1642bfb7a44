"""The fair-dice scheme lives in `robinson.fairdice`, shared with `robinson verify`; the web keeps
this name for its own imports."""

from robinson.fairdice import (
    SCHEME,
    SEED_BYTES,
    DiceMismatch,
    commitment,
    face,
    faces,
    new_seed,
    verify_record,
    verify_rolls,
)

__all__ = [
    "SCHEME",
    "SEED_BYTES",
    "DiceMismatch",
    "commitment",
    "face",
    "faces",
    "new_seed",
    "verify_record",
    "verify_rolls",
]
