"""Free-form answers (MathVerse), read as MathVerse's official extraction prompt reads them in its worked examples.

In order: the answer field of a JSON object the response ends with (`{"reasoning": ..., "answer": ...}`, decoded);
the last `\\boxed{...}` (boxes next to each other that together form one answer, such as a tuple split over boxes,
are read together); else the last final-answer phrase ("Final Answer: The final answer is $X$. I hope it is
correct." reads X); else the value the last sentence states ("... is 14 cm." reads 14 cm, "= 20" reads 20,
`free_sentence`), or a last line that is only math. A JSON field and a box that disagree are a conflict. Unicode
math signs are read as ASCII/LaTeX first (`plain_math`), and a response that goes on to a question or turn of its
own ("Question: ...", "Human: ...") is read up to it; a turn that answers again ("Assistant: ...") must end on the
same value (else a conflict). A loop of working cut off mid-way and a one-sentence
comparison with no asked value are no answer (`NO_ANSWER_READINGS`: no other reader looks for one either). The
official prompt is in docs/sources.md (Answer equivalence).
"""

from __future__ import annotations

import re

from mathreel.core.extract.conflicts import phrase_value, two_values
from mathreel.core.extract.echo import without_echoed_prompt
from mathreel.core.extract.free_forms import clause_answer, number_in_words, one_of_two_forms
from mathreel.core.extract.free_quantities import LONGEST_SENTENCE, SEVERAL, answer_quantity, numeral_answer
from mathreel.core.extract.free_sentence import is_math, number_word, stated_value
from mathreel.core.extract.free_value import DESCRIBED, UNEVALUATED, final_value, scaled_number
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.option_math import numeric_value, same_value
from mathreel.core.extract.plain_math import plain_math
from mathreel.core.extract.program import assigned_answer, program_only
from mathreel.core.extract.structured import json_answer, render
from mathreel.core.extract.text import (
    DECLINE_CANNOT,
    END_TOKENS,
    FIRM,
    Declines,
    FollowUp,
    answer_tag,
    boxed_spans,
    follow_ups,
    strip_think,
    turn_answering_again,
    unclosed_think_tail,
)
from mathreel.core.extract.types import Extraction, conflict, quote, unparsed
from mathreel.core.extract.unfinished import unfinished_value

