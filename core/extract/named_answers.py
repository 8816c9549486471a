"""An answer named by what it is rather than called "the answer": "the correct sequence of reactions is: C. i) ...",
"the most likely point group among these would be:\\n\\nB. C2v", "making option D the most likely explanation".

Models answering questions whose options are given as letters only (GPQA-style outputs) name the kind of thing the
question asks for. The letter counts only as an option line ("C." / "C)" / "C:" after it, or the end of a bold span)
or after the word "option", so a letter that is a variable or an article is never read.
"""

from __future__ import annotations

from mathreel.core.extract.lazy import lazy_regex

# "the correct sequence of reactions is: C. ...", "the most likely option among these would be:\n\nD. D∞h":
# an adjective of rightness, one to five words naming the thing (never "answer", which the answer phrase reads; never
# "right", which is also a side: "the right side is A. Then ..."),
# "is" / "would be", then the option line's letter.
NAMED_ANSWER = lazy_regex(
    r"(?i:\b(?:correct|best|most\s+(?:likely|plausible|suitable|appropriate|probable))\s+"
    r"(?!answer\b)(?:[a-z][\w-]*\s+){0,4}?[a-z][\w-]*\s+(?:is|would\s+be|will\s+be)\b(?:\s+the\s+following)?\s*:?)"
    r"\s*(?:\*\*|__)?\s*[(\[]?(?P<l>[A-Z])(?:[)\]]|(?=[.:]\s|\.?\*\*))"
)
NAMED_ANSWER_STARTS = ("correct", "best", "most")
NAMED_ANSWER_WORDS = ("correct", "best", "likely", "probable")

# "making option D the most likely explanation", "option B is the best explanation for ...".
OPTION_NAMED = lazy_regex(
    r"(?i:\b(?:option|choice)\s+)[(\[]?(?P<l>[A-Z])[)\]]?\s+(?i:(?:is|as|would\s+be)\s+)?"
    r"(?i:the\s+(?:most\s+(?:likely|plausible|probable)|best|correct|right)\s+"
    r"(?:explanation|reason|cause|candidate|product|structure|sequence|mechanism|choice|option|one)\b)"
)
OPTION_NAMED_STARTS = ("option", "choice")
