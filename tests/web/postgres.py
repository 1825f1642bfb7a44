"""A throwaway PostgreSQL cluster for the tests, from Debian's binaries (`postgresql` package).

The cluster lives in a temp directory, listens on 127.0.0.1 only on a free port (no Unix socket),
runs without fsync (a test cluster need not survive power loss; a killed *client* is what the
restart tests are about), and is stopped at the end of the session. PostgreSQL refuses to run as
root, so when the tests run as root the cluster runs as the `postgres` system user the package
creates. Each test gets a database of its own from `PostgresCluster.new_database`.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.tiers import require

SKIP_REASON = "PostgreSQL not installed: apt-get install postgresql"
USER = "robinson"  # the cluster's superuser, trusted on 127.0.0.1 (a test cluster has no secrets)


def binaries() -> Path | None:
    """The newest installed server's bin directory, or None when PostgreSQL is not installed."""

    def version(path: str) -> float:
        name = Path(path).parent.parent.name
        return float(name) if name.replace(".", "", 1).isdigit() else 0.0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if not found:
        return None
    folder = Path(found[-1]).parent
    return folder if (folder / "pg_ctl").exists() and (folder / "postgres").exists() else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresCluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="robinson-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._numbers = itertools.count(1)
        # Root may not run postgres: hand the directory to the package's system user.
        self._as: list[str] = []
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *cmd: str) -> None:
        done = subprocess.run(
            [*self._as, *cmd], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
            )

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-c port={self.port}",
                "-c unix_socket_directories=''",
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=100",
            ]
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = f"robinson_{os.getpid()}_{next(self._numbers)}"
        # CREATE DATABASE cannot run in a transaction.
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # name is ours: digits and underscores
        return self.url(name)


@contextlib.contextmanager
def cluster() -> Iterator[PostgresCluster | None]:
    """A started cluster, or None when the binaries are absent. Stopped on exit."""
    bindir = binaries()
    if bindir is None:
        yield None
        return
    require("system", "a PostgreSQL cluster")
    pg = PostgresCluster(bindir)
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()
