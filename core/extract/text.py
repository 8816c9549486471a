"""Text helpers shared by the extractors: reasoning blocks and brace-balanced `\\boxed{...}`."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.types import Extraction, quote

_BOXED = lazy_regex(r"\\(?:boxed|fbox)\s*\{")
_BRACE = lazy_regex(r"[{}]")


def strip_think(text: str) -> tuple[str, str]:
    """The response without `<think>` reasoning, and a note on what was removed.

    The answer is what follows the last `</think>` (this also covers a template that put the opening tag in
    the prompt); an opening tag left open after that means the answer was never reached, so all after it goes.
    Plain string searches keep this linear however many tags a broken response repeats.
    """
    lower = text.lower()
    if "think>" not in lower:
        return text, ""
    note = "ignored <think> reasoning"
    close = lower.rfind("</think>")
    if close >= 0:
        text, lower = text[close + len("</think>") :], lower[close + len("</think>") :]
    opened = lower.find("<think>")
    if opened >= 0:
        text = text[:opened]
        note = "the <think> block is never closed, so the answer was never reached"
    return text, note


_LAST_PARAGRAPH_MAX = 200  # characters: an answer line after the reasoning, not a paragraph of it


def unclosed_think_tail(text: str) -> tuple[int, str] | None:
    """(position, text) of the last paragraph of a `<think>` block that is never closed, when it is short and not
    the block's only paragraph: a model that forgot `</think>` often still ends with its answer on a line of its
    own ("...so probably B\n\nB"). The caller reads it only for a firm answer; None otherwise."""
    lower = text.lower()
    close = lower.rfind("</think>")
    opened = lower.find("<think>", close + 1 if close >= 0 else 0)
    if opened < 0:
        return None
    body_start = opened + len("<think>")
    body = text[body_start:].rstrip()
    cut = max(body.rfind("\n\n"), body.rfind("\n \n"), body.rfind("\n\t\n"))
    if cut < 0:
        return None
    tail = body[cut:].lstrip()
    if not tail or len(tail) > _LAST_PARAGRAPH_MAX or not body[:cut].strip():
        return None
    return body_start + len(body) - len(tail), tail


_TAG = "answer>"
# End-of-answer tokens some models leave in their output ("12<eoa>", "B.<|im_end|>", "</s>"), and the "<s>" that
# opens a next sequence ("2</s><s>").
END_TOKEN_PATTERN = r"<(?:s|eoa|eos|eot|eom|/s|end_of_turn|\|[a-z_]{2,20}\|)>"
END_TOKENS = lazy_regex(END_TOKEN_PATTERN)
# Where an answer tag's content ends: its closing tag, written right or not ("</answer>", "</answers>",
# "</Answer", a cut-off "</ans"), or a second opening tag.
_TAG_STOP = lazy_regex(r"<[ \t]*/?[ \t]*(?:[a-z]{1,12}_)?answer|</[ \t]*(?:a(?:n(?:s(?:w(?:e)?)?)?)?)?[ \t]*$")


_TAG_NAME = lazy_regex(r"(?<=[</])[a-z]{1,12}_$")  # the prefix of a tag named "<final_answer>", "<model_answer>"


def answer_tag(text: str, lower: str) -> tuple[int, int, int] | None:
    """(tag start, content start, content end) of the last `<answer>...</answer>` (or `<final_answer>` and the like)
    in `text` (`lower` is it in lower case), or None when it holds only closing tags. Read as a model meant it: a
    tag that lost its "<" ("answer> c"), a closing tag written wrong or cut off ("</answers>", "</ans"), a second
    `<answer>` meant to close the first ("<answer>B<answer>"), no closing tag at all (to the end); an empty last
    tag after a full one is left out."""
    at, opened = lower.rfind(_TAG), -1
    while at >= 0:
        name = _TAG_NAME.search(lower, max(0, at - 20), at)  # "<final_" of "<final_answer>"
        first = name.start() if name else at
        if not (first > 0 and lower[first - 1] == "/"):
            opened = first - 1 if first > 0 and lower[first - 1] == "<" else at
            break
        at = lower.rfind(_TAG, 0, first - 1)  # a closing tag: the opening one is before it
    if at < 0:
        return None
    start = at + len(_TAG)
    end = _tag_end(lower, start)
    if not text[start:end].strip() and opened > 0:
        before = lower.rfind("<" + _TAG, 0, opened)
        first = before + len(_TAG) + 1
        if before >= 0 and text[first:opened].strip():
            # "<answer>B<answer>" (the second tag meant to close the first), "<answer>B</answer><answer>"
            return before, first, _tag_end(lower, first)
    return opened, start, end


def _tag_end(lower: str, start: int) -> int:
    """Where the content of an answer tag opened before `start` ends."""
    stop = _TAG_STOP.search(lower, start)
    return stop.start() if stop else len(lower)


def boxed_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, content start, content end) of every complete `\\boxed{...}` in order of start, found in one pass.

    Spans, not copies: nested boxes share their text, so a response of n nested boxes costs O(n) time and memory
    here (copying each content was O(n^2)). Truncated boxes are skipped.
    """
    starts = list(_BOXED.finditer(text))
    if not starts:
        return []
    closing = _brace_pairs(text)
    found = []
    for match in starts:
        end = closing.get(match.end() - 1)
        if end is not None:
            found.append((match.start(), match.end(), end))
    return found


