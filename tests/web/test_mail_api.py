"""E-mail through a real `robinson serve` (docs/notifications.md "E-mail"), sending to a real
SMTP server (aiosmtpd on 127.0.0.1) that wants a login: leaving an address for a seat, the
confirmation e-mail and its page, the one-click removal (a GET asks, a POST removes: RFC 8058),
every bad input's error, and the address shown nowhere. The notices themselves: test_mail.py."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from robinson.cli import serve
from robinson.i18n import Translator
from tests.web.conftest import Server
from tests.web.smtp import Inbox, link, mail_server, parts, smtp_login, unsubscribe_path

__all__ = ["mail_server", "smtp_login"]  # fixtures

# The test's SMTP server wants a login without TLS (on the loopback only), which aiosmtpd warns of.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")

ANNA = "anna@example.test"


def _leave(srv: Server, table: str, seat: int, **body: Any) -> Any:
    return srv.post(f"/api/tables/{table}/seats/{seat}/email", body)


def _error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_an_address_is_confirmed_by_its_link_and_removed_with_one_click(
    mail_server: tuple[Server, Inbox],
) -> None:
    srv, inbox = mail_server
    t = srv.create([{"name": "Anna"}, {"name": "Bruno"}])
    table, anna = t["table"], t["seats"][0]["token"]
    r = _leave(srv, table, 0, token=anna, address=ANNA, language="ca")
    assert r.status_code == 200 and r.json() == {"ok": True}
    [letter] = inbox.wait_for(1)
    ca = Translator("ca")
    assert letter["Subject"] == ca.gettext("web.mail.confirm.subject") and letter["To"] == ANNA
    plain, page = parts(letter)
    assert "https://robinson.example/email/confirm/" in plain and "<a href=" in page

    confirm = link(letter, "confirm")
    opened = srv.get(confirm)
    assert opened.status_code == 200 and "text/html" in opened.headers["content-type"]
    assert (
        ca.gettext("web.mail.page.confirmed") in opened.text and '<html lang="ca">' in opened.text
    )
    again = srv.get(confirm)  # a confirmation link works once
    assert again.status_code == 404 and ca.gettext("web.mail.page.unknown") in again.text

    # The address is nobody's business: not in the table's view, the record or a snapshot.
    view = srv.get(f"/api/tables/{table}?lang=en")
    record = srv.get(f"/api/games/{t['game']}/record")
    assert view.status_code == record.status_code == 200
    with srv.ws(table) as ws:
        ws.send('{"type": "hello", "tokens": []}')
        snapshot = Server.receive(ws, "snapshot")
    for shown in (view.text, record.text, str(snapshot)):
        assert "example.test" not in shown and "anna@" not in shown

    leave = unsubscribe_path(letter)
    asked = srv.get(leave)  # the link opened: a page with one button, nothing removed yet
    assert asked.status_code == 200 and f'action="{leave}"' in asked.text
    assert srv.get(leave).status_code == 200
    one_click = srv.post_raw(leave, b"List-Unsubscribe=One-Click",
                             {"content-type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert one_click.status_code == 200 and ca.gettext("web.mail.page.removed") in one_click.text
    gone = srv.post_raw(leave, b"List-Unsubscribe=One-Click",
                        {"content-type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert gone.status_code == 404 and srv.get(leave).status_code == 404
    assert inbox.count() == 1  # the confirmation was the only e-mail


def test_bad_inputs_get_their_documented_errors(mail_server: tuple[Server, Inbox]) -> None:
    srv, inbox = mail_server
    t = srv.create([{"name": "Anna"}, {"name": "Bruno"}])
    table, anna = t["table"], t["seats"][0]["token"]
    assert _error(_leave(srv, table, 0, token=anna, address="anna@")) == (400, "bad_address")
    assert _error(_leave(srv, table, 0, token="nope", address=ANNA)) == (403, "bad_token")
    assert _error(_leave(srv, table, 1, token=anna, address=ANNA)) == (403, "bad_token")
    assert _error(_leave(srv, table, 0, token=anna, address=ANNA, language="de")) == (
        400,
        "bad_request",
    )
    assert _error(_leave(srv, "nosuchtable", 0, token=anna, address=ANNA)) == (404, "unknown_game")
    assert _error(_leave(srv, table, 0, token=anna, address=ANNA, extra=1)) == (400, "malformed")
    assert _leave(srv, table, 0, token=anna, address=ANNA).status_code == 200
    too_soon = _leave(srv, table, 0, token=anna, address=ANNA)
    assert _error(too_soon) == (429, "rate_limited") and int(too_soon.headers["retry-after"]) > 0
    for path in ("/email/confirm/not-a-code", "/email/unsubscribe/not-a-code"):
        page = srv.get(path + "?lang=lv")
        assert page.status_code == 404
        assert Translator("lv").gettext("web.mail.page.unknown") in page.text
    assert srv.post_raw("/email/unsubscribe/not-a-code", b"", {}).status_code == 404
    assert inbox.wait_for(1) and inbox.count() == 1


def test_a_server_without_smtp_settings_takes_no_address(server: Server) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    r = _leave(server, t["table"], 0, token=t["seats"][0]["token"], address=ANNA)
    assert _error(r) == (501, "mail_off")


def _options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_the_smtp_options_need_a_sender_and_a_public_url_and_read_the_password_from_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ROBINSON_SMTP_PASSWORD", raising=False)
    assert serve._mail(_options()) is None  # no --smtp-host: no e-mail
    with pytest.raises(ValueError, match="--mail-from"):
        serve._mail(_options("--smtp-host", "mail.example"))
    with pytest.raises(ValueError, match="--public-url"):
        serve._mail(_options("--smtp-host", "mail.example", "--mail-from", "r@example.org"))
    secret = tmp_path / "password"
    secret.write_text("from the file\n", encoding="utf-8")
    given = ("--smtp-host", "mail.example", "--mail-from", "r@example.org",
             "--public-url", "https://robinson.example/", "--smtp-security", "tls")  # fmt: skip
    mail = serve._mail(_options(*given, "--smtp-password-file", str(secret)))
    assert mail.password == "from the file" and mail.public_url == "https://robinson.example"
    assert mail.smtp_port() == 465 and "from the file" not in repr(mail)
    monkeypatch.setenv("ROBINSON_SMTP_PASSWORD", "from the environment")
    assert serve._mail(_options(*given)).password == "from the environment"
    with pytest.raises(ValueError, match="cannot read"):
        serve._mail(_options(*given, "--smtp-password-file", str(tmp_path / "none")))
