"""Session-wide test setup shared by every area."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Every message a server sends in the tests (in process or a `robinson serve` child, which
# inherits this) is checked against protocol/server.py's models (web/protocol/server.py CHECK).
os.environ["ROBINSON_CHECK_MESSAGES"] = "1"


@pytest.fixture(autouse=True, scope="session")
def _private_solution_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the exact solver's disk cache (ROBINSON_CACHE_DIR) out of the user's home: tests
    must neither read a stale cache nor leave files behind. Set in os.environ so the servers
    that tests start as subprocesses inherit it too."""
    path = tmp_path_factory.mktemp("robinson-cache")
    before = os.environ.get("ROBINSON_CACHE_DIR")
    os.environ["ROBINSON_CACHE_DIR"] = str(path)
    yield path
    if before is None:
        del os.environ["ROBINSON_CACHE_DIR"]
    else:
        os.environ["ROBINSON_CACHE_DIR"] = before
