"""A response that begins by echoing its prompt template (Alpaca, Vicuna and other instruction-tuned models of 2023).

Such a model repeats "Below is an instruction that describes a task ... ### Instruction: ... ### Input: ...
### Response:" and only then answers. The echo is the prompt, not a turn the model invents: its "### Response:" is
where the answer starts, and the question's options and numbers inside "### Input:" are not the answer. A
"### Response:" that comes after the answer is still an invented turn (`text.follow_ups`).
"""

from __future__ import annotations

import re

from mathreel.core.extract.lazy import lazy_regex

_OPENING = lazy_regex(r"\s*(?:Below is an instruction that describes a task|#{2,3}[ \t]*Instruction[ \t]*:)", re.I)
_RESPONSE = lazy_regex(r"^[ \t]*#{2,3}[ \t]*Response\b[ \t]*:?", re.I | re.M)


def without_echoed_prompt(response: str) -> str:
    """`response` with an echoed prompt template (up to and including its first "### Response:") blanked out,
    the same length so that spans still point into `response`; unchanged when it does not open with one."""
    if "#" not in response or _OPENING.match(response) is None:
        return response
    marker = _RESPONSE.search(response)
    if marker is None:
        return response
    end = marker.end()
    return "".join("\n" if char == "\n" else " " for char in response[:end]) + response[end:]
