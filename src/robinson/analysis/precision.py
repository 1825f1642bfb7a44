"""An estimate printed to the precision its interval supports.

A simulated figure has an interval; digits below the interval's own size are noise, and a fixed
four decimals turn a rare event (4e-6 of games) into `0.0000 [0.0000, 0.0000]`. So the decimals
follow the half-width h of the interval: two significant digits of h (a half-width of 0.0012
prints 4 decimals, of 0.3 prints 2). A figure whose interval is narrower than a millionth is
printed in scientific notation with two significant digits instead of a row of zeros. Exact
figures (no interval) are not this module's business.
"""

from __future__ import annotations

import math

MOST_DECIMALS = 6  # past this, scientific notation reads better than zeros


def decimals(low: float, high: float) -> int | None:
    """Decimals that the interval [low, high] supports; None: too narrow for fixed notation."""
    half = (high - low) / 2
    if not math.isfinite(half) or half <= 0:
        return 4  # no spread to go by (a certain or undefined figure)
    places = max(0, 1 - math.floor(math.log10(half)))
    return places if places <= MOST_DECIMALS else None


def number(x: float, places: int | None) -> str:
    if places is None:
        return "0" if x == 0 else f"{x:.2g}"
    return f"{x:.{places}f}"


def estimate_text(value: float, low: float, high: float, scale: float = 1.0) -> str:
    """'value [low, high]', all three to the decimals the interval supports (after multiplying
    by `scale`, e.g. 100 for percentages)."""
    v, lo, hi = value * scale, low * scale, high * scale
    places = decimals(lo, hi)
    return f"{number(v, places)} [{number(lo, places)}, {number(hi, places)}]"
