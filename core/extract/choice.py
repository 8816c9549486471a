"""The robust choice extractor used everywhere: the letter a response means, or "unparsed" with the reason.

Order of evidence, strongest first:
1. explicit statements anywhere in the text ("the answer is D", "Answer: B", `\\boxed{C}`, "选 D",
   "B is correct", "I choose A", "it is D"), the last one winning, so "not A; it is D" reads D;
   a last statement that hedges ("either A or C") or names a letter outside `letters` is unparsed;
2. the shape of the response: a bare letter, a first line "B. Walking", a final line "C";
3. a single parenthesised letter, then the option text itself ("Walking", "It must be 60 degrees").

Capital letters inside words and sentences ("Based", "A man", "the Dog", "I think") are never read, and
nothing is guessed: when the evidence runs out the result is unparsed with what was seen.

Speed: most answers are short ("B", "B. Walking", "The answer is B."). `extract_choice` first tries one match
that recognises those shapes and can prove no other rule would fire, and returns what the full reading
(`extract_choice_full`) gives them, explanation included; everything else takes the full reading.
tests/test_extract_choice.py checks the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from mathreel.core.extract.text import Trace, boxed_spans, delete, fold_letters, strip_think
from mathreel.core.extract.types import Extraction, quote, unparsed

DEFAULT_LETTERS = ("A", "B", "C", "D")

# A whole response that is only a letter with punctuation or markdown: "B", "b.", "(C)", "**D**", "[A]".
_BARE = re.compile(
    r"[\s*_`'\"“”‘’(\[{<]*(?:(?i:option|choice|answer|letter)\s*[:：]?\s*[(\[]?)?([A-Za-z])[\s*_`'\"“”‘’)\]}>.:,;!。]*"
)
_BARE_MAX = 40  # longer texts are never a bare letter, so skip the regex
_MARKDOWN = re.compile(r"\*\*?|__|`+|^#+\s*", re.M)

# After a letter: not part of a word ("Based", "I'm").
_NOT_WORD = r"(?![A-Za-z0-9'’])"
# Every pattern below is written so that no two adjacent parts can match the same whitespace: a long run of
# blanks then costs linear time instead of the polynomial backtracking of "\s*[:]?\s*".
_LETTER = r"(?:[(\[{（]\s*)?(?P<l>[A-Za-z])(?:\s*[)\]}）])?" + _NOT_WORD
_TERMINATOR = re.compile(r"[ \t]*(?:$|[\n.,;:!?)\]}\"'。，；！？：、*])")
# After an answer letter, another letter in a list ("A or C", "A, B, and C"), unless it starts a new clause
# ("B, C is wrong").
_HEDGE_TAIL = re.compile(
    r"(?:\s*,\s*(?:(?i:or|and)\s+)?|\s+(?i:or|and)\s+|\s*[/&]\s*)(?:(?i:option|choice)\s+)?[(\[]?[A-Z][)\]]?"
    + _NOT_WORD
    + r"(?!\s+(?i:is|was|are|were|seems|can|could|would)\b)"
)
# After a capital "A" or "I" with a word following, the words that still make it a letter ("A because ...");
# any other word makes it an article or a pronoun ("A man is walking", "I think").
_LETTER_FOLLOWERS = frozenset(
    {
        *("because", "since", "as", "is", "was", "which", "for", "and", "or", "but", "so", "given", "due", "from"),
        *("in", "with", "here", "seems", "would", "should", "must", "appears", "correct", "right", "best", "this"),
        *("that", "it", "the", "matches", "fits", "corresponds", "describes", "shows", "option", "choice", "answer"),
    }
)
_NEXT_WORD = re.compile(r"[ \t]+([a-z]+)")
_QUESTIONED = re.compile(r"[ \t]*[?？]")

_VERB = (
    r"(?:is|was|would\s+be|should\s+be|must\s+be|will\s+be|could\s+be|seems\s+to\s+be|appears\s+to\s+be|=)"
)
# Each optional word group ends in its own whitespace, so the groups can follow one another.
_ADVERB = (
    r"(?:(?:therefore|thus|clearly|definitely|likely|probably|most\s+likely|indeed|then|so|for\s+sure|certainly"
    r"|surely|undoubtedly|obviously|actually)(?:\s*,)?\s+)?"
)
_PICK = r"(?:(?i:option|choice|letter|answer)\s*)?"
# What joins "answer" to its letter: "answer is", "answer:", "answer =", "Answer - ", "Final answer\n".
_JOIN = r"(?:\s+" + _VERB + r"(?:\s*[:：])?|\s*[:：=]|\s+[-–—]|[ \t]*\n)\s*"
_ANSWER_NOUN = (
    r"(?<!each\s)(?<!every\s)\b(?:(?:final|correct|best|right|my|most\s+appropriate|most\s+likely)\s+)?"
    r"(?:answer(?:\s+(?:to|for)\s+(?:this|the)\s+question)?|option|choice|conclusion|final(?=\s*[:：]))"
)

# "the answer is D", "Answer: B", "correct option would be (C)", "Final answer\nB", "answer is not A".
_ANSWER_PHRASE = re.compile(
    r"(?i:" + _ANSWER_NOUN + _JOIN + _ADVERB + r"(?P<neg>not\s+)?)" + _PICK + _LETTER
)
# "B is correct", "Option (C) is the best answer", "D is the right choice".
_IS_CORRECT = re.compile(
    r"(?<![A-Za-z0-9'’])(?:(?i:option|choice)\s+)?[(\[]?(?P<l>[A-Z])[)\]]?\s+(?i:is|would\s+be|seems\s+to\s+be)\s+"
    r"(?i:(?:the\s+)?(?:(?:most\s+)?(?:correct|right|best|accurate|appropriate)\b|answer\b))"
)
# "I choose B", "I'll go with C", "select (A)".
_CHOOSE = re.compile(
    r"(?i:\b(?:choose|chose|select|pick|go\s+with|going\s+with|opt\s+for|(?:would|'d|’d)\s+say)\s+(?:the\s+)?)"
    + _PICK + _LETTER
)
# "it is D.", "so D." -- weak, so the letter must end its clause.
_PRONOUN = re.compile(
    r"(?i:\b(?:(?:it|this|that|which)\s*(?:is|'s|’s|must\s+be|should\s+be|would\s+be)|so|thus|hence|therefore)"
    r"(?:\s*,)?\s+" + _ADVERB + r")(?:(?i:option|choice)\s+)?" + _LETTER
)
# A correction after an earlier letter: "Final: B? No, C.", "Wait, it is D.", "Actually, (A)." -- the letter must
# end its clause ("No C is shown" is not one).
_CORRECTION = re.compile(
    r"(?i:\b(?:no|nope|wait|actually|correction|oops)\b[ \t]*[,:!.—–-]?[ \t]*"
    r"(?:(?:it|that)(?:'s|’s|[ \t]+(?:is|should[ \t]+be|must[ \t]+be))[ \t]+)?(?:(?:option|choice)[ \t]+)?)" + _LETTER
)
# Chinese: 答案是 B, 正确答案：C, 答案不是A, 选 D, 故选C, 应选择（B）.
_ZH_LETTER = r"(?:[:：]\s*)?(?:选项\s*)?(?:[（(]\s*)?(?P<l>[A-Za-z])" + _NOT_WORD
_CHINESE_ANSWER = re.compile(
    r"(?:正确答案|最佳答案|最终答案|答案|正确选项|最佳选项)\s*(?:(?:(?P<neg>不是|不为|不应该是)|应该是|应为|应是|是|为|选)\s*)?"
    + _ZH_LETTER
)
_CHINESE_CHOOSE = re.compile(r"(?:故选|应选择|应选|选择|我选|选|应该是|应是|应为)\s*" + _ZH_LETTER)
# Answer phrases in Japanese, Korean, Chinese "答：", French, German and Spanish: 答えは B, 正解：C, 정답은 D입니다,
# 답: A, "la bonne réponse est (B)", "Die richtige Antwort lautet C", "la respuesta correcta es la E".
_FOREIGN_ANSWER = re.compile(
    r"(?:(?:答え|正解|解答|答)\s*(?:は|[:：])|(?:정답|답)\s*(?:은|는|[:：])"
    r"|(?i:r[ée]ponse(?:\s+(?:correcte|finale|exacte))?\s*(?:est|[:：])|antwort\s*(?:ist|lautet|[:：])"
    r"|respuesta(?:\s+(?:correcta|final))?\s*(?:es|[:：])|opci[óo]n\s+correcta\s+es|option\s+correcte\s+est))"
    r"\s*(?:(?:la|l['’]option|die|option|opci[óo]n|選択肢)\s*)?" + _ZH_LETTER
)
# "Je choisis B", "Ich wähle C", "Elijo la opción D".
_FOREIGN_CHOOSE = re.compile(
    r"(?i:\b(?:je\s+choisis|ich\s+w[äa]hle|elijo|escojo)\s+(?:(?:la|l['’]|die)\s*)?(?:(?:option|opci[óo]n)\s+)?)"
    + _LETTER
)
# "option a is correct": after "option", a lower-case letter is a letter, "a" included.
_OPTION_IS = re.compile(
    r"(?i:\b(?:option|choice)\s+)[(\[]?(?P<l>[a-z])[)\]]?\s+(?i:is|would\s+be)\s+(?i:(?:the\s+)?(?:correct|right|best)\b)"
)
# "Final answer: unknown", "the answer is unclear": a last statement that withdraws any letter before it.
_NO_ANSWER = re.compile(
    r"(?i:" + _ANSWER_NOUN + _JOIN + r"(?:unknown|unclear|undetermined|uncertain|indeterminate|not\s+sure"
    r"|none\s+of\s+(?:the|these|them)|n/a|cannot\s+be\s+determined))\b"
)
# "I am unable to determine the answer" after a letter takes the letter back.
_WITHDRAW = re.compile(
    r"(?i:\b(?:unable|not\s+able)\s+to\s+(?:determine|tell|decide)|\b(?:cannot|can't|can’t|could\s+not|couldn't)\s+"
    r"(?:determine|tell|decide)\s+(?:the\s+answer|which))"
)
# "either A or C", "between B and D": a hedge, never an answer.
_HEDGE = re.compile(
    r"(?i:\b(?:either|between|both)\s+)(?:(?i:option|choice)s?\s+)?[(\[]?(?P<l>[A-Z])[)\]]?"
    r"(?:\s+(?i:or|and)\s+|\s*/\s*)(?:(?i:option|choice)\s+)?[(\[]?[A-Z][)\]]?" + _NOT_WORD
)

# Line shapes: "B. Walking", "(C) 45 degrees", "D) x", "A: text", "B - text".
_OPTION_LINE = re.compile(r"(?:(?i:option|choice)\s+)?[(\[]?([A-Z])(?:[)\]]|[.:：]|\s+[-–—])(?:\s|$)")
_PAREN_LETTER = re.compile(r"[(（]([A-Z])[)）]")
_STANDALONE = re.compile(r"(?<![A-Za-z0-9'’])[A-Z]" + _NOT_WORD)

_REFUSAL = re.compile(
    r"(?i:\bi(?:'m|’m| am)\s+(?:sorry|unable|not\s+able)|\bi\s+(?:cannot|can't|can’t|could\s+not|couldn't)\s+"
    r"(?:determine|answer|see|view|watch|access|tell|help|provide|identify)|\bunable\s+to\s+"
    r"(?:determine|answer|see|view|watch|access|tell)|\bas\s+an\s+ai\b|\bnot\s+possible\s+to\s+(?:determine|tell|answer)"
    r"|\bno\s+(?:video|image|frames?)\s+(?:was|were|is|are|has\s+been)\s+(?:provided|shown|attached))"
    r"|抱歉|无法(?:确定|回答|判断|观看)"
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_NEGATION = re.compile(r"(?i:\b(?:not|never|no|isn't|isn’t|wasn't|cannot|can't)\b)|不是|并非")
_TOKENS = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+")
_UNIT_WORDS = frozenset(
    {
        *("degrees", "degree", "deg", "cm", "mm", "m", "km", "meters", "meter", "metres", "metre", "inches", "inch"),
        *("in", "ft", "feet", "units", "unit", "square", "sq", "cm2", "m2", "cm3", "m3", "seconds", "second", "s"),
        *("minutes", "minute", "min", "hours", "hour", "h", "kg", "g", "percent"),
    }
)


@dataclass(frozen=True)
class _Statement:
    """One explicit statement found in the text, in reading order."""

    pos: int
    kind: str  # "answer" | "invalid" | "hedge" | "none" (a stated non-answer: "Final answer: unknown")
    letter: str
    method: str
    snippet: str


def extract_choice(
    response: str | None,
    letters: Sequence[str] = DEFAULT_LETTERS,
    options: Mapping[str, str] | None = None,
) -> Extraction:
    """The letter `response` means among `letters`, or unparsed with the reason (never a guess).

    `options` maps letter -> option text (without the letter) so a response that gives only the text
    ("Walking") can be read; pass an `OptionMatcher` (`option_matcher`) to reuse its word keys across calls.
    The result's `span` is where in `response` the answer was read.
    """
    return _read(response, letters, options, shortcut=True)


def extract_choice_full(
    response: str | None,
    letters: Sequence[str] = DEFAULT_LETTERS,
    options: Mapping[str, str] | None = None,
) -> Extraction:
    """`extract_choice` without the short-form shortcut: every rule, in order.

    It gives the same result as `extract_choice` on every input; it exists so tests and benchmarks can check
    that and measure what the shortcut saves.
    """
    return _read(response, letters, options, shortcut=False)


def _read(
    response: str | None, letters: Sequence[str], options: Mapping[str, str] | None, shortcut: bool
) -> Extraction:
    """Fold other scripts' letters (non-ASCII text only), then read; spans are given in `response`."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "nothing to read")
    text, trace = fold_letters(response)
    if trace is not None and not text.strip():
        return unparsed("empty response", "nothing but invisible characters")
    bare = _bare(text)
    if bare:
        return _traced(_bare_letter(bare.group(1), letters, text, bare.span(1)), trace)
    if shortcut:
        short = _FAST.fullmatch(text.strip(" \t\n"))
        if short:
            found = _short_form(short, letters)
            if found is not None:
                return _traced(_shifted(found, len(text) - len(text.lstrip(" \t\n"))), trace)
    return _traced(_full_reading(text, letters, options), trace)