# "The answer is 12", "Final answer: x = 3", "ANSWER: 5", "答案是 12". The rest of the line is the answer.
# No two adjacent parts can match the same whitespace, so a long run of blanks cannot make it backtrack.
_PHRASE = lazy_regex(
    r"(?i:\b(?:final\s+answer(?:\s+is)?|the\s+(?:final\s+|correct\s+)?answer\s+(?:is|would\s+be|should\s+be)"
    r"|answer(?:\s*is)?\s*[:：=]|the\s+answer\s+\([^()\n]{1,30}\)\s+is\b))\s*(?:[:：]\s*)?(?P<rest>\S[^\n]*)"
    r"|答案\s*(?:[】\]］]\s*)?(?:(?:是|为)\s*)?(?:[:：]\s*)?(?P<zh>[^\s。是为:：][^\n。]*)"
)
# A numbered or bulleted step opening a line: "1. We know ...", "2) Then", "- First".
_LIST_AFTER = lazy_regex(r"(?:\d{1,2}[.)]|[-*•])\s+[^\W\d]")
# Where a phrase's answer stops: the end of the sentence or an explanation.
_CLAUSE_END = lazy_regex(r"(?<!\d)\.(?:\s|$)|(?<=\d)\.(?:\s|$)|[;。]|\s(?i:because|since|as|which|so)\s")
# Bold, italics and code marks; a "*" between numbers ("(0.055/100) * 106") is a product and stays.
_MARKDOWN = lazy_regex(r"\*\*|(?:(?<![\d)\]}])(?<![\d)\]}]\s)\*|\*(?!\s?[\d(]))|`+")
_DOLLARS = lazy_regex(r"(?<!\\)\$")  # math delimiters; an escaped \$ is a currency sign and stays
# A last line that is only math: "12", "x = 3", "\frac{1}{2}", "45°".
# Between two boxes of one answer: "\\boxed{3}, \\boxed{4}", "$\\boxed{1}$ and $y = \\boxed{2}$".
# No two adjacent parts can match the same character, so a long run of blanks between boxes cannot backtrack.
_BETWEEN_BOXES = lazy_regex(
    r"(?:\s|[,;$]|\\q?quad\b|\\[()\[\]]|\\text\{\s*(?:for\s+part\s*\(?\w\)?\s*)?(?:and|,)?\s*\}|and\b"
    r"|for\s+part\s*\(?\w\)?)*"
    r"(?:[A-Za-z](?:_\{?\w+\}?)?\s*=[\s$]*(?:\\[(\[]\s*)?)?"
)
_BOX_LABEL = lazy_regex(r"(?<![A-Za-z\\])(?P<label>[A-Za-z](?:_\{?\w+\}?)?)\s*=\s*\$?\s*$")
_MATH_DELIMS = lazy_regex(r"\\[()\[\]]")
# Where a sentence ends inside the last line.
_SENTENCE_BREAK = lazy_regex(r"(?<!\d)\.\s+|(?<=\d)\.\s+(?=[A-Z])|[!?;:]\s+")
# A closing line that is no part of the answer: "Hope this helps!", "Let me know if ...".
_PLEASANTRY = lazy_regex(
    r"\W*(?i:hope\s+(?:this|that|it)\s+helps|i\s+hope\s+(?:this|that|it)|let\s+me\s+know|feel\s+free|is\s+there\s+anything"
    r"|if\s+you\s+have\s+(?:any|more|further)|happy\s+to\s+help|glad\s+to\s+help|good\s+luck|thanks\b|thank\s+you"
    r"|now,?\s+let['’]?s\s+summar|to\s+summari[sz]e|in\s+summary\W*$)"
)
# An earlier sentence of the last paragraph that concludes ("Solving, the distance is 15 km."), read when the last
# one is a remark with no value in it ("This matches the map's scale.").
_CONCLUDES = lazy_regex(
    r"(?i:\b(?:so|thus|hence|therefore|solving|we\s+get|we\s+find|finally|in\s+total|altogether)\b)"
)
_CONNECTIVE = lazy_regex(r"(?i:\b(?:so|thus|hence|then|and|or|we|get|is|are)\b)")  # prose, not "only math"
_NO_VALUE_REMARK = lazy_regex(r"[\d\\=]|(?i:\b(?:not|no|cannot|can't|unknown|undefined|impossible|never)\b)")


# A response that declines to give a value: "it is impossible to determine", "I cannot calculate", "there is not
# enough information", "the text does not provide the data" (the shared declines of `text.Declines`, and these).
# Searched only where the rules read nothing, before math-verify reads the whole response (the numbers in a refusal
# are the question's).
_DECLINES = Declines(
    r"(?i:" + DECLINE_CANNOT + r"(?:calculate|calculated|compute|computed|provide|give|find\s+(?:the|a|an|out)\b)"
    r"|\b(?:do|does|did)(?:\s+not|n['’]t)\s+have\s+(?:the\s+|enough\s+|any\s+|sufficient\s+)?(?:data|information"
    r"|numbers|values|figures|details)\b"
    r"|\b(?:does|do|did)\s+not\s+(?:provide|give|say|state|show|specify|mention|contain|include)\s+"
    r"(?:any\s+|the\s+|enough\s+|specific\s+)?(?:information|data|details|values|numbers|figures|how\s+many"
    r"|how\s+much)\b)"
)


def declines(response: str | None) -> str | None:
    """The words with which a response declines to give a value, or None (then it may hold one)."""
    if not isinstance(response, str):
        return None
    found = _DECLINES.search(response)
    return found.group(0) if found else None


