"""Answer extraction: choice letters (robust and the two reference extractors), free-form answers, answer equivalence.

Pure functions over strings: no I/O, nothing at import beyond compiling regexes.
"""

from mathreel.core.extract.choice import extract_choice
from mathreel.core.extract.equivalence import Equivalence, math_equal, math_equivalence
from mathreel.core.extract.free import extract_free_answer
from mathreel.core.extract.reference import extract_choice_lmms, extract_choice_official
from mathreel.core.extract.types import Extraction

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
