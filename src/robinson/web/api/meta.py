"""What tables can be made of, and the page's texts."""

from __future__ import annotations

from fastapi import APIRouter, Request

from robinson.bots import BOT_NAMES
from robinson.engine import DECISION_TABLE, EDITIONS, RobinsonError, Ruleset
from robinson.web.api import ERRORS, Service, language
from robinson.web.protocol import limits
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.server import Meta, Texts
from robinson.web.service import texts

router = APIRouter(tags=["meta"], responses=ERRORS)


@router.get("/api/meta", response_model=Meta)
async def meta(request: Request) -> dict[str, object]:
    """What a table can be made of: editions, bots, languages, the limits on what is sent, the
    decisions (square, options, forward option) from the engine's table, and whether the server
    sends e-mail."""
    return {
        "editions": [
            {"name": e.name, "fever": e.fever.value, "choices": e.choices.value}
            for e in EDITIONS.values()
        ],
        "bots": list(BOT_NAMES),
        "languages": list(texts.LANGUAGES),
        "limits": limits.as_json(),
        "decisions": [d.to_json() for d in DECISION_TABLE],
        "mail": request.app.state.mail is not None,
    }


@router.get("/api/i18n/{lang}", response_model=Texts)
async def i18n(
    lang: str, service: Service, game: str | None = None, edition: str | None = None
) -> dict[str, object]:
    """UI strings and square texts; the effect lines follow the ruleset of `game`, else the
    `edition`'s (the home page's board shows the edition its form has chosen), else the
    standard one."""
    lang = language(lang)
    ruleset = Ruleset()
    if game is not None:
        ruleset = (await service.record(game)).ruleset
    elif edition is not None:
        try:
            ruleset = Ruleset(edition)
        except RobinsonError as e:
            raise ServiceError("bad_request", str(e)) from None
    return {
        "lang": lang,
        "ui": texts.ui_strings(lang),
        "plurals": texts.ui_plurals(lang),
        "plural_index": texts.plural_index(lang),
        "options": texts.option_labels(lang),
        "squares": texts.squares(lang, ruleset),
        "rules": texts.rules_summary(lang, ruleset),
    }
