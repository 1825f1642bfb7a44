"""Numbers written each language's way, in one place for the terminal, the report and the plots.

Babel (CLDR) gives the decimal sign and the grouping. Two things are ours, per language:
- The percent sign: Latvian, Czech and Catalan write "36,3 %" with a no-break space (CLDR has
  none for Latvian, and a bare "36,3%" in Czech reads as the adjective "36,3procentní"); English
  writes "36.3%".
- The minus sign is U+2212 (−), not the hyphen CLDR gives, so that "−0,06" does not read as a
  dash, and ranges of negative bounds are unambiguous.
"""

from __future__ import annotations

import functools

from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

from robinson.i18n.catalogs import check_language

MINUS = "\u2212"
NBSP = "\u00a0"
_SPACED_PERCENT = frozenset({"lv", "cs", "ca"})


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(check_language(lang))


@functools.cache
def _pattern(locale: Locale, percent: bool, digits: int) -> NumberPattern:
    """The language's pattern with `digits` decimals (kept: a plot's axis formats hundreds of
    numbers, and parsing the locale and its pattern was most of the time of each)."""
    formats = locale.percent_formats if percent else locale.decimal_formats
    pattern = parse_pattern(formats[None].pattern)
    pattern.frac_prec = (digits, digits)
    return pattern


def decimal(value: float, lang: str, digits: int = 2, signed: bool = False) -> str:
    """A decimal number: "1 234,50" (lv, cs), "1.234,50" (ca), "1,234.50" (en); "−0,30" with a
    real minus sign, "+0,30" when `signed`."""
    locale = _locale(lang)
    text = str(_pattern(locale, False, digits).apply(abs(value), locale))
    if value < 0 and text.strip("0.,\u00a0\u202f ") != "":  # "−0,00" is just "0,00"
        return MINUS + text
    return ("+" + text) if signed else text


def percent(fraction: float, lang: str, digits: int = 1) -> str:
    """A share as a percentage: "36,3 %" (lv, cs, ca, no-break space), "36.3%" (en)."""
    locale = _locale(lang)
    text = str(_pattern(locale, True, digits).apply(abs(fraction), locale))
    number = text.replace("%", "").strip(f" {NBSP}\u202f")
    text = f"{number}{NBSP}%" if lang in _SPACED_PERCENT else f"{number}%"
    if fraction < 0 and number.strip("0.,") != "":
        text = MINUS + text
    return text
