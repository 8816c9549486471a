"""Math written with Unicode signs, as the readers and the comparison read it: "−3" is "-3", "4 × 6" is
"4 \\times 6", "3½" is "3 1/2", "x²" is "x^2", "∞" is "\\infty", upright `\\mathrm{e}` is e.

One pass of `str.translate` plus, only where a vulgar fraction or a superscript occurs, one regex; linear in the
text's length. ASCII text is returned as it is.
"""

from __future__ import annotations

import re

from mathreel.core.extract.lazy import lazy_regex

_SIGNS = str.maketrans(
    {
        "−": "-",
        "‒": "-",
        "﹣": "-",
        "－": "-",
        "×": " \\times ",
        "✕": " \\times ",
        "÷": " \\div ",
        "·": " \\cdot ",
        "⋅": " \\cdot ",
        "∞": "\\infty ",
        "∈": " \\in ",
        "≤": " \\le ",
        "≥": " \\ge ",
        "≠": " \\ne ",
        "π": "\\pi ",
        "√": "\\sqrt",
        "°": "°",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
    }
)
VULGAR = {
    "½": "1/2",
    "⅓": "1/3",
    "⅔": "2/3",
    "¼": "1/4",
    "¾": "3/4",
    "⅕": "1/5",
    "⅖": "2/5",
    "⅗": "3/5",
    "⅘": "4/5",
    "⅙": "1/6",
    "⅚": "5/6",
    "⅛": "1/8",
    "⅜": "3/8",
    "⅝": "5/8",
    "⅞": "7/8",
}
_SUPERSCRIPTS = {
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
    "⁻": "-",
}
_FRACTION_OR_POWER = lazy_regex(r"(\d?)([" + "".join(VULGAR) + r"])|([" + "".join(_SUPERSCRIPTS) + r"]+)")
_UPRIGHT = lazy_regex(r"\\(?:mathrm|operatorname|text|rm)\s*\{\s*([eid])\s*\}")


def plain_math(text: str) -> str:
    """`text` with Unicode math signs written as ASCII or LaTeX, and upright constants (`\\mathrm{e}`) plain."""
    if "\\" in text and "{" in text:
        text = _UPRIGHT.sub(r"\1", text)
    if text.isascii():
        return text
    text = text.translate(_SIGNS)
    if any(char in text for char in VULGAR) or any(char in text for char in _SUPERSCRIPTS):
        text = _FRACTION_OR_POWER.sub(_spelled, text)
    return text


def _spelled(match: re.Match[str]) -> str:
    """ "3½" -> "3 1/2" (a mixed number), "½" -> "1/2", "²" -> "^2", "⁻¹" -> "^{-1}"."""
    if match.group(2):
        whole = match.group(1)
        return f"{whole} {VULGAR[match.group(2)]}" if whole else VULGAR[match.group(2)]
    power = "".join(_SUPERSCRIPTS[char] for char in match.group(3))
    return f"^{power}" if len(power) == 1 else f"^{{{power}}}"
