"""Answer extraction: choice letters (robust and the two reference extractors), free-form answers, answer equivalence.

Pure functions over strings: no I/O. The names below are imported on first use (PEP 562), so a process scoring
choice questions (`extract_choice`) does not import the free-form readers and the equivalence engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.extract.choice import extract_choice
    from mathreel.core.extract.equivalence import Equivalence, math_equal, math_equivalence
    from mathreel.core.extract.free import extract_free_answer
    from mathreel.core.extract.reference import extract_choice_lmms, extract_choice_official
    from mathreel.core.extract.types import Extraction

_HOMES = {
    "Equivalence": "equivalence",
    "Extraction": "types",
    "extract_choice": "choice",
    "extract_choice_lmms": "reference",
    "extract_choice_official": "reference",
    "extract_free_answer": "free",
    "math_equal": "equivalence",
    "math_equivalence": "equivalence",
}
__all__ = [
    "Equivalence",
    "Extraction",
    "extract_choice",
    "extract_choice_lmms",
    "extract_choice_official",
    "extract_free_answer",
    "math_equal",
    "math_equivalence",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
