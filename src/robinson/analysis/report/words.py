"""The report's words and numbers in one language: texts from the gettext catalogs (`report.*`
keys), numbers in the language's own way (Babel: "12,34 %" in Czech, "1.000.000" in Catalan).

Edition codes (standard, lv, cs, ca, classic) stay codes in every language: they are what
`robinson simulate --edition` takes, and the page compares them side by side.
"""

from __future__ import annotations

import html
import math
from typing import Any

from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

from robinson.i18n import Translator

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class ReportWords:
    def __init__(self, lang: str) -> None:
        self.t = Translator(lang)
        self.lang = self.t.lang
        self._locale = Locale.parse(self.lang)

    def _pattern(self, kind: str, digits: int) -> NumberPattern:
        formats = (
            self._locale.percent_formats if kind == "percent" else self._locale.decimal_formats
        )
        pattern = parse_pattern(formats[None].pattern)
        pattern.frac_prec = (digits, digits)
        return pattern

    def num(self, value: float, digits: int = 2, signed: bool = False) -> str:
        """A decimal number, e.g. 1,234.50 (en) or 1 234,50 (lv, cs)."""
        text = str(self._pattern("decimal", digits).apply(value, self._locale))
        if signed and value >= 0:
            text = "+" + text
        return text

    def small(self, value: float) -> str:
        """A tiny number in scientific notation, the language's decimal sign: 1,5 × 10⁻⁷."""
        if value == 0:
            return self.num(0, 0)
        exponent = math.floor(math.log10(abs(value)))
        mantissa = value / 10**exponent
        return f"{self.num(mantissa, 1)} × 10{str(exponent).translate(_SUPERSCRIPT)}"

    def count(self, n: int) -> str:
        """A whole number with the language's grouping: 1,000,000 / 1 000 000 / 1.000.000."""
        return self.num(n, 0)

    def pct(self, fraction: float, digits: int = 2) -> str:
        """A share as a percentage: 12.34% (en, lv), 12,34 % (cs, ca)."""
        return str(self._pattern("percent", digits).apply(fraction, self._locale))

    def text(self, key: str, **fields: Any) -> str:
        """A message as plain text (for plots)."""
        return self.t.format(key, **fields)

    def ntext(self, key: str, n: int, **fields: Any) -> str:
        return self.t.nformat(key, n, **fields)

    def html(self, key: str, **markup: Any) -> str:
        """A message for the page: its own words escaped, `markup` fields inserted as given
        (already HTML, e.g. a <code> command)."""
        return html.escape(self.t.gettext(key), quote=False).format(**markup)

    def nhtml(self, key: str, n: int, **markup: Any) -> str:
        """A plural message for the page (the form for `n`, `{n}` written the language's way),
        its own words escaped, `markup` fields inserted as given."""
        text = self.t.ngettext(key, key + ".plural", n)
        return html.escape(text, quote=False).format(n=self.count(n), **markup)

    def option(self, option: str) -> str:
        return self.t.option(option)

    def at(self, square: int, face: int | None) -> str:
        """Where a decision arises: "on 4, rolled 3" / "on 20"."""
        if face is None:
            return self.text("report.at", square=square)
        return self.text("report.at_rolled", square=square, face=face)
