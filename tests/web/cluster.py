"""A real cluster for the scale-out tests: redis-server, a throwaway PostgreSQL (postgres.py),
three `robinson serve --redis` processes, and nginx in front with deploy/nginx/robinson.conf.

Each part runs from Debian's packages on free loopback ports, under a temp directory of its own
(nginx too: its own prefix, pid, logs and temp paths, as the current user), and is stopped at
the end. A missing part gives a reason to skip (`missing()`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx

from tests.tiers import require
from tests.web.conftest import Server, free_port, stop_process

REPO = Path(__file__).resolve().parents[2]
NGINX_SITE = REPO / "deploy" / "nginx" / "robinson.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
REDIS = shutil.which("redis-server")
START = 120  # seconds a server may take to answer: on a loaded machine the imports alone take 20


def missing() -> str | None:
    """Why the cluster cannot run here, or None."""
    if REDIS is None:
        return "redis-server not installed: apt-get install redis-server"
    if NGINX is None:
        return "nginx not installed: apt-get install nginx"
    return None


def _wait(what: str, ready: object, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(ready) and ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start within {seconds} s")


class RedisServer:
    """redis-server on a loopback port, nothing on disk (a restart loses everything)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS is not None
        require("system", "redis-server")
        cmd = [
            REDIS,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
            "--daemonize",
            "no",
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait("redis-server", self.ping)

    def ping(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def restart(self) -> None:
        """Killed and started again on the same port: everything it held is gone."""
        self.kill()
        self.start()


def nginx_config(folder: Path, port: int, upstreams: list[int]) -> Path:
    """deploy/nginx/robinson.conf with these ports, wrapped in a main config of its own."""
    site = NGINX_SITE.read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in upstreams)
    site, n = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", servers, site)
    assert n == 1, "deploy/nginx/robinson.conf: the upstream's server lines were not found"
    site, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert n == 1, "deploy/nginx/robinson.conf: 'listen 80;' was not found"
    (folder / "robinson.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers stay the current user
    temps = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = folder / "nginx.conf"
    main.write_text(
        f"{user}worker_processes 1;\ndaemon off;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\n    access_log off;\n{temps}    include {folder / 'robinson.conf'};\n}}\n"
    )
    return main


class Nginx:
    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        self.folder = folder
        self.port = free_port()
        self.config = nginx_config(folder, self.port, upstreams)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert NGINX is not None
        require("system", "nginx")
        cmd = [
            NGINX,
            "-p",
            str(self.folder),
            "-c",
            str(self.config),
            "-e",
            str(self.folder / "error.log"),
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"nginx exited: {err}")
            try:
                return httpx.get(f"http://127.0.0.1:{self.port}/api/meta", timeout=2).is_success
            except httpx.TransportError:
                return False

        _wait("nginx", up)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)
            self.proc = None


class Cluster:
    """Three (or `size`) servers on one database and one Redis, nginx in front."""

    def __init__(
        self,
        folder: Path,
        database: str,
        size: int = 3,
        bot_delay: float = 0.0,
        extra: tuple[str, ...] = (),
    ):
        self.redis = RedisServer(folder)
        self.redis.start()
        self.servers = [
            Server(database, bot_delay, extra=("--redis", self.redis.url, *extra))
            for _ in range(size)
        ]
        self.nginx: Nginx | None = None
        try:
            for srv in self.servers:
                srv.start(START)
            self.nginx = Nginx(folder, [s.port for s in self.servers])
            self.nginx.start()
        except Exception:
            self.stop()
            raise
        # The front door: a Server-shaped handle on nginx's port (its helpers speak HTTP/WS).
        self.front = Server(database)
        self.front.port = self.nginx.port

    def server_of(self, process: str) -> Server:
        """The server whose process id (web/cluster/__init__.py: host:pid:random) this is."""
        pid = int(process.split(":")[1])
        return next(s for s in self.servers if s.proc is not None and s.proc.pid == pid)

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for srv in self.servers:
            srv.stop()
        self.redis.kill()
