"""The web package's layers, read off the source (an `ast` scan) and checked by importing:

    protocol  <-  service  <-  api  <-  app          store <- service,  cluster <- service
    store, protocol, service.notices  <-  notify (the channels)  <-  api, app

- the service (the authority) speaks no HTTP, SQL or Redis: it imports no FastAPI, Starlette,
  SQLAlchemy or Redis client, and of the store only its rows and errors at run time (it is
  handed a `Store`);
- the store and the cluster know nothing of the service or the API above them;
- only the API and the app import FastAPI or Starlette;
- the protocol is the wire alone: the engine, pydantic and itself;
- the channels (notify/) use the store, the protocol and the service's notices, never the rest
  of the service nor the API, and speak no HTTP framework (their HTTP client is aiohttp's, for
  the push services); the service never imports them (the app hands them over);
- every module of the web package is short enough to read in one sitting (400 lines).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import robinson.web.service

WEB = Path(robinson.web.service.__file__).parent.parent
HTTP = {"fastapi", "starlette"}
OUTSIDE = HTTP | {"sqlalchemy", "redis", "limits", "uvicorn", "alembic"}


def _imports(path: Path, *, runtime_only: bool) -> set[str]:
    """Every module `path` imports (dotted, absolute); with `runtime_only`, those under
    `if TYPE_CHECKING:` are left out (they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _modules(package: str) -> list[Path]:
    return sorted((WEB / package).rglob("*.py"))


def _roots(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("path", _modules("service"), ids=lambda p: p.name)
def test_the_service_speaks_no_http_sql_or_redis(path: Path) -> None:
    every = _imports(path, runtime_only=False)
    assert not _roots(every) & OUTSIDE, path
    at_run_time = _imports(path, runtime_only=True)
    store = {m for m in at_run_time if m.startswith("robinson.web.store")}
    allowed = ("robinson.web.store.rows", "robinson.web.store.errors")
    assert all(m.startswith(allowed) for m in store), (path, store)
    assert not any(m.startswith("robinson.web.api") for m in every), path


@pytest.mark.parametrize(
    "path", _modules("store") + _modules("cluster"), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_the_store_and_the_cluster_know_nothing_above_them(path: Path) -> None:
    every = _imports(path, runtime_only=False)
    above = ("robinson.web.service", "robinson.web.api", "robinson.web.app")
    assert not any(m.startswith(above) for m in every), path
    assert not _roots(every) & HTTP, path


def test_only_the_api_and_the_app_import_fastapi_or_starlette() -> None:
    users = {
        str(p.relative_to(WEB))
        for p in WEB.rglob("*.py")
        if _roots(_imports(p, runtime_only=False)) & HTTP
    }
    assert users and all(u.startswith("api/") or u == "app.py" for u in users), users


@pytest.mark.parametrize("path", _modules("notify"), ids=lambda p: p.name)
def test_the_channels_use_the_store_the_protocol_and_the_notices_alone(path: Path) -> None:
    """(and the settings of their own, e.g. the SMTP server's)"""
    every = _imports(path, runtime_only=False)
    web = {m for m in every if m.startswith(("robinson.web.", "robinson.web"))}
    allowed = (
        "robinson.web.store",
        "robinson.web.protocol",
        "robinson.web.service.notices",
        "robinson.web.notify",
        "robinson.web.settings",
    )
    assert all(m.startswith(allowed) or m == "robinson.web" for m in web), (path, web)
    assert not _roots(every) & HTTP, path


@pytest.mark.parametrize("path", _modules("protocol"), ids=lambda p: p.name)
def test_the_protocol_is_the_wire_alone(path: Path) -> None:
    project = {m for m in _imports(path, runtime_only=False) if m.startswith("robinson")}
    assert all(m.startswith(("robinson.engine", "robinson.web.protocol")) for m in project)
    assert not _roots(_imports(path, runtime_only=False)) & OUTSIDE


def test_the_service_never_imports_a_channel() -> None:
    for path in _modules("service"):
        assert not any(
            m.startswith("robinson.web.notify") for m in _imports(path, runtime_only=False)
        ), path


@pytest.mark.parametrize("path", sorted(WEB.rglob("*.py")), ids=lambda p: str(p.relative_to(WEB)))
def test_every_web_module_reads_in_one_sitting(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{path.relative_to(WEB)} has {lines} lines"


def test_importing_the_service_loads_no_web_framework_database_or_redis_client() -> None:
    """The scan above, checked for real: what `import robinson.web.service` pulls in."""
    code = (
        "import sys, robinson.web.service; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(OUTSIDE)!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
