"""How every figure is shown, in one place: the CLI's text report and the app render the same strings.

Rounding is half-up from the full-precision value, done once (formatting a value already rounded to two
decimals for JSON could move the last digit by 0.1, which is how the app and the CLI once disagreed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from decimal import Decimal


def one_decimal(value: float) -> str:
    """`value` rounded half-up to one decimal ("35.25" -> "35.3"), from its shortest exact repr.

    The digits of a plain repr ("35.25", "-0.05") are rounded as text, as `Decimal(repr).quantize(Decimal("0.1"),
    ROUND_HALF_UP)` rounds them (tests/test_numbers.py compares the two): every `mathreel score --json` shows
    figures, and importing `decimal` (a C extension) cost each process about 2 ms. A repr below 1e-4 ("5e-15")
    rounds to zero; the others (1e16 and above, nan, inf) go through `decimal` itself."""
    text = repr(float(value))
    sign = "-" if text[0] == "-" else ""
    if "e-" in text:  # below 1e-4 in size (a bound a hair above 0): rounds to zero, the sign kept as Decimal keeps it
        return f"{sign}0.0"
    whole, dot, fraction = text.lstrip("-").partition(".")
    if not dot or not whole.isdigit() or not fraction.isdigit():
        return str(_decimal(text).quantize(_decimal("0.1"), rounding="ROUND_HALF_UP"))
    if len(fraction) == 1:
        return text
    tenths = int(whole + fraction[0]) + (fraction[1] >= "5")  # half-up: away from zero from the second digit on
    digits = str(tenths).rjust(2, "0")
    return f"{sign}{digits[:-1]}.{digits[-1]}"


def _decimal(text: str) -> Decimal:
    from decimal import Decimal

    return Decimal(text)


def pct_text(value: float | None, none: str = "-") -> str:
    """An accuracy in percent with one decimal ("77.8%"), or `none` when there is none."""
    return none if value is None else f"{one_decimal(value)}%"


def ci_text(ci: Sequence[float | None] | None, none: str = "-") -> str:
    """A 95% interval as "[low, high]" with one decimal each, or `none`."""
    if not ci or ci[0] is None or ci[1] is None:
        return none
    return f"[{one_decimal(ci[0])}, {one_decimal(ci[1])}]"


def se_text(value: float | None, none: str = "-") -> str:
    """A standard error in points with two decimals ("1.24 pts"), from the three decimals the JSON keeps, so the
    text report (full precision) and a page reading the JSON print the same digits."""
    if value is None:
        return none
    kept = _decimal(repr(round(float(value), 3)))
    return f"{kept.quantize(_decimal('0.01'), rounding='ROUND_HALF_UP')} pts"
