"""The e-mails themselves (docs/notifications.md "E-mail"): their words in the reader's
language (the catalogs' `web.mail.*`), a plain-text and an HTML part (every text escaped), the
link to the table and the one-click unsubscribe link (RFC 8058) in each, and the checks of an
address and of the server's public URL."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid
from functools import lru_cache

from robinson.i18n import Translator

# An address we send to: ASCII, one @, a local part without spaces, quotes or brackets, and a
# domain of at least two labels. Stricter than RFC 5321 allows (no quoted local parts, no
# address literals, no SMTPUTF8), which every real mailbox a player types fits.
ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}"
)
MAX_ADDRESS = 254  # RFC 5321's longest path, less its angle brackets
PUBLIC_URL = re.compile(r"https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~\-/]*)?")


def check_address(text: object) -> str | None:
    """The address in lower case (as it is stored and compared), or None if it is not one."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    local = text.split("@", 1)[0]
    if len(text) > MAX_ADDRESS or len(local) > 64 or not ADDRESS.fullmatch(text):
        return None
    return text.lower()


def check_public_url(text: str) -> str | None:
    """The server's public address without a trailing slash, or None if it is not one."""
    if not PUBLIC_URL.fullmatch(text):
        return None
    return text.rstrip("/")


@lru_cache(maxsize=8)
def _t(lang: str) -> Translator:
    return Translator(lang)


# A duration in the largest unit that gives a count of at least 2, as the seats' notes say one
# (service/texts.py `duration`, with the same catalog keys).
_UNITS = (("seat.seconds", 1, 120), ("seat.minutes", 60, 7200), ("seat.hours", 3600, 172800))


def duration(lang: str, seconds: int) -> str:
    for key, size, below in _UNITS:
        if seconds < below:
            return _t(lang).nformat(key, max(0, seconds) // size)
    return _t(lang).nformat("seat.days", seconds // 86400)


@dataclass(frozen=True)
class Letter:
    """An e-mail's words: its subject, paragraphs, links (label, URL), and the line that says
    why it came."""

    subject: str
    paragraphs: Sequence[str]
    links: Sequence[tuple[str, str]]
    why: str


def confirmation(lang: str, name: str, confirm_url: str) -> Letter:
    t = _t(lang)
    return Letter(
        t.gettext("web.mail.confirm.subject"),
        [t.format("web.mail.confirm.body", name=name), t.gettext("web.mail.confirm.ignore")],
        [(t.gettext("web.mail.confirm.link"), confirm_url)],
        t.gettext("web.mail.confirm.why"),
    )


def notice_letter(
    lang: str, kind: str, name: str, facts: Mapping[str, str | int], table_url: str
) -> Letter:
    """The e-mail of a notice of `kind` (service/notices.py `NoticeKind`) to the seat `name`."""
    t = _t(lang)
    open_table = [(t.gettext("web.mail.open"), table_url)]
    why = t.gettext("web.mail.why")
    if kind == "turn":
        body = [t.format("web.mail.turn.body", name=name)]
        if {"mover", "face", "square"} <= facts.keys():
            roll = {k: facts[k] for k in ("mover", "face", "square")}
            body.append(t.format("web.mail.turn.roll", **roll))
        body.append(t.gettext("web.mail.turn.once"))
        return Letter(t.gettext("web.mail.turn.subject"), body, open_table, why)
    if kind == "reminder":
        left = duration(lang, int(facts.get("seconds_left", 0)))
        body = [t.format("web.mail.reminder.body", name=name, time=left)]
        return Letter(t.gettext("web.mail.reminder.subject"), body, open_table, why)
    if kind == "ended":
        winner = facts.get("winner")
        said = (
            t.format("web.mail.ended.won", winner=winner)
            if winner
            else t.gettext("web.mail.ended.nobody")
        )
        return Letter(t.gettext("web.mail.ended.subject"), [said], open_table, why)
    if kind == "claimed":
        newcomer = str(facts.get("name", "?"))
        body = [t.format("web.mail.claimed.body", name=newcomer)]
        return Letter(t.format("web.mail.claimed.subject", name=newcomer), body, open_table, why)
    if kind == "handed":
        body = [t.format("web.mail.handed.body", name=name)]
        return Letter(t.gettext("web.mail.handed.subject"), body, open_table, why)
    raise ValueError(f"no e-mail for a notice of kind {kind!r}")


def digest(lang: str, items: Sequence[tuple[str, int | None, str]]) -> Letter:
    """The daily digest: (seat's name, seconds left or None, table URL), the most urgent
    first."""
    t = _t(lang)
    links = []
    for name, left, url in items:
        when = (
            t.gettext("web.mail.digest.no_clock")
            if left is None
            else t.format("web.mail.digest.left", time=duration(lang, left))
        )
        links.append((t.format("web.mail.digest.item", name=name, time=when), url))
    return Letter(
        t.nformat("web.mail.digest.subject", len(items)),
        [t.gettext("web.mail.digest.intro")],
        links,
        t.gettext("web.mail.digest.why"),
    )


def message(letter: Letter, lang: str, sender: str, to: str, unsubscribe_url: str) -> EmailMessage:
    """The e-mail to send: both parts, and the headers of a one-click unsubscribe."""
    t = _t(lang)
    leave = t.gettext("web.mail.unsubscribe")
    leave_label = t.gettext("web.mail.unsubscribe.link")
    text = "\n\n".join(
        [
            *letter.paragraphs,
            *(f"{label}:\n{url}" for label, url in letter.links),
            "-- ",
            f"{letter.why}\n{leave}\n{unsubscribe_url}",
        ]
    )
    e = html.escape
    page = "".join(
        [
            f'<!DOCTYPE html><html lang="{e(lang)}"><head><meta charset="utf-8">',
            f"<title>{e(letter.subject)}</title></head><body>",
            *(f"<p>{e(p)}</p>" for p in letter.paragraphs),
            *(f'<p><a href="{e(url)}">{e(label)}</a></p>' for label, url in letter.links),
            f"<hr><p><small>{e(letter.why)} {e(leave)} ",
            f'<a href="{e(unsubscribe_url)}">{e(leave_label)}</a></small></p>',
            "</body></html>",
        ]
    )
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = letter.subject
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1])
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
    msg.set_content(text)
    msg.add_alternative(page, subtype="html")
    msg["Content-Language"] = lang  # after the parts: making them moves Content-* headers
    return msg


def page(lang: str, title_key: str, text_key: str, form_action: str | None = None) -> str:
    """A small page of the confirmation and unsubscribe links (no script, no style: the CSP's
    `form-action 'self'` allows its one button)."""
    t, e = _t(lang), html.escape
    button = ""
    if form_action is not None:
        label = e(t.gettext("web.mail.page.remove"))
        button = f'<form method="post" action="{e(form_action)}"><button>{label}</button></form>'
    return (
        f'<!DOCTYPE html><html lang="{e(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(t.gettext(title_key))}</title></head><body>"
        f"<h1>{e(t.gettext(title_key))}</h1><p>{e(t.gettext(text_key))}</p>{button}"
        f'<p><a href="/">{e(t.gettext("web.mail.page.home"))}</a></p></body></html>'
    )
