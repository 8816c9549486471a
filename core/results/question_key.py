"""Fingerprints of a question's text and options that survive re-typing: a question written by a result file and
the same question in a dataset give the same keys whatever the spacing, case, punctuation, LaTeX spacing or option
lettering ("A. x", "(A) x", "A: x", or a bare list of texts).

A key keeps only letters and digits (Unicode-aware, after NFKC and case folding), so it also survives a changed
line end or a full-width colon; it does not survive a changed word, which is the point: a different question is a
different key.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from mathreel.core.choices import split_option

# LaTeX spacing and sizing commands that change how a formula looks, not what it says.
_LATEX_SPACING = re.compile(
    r"\\(?:[,;:!> ]|q?quad(?![A-Za-z])|(?:thin|med|thick|en|neg(?:thin|med|thick)?)space(?![A-Za-z])"
    r"|[hv]space\*?\{[^}]*\}|left(?![A-Za-z])|right(?![A-Za-z])|displaystyle(?![A-Za-z]))"
)
_NOT_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=65536)
def text_key(text: str) -> str:
    """The letters and digits of `text`, case-folded after NFKC, LaTeX spacing commands removed ("" for none)."""
    if not text:
        return ""
    folded = unicodedata.normalize("NFKC", text)
    if "\\" in folded:
        folded = _LATEX_SPACING.sub("", folded)
    return _NOT_WORD.sub("", folded.casefold())


def option_keys(options: tuple[str, ...]) -> tuple[str, ...]:
    """Each option's `text_key` without its letter ("A. 30°", "(A) 30°" and "30°" give one key).

    Letters are taken off only when every option names one: in a bare list of texts, "U.S. Army" keeps its "U".
    """
    split = [split_option(option) for option in options]
    if all(letter for letter, _ in split):
        return tuple(text_key(rest) for _, rest in split)
    return tuple(text_key(option) for option in options)


def contains(haystack_key: str, needle_key: str) -> bool:
    """Whether a non-empty key occurs in another (a question's text inside a recorded prompt's)."""
    return bool(needle_key) and needle_key in haystack_key