def extract_free_answer(response: str | None, question: str | None = None) -> Extraction:
    """The final answer of a free-form response, as written (comparison is `math_equivalence`'s job). `question`
    (the question's text) tells which quantity of an answer sentence holding several is asked (`free_quantities`)."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "nothing to read")
    return final_value(one_of_two_forms(_extract(response, question or None)), response)


def _extract(response: str, question: str | None = None) -> Extraction:
    if "###" in response:
        response = without_echoed_prompt(response)
        if not response.strip():
            return unparsed("no answer stated", "the response only echoes its prompt")
    if "<" in response:
        response = END_TOKENS.sub("", response)
    text, think_note = strip_think(response)
    if not text.strip():
        return _unclosed_think_answer(response) or unparsed("no answer after reasoning", think_note)
    if program_only(text):
        literal = assigned_answer(text)
        if literal is None:
            return unparsed(PROGRAM, "the response is only a program; what it prints is not stated")
        why = f"the program assigns its answer: {quote(literal)!r}"
        return Extraction(literal, "program-answer", why, None, "shape")
    text = plain_math(text)
    turns = follow_ups(text, text.lower())
    for index, turn in enumerate(turns):
        before = _read(text[: turn.start], question)
        if before.parsed and (not turn.heading or (before.strength in FIRM and not before.weak)):
            return _against_turns(before, text, turns[index:])
    return _read(text, question)


def _against_turns(before: Extraction, text: str, turns: list[FollowUp]) -> Extraction:
    """The answer read before the first invented turn, or a conflict when a turn that answers the same question again
    ("Assistant: ...", "### Response") ends on another value; a turn that asks a new question ends the reading. A turn
    whose reading is prose, not a value ("The exports are greater than 0.92 % in 1 year."), gives no second answer."""
    found = turn_answering_again(
        before,
        text,
        turns,
        _read,
        lambda again: is_math(again.answer or "") and not _same_answer(before.answer or "", again.answer or ""),
    )
    if found is not None:
        marker, again = found
        return conflict(
            f"{before.explanation} gives {quote(before.answer or '', 30)!r}",
            f"the invented turn {marker!r} answers again with {quote(again.answer or '', 30)!r}",
            before.method,
        )
    note = "; read up to the follow-up question or turn the response goes on to invent"
    return Extraction(before.answer, before.method, before.explanation + note, None, before.strength)


_NAMED = lazy_regex(r"^[A-Za-z]\s*=\s*")  # "x = 4": the value named


def _same_answer(first: str, second: str) -> bool:
    """Whether two readings are one answer: the same text (blanks, dollars and a leading "x =" aside) or the same
    number ("0.5" and "1/2"); anything else counts as two answers."""
    a, b = (_NAMED.sub("", " ".join(text.replace("$", " ").split())).rstrip(".") for text in (first, second))
    if a == b:
        return True
    value_a, value_b = numeric_value(a), numeric_value(b)
    return value_a is not None and value_b is not None and same_value(value_a, value_b)


_FIRM_METHODS = frozenset({"boxed", "answer-phrase", "json", "answer-tag", "final-line", "answer-line"})


def _unclosed_think_answer(response: str) -> Extraction | None:
    """The answer line a `<think>` block that is never closed ends with ("...so it is 5.\n\nFinal answer: 5"),
    when that last paragraph is one line stating it firmly; never a value from the reasoning above it."""
    tail = unclosed_think_tail(response)
    if tail is None or "\n" in tail[1]:
        return None
    found = _read(plain_math(tail[1]))
    if not found.parsed or found.method not in _FIRM_METHODS:
        return None
    note = "; the <think> block is never closed: read its last paragraph, a line of its own"
    return Extraction(found.answer, found.method, found.explanation + note, None, found.strength)


def _read(text: str, question: str | None = None) -> Extraction:
    """A JSON answer field, else an `<answer>` tag, the box, the final-answer phrase, the last line."""
    boxed = _boxed_answer(text)
    field = json_answer(text) if "{" in text else None
    if field is not None:
        return _json_reading(field.key, field.value, boxed)
    lower = text.lower()
    tag = answer_tag(text, lower) if "answer>" in lower else None
    if tag is not None:
        content = text[tag[1] : tag[2]]
        found = _read(content, question) if content.strip() and "answer>" not in content.lower() else None
        if found is not None and found.parsed:
            outside = _boxed_answer(text[: tag[0]] + text[tag[2] :])
            if outside is not None and _unlabelled(outside.answer) != _unlabelled(found.answer):
                return conflict(
                    f"the <answer> tag gives {quote(found.answer or '', 40)!r}",
                    f"\\boxed{{}} outside it gives {quote(outside.answer or '', 40)!r}",
                    "answer-tag",
                )
            return Extraction(found.answer, "answer-tag", f"{found.explanation} (inside <answer>)", None, "container")
    if boxed is not None:
        later = _last_phrase(text[_end_of_last_box(text) :])  # "\\boxed{255} ... The final answer is 10,455."
        return later if later is not None and later.answer is not None and is_math(later.answer) else boxed
    line = _answer_line(text) if "####" in text or "A:" in text or "A：" in text or "A :" in text else None
    if line is not None:
        return line
    last_line = text[text.rfind("\n") + 1 :]
    if len(last_line) <= _LOOP_LINE and _PHRASE.search(last_line) is not None:  # answer lines looped, cut mid-value
        looped = _cut_off_loop(text)
        if looped is not None:
            return looped
    phrase = _last_phrase(text, question)
    if phrase is not None:
        return phrase
    first = _answer_first(text)
    if first is not None:
        return first
    loop = _cut_off_loop(text)
    if loop is not None:
        return loop
    last = _last_line(text, question)
    if not last.parsed and not last.explanation.startswith(SEVERAL):
        return _comparison(text) or last
    return last


# Reasons a response holds no answer that no other reader may go looking for one in: it loops and is cut off,
# or it only compares two things. `free_verdict` gives math-verify no whole-response reading of these.
LOOP, COMPARISON, PROGRAM = "repetition loop", "comparison with no asked value", "program with no stated output"
NO_ANSWER_READINGS = (LOOP, COMPARISON, PROGRAM, UNEVALUATED, DESCRIBED, SEVERAL)
_UNITS_SPLIT = lazy_regex(r"(?<=[.!?])\s+")  # sentences, inside a line (one way to match: linear)
_LOOP_MIN = 3  # times the unit the cut-off text begins must have been written before
_LOOP_MAX_UNITS = 2_000  # sentences looked at, the last ones
_LOOP_LINE = 1_000  # characters: the longest last line looked at for a looped answer phrase


def _cut_off_loop(text: str) -> Extraction | None:
    """Unparsed when the response is a degenerate loop cut off mid-way: its last sentence is an unfinished copy of a
    sentence it has already written at least `_LOOP_MIN` times ("... angle CBE = 60.\nSince ABCD is a squ"). Such
    a response never concludes; a value from its working is no answer. A loop after a box or an answer phrase
    never gets here."""
    text = text[-200_000:].rstrip()
    tail = _UNITS_SPLIT.split(text[text.rfind("\n") + 1 :])[-1].strip()
    if not tail or text.count(tail) <= _LOOP_MIN:
        return None  # the unfinished sentence is not written out that often: no loop (counted at C speed first)
    lines = text.splitlines()
    units = [unit.strip() for line in lines for unit in _UNITS_SPLIT.split(line) if unit.strip()][-_LOOP_MAX_UNITS:]
    if len(units) <= _LOOP_MIN:
        return None
    tail, written = units[-1], units[:-1]
    counts: dict[str, int] = {}
    for unit in written:
        counts[unit] = counts.get(unit, 0) + 1
    times = max(  # an unfinished copy: "x = 5" after "x = 5." written out is finished, only its period left off
        (n for unit, n in counts.items() if unit.rstrip(" .!?") != tail and unit.startswith(tail)), default=0
    )
    repeated = sum(n for n in counts.values() if n >= _LOOP_MIN)
    if times < _LOOP_MIN or repeated * 10 < len(written) * 6:
        return None  # most of the response must be the loop
    return unparsed(LOOP, f"the response repeats its working ({times} times) and is cut off: {quote(tail, 40)!r}")


# A comparison: "... is higher, at $2,315,000.10, whereas ...", "... is greater than the average ... after 10 years".
_COMPARES = lazy_regex(r"(?i:\b(?:than|whereas|compared\s+(?:to|with))\b)")
_CONCLUDING_WORD = lazy_regex(r"(?i:\b(?:so|thus|hence|therefore|total|altogether|difference|answer)\b)|=")
_NUMBER = lazy_regex(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_IN_PHRASE = lazy_regex(r"(?i:\b(?:in|after|for|of|over|from|since|during|before|within|on|per|until)\s+\$?)$")
_COMPARISON_MAX = 300  # characters: a one-sentence answer


def _comparison(text: str) -> Extraction | None:
    """Unparsed when the whole response is one sentence comparing two things and stating no value of its own:
    several different numbers ("... in 1990 is higher, at $2,315,000.10, whereas ... in 1975 ... $812,400.25"), or
    numbers only inside a phrase ("... greater than the average ... after 10 years"). "There are 3 more apples than
    oranges." states 3 and is read as it was."""
    plain = text.strip()
    if len(plain) > _COMPARISON_MAX or "\n" in plain or not _COMPARES.search(plain) or _CONCLUDING_WORD.search(plain):
        return None
    numbers = list(_NUMBER.finditer(plain))
    distinct = {number.group(0).replace(",", "") for number in numbers}
    in_phrases = all(_IN_PHRASE.search(plain, max(0, n.start() - 12), n.start()) for n in numbers)
    if len(distinct) < 2 and not (numbers and in_phrases):
        return None
    return unparsed(COMPARISON, f"the response only compares: {quote(plain)!r}")


