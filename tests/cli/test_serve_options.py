"""`robinson serve`'s options reach the server's `Settings`: each one set on the command line is
the value the app is made with (no server is started: the app and uvicorn are stand-ins). The
options' effects are tested on the service itself (tests/web), in process."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from robinson.cli import main
from robinson.web.settings import Rates, Settings, tunables


def test_every_option_of_serve_is_the_value_the_app_is_made_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Settings] = []
    served = _stand_ins(monkeypatch, made)
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    argv = ["serve", "--port", "8123", "--database", url]
    wanted: dict[str, float] = {}
    for i, f in enumerate(tunables()):  # a value unlike its default
        wanted[f.name] = f.default + 1.5 + i
        argv += ["--" + f.name.replace("_", "-"), str(wanted[f.name])]
    argv += ["--rate-tables", "7/minute", "--rate-actions", "8/second", "--rate-sockets", "9/hour"]
    assert main(argv) == 0
    (settings,) = made
    assert {name: getattr(settings, name) for name in wanted} == wanted
    assert "unload_after" in wanted and "absent_after" in wanted and "bot_delay" in wanted
    assert settings.rates == Rates(tables="7/minute", actions="8/second", sockets="9/hour")
    assert settings.database_url == url and settings.redis_url is None
    assert [(o.config.host, o.config.port, o.sockets) for o in served] == [
        ("127.0.0.1", 8123, None)  # uvicorn binds the port itself
    ]


def test_port_0_says_the_port_the_system_chose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served = _stand_ins(monkeypatch, [])
    assert main(["serve", "--port", "0", "--database", f"sqlite:///{tmp_path / 'r.sqlite3'}"]) == 0
    ((sock,),) = [o.sockets for o in served]  # bound before the line is printed, served by uvicorn
    try:
        port = sock.getsockname()[1]
    finally:
        sock.close()
    assert port > 0
    assert f"Robinson is at http://localhost:{port}/" in capsys.readouterr().out


class _Served:
    """Stands in for `uvicorn.Server`: keeps its config and the sockets it was told to serve."""

    def __init__(self, config: Any) -> None:
        self.config, self.sockets = config, None

    def run(self, sockets: list[Any] | None = None) -> None:
        self.sockets = sockets


def _stand_ins(monkeypatch: pytest.MonkeyPatch, made: list[Settings]) -> list[_Served]:
    """The app (made: its settings kept) and uvicorn's server (the servers made, returned)."""
    notes = logging.getLogger("robinson")  # serve adds its handler: taken off afterwards
    monkeypatch.setattr(notes, "handlers", [])
    monkeypatch.setattr(notes, "level", notes.level)
    served: list[_Served] = []

    def server(config: Any) -> _Served:
        served.append(_Served(config))
        return served[-1]

    monkeypatch.setattr("robinson.web.app.create_app", lambda settings: made.append(settings))
    monkeypatch.setattr("uvicorn.Server", server)
    return served
