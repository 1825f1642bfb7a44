"""The language layer: gettext catalogs (Babel) for lv, cs, ca and en, and a `Translator` that
turns squares, engine events, prompts and rulesets into text in one language.

    from robinson.i18n import LANGUAGES, Translator, default_language, edition_for_language
    t = Translator("lv")
    t.narrate(event, names)
"""

from robinson.i18n.catalogs import LANGUAGES, default_language, edition_for_language
from robinson.i18n.translator import SquareText, Translator

__all__ = [
    "LANGUAGES",
    "SquareText",
    "Translator",
    "default_language",
    "edition_for_language",
]