# A last line that gives the answer as grade-school-math outputs do: "#### 500", "A: 500" (after the working).
_ANSWER_LINE = lazy_regex(r"[ \t>*_]*(?:#{4}|A[ \t]*[:：])[ \t]*(?P<value>\S[^\n]*)")
# Words after a leading number that make it another number ("5 million", "2 thirds", "4 squared") or not the only one.
_NOT_COUNTED = lazy_regex(
    r"(?i:\b(?:and|or|than|more|less|times|to|per|plus|minus|of|by|out|over|dozens?|hundreds?|thousands?|millions?"
    r"|billions?|trillions?|percent|percentage|squared|cubed|factorial|halves|half|thirds?|quarters?|fourths?|fifths?"
    r"|sixths?|eighths?|tenths?|hundredths?|thousandths?)\b)"
)
_LEADING_NUMBER = lazy_regex(r"(-?\d[\d,]*(?:\.\d+)?(?:/\d+)?)[ \t]+[A-Za-z][A-Za-z \t]*")


def _answer_line(text: str) -> Extraction | None:
    """The value of a last line "#### 500" or "A: 500" (closing pleasantries aside); None when it holds no math."""
    lines = _closing_lines(text)
    match = _ANSWER_LINE.fullmatch(lines[-1]) if lines else None
    if match is None:
        return None
    value = _clean(_MARKDOWN.sub("", match.group("value")))
    if value and not is_math(value):
        leading = _LEADING_NUMBER.fullmatch(value)  # "A: 500 pens"
        value = stated_value(value) or number_word(value) or (leading.group(1) if leading else "")
    if not value:
        return None
    return Extraction(value, "answer-line", f"the last line gives the answer: {quote(lines[-1])!r}", None, "explicit")


