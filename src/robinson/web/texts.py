"""Texts for the web: narration, squares and UI strings in the viewer's language.

Everything goes through `robinson.i18n` (the project's gettext layer). Until that package is
present this module falls back to plain English built from the events' JSON, so the server and
its tests do not depend on the order in which branches land.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from robinson.engine import SQUARES, Event, Ruleset, State

try:  # pragma: no cover - which branch is taken depends on what has been merged
    from robinson.i18n import LANGUAGES as _LANGUAGES
    from robinson.i18n import Translator as _Translator

    HAVE_I18N = True
except ImportError:  # pragma: no cover
    _LANGUAGES = ("lv", "cs", "ca", "en")
    _Translator = None
    HAVE_I18N = False

LANGUAGES: tuple[str, ...] = tuple(_LANGUAGES)


def check_language(lang: object) -> str:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


@lru_cache(maxsize=8)
def _translator(lang: str) -> Any:
    return _Translator(lang) if _Translator is not None else None


def narrate(lang: str, event: Event, names: Sequence[str]) -> str:
    t = _translator(lang)
    if t is not None:
        return str(t.narrate(event, names))
    return _plain(event.to_json(), names)


def prompt(lang: str, state: State, names: Sequence[str]) -> str:
    t = _translator(lang)
    if t is not None:
        return str(t.prompt(state, names))
    if state.over or state.to_move is None:
        return ""
    who = names[state.to_move]
    if state.phase.value == "roll":
        return f"{who}, roll the die."
    seen = f" (rolled {state.pending_roll})" if state.pending_roll else ""
    return f"{who}, choose{seen}."


def option_labels(lang: str) -> dict[str, str]:
    t = _translator(lang)
    options = ("restart", "move", "stay", "again", "stop", "jump")
    if t is not None:
        return {o: str(t.option(o)) for o in options}
    return {o: o.capitalize() for o in options}


def squares(lang: str, ruleset: Ruleset) -> list[dict[str, Any]]:
    """Number, title, story and effect line (rule in force) of squares 1..45."""
    t = _translator(lang)
    out = []
    for sq in SQUARES[1:]:
        if t is not None:
            text = t.square(sq.number, ruleset)
            out.append(
                {
                    "number": sq.number,
                    "kind": sq.effect.value,
                    "title": text.title,
                    "story": text.story,
                    "effect": text.effect,
                }
            )
        else:
            title = sq.effect.value.capitalize() if sq.effect.value != "story" else ""
            out.append(
                {
                    "number": sq.number,
                    "kind": sq.effect.value,
                    "title": title,
                    "story": "",
                    "effect": None,
                }
            )
    return out


def ui_strings(lang: str) -> dict[str, str]:
    t = _translator(lang)
    if t is not None:
        return {str(k): str(v) for k, v in t.ui_strings().items()}
    return {}


def ui_plurals(lang: str) -> dict[str, list[str]]:
    """The page's counted labels (`web.*` plural messages) with every form of the language, in
    the catalog's order; `plural_index` says which form a count takes."""
    if not HAVE_I18N:  # pragma: no cover
        return {}
    from robinson.i18n.catalogs import load_catalog

    out = {}
    for message in load_catalog(lang):
        if isinstance(message.id, tuple) and message.id[0].startswith("web."):
            out[message.id[0]] = [str(form) for form in message.string]
    return out


PLURAL_TABLE = 200


def plural_index(lang: str) -> list[int]:
    """The form index of counts 0..199, computed by the catalog's own plural rule. Every rule of
    our four languages depends only on n % 100 (and n itself below 200), so a client takes
    count n >= 200 as 100 + n % 100: data, not a rule re-written in JavaScript."""
    if not HAVE_I18N:  # pragma: no cover
        return [0 if n == 1 else 1 for n in range(PLURAL_TABLE)]
    from robinson.i18n.catalogs import translations

    rule = translations(lang).plural
    return [int(rule(n)) for n in range(PLURAL_TABLE)]


def rules_summary(lang: str, ruleset: Ruleset) -> str:
    t = _translator(lang)
    if t is not None:
        return str(t.rules_summary(ruleset))
    return f"{ruleset.edition}, {ruleset.start_tokens}/{ruleset.stake}, share {ruleset.share}"


def _plain(data: dict[str, Any], names: Sequence[str]) -> str:
    def who(seat: object) -> str:
        return names[seat] if isinstance(seat, int) else "the bank"

    kind = data["kind"]
    if kind == "rolled":
        return f"{who(data['seat'])} rolls {data['face']}."
    if kind == "moved":
        return f"{who(data['seat'])} moves from {data['start']} to {data['end']}."
    if kind == "transfer":
        return f"{who(data['payer'])} pays {who(data['payee'])} {data['amount']}."
    if kind == "chorus":
        return 'Everyone: "Poor Robinson!"'
    if kind == "won":
        return f"{who(data['seat'])} is home and wins!"
    if kind == "turn_began":
        return ""
    fields = ", ".join(f"{k}={v}" for k, v in data.items() if k != "kind")
    return f"{kind.replace('_', ' ')}: {fields}"