def _brace_pairs(text: str) -> dict[int, int]:
    """Opening brace position -> its closing brace position, in one pass; unclosed braces are left out."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for brace in _BRACE.finditer(text):
        if brace.group(0) == "{":
            stack.append(brace.start())
        elif stack:
            pairs[stack.pop()] = brace.start()
    return pairs


# Letters from other scripts that look like the answer letters, when they stand alone (inside a word they are
# that script's letters): Cyrillic and Greek capitals. Full-width and mathematical letters fold under NFKC.
_CONFUSABLES = {"\u0410": "A", "\u0412": "B", "\u0421": "C", "\u0415": "E", "\u0391": "A", "\u0392": "B", "\u0395": "E"}
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")
_NON_ASCII = lazy_regex(r"[^\x00-\x7f]+")


def _nfkc(char: str) -> str:
    """`char` in NFKC; `unicodedata` (a C extension, about 2 ms of a process) is imported by the first text with
    a character outside ASCII, not by every `mathreel score`."""
    import unicodedata

    return unicodedata.normalize("NFKC", char)


class Trace:
    """Where each part of an edited text came from: (position in the edited text, position in the original) at
    the start of every piece, so a span read in the edited text can be shown in the original."""

    __slots__ = ("_edited", "_original")

    def __init__(self, pieces: list[tuple[int, int]]) -> None:
        self._edited = [edited for edited, _ in pieces]
        self._original = [original for _, original in pieces]

    def origin(self, pos: int) -> int:
        """The original position of edited position `pos` (inside a replaced piece: that piece's start)."""
        from bisect import bisect_right  # here: a C extension, about 2 ms of every `mathreel score` start

        at = bisect_right(self._edited, pos) - 1
        if at < 0:
            return pos
        return self._original[at] + (pos - self._edited[at])


def fold_letters(text: str) -> tuple[str, Trace | None]:
    """`text` with full-width and other compatibility forms folded (NFKC), stand-alone Cyrillic and Greek
    look-alikes of A-E read as those letters, and invisible characters (zero-width, soft hyphen) removed.

    ASCII text is returned as is (no trace); otherwise one pass over the non-ASCII runs.
    """
    if text.isascii():
        return text, None
    parts: list[str] = []
    pieces: list[tuple[int, int]] = []
    size = last = 0
    for run in _NON_ASCII.finditer(text):
        parts.append(text[last : run.start()])
        pieces.append((size, last))
        size += run.start() - last
        for at in range(run.start(), run.end()):
            char = text[at]
            if char in _INVISIBLE:
                continue
            folded = _CONFUSABLES.get(char) if _stands_alone(text, at) else None
            folded = folded or _nfkc(char)
            pieces.append((size, at))
            parts.append(folded)
            size += len(folded)
        last = run.end()
    parts.append(text[last:])
    pieces.append((size, last))
    return "".join(parts), Trace(pieces)


def _stands_alone(text: str, at: int) -> bool:
    return not ((at > 0 and text[at - 1].isalpha()) or (at + 1 < len(text) and text[at + 1].isalpha()))


def delete(text: str, pattern: re.Pattern[str]) -> tuple[str, Trace]:
    """`text` without `pattern`'s matches, and the trace back to `text`; linear in its length. Where the pattern
    has a group named "keep" and it matched, that group stays (`\\textbf{B}` -> `B`)."""
    parts: list[str] = []
    pieces: list[tuple[int, int]] = []
    size = last = 0
    keeps = "keep" in pattern.groupindex
    for match in pattern.finditer(text):
        parts.append(text[last : match.start()])
        pieces.append((size, last))
        size += match.start() - last
        kept = match.group("keep") if keeps else None
        if kept:
            parts.append(kept)
            pieces.append((size, match.start("keep")))
            size += len(kept)
        last = match.end()
    parts.append(text[last:])
    pieces.append((size, last))
    return "".join(parts), Trace(pieces)


# A line that opens a new question or a new turn: "Question:", "Question 2:", "**Q:**", "New question:", "问题：",
# "Human:", "User:", "Assistant:", "### Instruction:", a heading "### Instruction" or "### Response" alone. The
# group "again" marks a turn that answers the same question again ("Assistant:", "### Response").
_FOLLOW_UP = lazy_regex(
    r"^[ \t>#*_]*(?:(?i:(?:new|next|another|follow-up)\s+)?(?i:question|q)(?:[ \t]*\d+)?"
    r"|(?i:human|user|instruction|(?P<again>assistant))|问题|質問|질문)[ \t*_]*[:：]"
    r"|^[ \t]*#{2,4}[ \t]*(?i:instruction|(?P<response>response)|input)[ \t]*[:：]?[ \t]*$",
    re.M,
)
# "Answer:" alone on its line (bold or as a heading), opening a new working after an answer was given.
_ANSWER_HEADING = lazy_regex(r"^[ \t>#*_]*(?i:answer)[ \t*_]*[:：][ \t*_]*$", re.M)
_NEW_WORKING = 40  # characters: under a heading "Answer:", less is the answer itself ("Answer:\n(B) bridge")
FIRM = ("explicit", "container")  # the strengths after which an "Answer:" heading opens a turn of its own
MAX_FOLLOW_UPS = 3  # markers tried, in order; each try reads the text before it once


class FollowUp(NamedTuple):
    """A line that opens a turn the response invents: where it starts, where its body starts, and whether it answers
    the same question again ("Assistant:", "### Response", an "Answer:" heading over new working) or asks a new one
    ("Question:", "User:", "Human:", "### Instruction")."""

    start: int
    body: int
    again: bool
    heading: bool = False  # an "Answer:" heading: an invented turn only after an answer stated firmly


def turn_answering_again(
    before: Extraction,
    text: str,
    turns: list[FollowUp],
    read: Callable[[str], Extraction],
    differs: Callable[[Extraction], bool],
) -> tuple[str, Extraction] | None:
    """The first invented turn, before any that asks a new question, that answers the same question again with an
    answer `differs` says is another: its marker ("Assistant:") and `read`'s reading of its body; or None. An
    "Answer:" heading after a weak reading of `before` is its answer line, not a turn."""
    for index, turn in enumerate(turns):
        if not turn.again:
            break
        if turn.heading and (before.strength not in FIRM or before.weak):
            continue
        end = turns[index + 1].start if index + 1 < len(turns) else len(text)
        again = read(text[turn.body : end])
        if again.parsed and differs(again):
            return quote(text[turn.start : turn.body].strip(), 20), again
    return None


def follow_up_starts(text: str, lower: str) -> list[int]:
    """Where lines that open a new question or turn start (`follow_ups`), "Answer:" headings left out: those open a
    turn only after an answer the reader read firmly, and where it read none they are the response's own answer."""
    return [turn.start for turn in follow_ups(text, lower) if not turn.heading]


def follow_ups(text: str, lower: str) -> list[FollowUp]:
    """The lines that open a new question or turn ("Question: ...", "Assistant: ..."), except at the very start of
    `text` (a restated question), in order, at most `MAX_FOLLOW_UPS`: a model that invents a follow-up question is
    read up to it, one that answers again is read for both answers. `lower` is `text` in lower case: without a colon
    (or "##") and a question or turn word in it, nothing is searched; an "Answer:" heading only where a colon ends
    a line."""
    turns = []
    if (":" in text or "：" in text or "##" in text) and (
        "q" in lower
        or "问题" in text
        or "質問" in text
        or "질문" in text
        or "user" in lower
        or "human" in lower
        or "instruction" in lower
        or "assistant" in lower
        or "response" in lower
        or "input" in lower
    ):
        for match in _FOLLOW_UP.finditer(text, _first_character(text) + 1):
            turns.append(FollowUp(match.start(), match.end(), bool(match.group("again") or match.group("response"))))
            if len(turns) == MAX_FOLLOW_UPS:
                break
    if "answer" in lower and _answer_alone(lower):
        turns.extend(_answer_headings(text))
        turns.sort()
    return turns[:MAX_FOLLOW_UPS]


def _answer_alone(lower: str) -> bool:
    """Whether "answer" is followed by a colon that ends its line ("Answer:\n", "**Answer:**\n"), with string searches
    (most responses have "answer" once or twice, and a colon after it only on the line of the answer)."""
    at = lower.find("answer")
    while at >= 0:
        line_end = lower.find("\n", at)
        if line_end < 0:
            return False
        rest = lower[at + len("answer") : line_end]
        if (":" in rest or "：" in rest) and not rest.strip(" \t*_:："):
            return True
        at = lower.find("answer", line_end)
    return False


def _answer_headings(text: str) -> list[FollowUp]:
    """ "Answer:" headings over a new working (a paragraph of `_NEW_WORKING` characters or more, with a sentence end
    inside), after some text."""
    found = []
    for match in _ANSWER_HEADING.finditer(text, _first_character(text) + 1):
        body = text[match.end() : match.end() + 4 * _NEW_WORKING].strip()
        stop = body.find("\n\n")
        paragraph = body if stop < 0 else body[:stop]
        if len(paragraph) >= _NEW_WORKING and ". " in paragraph:
            found.append(FollowUp(match.start(), match.end(), True, heading=True))
            if len(found) == MAX_FOLLOW_UPS:
                break
    return found


def _first_character(text: str) -> int:
    """Where the first character that is not blank is (a marker there opens the response: no invented turn)."""
    return len(text) - len(text.lstrip())


# "The response declines": the phrases every reader reads as a response that gives no answer ("I cannot determine
# ...", "it is impossible to tell", "there is not enough information"); each reader adds its own (`Declines`).
DECLINE_CANNOT = (
    r"\b(?:cannot|can['’]?t|can\s+not|could\s+not|couldn['’]?t|unable\s+to|not\s+able\s+to|impossible\s+to"
    r"|no\s+way\s+to)\s+(?:be\s+)?(?:accurately\s+|exactly\s+|precisely\s+|reliably\s+|definitively\s+)?"
)
_DECLINE_SHARED = (
    # "I cannot see the images you are referring to": the model was given no picture it could read
    r"(?i:" + DECLINE_CANNOT + r"(?:(?:determine|determined|answer|answered|decide|decided|tell|know|say|sure)\b"
    r"|(?:see|view|access|open)\s+(?:the\s+|any\s+|your\s+)?(?:images?|pictures?|videos?|figures?|diagrams?"
    r"|photos?|attachments?)\b)"
    r"|\b(?:not|n['’]t)\s+(?:have\s+|provide\s+|give\s+|contain\s+|include\s+)?(?:enough|sufficient)\s+"
    r"(?:information|data|detail|details|context|evidence)\b|\binsufficient\s+(?:information|data|evidence)\b)"
)
_SHARED = lazy_regex(_DECLINE_SHARED)
# Every shared alternative holds one of these ("can't" holds "n't", "cannot" "not").
_DECLINE_WORDS = ("not", "n't", "n’t", "impossible", "unable", "no way", "insufficient")
_SHARED_GATE = lazy_regex("|".join(map(re.escape, _DECLINE_WORDS)))


class Declines:
    """A reader's "the response declines" reading: the shared phrases and `own` (a regex), searched only where one
    of the words they need occurs (`words` for `own`'s; the search is slow, the word test is not)."""

    __slots__ = ("_gate", "_pattern")

    def __init__(self, own: str, words: tuple[str, ...] = ()) -> None:
        self._pattern = lazy_regex(_DECLINE_SHARED + "|" + own)
        self._gate = lazy_regex("|".join(map(re.escape, words))) if words else None

    def search(self, text: str) -> re.Match[str] | None:
        """Where `text` declines, or None (then it may still give an answer). Without the words of the reader's own
        phrases only the shared ones are searched (a smaller pattern: most texts that get this far have neither)."""
        lower = text.lower()
        if self._gate is not None and self._gate.search(lower):
            return self._pattern.search(text)
        if _SHARED_GATE.search(lower):
            return (self._pattern if self._gate is None else _SHARED).search(text)
        return None

    @property
    def pattern(self) -> re.Pattern[str]:
        return self._pattern
