"""The solved chains on disk: one `.npy` file per (rules, policy, living players), loaded
memory-mapped so that every process of a machine shares one copy through the page cache.

The chain of m living players does not depend on how many seats the table has, nor on the money
options: only on the movement rules (board, fever and choices, `rules_key`) and the policy. So
the files are `values-{fever}-{choices}-{policy}-{m}p-{fingerprint}.npy` in the exact analysis's
cache directory (`robinson.analysis.exact.store.cache_dir`), holding `V[state, seat]` of
`robinson.analysis.exact.joint` (float64, K**m x m; 156 MB for 4 players). The fingerprint is
that of the exact analysis (engine and solver sources), so a change of the rules or the solver
makes old files unused.

A chain is solved once per machine: a lock file serialises the processes that need it at the same
moment (the second one finds the file written when it gets the lock), and the file is written
under another name and renamed, so a reader never sees half a file. Solving m players needs the
chains of 1..m-1, which are loaded (or solved and written) first.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes, store
from robinson.engine import EDITIONS, STANDARD_BOARD, RobinsonError, Ruleset

FloatArray = npt.NDArray[np.float64]
EXACT_LIVING = 4  # the chain is exact up to this many living players
ODDS_POLICIES = ("eager", "optimal")
_FORMAT = 1  # bump when the layout of the files changes


def rules_ruleset(ruleset: Ruleset) -> Ruleset:
    """The ruleset that stands for every ruleset with the same movement rules: the first edition
    with the same board, fever and choices, with the default money options (money never moves a
    pawn)."""
    for name in EDITIONS:
        if rules_key(Ruleset(name)) == rules_key(ruleset):
            return Ruleset(name)
    raise RobinsonError(f"no edition plays like {ruleset.edition!r}")  # pragma: no cover


def rules_key(ruleset: Ruleset) -> str:
    """What the chains depend on, for file names: fever, choices, and the board when it is not
    the standard one (a hash of its squares)."""
    key = f"{ruleset.fever.value}-{ruleset.rules.choices.value}"
    if ruleset.board != STANDARD_BOARD:
        key += "-" + hashlib.sha256(repr(ruleset.board).encode()).hexdigest()[:10]
    return key


def check_policy(policy: str) -> str:
    if policy not in ODDS_POLICIES:
        raise RobinsonError(
            f"unknown policy {policy!r}: expected one of {', '.join(ODDS_POLICIES)}",
            key="policy",
            fields={"got": policy, "known": ", ".join(ODDS_POLICIES)},
        )
    return policy


def check_living(m: int) -> int:
    if type(m) is not int or not 1 <= m <= EXACT_LIVING:
        raise RobinsonError(f"the exact chain covers 1 to {EXACT_LIVING} living players, got {m!r}")
    return m


def table_path(ruleset: Ruleset, policy: str, m: int) -> Path:
    name = f"values-{rules_key(ruleset)}-{policy}-{m}p-f{_FORMAT}-{store.fingerprint()}.npy"
    return store.cache_dir() / name


def ready(ruleset: Ruleset, policy: str, m: int) -> bool:
    """Whether the chain of m living players is on disk already (a lookup will not solve)."""
    return all(table_path(ruleset, policy, k).is_file() for k in range(1, m + 1))


@functools.lru_cache(maxsize=64)
def _mapped(path: Path, m: int) -> FloatArray | None:
    try:
        values = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if values.dtype != np.float64 or values.shape != (codes.K**m, m):
        return None
    return values  # type: ignore[no-any-return]


_OPEN: dict[tuple[str, str, str, int], FloatArray] = {}


def row(ruleset: Ruleset, policy: str, m: int, index: int) -> list[float]:
    """`V[index]` as floats: the lookup itself, with the mapped table kept per (cache
    directory, rules, policy, m) so that a lookup costs no path or file work."""
    key = (os.environ.get(store.CACHE_ENV, ""), rules_key(ruleset), policy, m)
    table = _OPEN.get(key)
    if table is None:
        # A plain ndarray view of the mapping: indexing a memmap makes a memmap per row.
        table = _OPEN[key] = values(ruleset, policy, m).view(np.ndarray)
    return table[index].tolist()  # type: ignore[no-any-return]


def values(ruleset: Ruleset, policy: str, m: int) -> FloatArray:
    """`V[state, relative seat]` of the chain of m living players, memory-mapped (read-only);
    solved and written first if this machine does not have it yet."""
    check_policy(policy)
    check_living(m)
    path = table_path(ruleset, policy, m)
    found = _mapped(path, m)
    if found is None:
        _mapped.cache_clear()  # a bad or missing file must not stay cached
        _OPEN.clear()
        ensure(ruleset, policy, m)
        found = _mapped(path, m)
        if found is None:
            raise RobinsonError(f"the solved chain {path} cannot be read back")
    return found


def ensure(ruleset: Ruleset, policy: str, m: int) -> float:
    """Solve and write the chains of 1..m living players that are not on disk yet; returns the
    seconds spent solving (0 when everything was there). Safe to call from several processes."""
    check_policy(policy)
    check_living(m)
    ruleset = rules_ruleset(ruleset)
    if ready(ruleset, policy, m):
        return 0.0
    from robinson.analysis.exact.joint import Solution, solve_joint
    from robinson.analysis.exact.turns import build_turn_trees

    spent = 0.0
    with _lock(ruleset, policy):
        trees = build_turn_trees(ruleset)
        sub: Solution | None = None
        for k in range(1, m + 1):
            path = table_path(ruleset, policy, k)
            loaded = _load_copy(path, k)
            if loaded is None:
                began = time.perf_counter()
                solved = solve_joint(trees, k, sub, policy == "optimal", tol=1e-13)
                spent += time.perf_counter() - began
                _save(path, solved.values)
                loaded = solved.values
            sub = Solution(k, loaded, 0, 0.0, 0.0, 0.0)
    _mapped.cache_clear()
    _OPEN.clear()
    return spent


def _load_copy(path: Path, m: int) -> FloatArray | None:
    if not path.is_file():
        return None
    mapped = _mapped.__wrapped__(path, m)
    return None if mapped is None else np.array(mapped)


def _save(path: Path, array: FloatArray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written under another name, then renamed: a reader never sees half a file.
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
        temporary = Path(f.name)
        try:
            np.save(f, array, allow_pickle=False)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    temporary.chmod(0o644)  # readable like any cache file, not only by its writer
    os.replace(temporary, path)


@contextlib.contextmanager
def _lock(ruleset: Ruleset, policy: str) -> Iterator[None]:
    """One solver per (rules, policy) on this machine at a time."""
    directory = store.cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RobinsonError(f"cannot write the solved chains to {directory}: {e.strerror}") from e
    lock = directory / f"values-{rules_key(ruleset)}-{policy}.lock"
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def store_solution(ruleset: Ruleset, policy: str, chains: list[FloatArray]) -> None:
    """Write chains solved elsewhere (`chains[m - 1]`: m living players, e.g. the
    `robinson.analysis.exact.game.GameSolution` of `analyze`) for the ones not on disk yet."""
    check_policy(policy)
    ruleset = rules_ruleset(ruleset)
    with _lock(ruleset, policy):
        for m, array in enumerate(chains, start=1):
            path = table_path(ruleset, policy, m)
            if not path.is_file():
                if array.shape != (codes.K**m, m):
                    raise RobinsonError(f"a chain of {m} players has shape {(codes.K**m, m)}")
                _save(path, np.ascontiguousarray(array, dtype=np.float64))
    _mapped.cache_clear()
    _OPEN.clear()
