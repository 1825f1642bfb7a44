"""The suite's tiers (README "Tests"): `make check` runs every test that needs no subprocess
server, no browser, no real time waited out and no long exact solve; `make test` runs them all.

- `system`: starts `robinson serve` processes, PostgreSQL, Redis or nginx. Given by
  `pytest_collection_modifyitems` (tests/conftest.py) to every test that uses one of
  `SYSTEM_FIXTURES`, by hand (`pytestmark`) to the few modules that start a server themselves,
  and through `pytest.param(..., marks=SYSTEM)` to the PostgreSQL side of a parametrized
  fixture.
- `browser`: drives a real Chromium.
- `slow`: more than a few seconds of exact solving that no other test of the fast tier shares
  (the 4-player chains of editions other than `standard`), given by hand (`SLOW`).

What starts such a thing calls `require(marker, what)`: a test that forgot its marker fails
with that message instead of slowing the fast tier down unseen.
"""

from __future__ import annotations

import pytest

SYSTEM = pytest.mark.system
SLOW = pytest.mark.slow

# Fixtures that start a server process (or need one): a test using any of them is `system`.
SYSTEM_FIXTURES = frozenset(
    {
        "server",  # tests/web/conftest.py, test_postgres.py: a `robinson serve`
        "fresh_server",  # ... servers on databases of their own
        "postgres",  # a throwaway PostgreSQL cluster
        "cluster",  # test_cluster.py: Redis, PostgreSQL, three servers and nginx
        "redis_server",  # test_shared_redis.py
        "odds_server",  # test_odds_api.py
        "strict",  # test_rate_limits.py: a server with low limits
    }
)

_current: list[pytest.Item] = []  # the test being set up, run or torn down


def running(item: pytest.Item | None) -> None:
    _current[:] = [] if item is None else [item]


def require(marker: str, what: str) -> None:
    """Fail the current test unless it carries `marker` (it is about to start `what`)."""
    if _current and _current[0].get_closest_marker(marker) is None:
        raise RuntimeError(
            f"{_current[0].nodeid} starts {what} but is not marked `{marker}`: mark it "
            "(tests/tiers.py), so that `make check` leaves it out"
        )
