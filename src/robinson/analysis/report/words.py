"""The report's words and numbers in one language: texts from the gettext catalogs (`report.*`
keys), numbers in the language's own way (`robinson.i18n.numbers`: "12,34 %" in Latvian, Czech
and Catalan, "1.000.000" in Catalan, "−0,06" with a real minus sign).

Editions are named by their names in the language ("standarta noteikumi", "Text català"), not
by the codes `robinson simulate --edition` takes: the page is read, not typed.
"""

from __future__ import annotations

import html
import math
from typing import Any

from robinson.i18n import Translator

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class ReportWords:
    def __init__(self, lang: str) -> None:
        self.t = Translator(lang)
        self.lang = self.t.lang

    def num(self, value: float, digits: int = 2, signed: bool = False) -> str:
        """A decimal number, e.g. 1,234.50 (en) or 1 234,50 (lv, cs), −0,30 with a minus sign."""
        return self.t.number(value, digits, signed)

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
        """A share as a percentage: 12.34% (en), 12,34 % (lv, cs, ca)."""
        return self.t.percent(fraction, digits)

    def edition(self, code: str) -> str:
        """An edition by its name in the language (`edition.<code>`)."""
        return self.t.edition_name(code)

    def edition_in_text(self, code: str) -> str:
        """An edition's name inside a sentence: "klasiskie noteikumi" (the Latvian and Czech
        labels are noun phrases, written small there; Catalan "Clàssica" and English "Classic"
        stay names)."""
        name = self.edition(code)
        return name[:1].lower() + name[1:] if self.lang in ("lv", "cs") else name

    def editions(self, codes: list[str] | tuple[str, ...]) -> str:
        """Editions that play alike, e.g. "Standarta noteikumi = Katalāņu teksts"."""
        return " = ".join(self.edition(c) for c in codes)

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
