"""The gettext catalogs: read the shipped .po files with Babel, at run time, with no build step.

Each `locale/<lang>/LC_MESSAGES/robinson.po` is parsed once per process (`read_po`), compiled in
memory (`write_mo` into a BytesIO) and wrapped in a `babel.support.Translations`, so the .po files
are the only source of truth and no .mo file is ever committed or built.

Message ids are stable keys ("event.rolled", "square.12.story"); the English text lives in en.po
like every other language, so changing English wording never invalidates the other catalogs.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from robinson.engine import RobinsonError

LANGUAGES: tuple[str, ...] = ("lv", "cs", "ca", "en")
DOMAIN = "robinson"

# The edition a player interface offers by default for each language (RULES.md section 9).
_EDITION_OF_LANGUAGE = {"lv": "lv", "cs": "cs", "ca": "ca"}

# Where gettext looks, in its own order of precedence.
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def check_language(lang: object) -> str:
    """`lang` if it is one of LANGUAGES, else a `RobinsonError` naming the four codes."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise RobinsonError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    return lang


@functools.cache
def load_catalog(lang: str) -> Catalog:
    """The parsed .po catalog of `lang` (messages, plural rule, headers)."""
    check_language(lang)
    po = resources.files("robinson") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> Translations:
    """The compiled translations of `lang`, built in memory from the .po file."""
    buffer = BytesIO()
    write_mo(buffer, load_catalog(lang))
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def message_keys(lang: str) -> frozenset[str]:
    """Every message id in the catalog of `lang` (a plural message by its singular id)."""
    keys = set()
    for message in load_catalog(lang):
        if not message.id:
            continue  # the header
        keys.add(message.id if isinstance(message.id, str) else message.id[0])
    return frozenset(keys)


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The first of LANGUAGES named by the locale variables (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG, in gettext's order; e.g. `lv_LV.UTF-8`, `cs:en`), else "en"."""
    env = os.environ if environ is None else environ
    for variable in _LOCALE_VARIABLES:
        for entry in env.get(variable, "").split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


def edition_for_language(lang: str) -> str:
    """The edition of a language's own text: lv, cs, ca; "standard" for any other."""
    return _EDITION_OF_LANGUAGE.get(lang, "standard")
