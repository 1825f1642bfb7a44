"""Session-wide test setup shared by every area, and the tiers of the suite (tests/tiers.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Every message a server sends in the tests (in process or a `robinson serve` child, which
# inherits this) is checked against its model (web/protocol/messages.py CHECK).
os.environ["ROBINSON_CHECK_MESSAGES"] = "1"

from tests import tiers


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `system` every test that uses a fixture starting a server (tests/tiers.py)."""
    for item in items:
        if tiers.SYSTEM_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(tiers.SYSTEM)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    tiers.running(item)  # before its fixtures: a module's server starts in the first test's


def pytest_runtest_logfinish() -> None:
    tiers.running(None)


@pytest.fixture(autouse=True, scope="session")
def _private_solution_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the exact solver's disk cache (ROBINSON_CACHE_DIR) out of the user's home: tests
    must neither read a stale cache nor leave files behind. Set in os.environ so the servers
    that tests start as subprocesses inherit it too. The workers of one `pytest -n` run share
    it (their temporary folders' parent is the run's), so a chain one solves the others read
    (the cache's files are written under another name, then renamed)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        path = tmp_path_factory.getbasetemp().parent / "robinson-cache"
        path.mkdir(exist_ok=True)
    else:
        path = tmp_path_factory.mktemp("robinson-cache")
    before = os.environ.get("ROBINSON_CACHE_DIR")
    os.environ["ROBINSON_CACHE_DIR"] = str(path)
    yield path
    if before is None:
        del os.environ["ROBINSON_CACHE_DIR"]
    else:
        os.environ["ROBINSON_CACHE_DIR"] = before