def _closing_lines(text: str) -> list[str]:
    """The response's non-empty lines, stripped, without closing pleasantries ("Hope this helps!")."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    while len(lines) > 1 and _PLEASANTRY.match(_MARKDOWN.sub("", lines[-1])):
        lines.pop()
    return lines


# Where an explanation that follows the answer starts: "Here's how:", "Explanation:", "Here is why", "Steps:".
_EXPLANATION = lazy_regex(
    r"(?:^|(?<=[.!?:])[ \t]+)[ \t>*_#]*(?:here(?:'s|’s|\s+is)\s+(?:how|why)(?=[ \t]*[:.\n]|\s+(?:I|we)\b)"
    r"|here(?:'s|’s|\s+is|\s+are)\s+the\s+(?:steps|breakdown|reasoning|explanation|working|calculation|solution"
    r"|step-by-step|details)\b|(?:explanation|reasoning|solution|working"
    r"|steps|justification|step-by-step(?:\s+solution)?)[ \t*_]*[:：]|to\s+see\s+why\b|let\s+me\s+explain\b"
    r"|let['’]s\s+(?:break|walk)\b)",
    re.I | re.M,
)
_LIST_START = lazy_regex(r"^[ \t]*(?:\d+[.)]|[-*•])[ \t]", re.M)  # a numbered or bulleted line
_BOLD = lazy_regex(r"\*\*([^*\n]{1,60})\*\*|__([^_\n]{1,60})__")
_HEAD_MAX = 300  # characters before the explanation: an answer stated first is short
_OPENS_CONCLUSION = lazy_regex(r"\W*(?i:so|thus|hence|therefore|in\s+total|altogether|finally)\b")


def _answer_first(text: str) -> Extraction | None:
    """The value stated before an explanation ("The height is **19** cm. Here's how: 1. ... 2. ..." reads 19;
    "The area is 24. Here's why: ..." reads 24): a bold value, else the value the last sentence before it states;
    before a plain numbered or bulleted list, only a bold value. A value the explanation's last sentence concludes
    that differs is a conflict ("So the height is 20 cm."; for a bold value, only where that sentence opens so)."""
    opener = _EXPLANATION.search(text)
    head = text[: opener.start()] if opener is not None else ""
    bold_only = False
    if not head.strip():
        listed = _LIST_START.search(text)
        if listed is None or ("**" not in text[: listed.start()] and "__" not in text[: listed.start()]):
            return None
        head, bold_only = text[: listed.start()], True
    if not head.strip() or len(head) > _HEAD_MAX:
        return None
    value = bold = _bold_value(head)
    if value is None and not bold_only:
        sentences = _SENTENCE_BREAK.split(_MARKDOWN.sub("", head).strip())
        value = stated_value(sentences[-1]) if sentences else None
    if value is None:
        return None
    after = _last_line(text[len(head) :])
    closing = _SENTENCE_BREAK.split(_MARKDOWN.sub("", _closing_lines(text)[-1]))[-1]
    # a bold value stands unless a last sentence that opens as a conclusion differs; a plain one, unless a last
    # sentence that concludes ("..., so the height is 20 cm.") does
    concludes = _OPENS_CONCLUSION.match(closing) if bold is not None else _CONCLUDES.search(closing)
    if after.parsed and concludes and _unlabelled(after.answer) != _unlabelled(value):
        return conflict(
            f"the value stated first, before the explanation, is {quote(value, 40)!r}",
            f"the explanation concludes {quote(after.answer or '', 40)!r}",
            "answer-first",
        )
    return Extraction(
        value, "answer-first", f"the value stated before the explanation: {quote(value)!r}", None, "shape"
    )


def _bold_value(head: str) -> str | None:
    """The last bold math value of `head` ("**19**", "**$42**", "**x = 6**" reads 6)."""
    for match in reversed(list(_BOLD.finditer(head))):
        value = _DOLLARS.sub("", match.group(1) or match.group(2)).strip().rstrip(".").strip()
        if value and is_math(value) and any(char.isdigit() for char in value):
            return stated_value(value) or value if "=" in value else value
    return None


def _json_reading(key: str, value: object, boxed: Extraction | None) -> Extraction:
    """The JSON answer field as the answer (a list as "1, 4", an object as "a = 2, b = -3"); a box that says
    otherwise is a conflict."""
    answer = render(value)
    if answer is None:
        return unparsed("no answer stated", f"the JSON field {key!r} is empty or null", "json")
    answer = plain_math(answer)
    if boxed is not None and _compact(boxed.answer) != _compact(answer):
        return conflict(
            f"the JSON field {key!r} gives {quote(answer, 40)!r}",
            f"\\boxed{{}} gives {quote(boxed.answer or '', 40)!r}",
            "json",
        )
    return Extraction(answer, "json", f"read the JSON field {key!r}: {quote(answer)!r}", None, "container")


_LABEL = lazy_regex(r"[A-Za-z](?:_\{?\w+\}?)?=")


def _unlabelled(answer: str | None) -> str:
    """An answer compacted, without a leading "x =" ("x = 12" and "12" are one answer)."""
    compact = _compact(answer)
    label = _LABEL.match(compact)
    return compact[label.end() :] if label else compact


def _compact(answer: str | None) -> str:
    return "".join((answer or "").split()).replace("$", "")


def _boxed_answer(text: str) -> Extraction | None:
    """The last non-empty box, joined with the boxes right before it when only commas or "and" separate them."""
    boxes = _outer_boxes(text)
    if not boxes:
        return None
    group = [boxes[-1]]  # latest first
    for start, content, after in reversed(boxes[:-1]):
        if not _BETWEEN_BOXES.fullmatch(text, after, group[-1][0]):
            break
        group.append((start, content, after))
    group.reverse()
    parts = []
    for start, content, _ in group:
        label = _label_before(text, start)
        parts.append(f"{label} = {content.strip()}" if label else content.strip())
    answer = ", ".join(parts)
    if len(group) > 1:
        return Extraction(
            answer,
            "boxed",
            f"read {len(group)} adjacent \\boxed{{}} as one answer: {quote(answer)!r}",
            None,
            "container",
        )
    count = f" (last of {len(boxes)})" if len(boxes) > 1 else ""
    spelled = number_in_words(answer) if answer[:1].isalpha() or answer[:1] == "\\" else None
    if spelled is not None:  # "\\boxed{Six}": math-verify would read a symbol
        why = f"read \\boxed{{{quote(answer)}}}{count}, a number in words"
        return Extraction(spelled, "boxed", why, None, "container")
    return Extraction(answer, "boxed", f"read \\boxed{{{quote(answer)}}}{count}", None, "container")


def _outer_boxes(text: str) -> list[tuple[int, str, int]]:
    """(start, content, just after the closing brace) of each non-empty box that no other box holds.

    A box that holds nothing but another box ("\\boxed{\\boxed{3}}") reads as the innermost one. Spans are walked,
    never copied, so n nested boxes cost O(n) time and memory.
    """
    spans = boxed_spans(text)
    by_start = {start: (inner, end) for start, inner, end in spans}
    boxes, last_end = [], -1
    for start, inner, end in spans:
        if start < last_end:
            continue  # inside the previous outer box
        last_end = end
        while True:  # descend while the content is exactly one box
            first, last = _strip_span(text, inner, end)
            nested = by_start.get(first)
            if nested is None or nested[1] + 1 != last:
                break
            inner, end = nested
        first, last = _strip_span(text, inner, end)
        if first < last:
            boxes.append((start, text[first:last], last_end + 1))
    return boxes


def _strip_span(text: str, first: int, last: int) -> tuple[int, int]:
    """The span [first, last) without leading and trailing whitespace."""
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return first, last


def _end_of_last_box(text: str) -> int:
    """Just after the closing brace of the box that ends last (an outer box ends after the boxes it holds)."""
    return max(end for _, _, end in boxed_spans(text)) + 1


def _label_before(text: str, start: int) -> str:
    """ "x" for "x = \\boxed{3}": the variable a box is the value of, if one is named right before it."""
    match = _BOX_LABEL.search(text[max(0, start - 20) : start])
    return match.group("label") if match else ""


# Before a phrase that only supposes an answer: "let me check whether the answer is 15", "如果答案是15".
_SUPPOSED = lazy_regex(
    r"(?:(?i:\b(?:if|whether|unless|suppose|supposing|assume|assuming)\s+(?:that\s+)?(?:the\s+)?)|如果|假设|假如|若)$"
)


def _last_phrase(text: str, question: str | None = None) -> Extraction | None:
    plain = _MARKDOWN.sub("", text)
    matches = [m for m in _PHRASE.finditer(plain) if not _SUPPOSED.search(plain, max(0, m.start() - 30), m.start())]
    for match in reversed(matches):
        if _LIST_AFTER.match(plain, match.start("rest") if match.group("rest") else match.end()) and "\n" in (
            plain[match.start() : match.start("rest")] if match.group("rest") else ""
        ):
            continue  # "Here's how I got the answer:\n\n1. We know ...": the working's first step, no value
        answer = _clean(match.group("rest") or match.group("zh"))
        if answer and match.group("rest") and not plain[match.end() :].strip() and unfinished_value(answer):
            why = f"the response stops inside the value of {quote(match.group(0))!r}"  # "The answer is \\frac{3}{"
            return unparsed("no answer stated", why, "answer-phrase")
        if answer:
            answer = _innermost(answer)
            numeral = numeral_answer(answer, match.group(0)) if "(" in match.group(0) else None
            if numeral is not None:  # "Therefore, the answer (arabic numerals) is 64"
                return numeral
            if not is_math(answer):
                answer = phrase_value(answer) or answer  # "The answer is 5 and the remainder is 0."
            if not is_math(answer):
                pair = two_values(answer)  # "Answer: The base is 4 and the height is 3."
                if pair is not None:
                    return conflict(
                        f"{quote(match.group(0))!r} states {pair[0]!r}", f"also {pair[1]!r}", "answer-phrase"
                    )
                if answer[:5].lower() == "that ":  # "the answer is that the router reaches 10 + 20 = 30 hosts"
                    return clause_answer(answer, f"read {quote(match.group(0))!r}", declines)
                leading = _LEADING_NUMBER.fullmatch(answer)  # "The answer is 4 red cubes."
                counted = leading.group(1) if leading and not _NOT_COUNTED.search(answer) else None
                value = stated_value(answer) or number_word(answer) or scaled_number(answer) or counted
                if (
                    value is None and len(answer) <= LONGEST_SENTENCE
                ):  # "Answer: 540 grams of flour will last ... 3 days."
                    said = _sentence_of(match.group("rest") or "")  # its "$" kept: "pays $43.50"
                    several = answer_quantity(said if _clean(said) == answer else answer, question, "answer-phrase")
                    if several is not None:
                        return several
                answer = value or answer
            return Extraction(answer, "answer-phrase", f"read {quote(match.group(0))!r}", None, "explicit")
    return None


def _sentence_of(rest: str) -> str:
    """The answer part of a phrase's line up to the end of its sentence, as written (`_clean` without the rest)."""
    end = _CLAUSE_END.search(rest)
    return rest[: end.start()] if end else rest


