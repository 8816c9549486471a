"""How every figure is shown, in one place: the CLI's text report and the app render the same strings.

Rounding is half-up from the full-precision value, done once (formatting a value already rounded to two
decimals for JSON could move the last digit by 0.1, which is how the app and the CLI once disagreed).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

_TENTH = Decimal("0.1")


def one_decimal(value: float) -> str:
    """`value` rounded half-up to one decimal ("35.25" -> "35.3"), from its shortest exact repr."""
    return str(Decimal(repr(float(value))).quantize(_TENTH, rounding=ROUND_HALF_UP))


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
    kept = Decimal(repr(round(float(value), 3)))
    return f"{kept.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)} pts"
