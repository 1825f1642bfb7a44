"""E-mail (docs/notifications.md "E-mail"): leaving an address for a seat, and the pages of the
links in the e-mails: confirming the address, and removing it (one click, RFC 8058)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from robinson.i18n import LANGUAGES
from robinson.web.api import ERRORS, Service, language, rate
from robinson.web.notify import letters
from robinson.web.protocol.client import EmailIn
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.server import Ok

if TYPE_CHECKING:
    from robinson.web.notify.mail import MailChannel

router = APIRouter(tags=["e-mail"])


def _channel(request: Request) -> MailChannel:
    channel: MailChannel | None = request.app.state.mail
    if channel is None:
        raise ServiceError("mail_off", "this server sends no e-mail (started without --smtp-host)")
    return channel


@router.post(
    "/api/tables/{table_id}/seats/{seat}/email",
    response_model=Ok,
    responses=ERRORS,
    dependencies=[rate("actions")],
)
async def leave_address(
    table_id: str, seat: int, body: EmailIn, request: Request, service: Service
) -> dict[str, bool]:
    """Leave an e-mail address for the seat of `token`: a confirmation e-mail goes to it, and
    nothing else until its link is opened. Replaces the seat's address, if it had one. Nobody
    else is ever shown it."""
    channel = _channel(request)
    lang = language(body.language)
    table = await service.table(table_id)
    own = service.authenticate(table, body.token)
    if own != seat:
        raise ServiceError("bad_token", "only the seat's own secret leaves its address")
    name = table.seats[own].name
    await channel.leave(table.id, own, name, body.address, lang, body.digest)
    return {"ok": True}


def _lang(given: str | None) -> str:
    return given if given in LANGUAGES else "en"


def _page(
    lang: str, title: str, text: str, status: int = 200, form: str | None = None
) -> HTMLResponse:
    return HTMLResponse(letters.page(lang, title, text, form), status_code=status)


def _unknown(lang: str) -> HTMLResponse:
    return _page(lang, "web.mail.page.unknown", "web.mail.page.unknown.text", 404)


@router.get("/email/confirm/{code}", include_in_schema=False, dependencies=[rate("reads")])
async def confirm(code: str, request: Request, lang: str | None = None) -> HTMLResponse:
    row = await _channel(request).confirm(code)
    if row is None:
        return _unknown(_lang(lang))
    return _page(row.language, "web.mail.page.confirmed", "web.mail.page.confirmed.text")


@router.get("/email/unsubscribe/{code}", include_in_schema=False, dependencies=[rate("reads")])
async def ask_unsubscribe(code: str, request: Request, lang: str | None = None) -> HTMLResponse:
    """The link in an e-mail, opened: a page with one button (a GET changes nothing, so a
    mail scanner that follows links removes no address)."""
    row = await _channel(request).address_of(code)
    if row is None:
        return _unknown(_lang(lang))
    form = f"/email/unsubscribe/{code}?lang={row.language}"
    title, text = "web.mail.page.unsubscribe", "web.mail.page.unsubscribe.text"
    return _page(row.language, title, text, form=form)


@router.post("/email/unsubscribe/{code}", include_in_schema=False, dependencies=[rate("reads")])
async def unsubscribe(code: str, request: Request, lang: str | None = None) -> HTMLResponse:
    """The page's button, or a mail program's one-click POST (RFC 8058): the address is
    removed from every seat it was left for."""
    row = await _channel(request).unsubscribe(code)
    if row is None:
        return _unknown(_lang(lang))
    return _page(row.language, "web.mail.page.removed", "web.mail.page.removed.text")
