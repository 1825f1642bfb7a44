"""A disk cache of the optimal policy's decision tables, so a machine pays each solve once.

The optimal bot and `make_policy("optimal", ...)` need only the decision tables (a few MB for 4
players), not the value tables (150 MB), so only they are stored: one `.npz` file per ruleset
and number of players, in `$ROBINSON_CACHE_DIR` if set, else `platformdirs.user_cache_dir(
"robinson")/exact`. The file name carries a fingerprint of the source of the engine and of the
exact analysis: any change to the rules or to the solver makes old files unused (they are
never read again; delete the directory to reclaim the space). A file that cannot be read or
does not have the expected layout is ignored and solved again; a cache that cannot be written
(read-only home) is simply not used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import platformdirs

from robinson.analysis.decisions import DECISION_KINDS
from robinson.analysis.exact import codes
from robinson.engine import Ruleset

CACHE_ENV = "ROBINSON_CACHE_DIR"
_FORMAT = 1  # bump when the layout of the stored arrays changes


@dataclass(frozen=True)
class StoredTables:
    tables: list[npt.NDArray[np.uint8]]  # tables[m - 1]: m living players
    converged: bool


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else Path(platformdirs.user_cache_dir("robinson")) / "exact"


@cache
def fingerprint() -> str:
    """A hash of the source files the solution depends on: the engine and the exact analysis."""
    digest = hashlib.sha256(str(_FORMAT).encode())
    exact = Path(__file__).parent  # robinson/analysis/exact
    files = [exact.parent / "policy.py", exact.parent / "decisions.py"]
    for package in (exact.parent.parent / "engine", exact):
        files += sorted(package.glob("*.py"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def pawn_rules(ruleset: Ruleset) -> Ruleset:
    """The part of a ruleset that moves pawns, and so all an optimal solution depends on: the
    edition. Money (start_tokens, stake, share) never moves a pawn or decides a winner."""
    return Ruleset(edition=ruleset.edition)


def table_path(ruleset: Ruleset, players: int) -> Path:
    key = json.dumps(pawn_rules(ruleset).to_json(), sort_keys=True).encode()
    name = f"optimal-{players}p-{hashlib.sha256(key).hexdigest()[:12]}-{fingerprint()}.npz"
    return cache_dir() / name


def load_tables(ruleset: Ruleset, players: int) -> StoredTables | None:
    path = table_path(ruleset, players)
    try:
        with np.load(path, allow_pickle=False) as data:
            tables = [data[f"m{m}"] for m in range(1, players + 1)]
            converged = bool(data["converged"])
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    for m, table in enumerate(tables, start=1):
        if table.dtype != np.uint8 or table.shape != (len(DECISION_KINDS), 7, codes.K ** (m - 1)):
            return None
    return StoredTables(tables, converged)


def save_tables(ruleset: Ruleset, players: int, stored: StoredTables) -> None:
    path = table_path(ruleset, players)
    arrays: dict[str, Any] = {f"m{m}": t for m, t in enumerate(stored.tables, start=1)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written under another name, then renamed: a reader never sees half a file.
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
            temporary = Path(f.name)
            np.savez_compressed(f, converged=np.array(stored.converged), **arrays)
        os.replace(temporary, path)
    except OSError:
        if "temporary" in locals():
            temporary.unlink(missing_ok=True)