def _traced(found: Extraction, trace: Trace | None) -> Extraction:
    """`found` with its span taken back through `trace` to the text before that edit."""
    if trace is None or found.span is None:
        return found
    start, end = found.span
    return _with_span(found, (trace.origin(start), trace.origin(end - 1) + 1))


def _with_span(found: Extraction, span: tuple[int, int]) -> Extraction:
    """`found` at `span`; built directly, since `dataclasses.replace` costs several times more on the short path."""
    return Extraction(found.answer, found.method, found.explanation, span)


def _shifted(found: Extraction, offset: int) -> Extraction:
    if not offset or found.span is None:
        return found
    return _with_span(found, (found.span[0] + offset, found.span[1] + offset))


_ANSWER_TAG, _ANSWER_TAG_END = "<answer>", "</answer>"


def _full_reading(response: str, letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction:
    """The statement scan and the fallbacks, for a non-empty response that is not a bare letter."""
    text, lower, offset = response, response.lower(), 0
    if "think>" in lower:
        text, think_note = strip_think(response)
        if not text.strip():
            return unparsed("no answer after reasoning", think_note)
        close = lower.rfind("</think>")
        offset = close + len("</think>") if close >= 0 else 0
        lower = text.lower()
    if _ANSWER_TAG in lower:
        return _shifted(_tagged(text, lower, letters, options), offset)
    trace = None
    if "*" in text or "`" in text or "_" in text or "#" in text:
        text, trace = delete(text, _MARKDOWN)
        if not text.strip():
            return unparsed("empty response", "nothing but markdown")
        lower = text.lower()
        bare = _bare(text)
        if bare:
            return _shifted(_traced(_bare_letter(bare.group(1), letters, text, bare.span(1)), trace), offset)
    elif offset:
        bare = _bare(text)
        if bare:
            return _shifted(_bare_letter(bare.group(1), letters, text, bare.span(1)), offset)
    matcher = option_matcher(options) if options else None
    statements = _statements(text, lower, letters, matcher)
    found = _verdict(statements[-1], len(statements), letters) if statements else _fallback(text, letters, matcher)
    return _shifted(_traced(found, trace), offset)


def _tagged(text: str, lower: str, letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction:
    """The response's last `<answer>...</answer>` decides: drafts and letters outside it are not the answer."""
    start = lower.rfind(_ANSWER_TAG) + len(_ANSWER_TAG)
    end = lower.find(_ANSWER_TAG_END, start)
    content = text[start : end if end >= 0 else len(text)]
    if not content.strip():
        return unparsed("empty answer tag", "the <answer> tag holds nothing")
    found = _read(content, letters, options, shortcut=True)  # holds no further tag: it follows the last one
    found = replace(found, explanation=f"{found.explanation} (inside <answer>)")
    return _shifted(found, start)


def _short_form(short: re.Match[str], letters: Sequence[str]) -> Extraction | None:
    """What the full reading gives a response `_FAST` matched, or None when it must read it itself.

    An answer phrase ("The best answer is: B") is the response's only statement, so it is read as such. An
    option line ("B. Walking") is read as the leading letter when no statement rule can fire on it: the full
    reading finds no statement and then reads the line's shape, which is all `_leading_line` does.
    """
    letter = short.group("phrase_letter")
    if letter is not None:
        kind = "answer" if letter in letters else "invalid"
        return _verdict(_Statement(short.start("phrase"), kind, letter, "answer-phrase", short.group("phrase")), 1,
                        letters)
    line = short.group("line")
    lower = line.lower()
    if "box" in lower or not _ENABLING.keys().isdisjoint(_words(lower)):
        return None
    found = _leading_line([line.strip()], False, letters)
    return _line_span(found, short.string, line.strip()) if found is not None else None


def _bare(text: str) -> re.Match[str] | None:
    """The letter of a text that is nothing but a letter; texts over `_BARE_MAX` never are, so skip the regex."""
    return _BARE.fullmatch(text) if len(text) <= _BARE_MAX else None


def _bare_letter(letter: str, letters: Sequence[str], text: str, span: tuple[int, int] | None = None) -> Extraction:
    upper = letter.upper()
    if upper in letters:
        return Extraction(upper, "bare-letter", f"the whole response is the letter: {quote(text)!r}", span)
    return unparsed("letter not allowed", f"{upper} is not one of {', '.join(letters)}", "bare-letter")


def _verdict(last: _Statement, count: int, letters: Sequence[str]) -> Extraction:
    where = f"{quote(last.snippet)!r}" + (f" (last of {count} explicit statements)" if count > 1 else "")
    if last.kind == "answer":
        return Extraction(last.letter, last.method, f"read {where}", (last.pos, last.pos + len(last.snippet)))
    if last.kind == "none":
        return unparsed("no answer stated", f"the final statement gives no letter: {where}", last.method)
    if last.kind == "hedge":
        return unparsed("hedge", f"the final statement names several letters: {where}", last.method)
    return unparsed("letter not allowed", f"{last.letter} is not one of {', '.join(letters)}: {where}", last.method)


def _statements(text: str, lower: str, letters: Sequence[str], options: OptionMatcher | None) -> list[_Statement]:
    """Every explicit answer statement in `text` (`lower` is its lower case), sorted by position."""
    present = _present_keywords(lower)
    found: list[_Statement] = []
    for pattern, method, strict, keywords, starts in _STATEMENT_PATTERNS:
        if present.isdisjoint(keywords):
            continue  # one scan for all keywords first: a pattern cannot match without one of its words
        for match in _scan(pattern, text, lower, starts):
            statement = _classify(match, text, letters, method, strict)
            if statement is not None:
                found.append(statement)
    if not present.isdisjoint(_HEDGE_WORDS):
        found.extend(_Statement(m.start(), "hedge", "", "hedge", m.group(0))
                     for m in _scan(_HEDGE, text, lower, _HEDGE_STARTS))
    if not present.isdisjoint(_ANSWER_WORDS):
        found.extend(_Statement(m.start(), "none", "", "answer-phrase", m.group(0))
                     for m in _scan(_NO_ANSWER, text, lower, _PHRASE_STARTS))
    if not present.isdisjoint(_WITHDRAW_WORDS):
        found.extend(_Statement(m.start(), "none", "", "withdrawn", m.group(0)) for m in _WITHDRAW.finditer(text))
    if "box" in text:
        found.extend(_boxed_statements(text, letters, options))
    if options and not present.isdisjoint(_ANSWER_WORDS):
        found.extend(_phrase_text_statements(text, lower, found, options))
    found.sort(key=lambda s: s.pos)
    return found


def _present_keywords(lower: str) -> set[str]:
    """The keywords of `lower` (a text in lower case) that let their patterns run."""
    if lower.isascii():
        return {_ENABLING[word] for word in _ENABLING.keys() & set(_words(lower))}
    return set(_KEYWORD_SCAN.findall(lower))


# Where a pattern's matches can start in ASCII text: the words they start with (any case), or a function of
# (text, lower) giving every position one can start at; None: the pattern is scanned as is.
_Starts = tuple[str, ...] | Callable[[str, str], list[int]] | None


def _scan(pattern: re.Pattern[str], text: str, lower: str, starts: _Starts) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, trying the pattern only where a match can start (`starts`) in ASCII text.

    The regex engine would try every position of the text; only the positions `starts` gives (found with
    `str.find`) can start a match, so only those are tried. Matches are taken left to right and never overlap,
    exactly as `finditer` takes them. Other text is scanned by `finditer` itself.
    """
    if starts is None or not lower.isascii():
        yield from pattern.finditer(text)
        return
    end = 0
    for at in starts(text, lower) if callable(starts) else _positions(lower, starts):
        if at >= end:
            match = pattern.match(text, at)
            if match:
                yield match
                end = match.end()


@lru_cache(maxsize=16)
def _positions(lower: str, words: tuple[str, ...]) -> list[int]:
    """Where any of `words` starts a word of `lower` (ASCII), in order; kept for the next pattern with the same
    start words. Every pattern scanned this way has `\\b` before its first word, so a word that begins with a
    letter is only taken where no letter, digit or "_" comes before it ("'d" is taken anywhere)."""
    positions = []
    for word in words:
        anywhere = not word[0].isalpha()
        at = lower.find(word)
        while at >= 0:
            if anywhere or at == 0 or not (lower[at - 1].isalnum() or lower[at - 1] == "_"):
                positions.append(at)
            at = lower.find(word, at + 1)
    return sorted(positions)


def _is_correct_starts(text: str, lower: str) -> list[int]:
    """Where an `_IS_CORRECT` match ("B is correct", "option (C) is the best answer") can start.

    Its verb ("is", "would be", "seems to be") follows blanks, which follow the letter and an optional closing
    bracket; so from each verb, step back over the blanks to the letter, then to an opening bracket and to an
    "option" or "choice" before more blanks: each is a possible start.
    """
    starts = []
    for verb in _positions(lower, ("is", "would", "seems")):
        end = verb
        while end > 0 and text[end - 1].isspace():
            end -= 1
        if end == verb or end == 0:
            continue
        letter = end - 2 if text[end - 1] in ")]" else end - 1
        if letter < 0 or not "A" <= text[letter] <= "Z":
            continue
        starts.append(letter)
        first = letter
        if letter > 0 and text[letter - 1] in "([":
            first = letter - 1
            starts.append(first)
        word_end = first
        while word_end > 0 and text[word_end - 1].isspace():
            word_end -= 1
        if word_end < first and lower.endswith(("option", "choice"), 0, word_end):
            starts.append(word_end - 6)
    return sorted(starts)


def _words(lower: str) -> list[bytes]:
    """The words of an ASCII text (runs of letters, digits and "_", the characters `\\b` sees as word)."""
    return lower.encode("ascii").translate(_WORD_BREAKS).split()


def _classify(match: re.Match[str], text: str, letters: Sequence[str], method: str, strict: bool) -> _Statement | None:
    """Turn a pattern match into a statement, or None when the letter is really a word or negated."""
    if match.groupdict().get("neg"):
        return None
    raw = match.group("l")
    end = match.end()
    if _QUESTIONED.match(text, end):
        return None  # "Final: B? No, C." -- a letter asked about is not stated
    ends_clause = _TERMINATOR.match(text, end) is not None
    upper = raw.upper()
    if raw.islower() and not (ends_clause or match.re in _LOWER_SURE or _lower_letter(raw, text, end, letters)):
        return None
    if upper not in letters:
        # Lower-case outsiders are words or variables; a capital outsider counts only when it ends a clause.
        if raw.islower() or not ends_clause:
            return None
        return _Statement(match.start(), "invalid", upper, method, match.group(0))
    if strict and not ends_clause:
        return None
    if raw in "AI" and not ends_clause and match.end("l") == end:  # "A) nice" is bracketed: a letter
        following = _NEXT_WORD.match(text, end)
        if following and following.group(1) not in _LETTER_FOLLOWERS:
            return None  # "Answer: A man is walking" -- an article, not a letter
    snippet = match.group(0)
    hedge = _HEDGE_TAIL.match(text, end)
    if hedge:
        return _Statement(match.start(), "hedge", upper, method, snippet + hedge.group(0))
    return _Statement(match.start(), "answer", upper, method, snippet)


def _lower_letter(raw: str, text: str, end: int, letters: Sequence[str]) -> bool:
    """Whether a lower-case letter in an answer position is a letter: "b" is; "a" and "i" only before "because"
    and the like ("the answer is a because ..."), never as an article ("the answer is a man ...")."""
    if raw.upper() not in letters:
        return False
    if raw not in "ai":
        return True
    following = _NEXT_WORD.match(text, end)
    return following is not None and following.group(1) in ("because", "since", "as", "given")


_ANSWER_WORDS = ("answer", "option", "choice", "conclusion", "final")
_HEDGE_WORDS = ("either", "between", "both")
_CHOOSE_WORDS = ("choose", "chose", "select", "pick", "go", "opt", "say")
_PRONOUN_WORDS = ("it", "this", "that", "which", "so", "thus", "hence", "therefore")
_CORRECTION_WORDS = ("no", "nope", "wait", "actually", "correction", "oops")
_CORRECT_WORDS = ("correct", "right", "best", "accurate", "appropriate", "answer")
# The words a match of each pattern starts with (any case), for `_scan`.
_PHRASE_STARTS = ("final", "correct", "best", "right", "my", "most", "answer", "option", "choice", "conclusion")
_CHOOSE_STARTS = ("choose", "chose", "select", "pick", "go", "opt", "would", "'d", "’d")
_PRONOUN_STARTS = _PRONOUN_WORDS
_FOREIGN_WORDS = ("答", "正解", "답", "réponse", "reponse", "antwort", "respuesta", "opción", "opcion", "correcte")
_FOREIGN_CHOOSE_WORDS = ("choisis", "wähle", "wahle", "elijo", "escojo")
_WITHDRAW_WORDS = ("determine", "tell", "decide")
_HEDGE_STARTS = _HEDGE_WORDS
# (pattern, method, letter must end its clause, words one of which the pattern needs, where its matches start).
_STATEMENT_PATTERNS: tuple[tuple[re.Pattern[str], str, bool, tuple[str, ...], _Starts], ...] = (
    (_ANSWER_PHRASE, "answer-phrase", False, _ANSWER_WORDS, _PHRASE_STARTS),
    (_IS_CORRECT, "answer-phrase", False, _CORRECT_WORDS, _is_correct_starts),
    (_CHOOSE, "answer-phrase", False, _CHOOSE_WORDS, _CHOOSE_STARTS),
    (_PRONOUN, "answer-phrase", True, _PRONOUN_WORDS, _PRONOUN_STARTS),
    (_CORRECTION, "correction", True, _CORRECTION_WORDS, _CORRECTION_WORDS),
    (_CHINESE_ANSWER, "answer-phrase", False, ("答案", "选项"), None),
    (_CHINESE_CHOOSE, "answer-phrase", False, ("选", "应"), None),
    (_FOREIGN_ANSWER, "answer-phrase", False, _FOREIGN_WORDS, None),
    (_FOREIGN_CHOOSE, "answer-phrase", False, _FOREIGN_CHOOSE_WORDS, None),
    (_OPTION_IS, "answer-phrase", False, ("option", "choice"), ("option", "choice")),
)
_LOWER_SURE = frozenset({_OPTION_IS})
# Which patterns can run is decided before any does: each needs one of its keywords, so a text without them
# skips it. In ASCII text a pattern's keyword is always a whole word of the text (or, for "go" and the pronouns,
# the start of "going", "itis", "thatmust", ...), so the text's set of words decides. Other text goes through the
# substring scan that has always decided it, so Unicode case folding ("ſo" matching "so") reads as it always did.
_KEYWORDS = tuple(
    sorted({*_ANSWER_WORDS, *_HEDGE_WORDS, *_CHOOSE_WORDS, *_PRONOUN_WORDS, *_CORRECTION_WORDS, *_CORRECT_WORDS,
            "答案", "选项", "选", "应",
            *_FOREIGN_WORDS, *_FOREIGN_CHOOSE_WORDS, *_WITHDRAW_WORDS})
)
# Whole words (as bytes: bytes.translate and split are the fastest way to cut ASCII text into words) -> the
# keyword they stand for.
_ENABLING = {
    word.encode(): keyword
    for word, keyword in (
        *((word, word) for word in _KEYWORDS if word.isascii()),
        ("going", "go"),
        *((pronoun + verb, pronoun) for pronoun in ("it", "this", "that", "which")
          for verb in ("is", "must", "should", "would")),
    )
}
_WORD_BREAKS = bytes(byte if chr(byte).isalnum() or byte == ord("_") else ord(" ") for byte in range(128)) + (
    b" " * 128
)
_KEYWORD_SCAN = re.compile("|".join(sorted(_KEYWORDS, key=len, reverse=True)))


# Short forms read in one match, when the whole response (ASCII, one line, blanks around it aside) is one of:
# - an option line: "B. Walking", "(B) Walking", "B: Walking", "[B] Walking" (no markdown, "<" or ">");
# - an answer phrase alone: "[The] [best|correct|final|right] answer is[:] (B)[.]" or "... answer: B".
_LINE_TEXT = r"[\t !\"$-)+-;=?-^a-~]*"  # printable ASCII without # * < > _ `
_FAST = re.compile(
    r"(?:"
    r"(?P<line>[(\[]?[A-Z][.:)\]][ \t]" + _LINE_TEXT + r")"
    r"|(?:(?i:the)[ \t]+)?(?P<phrase>(?i:(?:(?:best|correct|final|right)[ \t]+)?answer(?:[ \t]+is(?:[ \t]*:)?|[ \t]*:))"
    r"[ \t]*\(?(?P<phrase_letter>[A-Z])\)?)[ \t]*\.?"
    r")"
)
def _boxed_statements(text: str, letters: Sequence[str], options: OptionMatcher | None) -> list[_Statement]:
    """`\\boxed{B}`, `\\boxed{\\text{B}}`, `\\boxed{(B) Walking}` and `\\boxed{Walking}` as statements.

    Only boxes holding no other box are read (`\\boxed{\\boxed{B}}` is read at its inner box): those never
    overlap, so however deep the nesting every character is read once.
    """
    found = []
    spans = boxed_spans(text)
    for index, (pos, inner_start, end) in enumerate(spans):
        if index + 1 < len(spans) and spans[index + 1][0] < end:
            continue  # the next box starts inside this one
        inner = _unwrap_latex_text(text[inner_start:end])
        letter = _letter_of(inner)
        if letter is not None and letter.islower():
            letter = letter.upper() if letter.upper() in letters else None  # else a variable: \\boxed{x}
        elif letter is None and options:
            letter = options.match(inner)
        if letter is None:
            continue
        kind = "answer" if letter in letters else "invalid"
        found.append(_Statement(pos, kind, letter, "boxed", text[pos : end + 1]))
    return found


_LATEX_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textrm|mbox)\s*\{([^{}]*)\}")


def _unwrap_latex_text(content: str) -> str:
    return _LATEX_TEXT.sub(r"\1", content).strip()


def _letter_of(inner: str) -> str | None:
    """The letter of a boxed content that is a bare letter or starts with "B." / "(B)"."""
    bare = _bare(inner)
    if bare:
        return bare.group(1)  # alone in a box, "b" is a letter too (the caller checks it is one of the letters)
    line = _OPTION_LINE.match(inner)
    return line.group(1) if line else None


# "The answer is Walking." -- an answer phrase followed by option text instead of a letter.
_PHRASE_REST = re.compile(r"(?i:" + _ANSWER_NOUN + _JOIN + _ADVERB + r"(?P<neg>not\s+)?)(?P<rest>\S[^\n]*)")


def _phrase_text_statements(
    text: str, lower: str, found: list[_Statement], options: OptionMatcher
) -> list[_Statement]:
    """Answer phrases whose object is an option's text rather than its letter."""
    taken = {s.pos for s in found}
    result = []
    for match in _scan(_PHRASE_REST, text, lower, _PHRASE_STARTS):
        if match.start() in taken or match.group("neg"):
            continue
        rest = _first_sentence(match.group("rest"))
        letter = options.match(rest)
        if letter is not None:
            result.append(_Statement(match.start(), "answer", letter, "option-text", match.group(0)[:80]))
    return result


def _first_sentence(text: str) -> str:
    return _SENTENCE_SPLIT.split(text.strip(), maxsplit=1)[0]


def _fallback(text: str, letters: Sequence[str], options: OptionMatcher | None) -> Extraction:
    """No explicit statement: read the response's shape, a lone "(B)", then option text."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    listing = len({m.group(1) for line in lines if (m := _OPTION_LINE.match(line))}) >= 2
    for reader in (_final_line, _leading_line, _closing_clause):
        found = reader(lines, listing, letters)
        if found is not None:
            return _line_span(found, text, lines[0] if reader is _leading_line else lines[-1])
    parens = {m.group(1) for m in _PAREN_LETTER.finditer(text)} & set(letters)
    if len(parens) == 1 and not listing:
        letter = parens.pop()
        return Extraction(letter, "paren-letter", f"the only parenthesised letter is ({letter})")
    if options:
        prose = "\n".join(line for line in lines if not _OPTION_LINE.match(line)) if listing else text
        found = _option_text_fallback(prose, options) if prose else None
        if found is not None:
            return found
    return _why_unparsed(text, letters)


def _final_line(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """A last line that is only a letter ("...\\n\\nC"), or "C. text" when the response is not an option list."""
    last = lines[-1]
    bare = _bare(last)
    if bare and bare.group(1).isupper() and len(lines) > 1:
        return _line_letter(bare.group(1), letters, "final-line", last)
    shaped = _OPTION_LINE.match(last)
    if shaped and not listing and len(lines) > 1:
        return _line_letter(shaped.group(1), letters, "final-line", last)
    return None


def _leading_line(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """A response opening with "B. Walking is correct", "B\\n<reason>", "B, because ...", "B。不是 A" or
    "b) walking" (not an option list)."""
    first = lines[0]
    bare = _bare(first)
    if bare and bare.group(1).isupper():
        return _line_letter(bare.group(1), letters, "leading-letter", first)
    if listing:
        return None
    shaped = _OPTION_LINE.match(first)
    if shaped and not _hedged(first, shaped.end(1)):
        return _line_letter(shaped.group(1), letters, "leading-letter", first)
    leading = _LEADING.match(first)
    if leading and not (leading.group("l") and _hedged(first, leading.end("l"))):
        return _line_letter((leading.group("l") or leading.group("low")).upper(), letters, "leading-letter", first)
    return None


def _hedged(line: str, after: int) -> bool:
    """Whether the letter ending at `after` (or its closing bracket) is followed by another: "(A) or (D)"."""
    if after < len(line) and line[after] in ")]）":
        after += 1
    return _HEDGE_TAIL.match(line, after) is not None


# A response opening with its letter and going on: "B, because ...", "(C), since ...", "B。不是 A", "b) walking",
# "D because the ...".
_LEADING = re.compile(
    r"[(\[（]?(?P<l>[A-Z])[)\]）]?(?:[,，。、]|\s+(?:because|since|as)\b|\s*(?:不是|因为|由于|是正确|正确))"
    r"|\(?(?P<low>[a-z])\)\s"
)
# The last line ends in a clause that is only the letter: "Based on the frames, B.", "... is clear: (C)".
_CLOSING = re.compile(
    r"(?:[,:：，]|\b(?:so|thus|hence))[ \t]*(?:(?i:option|choice)[ \t]+)?[(\[]?([A-Z])[)\]]?[ \t]*[.!。]?$"
)
_CLOSING_TAIL = 40  # the clause is a few characters at the line's end; longer tails are not searched


def _closing_clause(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """ "Based on the frames, B." -- the last line's final clause is only a letter (not in an option list)."""
    if listing:
        return None
    tail = lines[-1][-_CLOSING_TAIL:]
    closing = _CLOSING.search(tail)
    if closing is None:
        return None
    return _line_letter(closing.group(1), letters, "closing-letter", lines[-1])


def _line_span(found: Extraction, text: str, line: str) -> Extraction:
    """`found` with the span of the line it was read from."""
    if not found.parsed:
        return found
    start = text.find(line)
    return _with_span(found, (start, start + len(line))) if start >= 0 else found


def _line_letter(letter: str, letters: Sequence[str], method: str, line: str) -> Extraction:
    if letter in letters:
        return Extraction(letter, method, f"read the line {quote(line)!r}")
    return unparsed("letter not allowed", f"{letter} is not one of {', '.join(letters)}: {quote(line)!r}", method)


_CLAUSE_SPLIT = re.compile(r"(?<=[.!?。！？])\s+|\n+|[;；]\s*")


def _option_text_fallback(text: str, options: OptionMatcher) -> Extraction | None:
    """The one option whose text the response gives outside negated clauses ("not the blue object" rejects it);
    when several are given, the one in the last clause."""
    picked: list[tuple[str, str]] = []
    clauses = [c for c in _CLAUSE_SPLIT.split(text.strip()) if c.strip()]
    for clause in clauses:
        letter = options.match(clause)
        if letter is not None and not _NEGATION.search(clause):
            picked.append((letter, clause))
    if not picked:
        return None
    if len({letter for letter, _ in picked}) == 1:
        letter = picked[0][0]
        return Extraction(letter, "option-text", f"the response gives the text of option {letter}: {options[letter]!r}")
    letter, last = picked[-1]
    if last is not clauses[-1]:
        return None
    detail = f"the last sentence gives option {letter} ({options[letter]!r}): {quote(last)!r}"
    return Extraction(letter, "option-text", detail)


class OptionMatcher(Mapping[str, str]):
    """Letter -> option text, plus each option's word keys, worked out on first use and then kept.

    Scoring makes one per question and passes it to every reading of that question's answers. Short answers
    never need the texts, so `texts` is not read until a response is read for its option text (scoring passes
    a mapping that splits the dataset's "A. text" options only then); it must not change afterwards.
    """

    __slots__ = ("_keys", "_texts")

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._keys: tuple[_Keys, _Keys] | None = None

    def __getitem__(self, letter: str) -> str:
        return self._texts[letter]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def match(self, text: str) -> str | None:
        """The single option whose words appear in `text` as a run (or, for "60°" options, whose number does)."""
        tokens = _tokens(text)
        if not tokens:
            return None
        if self._keys is None:
            keys = {letter: _option_keys(option) for letter, option in self._texts.items()}
            self._keys = tuple(tuple((letter, pair[i]) for letter, pair in keys.items() if pair[i]) for i in (0, 1))
        for keys in self._keys:
            hits = {letter for letter, wanted in keys if _contains_run(tokens, wanted)}
            if len(hits) > 1:
                hits = _drop_contained(hits, dict(keys))
            if len(hits) == 1:
                return hits.pop()
            if hits:
                return None
        return None


_Keys = tuple[tuple[str, tuple[str, ...]], ...]  # (letter, key) for the options whose key is not empty


def _drop_contained(hits: set[str], keys: Mapping[str, tuple[str, ...]]) -> set[str]:
    """When "walking" and "walking fast" both match, the shorter one is only part of the longer."""
    return {a for a in hits if not any(b != a and len(keys[b]) > len(keys[a]) and _contains_run(keys[b], keys[a])
                                       for b in hits)}


def option_matcher(options: Mapping[str, str]) -> OptionMatcher:
    """The `OptionMatcher` for `options` (itself when it already is one; equal texts share one, cached)."""
    if isinstance(options, OptionMatcher):
        return options
    return _cached_matcher(tuple(options.items()))


@lru_cache(maxsize=1024)
def _cached_matcher(items: tuple[tuple[str, str], ...]) -> OptionMatcher:
    return OptionMatcher(dict(items))  # a copy: the caller's mapping may change


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKENS.findall(text.lower().replace("°", " degrees ").replace("\\circ", " degrees ")))


@lru_cache(maxsize=4096)
def _option_keys(option: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An option's word run ("degree" read as "degrees") and, for one number with units ("60°", "12 cm"), the
    number alone (else empty)."""
    tokens = _tokens(option)
    full = tuple("degrees" if t == "degree" else t for t in tokens) if "degree" in tokens else tokens
    if all(t in _UNIT_WORDS for t in tokens if not t[0].isdigit()):  # usually stops at the first word
        numbers = [t for t in tokens if t[0].isdigit()]
        if len(numbers) == 1:
            return full, (numbers[0],)
    return full, ()


def _contains_run(tokens: tuple[str, ...], run: tuple[str, ...]) -> bool:
    """Whether `run` occurs in `tokens` as consecutive items (found with the C-level `in` and `index`)."""
    first = run[0]
    if len(run) == 1:
        return first in tokens
    n = len(run)
    start = 0
    try:
        while True:
            start = tokens.index(first, start)
            if tokens[start : start + n] == run:
                return True
            start += 1
    except ValueError:
        return False


def _why_unparsed(text: str, letters: Sequence[str]) -> Extraction:
    refusal = _REFUSAL.search(text)
    if refusal:
        return unparsed("refusal", f"the response declines: {quote(refusal.group(0))!r}")
    seen = sorted({m.group(0) for m in _STANDALONE.finditer(text)} & set(letters))
    if seen:
        detail = f"letters {', '.join(seen)} are mentioned but none is stated as the answer"
        return unparsed("no explicit answer", detail)
    return unparsed("no letter found", f"no answer letter or option text in {quote(text)!r}")