def _innermost(answer: str) -> str:
    """ "The final answer is X" inside "Final Answer: ..." reads X; one level at a time, each shorter."""
    while (inner := _PHRASE.match(answer)) is not None:
        rest = _clean(inner.group("rest") or inner.group("zh") or "")
        if not rest or len(rest) >= len(answer):
            break
        answer = rest
    return answer


def _clean(rest: str) -> str:
    """The answer part of a phrase's line: up to the end of its sentence, without `$`, quotes and a final period."""
    end = _CLAUSE_END.search(rest)
    if end:
        rest = rest[: end.start()]
    return _DOLLARS.sub("", rest.strip().rstrip(".").strip()).strip().strip("'\"‘’“”").strip()


# A word that is the whole last line or follows its last sentence with no blank ("... sphere.Three").
_FINAL_WORD = lazy_regex(r"(?:^|[.!?])[ \t]*(?P<word>[A-Za-z]+(?:-[a-z]+)?)$")


def _last_line(text: str, question: str | None = None) -> Extraction:
    """A last line that is only math, else the value its last sentence states ("... is 14 cm.", "L = 14"), or,
    after a closing remark with no value ("This matches the scale."), the sentence before it that concludes.
    Closing pleasantries ("Hope this helps!") are not the last line."""
    lines = _closing_lines(text)
    if not lines:
        return unparsed("no final answer", "nothing after the value stated first")
    last = _DOLLARS.sub("", _MARKDOWN.sub("", _MATH_DELIMS.sub("", lines[-1]))).strip().rstrip(".").strip()
    if is_math(last) and not _CONNECTIVE.search(last):
        return Extraction(last, "final-line", f"the last line is only math: {quote(last)!r}", None, "shape")
    word = _FINAL_WORD.search(last) if last[-1:].isalpha() else None
    spelled = number_word(word.group("word"), whole=True) if word else None
    if word is not None and spelled is not None:  # "... one red sphere.Three": the answer, after the working
        why = f"the response ends on a number in words: {quote(word.group('word'))!r}"
        return Extraction(spelled, "final-line", why, None, "shape")
    sentences = _SENTENCE_BREAK.split(last)
    pair = two_values(sentences[-1])  # "So the width is 6 cm and the length is 9 cm."
    if pair is not None:
        return conflict(f"the last sentence states {pair[0]!r}", f"also {pair[1]!r}", "last-sentence")
    value = stated_value(sentences[-1])
    if value is not None:
        return Extraction(value, "last-sentence", f"the last sentence states {quote(sentences[-1])!r}", None, "shape")
    if len(sentences[-1]) <= LONGEST_SENTENCE and _CONCLUDES.search(sentences[-1]):  # "Therefore, the shop makes a
        # profit of $312 in June if it buys either 40 chairs or 25 tables.": the quantity asked, or none
        said = _SENTENCE_BREAK.split(_MARKDOWN.sub("", _MATH_DELIMS.sub("", lines[-1])).strip())[-1]  # "$" kept
        several = answer_quantity(said, question, "last-sentence")
        if several is not None:
            return several
    if len(sentences) > 1 and not _NO_VALUE_REMARK.search(sentences[-1]) and _CONCLUDES.search(sentences[-2]):
        value = stated_value(sentences[-2])
        if value is not None:
            return Extraction(
                value,
                "last-sentence",
                f"the sentence before the closing remark states {quote(sentences[-2])!r}",
                None,
                "shape",
            )
    why = f"no \\boxed{{}}, final-answer phrase or stated value; last line {quote(last)!r}"
    return unparsed("no final answer", why)
