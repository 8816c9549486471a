"""The robust choice extractor used everywhere: the letter a response means, or "unparsed" with the reason.

Order of evidence, strongest first (each reading's `Extraction.strength`):
1. answer containers: the last `<answer>` tag, the answer field of a JSON object (`structured.json_answer`),
   `\\boxed{C}`; containers that disagree, or an explicit statement after them that says otherwise, are a
   conflict;
2. explicit statements anywhere in the text ("the answer is D", "Answer: B", "选 D", "B is correct",
   "I choose A", "it is D", "probably C"), the last one winning, so "not A; it is D" reads D; a last statement
   that hedges ("either A or C") or names a letter outside `letters` is unparsed;
3. the shape of the response: a bare letter, a first line "B. Walking", a final line "C", a closing clause;
   the first and the last line must agree; then a single parenthesised letter;
4. the option text of the response's conclusion ("Walking", "so 15 pens"), unless it declines or says no
   option fits.
A response that goes on to a question or turn of its own ("Question: ...", "Human: ...") is read up to it, and one that
answers the same question again ("Assistant: ...", "### Response") must give the same letter there (else a conflict);
a `<think>` block never closed is read only from an answer line of its own at its end (or an answer tag that ends the
response), and a letter alone before a closed block that nothing follows is read, unless the block concludes another
option. A container holding a value that is no option's is unparsed ("no option matches"); a letter stated with another
option's text or value ("The answer is (E) 14 km" where E is 41 km), final answers back to back that name different
letters ("Answer: A\nAnswer: D"), a box holding an option's value after a statement naming another letter, and an answer
line with its option's own words after prose concluding another option ("... is the kettle.\nAnswer: C - mug") are
conflicts; option values are compared as math, operators included (`option_math`), and a hedged conclusion gives no
option text; options whose texts are letters ("A. B", "B. A and C") are read by their text where the response gives it,
and a letter that is both an unmarked statement's and another option's text is a conflict. So is a final statement that
the conclusion around it contradicts: the lines before it state another option's pair of values ("12 N, 30 J"), the
sentence before it carries every part of another option ("more permissive; less accepting"), or a short response
opens with the letter and its explanation ends on another option ("The answer is C. ... so the angle is 110°.").

Capital letters inside words and sentences ("Based", "A man", "the Dog", "I think") are never read, and
nothing is guessed: when the evidence runs out the result is unparsed with what was seen.

Speed: most answers are short ("B", "B. Walking", "The answer is B."). `extract_choice` first tries one match
that recognises those shapes and can prove no other rule would fire, and returns what the full reading
(`extract_choice_full`) gives them, explanation included; everything else takes the full reading.
tests/test_extract_choice.py checks the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from functools import lru_cache
from typing import Literal, NamedTuple, cast

from mathreel.core.extract.conflicts import (
    box_against_letter,
    concluding_sentence,
    letter_against_expression,
    letter_against_working,
    two_values,
)
from mathreel.core.extract.echo import without_echoed_prompt
from mathreel.core.extract.evaluations import evaluation_list, introduces_options
from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.named_answers import (
    NAMED_ANSWER,
    NAMED_ANSWER_STARTS,
    NAMED_ANSWER_WORDS,
    OPTION_NAMED,
    OPTION_NAMED_STARTS,
)
from mathreel.core.extract.option_math import (
    fold,
    math_tokens,
    numeric_value,
    occurs,
    same_number,
    same_value,
    value_core,
)
from mathreel.core.extract.option_values import no_evidence
from mathreel.core.extract.program import assigned_answer, program_only
from mathreel.core.extract.stated_text import text_against_letter
from mathreel.core.extract.structured import JsonAnswer, json_answer
from mathreel.core.extract.text import (
    END_TOKEN_PATTERN,
    END_TOKENS,
    FIRM,
    Declines,
    FollowUp,
    Trace,
    answer_tag,
    boxed_spans,
    delete,
    fold_letters,
    follow_ups,
    strip_think,
    turn_answering_again,
    unclosed_think_tail,
)
from mathreel.core.extract.types import Extraction, Strength, conflict, quote, unparsed
from mathreel.core.extract.unfinished import cut_off
from mathreel.core.extract.yesno import with_question

DEFAULT_LETTERS = ("A", "B", "C", "D")

# A whole response that is only a letter with punctuation or markdown: "B", "b.", "(C)", "**D**", "[A]".
_BARE = lazy_regex(
    r"[\s*_`'\"“”‘’(\[{<]*(?:(?i:option|choice|answer|letter)\s*[:：]?\s*[(\[]?)?([A-Za-z])[\s*_`'\"“”‘’)\]}>.:,;!。]*"
)
_BARE_MAX = 40  # longer texts are never a bare letter, so skip the regex
# Markdown, the end-of-answer tokens some models leave in their output ("D<eoa>", "B.<|im_end|>", "</s>"), and a
# LaTeX bold or upright wrapper or inline-math delimiters around a letter ("\\textbf{B}", "\\mathbf{(C)}",
# "\\( \\text{A} \\)", "\\(C\\)": the letter is kept).
_WRAPPER = (
    r"\\(?:textbf|mathbf|boldsymbol|bm|text|mathrm|textrm|emph|textit|mathit|underline)[ \t]*\{"
    r"|\{[ \t]*\\(?:bf|it|rm)[ \t]+"
)
_MARKDOWN = lazy_regex(
    r"\*\*?|__|`+|^#+\s*|" + END_TOKEN_PATTERN + r"|(?:\\[(\[][ \t]*(?:" + _WRAPPER + r")?|" + _WRAPPER + r")"
    r"[ \t]*(?P<keep>[(\[]?[A-Za-z][)\]]?)[ \t]*(?:\}(?:[ \t]*\\[)\]])?|\\[)\]])",
    re.M,
)
# One of these in a response lets the wrapper rule run.
_LATEX_MARKS = ("\\text", "\\math", "\\bm", "\\bold", "\\emph", "\\under", "\\bf", "\\it", "\\rm")

# After a letter: not part of a word ("Based", "I'm").
_NOT_WORD = r"(?![A-Za-z0-9'’])"
# Every pattern below is written so that no two adjacent parts can match the same whitespace: a long run of
# blanks then costs linear time instead of the polynomial backtracking of "\s*[:]?\s*".
# The letter may be bracketed, quoted or in math dollars: "(B)", "'F'", "$A$".
_LETTER = r"(?:[(\[{（'\"‘“$]\s*)?(?P<l>[A-Za-z])(?:\s*[)\]}）$]|['\"’”](?![A-Za-z]))?" + _NOT_WORD
_TERMINATOR = lazy_regex(r"[ \t]*(?:$|[\n.,;:!?)\]}\"'。，；！？：、*])")
# After an answer letter, another letter in a list ("A or C", "A, B, and C"), unless it starts a new clause
# ("B, C is wrong").
# A response cut off right after "A or" (it was going on to name another letter) is a hedge too.
_HEDGE_TAIL = lazy_regex(
    r"(?:(?:\s*[,、]\s*(?:(?i:or|and)\s+)?|\s+(?i:or|and)\s+|\s*(?:[/&]|或者?|和|及)\s*)(?:(?i:option|choice)\s+)?"
    r"[(\[（]?[A-Z][)\]）]?" + _NOT_WORD + r"(?!\s+(?i:is|was|are|were|seems|can|could|would)\b|\s*(?:选?项)?\s*[错不])"
    r"|\s+(?i:or)[ \t]*$)"
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
_NEXT_WORD = lazy_regex(r"[ \t]+([a-z]+)")
_QUESTIONED = lazy_regex(r"[ \t]*[?？]")
_CONDITIONAL = lazy_regex(
    r"(?i:\b(?:if|whether|unless|suppose|supposing|assume|assuming|check|checking|verify|verifying)\s+(?:that\s+)?"
    r"(?:the\s+)?)$"
)
_CONDITION_WORDS = ("if", "whether", "unless", "suppos", "assum", "check", "verif")
_CONDITION_HINT = lazy_regex("|".join(_CONDITION_WORDS))  # any of them anywhere, in one search


def _conditional(text: str, start: int) -> bool:
    """Whether the statement at `start` follows "if", "whether", "suppose" ... (the regex only runs where one of
    those words is in the 30 characters before it)."""
    window = text[max(0, start - 30) : start].lower()
    return _CONDITION_HINT.search(window) is not None and _CONDITIONAL.search(window) is not None


_CONDITION_AFTER = lazy_regex(r"[ \t]+(?i:if|only\s+if|when|unless|provided)\b")
_LABELLED = lazy_regex(r"[ \t]*[:：](?:[ \t]*\Z|[^\n?]{0,80}[?？])")  # "D: The girl sings? No.", a cut-off "C:"

_VERB = r"(?:is|was|would\s+be|should\s+be|must\s+be|will\s+be|could\s+be|seems\s+to\s+be|appears\s+to\s+be|=)"
# Each optional word group ends in its own whitespace, so the groups can follow one another.
_ADVERB = (
    r"(?:(?:therefore|thus|clearly|definitely|likely|probably|most\s+likely|indeed|then|so|for\s+sure|certainly"
    r"|surely|undoubtedly|obviously|actually|approximately|roughly)(?:\s*,)?\s+)?"
)
_PICK = r"(?:(?i:option|choice|letter|answer)\s*)?"
# What joins "answer" to its letter: "answer is", "answer:", "answer =", "Answer - ", "Final answer\n".
_JOIN = r"(?:\s+" + _VERB + r"(?:\s*[:：])?|\s*[:：=]|\s+[-–—]|[ \t]*\n)\s*"
_ANSWER_NOUN = (
    r"(?<!each\s)(?<!every\s)\b(?:(?:final|correct|best|right|my|most\s+appropriate|most\s+likely)\s+)?"
    r"(?:answer(?:\s+(?:to|for)\s+(?:this|the)\s+question)?|option|choice|conclusion|final(?=\s*[:：]))"
    r"(?:\s+letter)?"  # "The correct option letter is C."
)

# "the answer is D", "Answer: B", "correct option would be (C)", "Final answer\nB", "answer is not A".
_ANSWER_PHRASE = lazy_regex(r"(?i:" + _ANSWER_NOUN + _JOIN + _ADVERB + r"(?P<neg>not\s+)?)" + _PICK + _LETTER)
# "B is correct", "Option (C) is the best answer", "D is the right choice".
_IS_CORRECT = lazy_regex(
    r"(?<![A-Za-z0-9'’])(?:(?i:option|choice)\s+)?[(\[]?(?P<l>[A-Za-z])[)\]]?\s+"
    r"(?i:is|would\s+be|must\s+be|should\s+be|seems(?:\s+to\s+be)?|looks(?:\s+like)?|appears(?:\s+to\s+be)?)\s+"
    r"(?i:(?:the\s+)?(?:(?:most|more)\s+)?(?:correct|right|best|accurate|appropriate|valid|true|plausible|reasonable"
    r"|consistent)\b|(?:the\s+)?answer\b)"
)
# "I choose B", "I'll go with C", "select (A)".
_CHOOSE = lazy_regex(
    r"(?i:\b(?:choose|chose|select|pick|go\s+with|going\s+with|opt\s+for|(?:would|'d|’d)\s+say)\s+(?:the\s+)?)"
    + _PICK
    + _LETTER
)
# "it is D.", "so D." -- weak, so the letter must end its clause.
_PRONOUN = lazy_regex(
    r"(?i:\b(?:(?:it|this|that|which)\s*(?:is|'s|’s|must\s+be|should\s+be|would\s+be)|so|thus|hence|therefore"
    r"|certainly|definitely|clearly|surely|obviously|undoubtedly)"
    r"(?:\s*,)?\s+" + _ADVERB + r")(?:(?i:option|choice)\s+)?" + _LETTER
)
# A correction after an earlier letter: "Final: B? No, C.", "Wait, it is D.", "Actually, (A)." -- the letter must
# end its clause ("No C is shown" is not one).
_CORRECTION = lazy_regex(
    r"(?i:\b(?:no|nope|wait|actually|correction|oops)\b[ \t]*[,:!.—–-]?[ \t]*"
    r"(?:(?:it|that)(?:'s|’s|[ \t]+(?:is|should[ \t]+be|must[ \t]+be))[ \t]+)?(?:(?:option|choice)[ \t]+)?)" + _LETTER
)
# Chinese: 答案是 B, 正确答案：C, 答案不是A, 选 D, 故选C, 应选择（B）, 【答案】C (the exam-paper bracket).
_ZH_LETTER = r"(?:[:：]\s*)?(?:选项\s*)?(?:[（(]\s*)?(?P<l>[A-Za-z])" + _NOT_WORD
_CHINESE_ANSWER = lazy_regex(
    r"(?:正确的?答案|最佳答案|最终的?答案|答案|正确的?选项|最佳选项|最终的?选项)\s*(?:[】\]］〕」]\s*)?(?:(?:(?P<neg>不是|不为|不应该是)|应该是|应为|应是|是|为|选)\s*)?"
    + _ZH_LETTER
)
_CHINESE_CHOOSE = lazy_regex(r"(?:故选|应选择|应选|选择|我选|选|应该是|应是|应为)\s*" + _ZH_LETTER)
# Answer phrases in Japanese, Korean, Chinese "答：", French, German and Spanish: 答えは B, 正解：C, 정답은 D입니다,
# 답: A, "la bonne réponse est (B)", "Die richtige Antwort lautet C", "la respuesta correcta es la E".
_FOREIGN_ANSWER = lazy_regex(
    r"(?:(?:答え|正解|解答|答)\s*(?:は|[:：]|[】\]］])|(?:최종\s*)?(?:정답|답|선택|옵션)\s*(?:은|는|[:：])"
    r"|(?i:r[ée]ponse(?:\s+(?:correcte|finale|exacte))?\s*(?:est|[:：])|antwort\s*(?:ist|lautet|[:：])"
    r"|respuesta(?:\s+(?:correcta|final))?\s*(?:es|[:：])|opci[óo]n\s+correcta\s+es|option\s+correcte\s+est"
    r"|risposta(?:\s+(?:corretta|giusta|esatta|finale))?\s*(?:è|e'|[:：])"
    r"|resposta(?:\s+(?:correta|certa|final))?\s*(?:é|[:：])|alternativa\s+correta\s*(?:é|[:：])"
    r"|(?:правильный\s+|верный\s+)?(?:ответ|вариант)\s*(?:[:：]|[—–-]|\s+это)))"
    r"\s*(?:(?:la|l['’]option|die|option|opci[óo]n|opzione|op[çc][ãa]o|alternativa|вариант|選択肢)\s*)?" + _ZH_LETTER
)
# "Je choisis B", "Ich wähle C", "Elijo la opción D".
_FOREIGN_CHOOSE = lazy_regex(
    r"(?i:\b(?:je\s+choisis|ich\s+w[äa]hle|elijo|escojo)\s+(?:(?:la|l['’]|die)\s*)?(?:(?:option|opci[óo]n)\s+)?)"
    + _LETTER
)
# "옵션 B가 정답입니다", "選択肢 C が正しい", "B正确": a letter said to be correct, in Korean, Japanese or Chinese.
_FOREIGN_IS_CORRECT = lazy_regex(
    r"(?<![A-Za-z0-9])(?:(?:옵션|선택지|보기|選択肢|选项)\s*)?[(（]?(?P<l>[A-Za-z])[)）]?\s*(?:가|이|が|は)?\s*"
    r"(?:정답|맞|正し|正确|正確)"
)
# Tentative answers, read when nothing firmer follows: "Probably C.", "maybe D?", "my best guess would be C",
# "I'd lean toward B", "A seems most likely".
_TENTATIVE = lazy_regex(
    r"(?i:\b(?:probably|maybe|perhaps|possibly|presumably)(?:\s*,)?\s+"
    r"(?:(?:it(?:'s|’s|\s+is|\s+would\s+be)|the\s+answer\s+is|answer|option|choice)\s+)?)" + _LETTER
)
_GUESS = lazy_regex(
    r"(?i:\b(?:my\s+(?:best\s+|first\s+|final\s+)?guess\s+(?:is|would\s+be|[:：])|lean(?:ing|s)?\s+(?:toward|towards|to))"
    r"\s*)" + _PICK + _LETTER
)
_LIKELY = lazy_regex(
    r"(?<![A-Za-z0-9'’])(?:(?i:option|choice)\s+)?[(\[]?(?P<l>[A-Z])[)\]]?\s+"
    r"(?i:(?:(?:seems|looks|appears)\s+(?:the\s+)?(?:(?:most|more)\s+)?|is\s+(?:the\s+)?(?:most|more)\s+)"
    r"(?:likely|probable))\b"
)
# "option a is correct": after "option", a lower-case letter is a letter, "a" included.
_OPTION_IS = lazy_regex(
    r"(?i:\b(?:option|choice)\s+)[(\[]?(?P<l>[a-z])[)\]]?\s+(?i:is|would\s+be)\s+(?i:(?:the\s+)?(?:correct|right|best)\b)"
)
# "Final answer: unknown", "the answer is unclear": a last statement that withdraws any letter before it.
_NO_ANSWER = lazy_regex(
    r"(?i:" + _ANSWER_NOUN + _JOIN + r"(?:unknown|unclear|undetermined|uncertain|indeterminate|not\s+sure"
    r"|none\s+of\s+(?:the|these|them)|n/a|cannot\s+be\s+determined))\b"
)
# "I am unable to determine the answer" after a letter takes the letter back.
_WITHDRAW = lazy_regex(
    r"(?i:\b(?:unable|not\s+able)\s+to\s+(?:determine|tell|decide)|\b(?:cannot|can't|can’t|could\s+not|couldn't)\s+"
    r"(?:determine|tell|decide)\s+(?:the\s+answer|which))"
)
# "either A or C", "between B and D": a hedge, never an answer.
_HEDGE = lazy_regex(
    r"(?i:\b(?:either|between|both)\s+)(?:(?i:option|choice)s?\s+)?[(\[]?(?P<l>[A-Z])[)\]]?"
    r"(?:\s+(?i:or|and)\s+|\s*/\s*)(?:(?i:option|choice)\s+)?[(\[]?[A-Z][)\]]?" + _NOT_WORD
)

# Line shapes: "B. Walking", "(C) 45 degrees", "D) x", "A: text", "B - text".
_OPTION_LINE = lazy_regex(r"(?:(?i:option|choice)\s+)?[(\[]?([A-Z])(?:[)\]]|[.:：]|\s+[-–—])(?:\s|$)")
_PAREN_LETTER = lazy_regex(r"[(（]([A-Z])[)）]")
_STANDALONE = lazy_regex(r"(?<![A-Za-z0-9'’])[A-Z]" + _NOT_WORD)

_REFUSAL = lazy_regex(
    r"(?i:\bi(?:'m|’m| am)\s+(?:sorry|unable|not\s+able)|\bi\s+(?:cannot|can't|can’t|could\s+not|couldn't)\s+"
    r"(?:determine|answer|see|view|watch|access|tell|help|provide|identify)|\bunable\s+to\s+"
    r"(?:determine|answer|see|view|watch|access|tell)|\bas\s+an\s+ai\b|\bnot\s+possible\s+to\s+(?:determine|tell|answer)"
    r"|\bno\s+(?:video|image|frames?)\s+(?:was|were|is|are|has\s+been)\s+(?:provided|shown|attached))"
    r"|抱歉|无法(?:确定|回答|判断|观看)"
)
# In ASCII text every `_REFUSAL` match holds one of these (in lower case): its search, long, runs only then.
_REFUSAL_GATE = lazy_regex("sorry|able|can|could|ai|possible|provided|shown|attached")


def _refusal(text: str) -> re.Match[str] | None:
    """`_REFUSAL.search(text)`, skipped where ASCII text holds none of the words it needs."""
    if text.isascii() and _REFUSAL_GATE.search(text.lower()) is None:
        return None
    return _REFUSAL.search(text)


_SENTENCE_SPLIT = lazy_regex(r"(?<=[.!?。！？])\s+|\n+")
_NEGATION = lazy_regex(r"(?i:\b(?:not|never|no|neither|nor|none|cannot)\b|n['’]t\b)|不是|并非|没有")
# Numbers and words, articles left out ("a", "an", "the" are not tokens).
_TOKENS = lazy_regex(r"\d+(?:\.\d+)?|(?<![^\W\d_])(?!(?:a|an|the)(?![^\W\d_]))[^\W\d_]+")
# `_TOKENS` for ASCII text, where `\d` is [0-9] and `[^\W\d_]` is [A-Za-z]: ranges, not Unicode categories.
_ASCII_TOKENS = lazy_regex(r"[0-9]+(?:\.[0-9]+)?|(?<![A-Za-z])(?!(?:a|an|the)(?![A-Za-z]))[A-Za-z]+")
_UNIT_WORDS_SPELLED = frozenset(
    {
        *("degrees", "degree", "deg", "cm", "mm", "m", "km", "meters", "meter", "metres", "metre", "inches", "inch"),
        *("in", "ft", "feet", "units", "unit", "square", "sq", "cm2", "m2", "cm3", "m3", "seconds", "second", "s"),
        *("minutes", "minute", "min", "hours", "hour", "h", "kg", "g", "percent"),
    }
)


class _Statement(NamedTuple):
    """One explicit statement found in the text, in reading order (a tuple: made for every statement read)."""

    pos: int
    kind: str  # "answer" | "invalid" | "hedge" | "none" (a stated non-answer: "Final answer: unknown") | "no-match"
    letter: str
    method: str
    snippet: str
    end: int  # where the statement ends (pos + len(snippet) unless the snippet was edited)
    # "value": a box whose value is the option's (not its letter); for kind "conflict": what contradicts the letter
    detail: str = ""


_new_statement = tuple.__new__  # what `_Statement(...)` calls, without the generated `__new__` in between


def _said(pos: int, kind: str, letter: str, method: str, snippet: str, detail: str = "") -> _Statement:
    """A statement that ends where its snippet does."""
    return _new_statement(_Statement, (pos, kind, letter, method, snippet, pos + len(snippet), detail))


def extract_choice(
    response: str | None,
    letters: Sequence[str] = DEFAULT_LETTERS,
    options: Mapping[str, str] | None = None,
    question: str | None = None,
) -> Extraction:
    """The letter `response` means among `letters`, or unparsed with the reason (never a guess).

    `options` maps letter -> option text (without the letter) so a response that gives only the text
    ("Walking") can be read; pass an `OptionMatcher` (`option_matcher`) to reuse its word keys across calls.
    The result's `span` is where in `response` the answer was read. `question` (the question's text) lets a
    Yes/No question answered by restating its comparison be read (`yesno`); nothing else depends on it.
    """
    found = _read(response, letters, options, shortcut=True)
    return with_question(found, response, options, question) if question and response else found


def extract_choice_full(
    response: str | None,
    letters: Sequence[str] = DEFAULT_LETTERS,
    options: Mapping[str, str] | None = None,
    question: str | None = None,
) -> Extraction:
    """`extract_choice` without the short-form shortcut: every rule, in order.

    It gives the same result as `extract_choice` on every input; it exists so tests and benchmarks can check
    that and measure what the shortcut saves.
    """
    found = _read(response, letters, options, shortcut=False)
    return with_question(found, response, options, question) if question and response else found


def _read(
    response: str | None, letters: Sequence[str], options: Mapping[str, str] | None, shortcut: bool
) -> Extraction:
    """Fold other scripts' letters (non-ASCII text only), then read; spans are given in `response`."""
    if not isinstance(response, str) or not response.strip():
        return unparsed("empty response", "nothing to read")
    if "###" in response:
        response = without_echoed_prompt(response)  # the same length: spans still point into the response
        if not response.strip():
            return unparsed("no answer stated", "the response only echoes its prompt")
    text, trace = fold_letters(response)
    if trace is not None and not text.strip():
        return unparsed("empty response", "nothing but invisible characters")
    bare = _bare(text)
    if bare:
        return _traced(_bare_letter(bare.group(1), letters, text, bare.span(1)), trace)
    if shortcut:
        short = _FAST.fullmatch(text.strip(" \t\n"))
        if short:
            found = _short_form(short, letters, options)
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
    """`found` at `span`; built directly, since `Extraction.replace` costs several times more on the short path."""
    return Extraction(found.answer, found.method, found.explanation, span, found.strength)


def _shifted(found: Extraction, offset: int) -> Extraction:
    if not offset or found.span is None:
        return found
    return _with_span(found, (found.span[0] + offset, found.span[1] + offset))


_ANSWER_TAG, _ANSWER_TAG_END = "answer>", "</answer>"  # also in text.answer_tag


def _full_reading(response: str, letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction:
    """The reading of a non-empty response that is not a bare letter: without `<think>` reasoning, and up to a
    follow-up question the response invents and answers itself ("The answer is B.\\nQuestion: ...")."""
    text, lower, offset = response, response.lower(), 0
    if "think>" in lower:
        text, think_note = strip_think(response)
        if not text.strip() or not END_TOKENS.sub("", text).strip(" \t\n.*`"):  # nothing, or "</think><|im_end|>"
            found = _unclosed_think_answer(response, letters, options) or _letter_before_think(
                response, letters, options
            )
            if found is not None:
                return found
            if not text.strip():
                return unparsed("no answer after reasoning", think_note)
        close = lower.rfind("</think>")
        offset = close + len("</think>") if close >= 0 else 0
        if "never closed" in think_note:  # text before a <think> left open: read it, else the block's answer line
            found = _shifted(_full_reading(text, letters, options), offset)
            tail = _unclosed_think_answer(response, letters, options)
            if tail is None or not found.parsed or tail.answer == found.answer:
                return found if found.parsed else tail or found
            return conflict(
                f"the text before <think> gives {found.answer}",
                f"the line ending the unclosed <think> block gives {tail.answer}",
                found.method,
            )
        lower = text.lower()
    turns = follow_ups(text, lower)
    for index, turn in enumerate(turns):
        before = _read_body(text[: turn.start], lower[: turn.start], letters, options, bool(offset))
        if before.parsed and (not turn.heading or (before.strength in FIRM and not before.weak)):
            return _shifted(_against_turns(before, text, turns[index:], letters, options), offset)
        if before.explanation.startswith("conflict"):  # a conflict is a reading too
            note = "; read up to the follow-up question or turn the response goes on to invent"
            return _shifted(before.replace(explanation=before.explanation + note), offset)
        if index == 0 and not turn.heading and _names_letters(text[: turn.start], letters):
            note = "; the question the response goes on to invent and answer is not read"
            return _shifted(before.replace(explanation=before.explanation + note), offset)
    return _shifted(_read_body(text, lower, letters, options, bool(offset)), offset)


def _names_letters(text: str, letters: Sequence[str]) -> bool:
    """Whether `text` (before a new question the response invents) names an answer letter without stating one
    firmly ("Maybe C or D.\n\nQuestion: ...\nAnswer: B"): the model was answering already, so the invented
    question's "Answer: B" is not its answer. Text before it that names none (a preamble) reads on as before."""
    return any(match.group(0) in letters for match in _STANDALONE.finditer(text))


def _against_turns(
    before: Extraction, text: str, turns: list[FollowUp], letters: Sequence[str], options: Mapping[str, str] | None
) -> Extraction:
    """The answer read before the first invented turn, or a conflict when a turn that answers the same question again
    ("Assistant: ...", "### Response", an "Answer:" heading over new working) gives another letter; a turn that asks
    a new question ("Question:", "User:", "### Instruction") ends the reading."""
    found = turn_answering_again(
        before,
        text,
        turns,
        lambda body: _read(body, letters, options, shortcut=True),
        lambda again: again.answer != before.answer,
    )
    if found is not None:
        marker, again = found
        return conflict(
            f"{before.explanation} gives {before.answer}",
            f"the invented turn {marker!r} answers again with {again.answer}",
            before.method,
        )
    note = "; read up to the follow-up question or turn the response goes on to invent"
    return before.replace(explanation=before.explanation + note)


def _think_last_letter(response: str, letters: Sequence[str]) -> Extraction | None:
    """A `<think>` block never closed whose last line, after other lines, is only a capital letter ("...so
    probably B\nB"): that letter; any other last line without a blank line before it is still reasoning."""
    body = response.rstrip()
    cut = body.rfind("\n")
    if cut < 0 or "<think>" not in body[:cut].lower():
        return None
    above = body[:cut].lower().rsplit("<think>", 1)[1].rstrip()
    line = body[cut + 1 :].strip()
    previous = above.rsplit("\n", 1)[-1].strip()
    if (
        not _LETTER_ALONE.fullmatch(line)
        or not previous
        or previous.endswith((":", "："))
        or _OPTION_LINE.match(previous.upper())
    ):
        return None  # "Options:\nA", "A. runs\nB": a list cut off, not an answer
    at = body.index(line, cut)
    found = _bare_letter(line[0], letters, line, (at, at + 1))
    if not found.parsed:
        return None
    note = "; the <think> block is never closed: read its last line, a letter alone"
    return found.replace(explanation=found.explanation + note)


def _letter_before_think(response: str, letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction | None:
    """A capital letter alone (or a short firm statement: "The answer is B.") that opens the response before a
    `<think>` block that is closed and that nothing follows ("B\n<think>...so it is the bridge.\n</think>"): the
    model answered first and reasoned after. A conflict when the reasoning concludes another option; None when the
    block holds further think tags."""
    lower = response.lower()
    opened, close = lower.find("<think>"), lower.rfind("</think>")
    if opened <= 0 or close < opened:
        return None
    before = response[:opened]
    bare = _bare(before)
    if bare is not None and bare.group(1).isupper():
        found = _bare_letter(bare.group(1), letters, before.strip(), bare.span(1))
    elif bare is None and len(before) <= _LAST_LINE_MAX:  # "The answer is B.\n<think>...</think>"
        found = _read(before, letters, options, shortcut=True)
        if found.method not in _FIRM_METHODS or (found.span is not None and found.span[0] > _OPENING):
            return None
    else:
        return None
    body = response[opened + len("<think>") : close]
    if not found.parsed or "think>" in body.lower():
        return None
    reasoning = _read(body, letters, options, shortcut=True) if body.strip() else None
    if reasoning is not None and reasoning.parsed and reasoning.answer != found.answer:
        return conflict(
            f"the answer before <think> gives {found.answer}",
            f"the reasoning in it concludes {reasoning.answer} ({quote(reasoning.explanation, 60)})",
            found.method,
        )
    note = "; the response opens with it, then reasons in a <think> block and ends"
    return found.replace(explanation=found.explanation + note)


_LETTER_ALONE = lazy_regex(r"[A-Z]\.?")
_LAST_LINE_MAX = 80  # characters of a statement written before a <think> block
_FIRM_METHODS = frozenset({"bare-letter", "answer-phrase", "boxed", "json"})
_TAG_METHODS = _FIRM_METHODS | {"leading-letter"}  # an answer tag opening with its letter and its text
_OPENING = 25  # characters: an answer phrase must open the last paragraph ("Answer: C", "The final answer is C.")


def _unclosed_think_answer(
    response: str, letters: Sequence[str], options: Mapping[str, str] | None
) -> Extraction | None:
    """The answer a `<think>` block that is never closed ends with, on a short last paragraph of its own ("...so
    the answer is probably B\n\nB"): read only when that paragraph states it firmly (a letter, an answer phrase,
    a container), never from the reasoning above it."""
    tagged = _closing_tag_after_think(response, letters, options)
    if tagged is not None:
        return tagged
    tail = unclosed_think_tail(response)
    if tail is None:
        return _think_last_letter(response, letters)
    start, paragraph = tail
    if "\n" in paragraph:
        return None  # several lines: more reasoning, not an answer line
    found = _read(paragraph, letters, options, shortcut=True)
    if not found.parsed or found.method not in _FIRM_METHODS:
        return None
    if found.method == "answer-phrase" and (found.span is None or found.span[0] > _OPENING):
        return None  # "Let me check B again: if B is correct ..." is reasoning
    note = "; the <think> block is never closed: read its last paragraph, a line of its own"
    return _shifted(found.replace(explanation=found.explanation + note), start)


_AFTER_TAG_MAX = 20  # characters after a closing answer tag that still end the response (an end token, a period)


def _closing_tag_after_think(
    response: str, letters: Sequence[str], options: Mapping[str, str] | None
) -> Extraction | None:
    """A `<think>` block never closed (or closed with a misspelt tag) that the response ends with an answer tag
    after ("...so the area is 6.\n<answer>A</answer>"): the tag is the model's answer, as it is after a closed
    block. Read only when the tag ends the response, never a tag the reasoning mentions and goes on from."""
    lower = response.lower()
    tag = answer_tag(response, lower)
    if tag is None or tag[0] < lower.rfind("<think>"):
        return None
    _, start, end = tag
    rest = _TAG_CLOSE.sub("", lower[end:], count=1)
    if len(END_TOKENS.sub("", rest).strip(" \t\n.`*")) > _AFTER_TAG_MAX:
        return None
    found = _read(response[start:end], letters, options, shortcut=True)
    if found.parsed and found.method == "option-text" and options:
        content = response[start:end]
        if _plain(content) == _plain(options[found.answer or ""]):  # "<answer>the dog's lead</answer>": its whole text
            found = found.replace(strength="container")
        else:
            found = _letter_with_own_text(found, content) or found
    if not found.parsed or (found.method not in _TAG_METHODS and found.strength != "container"):
        return None
    note = "; the <think> block is never closed: read the answer tag that ends the response"
    return _shifted(found.replace(explanation=found.explanation + note), start)


_OPENING_LETTER = lazy_regex(r"\s*[(\[]?(?P<l>[A-Z])(?:[)\].:]|\s+-)?\s")


def _letter_with_own_text(found: Extraction, content: str) -> Extraction | None:
    """An answer tag's content read as option text that opens with that option's letter ("D the dog's lead in the
    the", D being "the dog's lead"): the letter, read as stated; None when the opening is no such letter."""
    opening = _OPENING_LETTER.match(content)
    if opening is None or opening.group("l") != found.answer:
        return None
    detail = f"the answer tag opens with {found.answer} and its own text: {quote(content)!r}"
    return Extraction(found.answer, "leading-letter", detail, opening.span("l"), "container")


def _opening_against_text(
    found: Extraction, content: str, letters: Sequence[str], options: Mapping[str, str]
) -> Extraction:
    """A conflict when an answer tag read by its option text opens with another option's letter ("<answer>D the
    child's hand is on the dog</answer>" where the dog is B's and D is the table): the letter and the text are two
    answers, and reading the text alone would misread the model's letter. "A" or "I" before a lower-case word may be
    the article or the pronoun ("<answer>A dog on the sofa</answer>"), so it is left to the text."""
    opening = _OPENING_LETTER.match(content)
    if opening is None:
        return found
    letter = opening.group("l")
    if letter == found.answer or letter not in letters or letter not in options:
        return found
    if letter in "AI" and content[opening.end() :].lstrip()[:1].islower() and opening.group(0).strip() == letter:
        return found  # "A dog on the sofa", "I think it is the dog": the article, the pronoun
    return conflict(
        f"the answer tag opens with {letter} ({options[letter]!r})",
        f"its text {quote(content[opening.end() :].strip(), 40)!r} is option {found.answer}'s "
        f"({options[found.answer or '']!r})",
        "container",
    )


_TAG_CLOSE = lazy_regex(r"^\s*</[a-z_]*answer[a-z]*>|^\s*</[a-z_]*$")


def _read_body(
    text: str, lower: str, letters: Sequence[str], options: Mapping[str, str] | None, after_think: bool
) -> Extraction:
    """Answer containers first (an `<answer>` tag, a JSON answer field, `\\boxed{}`: they must agree), then the
    last explicit statement, then the response's shape and its option text."""
    if program_only(text):
        return _program_reading(text, letters, options)
    finals = _tag_and_json(text, lower, letters, options)
    raw, trace = text, None
    if (
        "*" in text
        or "`" in text
        or "_" in text
        or "#" in text
        or "<e" in lower
        or "<|" in text
        or "</s>" in lower
        or ("\\" in text and any(mark in text for mark in _LATEX_MARKS))
        or "\\(" in text
    ):
        text, trace = delete(text, _MARKDOWN)
        if not text.strip():
            return unparsed("empty response", "nothing but markdown")
        lower = text.lower()
        bare = _bare(text)
        if bare and not finals:
            return _traced(_bare_letter(bare.group(1), letters, text, bare.span(1)), trace)
    elif after_think and not finals:
        bare = _bare(text)
        if bare:
            return _bare_letter(bare.group(1), letters, text, bare.span(1))
    matcher = option_matcher(options) if options else None
    statements = _statements(text, lower, letters, matcher)
    boxes = [s for s in statements if s.method == "boxed"] if "box" in text else None
    if boxes:
        final = _box_final(boxes, text, trace)
        if not finals and final.found.answer == boxes[-1].letter:
            against = _box_against_statement(boxes[-1], statements)  # "The answer is (C). ... \\boxed{7}" (A's value)
            if against is not None:
                return against
        box = boxes[-1]  # "so θ = 90°.\n\\boxed{A}" where A is 30°; never a box holding an option's value
        if not finals and matcher is not None and final.found.parsed and _LETTER_BOX.fullmatch(box.snippet.strip("'")):
            span = (box.pos, box.pos, box.end)  # one-number options too: "v = 7.5 m/s.\n\\boxed{B}" (10 m/s)
            working = letter_against_working(text, span, box.letter, matcher) or letter_against_expression(
                text, span, box.letter, matcher
            )
            if working is not None:
                return _traced(conflict(*working, "boxed"), trace)
        if not finals and boxes[-1].kind == "no-match" and matcher is not None:
            against = _letter_after_box(text, boxes[-1], statements, matcher)  # "\\boxed{C_2H_3O_4}. The answer is (F)"
            if against is not None:
                return _traced(against, trace)
        finals.append(final)
    if finals:
        others = [_origin(s, trace) for s in statements if s.method != "boxed"]
        found = _container_verdict(finals, others, letters)
        return _text_against_container(found, raw, finals, options)
    last = statements[-1] if statements else None
    if (
        matcher is not None
        and len(text) <= _WHOLE_MAX
        and last is not None
        and last.kind == "hedge"
        and matcher.lettered()
    ):
        whole = _whole_option_text(text, matcher)  # "Answer: A, B and C": read as letters, a hedge
        if whole is not None:
            return _traced(whole, trace)
    if last is not None:
        found = _verdict(statements, letters)
        if (
            matcher is not None
            and last.method == "answer-phrase"
            and (last.kind == "hedge" or _GOES_ON.match(text, last.end))
            and matcher.lettered()
        ):
            said = _phrase_option_text(text, last.pos, matcher)  # "The answer is A and C."
            if said is not None:
                return _traced(said, trace)
        if found.parsed and last.kind == "answer":
            closing = _closing_run(text, statements)  # "The answer is (C).\nThe answer is (F).\n(A)"
            if closing is not None:
                return closing
            per_part = _one_per_part(text, last, letters)  # "The answer is (B) for work and (A) for heat."
            if per_part is not None:
                return per_part
            if matcher is not None:
                head = _run_head(statements)  # "The answer is D.\nTherefore, among A through E, the answer is D."
                against = _checked_before(text, last, statements, matcher, head)
                if against is None and head is not last:
                    against = _checked_before(text, head, statements, matcher, head)  # the working before the first
                if against is not None:
                    return _traced(against, trace)
                for stated in (last, head) if _line_before_last(text, head, last) else (last,):
                    found = _stated_with(found, text, stated.end, matcher)  # "The answer is (E) 14 km." (B's value)
                    if (
                        found.parsed
                        and stated.method == "answer-phrase"
                        and (text.rfind("\n", 0, stated.pos) > 0 or _after_sentence(text, stated.pos))
                    ):  # "... is the kettle.\nAnswer: C - mug"
                        found = _prose_against_line(found, text, stated.pos, stated.end, matcher)
        if matcher is not None and found.parsed and not _LABEL_MARK.search(last.snippet):
            found = _label_or_text(found, matcher)
        return _traced(_value_then_letter(found, text, letters, matcher), trace)
    found = _value_then_letter(_fallback(text, letters, matcher), text, letters, matcher)
    if (
        matcher is not None
        and (not found.parsed or found.method in ("option-text", "closing-letter"))
        and len(text) <= _WHOLE_MAX
        and matcher.lettered()
    ):
        whole = _whole_option_text(text, matcher)  # "A, B and C": read as letters, a hedge; "A and C"
        if whole is not None:
            return _traced(whole, trace)
    if matcher is not None and found.parsed and found.method == "closing-letter":
        found = _label_or_text(found, matcher)
    return _traced(found, trace)


# Options whose texts are letters ("A. B", "B. A and C", "C. Both A and B"): a statement marked as naming an option
# ("the answer is B", "option B", "(B)", "I choose B") names its label; "Statement B is true" or a closing "... is
# B." may name either.
_LABEL_MARK = lazy_regex(r"(?i:answer|option|choice|choose|chose|select|pick|go\s+with)|答|选|[(\[（]")
_GOES_ON = lazy_regex(r"[ \t]*(?:,[ \t]*)?[A-Za-z]")  # the phrase's letter is followed by more words: "C only", "A, B"
_ANSWER_PREFIX = lazy_regex(
    r"\s*(?i:(?:the\s+)?(?:(?:final|correct|right|best)\s+)?(?:answer|option|choice)(?:\s+is(?:\s*[:：])?|\s*[:：])\s*)?"
)
_EDGE_PUNCTUATION = " \t\n.。!$"
_WHOLE_MAX = 120  # characters: longer responses are never only an option's text


def _plain(text: str) -> str:
    return " ".join(text.replace("$", " ").split()).strip(_EDGE_PUNCTUATION).lower()


def _whole_option_text(text: str, options: OptionMatcher) -> Extraction | None:
    """The option whose letter-holding text is the whole response ("A and C", "Answer: A, B and C"), read as that
    option and not as the letters in it; options that are a single letter are left to the label reading."""
    prefix = _ANSWER_PREFIX.match(text)  # optional throughout, so it always matches
    rest = text[prefix.end() :] if prefix is not None else text
    said = _plain(rest)
    if not said or len(said) > 80:
        return None
    letter = (options.lettered() or ({}, {}))[0].get(said)
    if letter is None:
        return None
    detail = f"the response is the text of option {letter} ({options[letter]!r}), whose words are letters"
    return Extraction(letter, "option-text", detail, None, "explicit" if len(rest) < len(text) else "shape")


def _phrase_option_text(text: str, pos: int, options: OptionMatcher) -> Extraction | None:
    """An answer phrase at `pos` whose object is a letter-holding option text ("The answer is A and B."): that
    option, not the letters in it."""
    phrase = _PHRASE_REST.match(text, pos)
    if phrase is None or phrase.group("neg"):
        return None
    said = _plain(_first_sentence(phrase.group("rest")))
    letter = (options.lettered() or ({}, {}))[0].get(said)
    if letter is None:
        return None
    detail = f"the answer phrase gives the text of option {letter} ({options[letter]!r}), whose words are letters"
    return Extraction(letter, "option-text", detail, (pos, phrase.end()), "explicit")


def _label_or_text(found: Extraction, options: OptionMatcher) -> Extraction:
    """A conflict when the letter read is also the whole text of another option and nothing marks it as a label."""
    other = (options.lettered() or ({}, {}))[1].get(found.answer or "")
    if other is None or other == found.answer:
        return found
    return conflict(
        f"{found.explanation} gives option {found.answer}",
        f"{found.answer} is also the whole text of option {other}",
        found.method,
    )


# What a stated letter is said with ("The answer is (E) 14 km", "Answer: D - oak tree", "B: 3/4 of the tank"): after
# blanks and a dash, colon, comma or "=", up to the end of the sentence; a period right after the letter ends it.
_SAID_WITH = lazy_regex(r"(?P<period>\.)?[ \t]*(?:[-–—:：,=][ \t]*)?(?P<said>[^\s.!?。][^\n]{0,119})")
_SAID_END = lazy_regex(r"[!?;。]|\.(?=\s|$)")


def _stated_with(found: Extraction, text: str, end: int, options: OptionMatcher) -> Extraction:
    """`found`, or a conflict when the text the letter is stated with (from `end`) is another option's or a value
    no option has (`OptionMatcher.contradiction`)."""
    letter = found.answer or ""
    own = options.get(letter)
    if own is None or text[end:].lstrip(".:-–— \t").rstrip(" \t.!\n") == own:
        return found  # "The answer is B. Walking." with B's own text, as it most often is
    said = _SAID_WITH.match(text, end)
    if said is None:
        return found
    rest = _first_clause(said.group("said"))
    if rest == own or (said.group("period") and not options.restates(rest)):
        return found  # its own text; "The answer is B. Running is wrong." goes on to a sentence of its own
    why = options.contradiction(letter, rest)
    if why is None:
        return found
    return conflict(f"{found.explanation} gives option {letter} ({own!r})", why, found.method)


# A clause that concludes what something is: "... is the kettle, since ...", "... would be the jar." (not "was": a
# first thought given up; not "is not").
_CONCLUDED = lazy_regex(
    r"(?i:\b(?:is|would\s+be|must\s+be|should\s+be|it['’]s)\s+)(?P<rest>[^.,;:!?\n]{1,80}?)"
    r"(?=\s*(?:[.,;:!?\n]|$)|\s+(?i:since|because|as|which|so|that|here)\b)"
)
_PROSE_SENTENCES = 2  # the sentences before an answer line that are its prose conclusion
_SENTENCE_GAPS = (". ", "! ", "? ")


def _after_sentence(text: str, pos: int) -> bool:
    """Whether a sentence ends somewhere before `pos` (cheap string searches)."""
    return text.rfind(". ", 0, pos) > 0 or text.rfind("! ", 0, pos) > 0 or text.rfind("? ", 0, pos) > 0


_LINE_OPENING = lazy_regex(r"[^\w\n]*(?:(?i:so|thus|therefore|hence),?[ \t]+)?(?:(?i:the|my)[ \t]+)?")


def _prose_against_line(found: Extraction, text: str, pos: int, end: int, options: OptionMatcher) -> Extraction:
    """A conflict when an answer line states its letter with that option's own text ("Answer: C - mug") and the
    prose conclusion just before it says, of exactly one other option, that the answer is it ("The thing that
    boils the water is the kettle, since ...") while never naming the stated option: two final answers. Word
    options only; a ruled-out option ("It is not the kettle") or one the prose names beside the stated one is
    no conflict. The statement starts at `pos` (a line or a sentence of its own); its letter ends at `end`."""
    said = _SAID_WITH.match(text, end)
    if said is None:
        return found  # the letter is stated alone ("The answer is B."): most answers end here
    letter = found.answer or ""
    own = options.get(letter)
    own_key = _option_keys(own) if own is not None else None
    if not own_key or own_key[3] or not own_key[0] or _tokens(_first_clause(said.group("said"))) != own_key[0]:
        return found  # no word option stated with its own text
    cut = text.rfind("\n", 0, pos) + 1
    if not _LINE_OPENING.fullmatch(text, cut, pos):  # "... on the hob. Answer: C - mug": a sentence of its own
        cut = max(text.rfind(gap, cut, pos) for gap in _SENTENCE_GAPS) + 1
        if cut <= 0 or not _LINE_OPENING.fullmatch(text, cut, pos):
            return found
    if not text[:cut].strip():
        return found  # not an answer line (or sentence) of its own after prose
    prose = text[:cut]
    named: set[str] = set()
    for sentence in _SENTENCE_SPLIT.split(prose[-_PROSE_SENTENCES * _LONGEST_CLAUSE :].strip())[-_PROSE_SENTENCES:]:
        for clause in _CONCLUDED.finditer(sentence[-_LONGEST_CLAUSE:]):
            words = _tokens(clause.group("rest"))
            named.update(o for o, text_o in options.items() if o != letter and _option_keys(text_o)[0] == words)
    if len(named) != 1:
        return found  # no single other option concluded
    lower = prose.lower().replace("°", " degrees ").replace("\\circ", " degrees ")  # as `_tokens` reads them
    if all(word in lower for word in own_key[0]) and _contains_run(_tokens(prose), own_key[0]):
        return found  # the prose names the stated option too (its word stems are looked for first: cheap)
    other = named.pop()
    return conflict(
        f"the prose concludes option {other} ({options[other]!r})",
        f"the answer line gives {letter} ({own!r})",
        found.method,
    )


# After a stated letter, another for another part: "(B) for work and (A) for heat", "(C) for the first part and (D)".
_PER_PART = lazy_regex(r"[ \t]*[)\]]?[ \t]+for\b[^\n.;]{1,60}?\band\s+[(\[]?(?P<l>[A-Z])[)\]]?[ \t]+for\b")


def _one_per_part(text: str, last: _Statement, letters: Sequence[str]) -> Extraction | None:
    """A conflict when the final statement gives one letter per part of the question: two answers, not one."""
    other = _PER_PART.match(text, last.end)
    if other is None or other.group("l") == last.letter or other.group("l") not in letters:
        return None
    return conflict(
        f"{quote(last.snippet)!r} gives {last.letter} for one part",
        f"{other.group('l')} for another ({quote(text[last.end : other.end()].strip(), 40)!r})",
        "answer-phrase",
    )


# A line that ends in a computed result: "... so angle 4 = 70°.", "the total is 18.", "面积为 48", "will be $96.40",
# "= \\frac{8}{3}", "是4√3".
_RESULT_AT_END = lazy_regex(
    r"(?:=|\b(?i:is|equals|(?:will|would|must)\s+be)\b|是|为)[ \t$]*(?:\\[(\[][ \t]*)?"
    r"(?P<v>[-−]?(?:\\frac\{\d+\}\{\d+\}|√\d+|\d[\d,]*(?:\.\d+)?(?:/\d+|√\d+)?)"
    r"(?:[ \t$]*(?:\\[)\]])?[ \t]*(?:°|\^\\circ|\^\{\\circ\}|%|[A-Za-z]{1,5}(?:[²³23]|\^[23]|/[A-Za-z]{1,3})?))?)"
    r"[ \t$]*[.。]?[ \t]*$"
)
_MATH_CLOSE = lazy_regex(r"(?:[ \t]*(?:\\[)\]]|\$\$?))+[ \t]*\Z")  # "... = 232.\\]", "... $\\frac{8}{3}$"
# Before an answer statement on the same line: the words that may open its sentence ("So the", "Therefore the").
_LEAD_IN = lazy_regex(r"(?:(?i:so|thus|therefore|hence),?[ \t]+)?(?:(?i:the|my)[ \t]+)?[ \t]*\Z")
_LEAD_IN_MAX = 30  # characters: "Therefore, the " and blanks
_LEAD_IN_CHARS = "sothuerfncmySOTHUERFNCMY, \t"  # every character a `_LEAD_IN` match can hold in ASCII text
_COMPUTED = lazy_regex(r"=|(?i:\b(?:so|thus|therefore|hence|total|will\s+be|comes\s+to|result)\b)")


def _result_before(text: str, last: _Statement, options: OptionMatcher) -> Extraction | None:
    """A conflict when the final answer statement follows a computed value that is another option's or no option's,
    while the letter's option is a value: the line right before it ends in that value and the statement opens its own
    line ("... so angle 2 = 50°.\nTherefore, the correct option is (D) 100°." where D is 100°), or, on one line, the
    sentence before it computes the value ("... so its speed is 120 / 2 = 60 km/h. So the answer is C.")."""
    before = _line_before(text, last.pos, last.letter)
    if before is None:
        if _VALUE.search(text, text.rfind("\n", 0, last.pos) + 1, last.pos) is None:
            return None  # no number before it on its line: no result (the sentence's search costs most)
        before = _sentence_before(text, last.pos)
    if not before or _VALUE.search(before) is None:
        return None  # a result ends in a number: most lines before an answer hold none
    before = before.rstrip(" \t.。")
    closing = _MATH_CLOSE.search(before) if "\\" in before or "$" in before else None
    before = before[: closing.start()].rstrip(" \t.。") if closing else before
    if not before or before[-1:] in ":：":
        return None
    result = _RESULT_AT_END.search(before)
    if result is None or _APPROXIMATE.search(before) or _NAMED_PAIR.search(before, max(0, result.start() - 60)):
        return None  # an estimate, or "x = 1 and y = 4": not one result to hold the letter against
    if last.letter not in options.value_keys():  # the options' values last: they cost most
        return None
    if last.letter in options.pairs():
        return None  # "x = 3, y = 4": one value of the line is only part of the option (`_pair_before` reads them)
    value = " ".join(result.group("v").replace("\\)", " ").replace("\\]", " ").replace("$", " ").split())
    why = options.contradiction(last.letter, value)
    if why is None or _rounded_to(value, options[last.letter]) or no_evidence(before, value, options[last.letter]):
        return None  # "0.3" for "30%", "0.24 km" against "240 m", "a·64 − b·16 + 2 − 1 = 5": nothing against it
    return conflict(
        f"{quote(last.snippet)!r} gives option {last.letter} ({options[last.letter]!r})",
        f"the working right before it ends in {quote(value, 40)!r}, {why.rpartition(', is ')[2] or why}",
        last.method,
    )


_APPROXIMATE = lazy_regex(r"(?i:\b(?:approx|approximately|about|roughly|around|estimated?|nearly)\b)|≈|\\approx")
_NAMED_PAIR = lazy_regex(r"\b[A-Za-z]\s*=\s*[-−]?\d[\d.,]*[\s$]*(?:,|\band\b)[\s$]*[A-Za-z]\s*=")
_NUMBER = lazy_regex(r"[-−]?\d[\d,]*(?:\.\d+)?")
_ROUNDING = 1e-4  # relative: "= 1,003.72" then the option "$1,003.68" is one amount, rounded on the way


def _rounded_to(value: str, option: str) -> bool:
    """Whether the one number in `value` is within rounding of the one number in `option`: within 0.01% of it, or
    within one unit of the option's last decimal place ("3.46" and the option "3.5")."""
    ours, theirs = _NUMBER.findall(value), _NUMBER.findall(option)
    if len(ours) != 1 or len(theirs) != 1:
        return False
    a, b = (float(n.replace(",", "").replace("−", "-")) for n in (ours[0], theirs[0]))
    places = len(theirs[0].partition(".")[2])
    return a != b and (abs(a - b) <= _ROUNDING * abs(b) or (places > 0 and abs(a - b) <= 10.0**-places))


def _line_before(text: str, pos: int, letter: str) -> str | None:
    """The last non-blank line before the line that `pos` opens (the words before `pos` hold no digit), or None. A
    short line that only restates `letter` ("This matches option (C) 80 km/h.") is passed over for the one above."""
    line_start = text.rfind("\n", 0, pos)
    if line_start < 0 or _has_digit(text[line_start:pos]):
        return None
    above = text[:line_start].rstrip()
    line = above[above.rfind("\n") + 1 :].strip()
    restated = _restated(line) if len(line) <= _RESTATED_MAX and "=" not in line else None
    if restated is not None and restated.group("l") == letter and above.rfind("\n") > 0:
        above = above[: above.rfind("\n")].rstrip()
        line = above[above.rfind("\n") + 1 :].strip()
    return line


# A line between the working and the answer line that names the letter it is about to give.
_RESTATED = lazy_regex(
    r"(?i:\b(?:matches|is|corresponds\s+to|gives|to)\s+(?:the\s+)?(?:option|choice|answer))\s*[(\[]?(?P<l>[A-Z])[)\]]?"
    r"(?![A-Za-z])"
)
_RESTATED_MAX = 80  # characters
# In ASCII text every `_RESTATED` match holds one of these (in lower case): "to option", "is the answer".
_RESTATED_GATE = lazy_regex(r"(?:matches|is|to|gives)\s+(?:the\s+)?(?:option|choice|answer)")


def _restated(line: str) -> re.Match[str] | None:
    """`_RESTATED.search(line)`, skipped where an ASCII line holds no verb and option noun together."""
    if line.isascii() and _RESTATED_GATE.search(line.lower()) is None:
        return None
    return _RESTATED.search(line)


def _sentence_before(text: str, pos: int) -> str | None:
    """The sentence before the one `pos` opens on its line, when that sentence computes something ("= 60 km/h",
    "so the total will be $96.40"); None otherwise (a given value, "We are told that the base is 4.", is not a
    result)."""
    line_start = text.rfind("\n", 0, pos) + 1
    if text.rfind(".", line_start, pos) < 0 and text.rfind("。", line_start, pos) < 0:
        return None  # nothing ends a sentence before the statement on its line
    head = text[line_start:pos]
    if head.isascii() and _computing(head[: len(head.rstrip(_LEAD_IN_CHARS))].rstrip()) is None:
        # A lead-in ("Therefore, the ") holds only `_LEAD_IN_CHARS`, so it starts after the last other character:
        # cut there or later, the head either ends in a lead-in's letter or comma (no sentence) or is this one.
        return None
    lead = _lead_in(head, max(0, len(head) - _LEAD_IN_MAX))
    return _computing(head[: lead.start()].rstrip() if lead else head.rstrip())


def _computing(head: str) -> str | None:
    """The last sentence of `head` (the text before a statement, without its lead-in) when it computes something."""
    if head[-1:] not in ".。":
        return None
    sentence_start = max(head.rfind(". ", 0, len(head) - 1) + 2, head.rfind("。", 0, len(head) - 1) + 1, 0)
    sentence = head[sentence_start:]
    if sentence.isascii() and "=" not in sentence and _COMPUTED_WORDS.isdisjoint(_words(sentence.lower())):
        return None  # none of the words `_COMPUTED` needs (whole words): its search, slow, cannot match
    return sentence if _COMPUTED.search(sentence) else None


# Whole words one of which a `_COMPUTED` match holds, when it has no "=".
_COMPUTED_WORDS = frozenset((b"so", b"thus", b"therefore", b"hence", b"total", b"will", b"comes", b"result"))


def _lead_in(head: str, start: int) -> re.Match[str] | None:
    """`_LEAD_IN.search(head, start)`, trying the pattern only where a match can start in ASCII text: where one of
    its words begins ("so", "thus", "therefore", "hence", "the", "my": their first two letters) and at the blanks
    that end `head` (the match that is always there); `search` would try every position, each costing as much."""
    if not head.isascii():
        return _LEAD_IN.search(head, start)
    lower = head.lower()
    blanks = max(start, len(head.rstrip(" \t")))
    candidates = []
    for opening in ("so", "th", "he", "my"):
        at = lower.find(opening, start, blanks)
        while at >= 0:
            candidates.append(at)
            at = lower.find(opening, at + 1, blanks)
    candidates.sort()
    candidates.append(blanks)
    for at in candidates:
        found = _LEAD_IN.match(head, at)
        if found is not None:
            return found
    return None


_PAIR_WINDOW = 400  # characters before a statement that hold its concluding lines
_PAIR_SKIP = 60  # a line without a number shorter than this ("Thus the correct choice is:") is passed over
_CLAUSE_BREAK = lazy_regex(r"[,;，；、]|\s(?i:and|while|but)\s")
_PAIR_NUMBER = lazy_regex(r"(?<![\w.^])-?\d+(?:\.\d+)?")


def _pair_before(text: str, last: _Statement, options: OptionMatcher) -> Extraction | None:
    """A conflict when the options hold several values each ("12 N, 30 J") and the lines that conclude before the
    final statement state the values of another option and not all of the stated one's ("The force is 12 N.\nThe
    work is 30 J.\nAnswer: B" where A is "12 N, 30 J" and B "12 N, 36 J"). The concluding lines are the line of the
    statement up to it and the lines with a number right before it (as many as the option has values; a short line
    without one, such as "Thus the correct choice is:", is passed over); each of their clauses states the number it
    ends with. Numbers are compared as values, units aside."""
    start = max(0, last.pos - _PAIR_WINDOW)
    if _VALUE.search(text, start, last.pos) is None:
        return None  # most statements have no number before them: no option is read
    pairs = options.pairs()
    own = pairs.get(last.letter)
    if own is None:
        return None  # options of one value or none, as most are (worked out once per question)
    stated = _concluded_numbers(text[start : last.pos], len(own))
    if not stated or _all_stated(own, stated):
        return None
    others = [letter for letter, values in pairs.items() if letter != last.letter and _all_stated(values, stated)]
    if not others:
        return None
    named = " and ".join(f"option {letter}'s ({options[letter]!r})" for letter in others)
    return conflict(
        f"{quote(last.snippet)!r} gives option {last.letter} ({options[last.letter]!r})",
        f"the lines before it conclude the values of {named}",
        last.method,
    )


def _concluded_numbers(before: str, wanted: int) -> list[float]:
    """The numbers the clauses of the concluding lines end with (see `_pair_before`), nearest line first."""
    lines = before.split("\n")
    found: list[float] = []
    taken = 0
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if _VALUE.search(line) is None:
            if index == len(lines) - 1 or len(line.strip()) < _PAIR_SKIP:
                continue  # the statement's own line, a blank line or a short lead-in
            break
        for clause in _CLAUSE_BREAK.split(line):
            numbers = _PAIR_NUMBER.findall(clause)
            if numbers:
                found.append(float(numbers[-1]))
        taken += 1
        if taken == wanted:
            break
    return found


def _all_stated(values: tuple[float, ...], stated: list[float]) -> bool:
    return all(any(same_value(value, said) for said in stated) for value in values)


_PARTS_MIN = 20  # characters of prose before a statement that can carry an option's parts
_JOINERS = (",", " and ", ";", " while ", " but ", "，")


def _parts_before(text: str, last: _Statement, options: OptionMatcher) -> Extraction | None:
    """A conflict when the options have several parts ("become more permissive; become less accepting") and the
    sentence that concludes before the final statement (with the statement's own sentence up to it) carries every
    part of another option and not every part of the stated one ("... have become more permissive, while ... have
    become less accepting. The answer is (A)." where A is "...; become more accepting"). One part shared is no
    conflict."""
    if last.pos < _PARTS_MIN:
        return None  # the statement opens the response: most do
    parts = options.parts()
    own = parts.get(last.letter)
    if own is None:
        return None  # options of one part, as most are (worked out once per question)
    cut = max(text.rfind(gap, 0, last.pos - 2) for gap in (*_SENTENCE_GAPS, "\n"))
    cut = max(max(text.rfind(gap, 0, cut) for gap in (*_SENTENCE_GAPS, "\n")), 0) if cut > 0 else 0
    window = text[cut : last.pos]
    if not any(joiner in window for joiner in _JOINERS):
        return None  # one clause carries one part
    tokens = _tokens(window)
    if all(_contains_run(tokens, part) for part in own):
        return None
    others = [o for o, runs in parts.items() if o != last.letter and all(_contains_run(tokens, run) for run in runs)]
    if not others:
        return None
    named = " and ".join(f"option {letter} ({options[letter]!r})" for letter in others)
    return conflict(
        f"{quote(last.snippet)!r} gives option {last.letter} ({options[last.letter]!r})",
        f"the sentence before it carries every part of {named}",
        last.method,
    )


_AFTER_MAX = 600  # characters: a response that opens with its letter and explains it in a few sentences
_AFTER_MIN = 12  # characters after the statement that can hold a concluding sentence
_CONCLUDING = lazy_regex(r"(?i:\b(?:so|thus|therefore|hence|must|the\s+answer)\b)")


def _concluded_after(text: str, last: _Statement, options: OptionMatcher) -> Extraction | None:
    """A conflict when a short response opens with its letter and its explanation ends on another option: a value
    another option has at its very end ("The answer is C. ... so the angle must be 110 degrees." where C is 140° and
    A 110°), a value no option has in a sentence that concludes ("so", "thus", "must", ...: "The answer is B. So the
    angle must be 115°."), or, for options in words, a concluding sentence that says the thing is another option
    ("... so the object he fills is the jar."). Values of the working before the last sentence, a given value that
    concludes nothing ("The two base angles are 20° each.") and a ruled-out option ("It is not the jar") are no
    conflict. The options are read last, and only where the last sentence ends in a number or concludes."""
    if last.pos > _OPENING or len(text) > _AFTER_MAX or len(text) - last.end < _AFTER_MIN:
        return None  # most statements end their response or follow the working: nothing is read
    tail = text[last.end :].strip(" \t\n.)]:")
    own = options.get(last.letter)
    if own is None or tail == own or _plain(tail) == _plain(own):
        return None  # "The answer is B. Walking.": the letter with its own text, as it most often is
    end = tail[-_END_REGION:]
    ends_in_value = _ENDS_IN_VALUE.search(end) is not None  # "= 120°.", "is 18 pens.", not "150°, are wrong."
    if not ends_in_value and _CONCLUDING.search(tail) is None:
        return None
    sentence = _SENTENCE_SPLIT.split(tail)[-1].strip() or tail
    concludes = _CONCLUDING.search(sentence) is not None
    if not (ends_in_value or concludes) or _NEGATION.search(sentence):
        return None
    why = None
    if ends_in_value and options.value_keys():  # the options' values last: they cost most
        decided, letter = options.value_hits(end)
        if decided and letter is not None:
            if letter != last.letter:
                why = f"the explanation after it ends on option {letter}'s value ({quote(sentence, 50)!r})"
        elif concludes and options.match_conclusion(sentence) == (True, None):
            why = f"the explanation after it concludes a value no option has ({quote(sentence, 50)!r})"
    elif concludes and last.letter not in options.value_keys():
        named = {_tokens(clause.group("rest")) for clause in _CONCLUDED.finditer(sentence)}
        others = [o for o, text_o in options.items() if o != last.letter and _option_keys(text_o)[0] in named]
        if len(others) == 1:
            why = f"the explanation after it concludes option {others[0]} ({quote(sentence, 50)!r})"
    if why is None:
        return None
    return conflict(f"{quote(last.snippet)!r} gives option {last.letter} ({own!r})", why, last.method)


# A number, then at most a unit or two words, ends the text: "= 120°.", "is 18 red pens.", "110 degrees".
_ENDS_IN_VALUE = lazy_regex(
    r"\d(?:[ \t]*(?:°|\^\\circ|\^\{\\circ\}|%|[A-Za-z]{1,10}(?:[ \t]+[A-Za-z]{1,10})?))?[ \t.)$]*$"
)
_END_REGION = 24  # characters: the end of the response holds that option's value alone ("= 120°.", "is 18 pens.")


# An answer stated as a value, then the letter it is said to be: "So the answer is 72, which corresponds to option
# (B).", "答案是55°，对应选项是（D）". Searched only where "correspond" or "对应" occurs, in the response's end.
_VALUE_THEN_LETTER = lazy_regex(
    r"(?:(?i:answer\s+(?:is|would\s+be))|答案\s*(?:是|为))\s*(?P<v>[^,，。;\n]{1,40}?)\s*[,，]?\s*"
    r"(?:(?i:which|that)\s+)?(?:(?i:corresponds?|corresponding)\s+(?i:to)|对应(?:的)?)\s*(?:(?i:the)\s+)?"
    r"(?:(?i:option|choice|answer)|选项)?\s*(?:是\s*)?[(（]?(?P<l>[A-Z])[)）]?(?![A-Za-z])"
)
_VALUE_THEN_LETTER_TAIL = 300  # characters: the concluding part of the response


def _value_then_letter(
    found: Extraction, text: str, letters: Sequence[str], options: OptionMatcher | None
) -> Extraction:
    """`found`, or a conflict when the response's conclusion states a value as the answer and then a letter whose
    option has another value ("答案是55°，对应选项是（D）" where D is 150°)."""
    if options is None or not found.parsed or ("orrespond" not in text and "对应" not in text):
        return found
    tail_start = max(0, len(text) - _VALUE_THEN_LETTER_TAIL)
    matches = list(_VALUE_THEN_LETTER.finditer(text, tail_start))
    if not matches:
        return found
    said = matches[-1]
    letter, value = said.group("l"), said.group("v").strip()
    if letter not in letters:
        return found
    why = options.contradiction(letter, value)
    if why is None:
        return found
    return conflict(f"{quote(said.group(0))!r} gives option {letter} ({options[letter]!r})", why, found.method)


def _first_clause(said: str) -> str:
    """What a letter is stated with, up to the end of its sentence ("Walking. This is shown at 0:12" -> "Walking")."""
    stop = _SAID_END.search(said)
    return (said[: stop.start()] if stop else said).strip(" \t.,;:!")


def _checked_line(found: Extraction, line: str, options: OptionMatcher) -> Extraction:
    """A line read as its letter ("B - Yes, they are parallel"), or a conflict when the text after the letter is
    another option's or a value no option has."""
    shaped = _OPTION_LINE.match(line)
    if shaped is None or shaped.group(1) != found.answer:
        return found
    letter = shaped.group(1)
    said = _first_clause(line[shaped.end() :])
    if said == options.get(letter, said):
        return found  # "B. Walking": its own text, as it most often is
    why = options.contradiction(letter, said)
    if why is None:
        return found
    return conflict(f"{found.explanation} gives option {letter} ({options[letter]!r})", why, found.method)


def _box_against_statement(box: _Statement, statements: list[_Statement]) -> Extraction | None:
    """A conflict when a box holds an option's value (not its letter) and the last answer statement before it names
    another letter: "The correct answer is (C). ... so the length is \\boxed{7}" where 7 is option A's."""
    if box.detail != "value":
        return None
    said = [s for s in statements if s.pos < box.pos and s.kind == "answer" and s.method == "answer-phrase"]
    if not said or said[-1].letter == box.letter:
        return None
    return conflict(
        f"{quote(said[-1].snippet)!r} gives {said[-1].letter}",
        f"{quote(box.snippet)!r} holds option {box.letter}'s value",
        "boxed",
    )


# Between two final statements back to back: blanks and punctuation ("The answer is (C).\nThe answer is (F).").
_BACK_TO_BACK = lazy_regex(r"[\s.,;:!)\]*]*(?:(?i:the)\s+)?")


def _closing_run(text: str, statements: list[_Statement]) -> Extraction | None:
    """A conflict when the response ends with several final answers that name different letters: answer
    statements back to back (nothing but blanks and punctuation between them) and letters alone on the
    lines after the last ("The answer is (C).\nThe answer is (F).\n(A)\n(C)", "Answer: A\nAnswer: D", "The answer
    is D.\n\nB"): a few-shot continuation, not a last word. A correction ("Wait, it is D") is no such run."""
    last = statements[-1]
    if last.method != "answer-phrase":
        return None
    run: list[tuple[str, str]] = [(last.letter, last.snippet)]  # (letter, what said it), latest first until reversed
    later = last
    for statement in reversed(statements[:-1]):
        if statement.kind != "answer" or statement.method != "answer-phrase":
            break
        if not _BACK_TO_BACK.fullmatch(text, statement.end, later.pos):
            break
        run.append((statement.letter, statement.snippet))
        later = statement
    if len(run) == 1 and text.find("\n", last.end) < 0:
        return None  # one final statement and no line after it: no run (most responses)
    run.reverse()
    if "\n" in text[last.end :]:
        run.extend((letter, f"({letter})") for letter in _letter_lines_after(text, last.end))
    final, said = run[-1]
    other = next(((letter, what) for letter, what in reversed(run) if letter != final), None)
    if other is None:
        return None
    return conflict(
        f"{quote(other[1])!r} gives {other[0]}", f"{quote(said)!r} gives {final} (several final answers)", "final-run"
    )


def _letter_lines_after(text: str, end: int) -> list[str]:
    """The letters alone on the lines after `end` ("...is D.\n\nB"), when the rest of `end`'s line is only
    punctuation and every later line is a letter alone; else none."""
    line_end = text.find("\n", end)
    if line_end < 0 or text[end:line_end].strip(" \t.,;:!)]*"):
        return []
    found = []
    for line in text[line_end + 1 :].splitlines():
        line = line.strip()
        if not line:
            continue
        bare = _bare(line)
        if bare is None or not (bare.group(1).isupper() or _LOWER_LINE.fullmatch(line)):
            return []
        found.append(bare.group(1).upper())
    return found


def _origin(statement: _Statement, trace: Trace | None) -> _Statement:
    """`statement` with its positions taken back through `trace` (to the text before markdown was deleted)."""
    if trace is None:
        return statement
    return statement._replace(pos=trace.origin(statement.pos), end=trace.origin(statement.end - 1) + 1)


class _Final(NamedTuple):
    """A container's reading: what it is ("<answer>", "JSON field 'answer'", "\\boxed{}"), what it gives, where."""

    name: str
    found: Extraction
    start: int
    end: int


def _tag_and_json(text: str, lower: str, letters: Sequence[str], options: Mapping[str, str] | None) -> list[_Final]:
    """The last `<answer>` tag's reading and the JSON answer field's, where the response has them."""
    finals = []
    if _ANSWER_TAG in lower:
        tag = _tagged(text, lower, letters, options)
        if tag is not None:
            finals.append(tag)
    if "{" in text:
        field = json_answer(text)
        if field is not None:
            finals.append(_json_final(field, letters, options))
    return finals


def _tagged(text: str, lower: str, letters: Sequence[str], options: Mapping[str, str] | None) -> _Final | None:
    """The reading of the response's last `<answer>...</answer>` (`text.answer_tag`); None when there is none."""
    tag = answer_tag(text, lower)
    if tag is None:
        return None
    opened, start, end = tag
    content = text[start:end]
    if not content.strip():
        return _Final("<answer>", unparsed("empty answer tag", "the <answer> tag holds nothing"), opened, end)
    found = _read(content, letters, options, shortcut=True)  # holds no further tag: it follows the last one
    if found.method == "option-text" and options and found.parsed:
        found = _opening_against_text(found, content, letters, options)
    found = _shifted(
        found.replace(
            explanation=f"{found.explanation} (inside <answer>)", strength="container" if found.parsed else None
        ),
        start,
    )
    outer = _enclosing_tag(text, lower, opened, letters, options)
    if outer is not None and found.parsed and outer != found.answer:
        found = conflict(f"an <answer> tag gives {outer}", f"the tag nested in it gives {found.answer}", "container")
    return _Final("<answer>", found, opened, end)


def _enclosing_tag(
    text: str, lower: str, opened: int, letters: Sequence[str], options: Mapping[str, str] | None
) -> str | None:
    """The letter an `<answer>` tag still open at `opened` gives before the nested tag, if any:
    "<answer>A<answer>D</answer></answer>"."""
    before = lower.rfind("<" + _ANSWER_TAG, 0, opened)
    if before < 0 or _ANSWER_TAG_END in lower[before:opened]:
        return None
    outer = text[before + len(_ANSWER_TAG) + 1 : opened]
    return _read(outer, letters, options, shortcut=True).answer if outer.strip() else None


def _json_final(field: JsonAnswer, letters: Sequence[str], options: Mapping[str, str] | None) -> _Final:
    """The reading of a JSON answer field: its string read as a response is, a list of one letter, or unparsed
    (null, a number, several letters)."""
    name = f"JSON field {field.key!r}"
    value = field.value
    if isinstance(value, list):
        given = {str(item).strip().upper() for item in value if str(item).strip()}
        value = value[0] if len(given) == 1 else value
    if isinstance(value, list):
        found = unparsed("hedge", f"the {name} lists several answers: {quote(str(field.value))!r}", "json")
    elif value is None:
        found = unparsed("no answer stated", f"the {name} is null", "json")
    elif not isinstance(value, str):
        found = unparsed("no letter found", f"the {name} holds {quote(str(value))!r}, not a letter", "json")
    else:
        inner = _read(value, letters, options, shortcut=True)
        if inner.parsed:
            found = Extraction(
                inner.answer, "json", f"read the {name}: {quote(value)!r} ({inner.method})", field.span, "container"
            )
        else:
            found = inner.replace(method="json", explanation=f"{inner.explanation} (the {name})")
    return _Final(name, found, *field.span)


_ADJACENT_BOXES = lazy_regex(r"[\s,;/$]*(?:(?i:or|and)\b[\s,;/$]*)?")  # one way to match: no backtracking


_LETTER_BOX = lazy_regex(r"\\+boxed\{\s*(?:\\text\{)?\s*\(?[A-Z]\)?\s*\}?\s*\}")


def _box_final(boxes: list[_Statement], text: str, trace: Trace | None) -> _Final:
    """The last box's reading; a hedge when the box right before it (only blanks, commas or "or" between)
    gives another letter: "\\boxed{A} or \\boxed{D}"."""
    last = boxes[-1]
    found = _traced(_verdict([last], ()), trace)
    if len(boxes) > 1:
        before = boxes[-2]
        if before.letter != last.letter and _ADJACENT_BOXES.fullmatch(text, before.end, last.pos):
            found = unparsed("hedge", f"boxes side by side give {before.letter} and {last.letter}", "boxed")
    last = _origin(last, trace)
    return _Final("\\boxed{}", found, last.pos, last.end)


def _container_verdict(finals: list[_Final], statements: list[_Statement], letters: Sequence[str]) -> Extraction:
    """The containers must agree, and no explicit statement after the last of them may say otherwise: two final
    answers of the same strength are a conflict, never a guess."""
    finals.sort(key=lambda final: final.end)
    last = finals[-1]
    for other in finals[:-1]:
        if other.found.answer != last.found.answer:
            return conflict(_gives(other), _gives(last), "container")
    after = [s for s in statements if s.pos >= last.end]
    if after and not last.found.parsed and last.found.explanation.startswith("no option matches"):
        later = _verdict(after, letters)  # "\\boxed{20} ... so the closest option is B": the model's own pick
        return later if later.parsed else last.found
    if after and last.found.parsed:
        later = _verdict(after, letters)
        if later.answer != last.found.answer:
            said = f"gives {later.answer}" if later.parsed else f"says {quote(later.explanation, 50)!r}"
            return conflict(_gives(last), f"a later statement {said}", "container")
    return last.found


def _gives(final: _Final) -> str:
    answer = final.found.answer
    return f"{final.name} gives {answer}" if answer else f"{final.name} gives no answer ({final.found.explanation})"


def _short_form(short: re.Match[str], letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction | None:
    """What the full reading gives a response `_FAST` matched, or None when it must read it itself.

    An answer phrase ("The best answer is: B") is the response's only statement, so it is read as such. An
    option line ("B. Walking") is read as the leading letter when no statement rule can fire on it: the full
    reading finds no statement and then reads the line's shape, which is all `_leading_line` does.
    """
    letter = short.group("phrase_letter")
    if letter is not None:
        kind = "answer" if letter in letters else "invalid"
        return _verdict([_said(short.start("phrase"), kind, letter, "answer-phrase", short.group("phrase"))], letters)
    line = short.group("line")
    lower = line.lower()
    if "box" in lower or not _ENABLING.keys().isdisjoint(_words(lower)):
        return None
    if _ends_in_letter(line):
        return None  # "D: B" -- a closing letter may disagree with the opening one: the full reading decides
    found = _leading_line([line.strip()], False, letters)
    if found is None:
        return None
    line = line.strip()
    if options and found.answer is not None and line[3 + (line[0] in "([") :].rstrip(" .") != options.get(found.answer):
        found = _checked_line(found, line, option_matcher(options))  # not "B. Walking" with B's own text
    return _line_span(found, short.string, line)


def _ends_in_letter(line: str) -> bool:
    """Whether a line ends in a capital standing alone ("... so B.", "... (C)"), cheaply, before any regex."""
    last = line[-1:]
    if not ("A" <= last <= "Z" or last in " \t.!。)]"):
        return False  # most lines end in a lower-case letter or a digit
    end = line.rstrip(" \t.!。)]")
    return len(end) > 1 and "A" <= end[-1] <= "Z" and not end[-2].isalnum()


def _bare(text: str) -> re.Match[str] | None:
    """The letter of a text that is nothing but a letter; texts over `_BARE_MAX` never are, so skip the regex."""
    return _BARE.fullmatch(text) if len(text) <= _BARE_MAX else None


def _bare_letter(letter: str, letters: Sequence[str], text: str, span: tuple[int, int] | None = None) -> Extraction:
    upper = letter.upper()
    if upper in letters:
        return Extraction(upper, "bare-letter", f"the whole response is the letter: {quote(text)!r}", span, "shape")
    return unparsed("letter not allowed", f"{upper} is not one of {', '.join(letters)}", "bare-letter")


_STRENGTH_OF: dict[str, Strength] = {"boxed": "container"}


def _verdict(statements: list[_Statement], letters: Sequence[str]) -> Extraction:
    """The reading the last of `statements` gives (a hedge when it is tentative and an earlier tentative statement
    after the last firm one names another letter: "Probably C, or maybe D")."""
    last, count = statements[-1], len(statements)
    where = f"{quote(last.snippet)!r}" + (f" (last of {count} explicit statements)" if count > 1 else "")
    if last.kind == "answer" and last.method == "tentative":
        tentative = set()
        for statement in reversed(statements):
            if statement.method != "tentative":
                break
            tentative.add(statement.letter)
        if len(tentative) > 1:
            return unparsed("hedge", f"tentative answers name {', '.join(sorted(tentative))}: {where}", "tentative")
        firm = next((s for s in reversed(statements) if s.method != "tentative"), None)
        if firm is not None and firm.kind == "answer" and firm.letter != last.letter:
            # "Answer: B ... maybe C" (a restart cut off): a doubt does not overturn a stated answer
            return conflict(
                f"{quote(firm.snippet)!r} gives {firm.letter}",
                f"a later tentative {quote(last.snippet)!r} gives {last.letter}",
                "tentative",
            )
    if last.kind == "answer":
        return Extraction(
            last.letter, last.method, f"read {where}", (last.pos, last.end), _STRENGTH_OF.get(last.method, "explicit")
        )
    if last.kind == "conflict":
        return conflict(f"{where} gives option {last.letter}", last.detail, last.method)
    if last.kind == "none":
        return unparsed("no answer stated", f"the final statement gives no letter: {where}", last.method)
    if last.kind == "no-match":
        return unparsed("no option matches", f"{where} holds a value that is no option's letter or text", last.method)
    if last.kind == "hedge":
        return unparsed("hedge", f"the final statement names several letters: {where}", last.method)
    return unparsed("letter not allowed", f"{last.letter} is not one of {', '.join(letters)}: {where}", last.method)


def _statements(text: str, lower: str, letters: Sequence[str], options: OptionMatcher | None) -> list[_Statement]:
    """Every explicit answer statement in `text` (`lower` is its lower case), sorted by position."""
    present = _present_keywords(lower)
    found: list[_Statement] = []
    for rule in _STATEMENT_PATTERNS:
        if present.isdisjoint(rule.keywords):
            continue  # one scan for all keywords first: a pattern cannot match without one of its words
        taken = {s.pos for s in found} if rule.only_new else ()
        for match in _scan(rule.pattern, text, lower, rule.starts):
            statement = _classify(match, text, letters, rule)
            if statement is not None and statement.pos not in taken:
                found.append(statement)
    if not present.isdisjoint(_HEDGE_WORDS):
        found.extend(
            _said(m.start(), "hedge", "", "hedge", m.group(0)) for m in _scan(_HEDGE, text, lower, _HEDGE_STARTS)
        )
    if not present.isdisjoint(_ANSWER_WORDS):
        found.extend(
            _said(m.start(), "none", "", "answer-phrase", m.group(0))
            for m in _scan(_NO_ANSWER, text, lower, _PHRASE_STARTS)
        )
    if "答案" in text:
        found.extend(_marker_letters(text, letters))
    if not present.isdisjoint(_WITHDRAW_WORDS):
        found.extend(_said(m.start(), "none", "", "withdrawn", m.group(0)) for m in _WITHDRAW.finditer(text))
    if "box" in text:
        found.extend(_boxed_statements(text, letters, options))
    if options and not present.isdisjoint(_ANSWER_WORDS):
        texts = _phrase_text_statements(text, lower, found, options)
        if texts:
            said = {s.pos for s in texts}  # "the answer is none of these" where that is an option: the option
            found = [s for s in found if not (s.kind == "none" and s.pos in said)] + texts
    found.sort(key=lambda s: s.pos)
    if len(found) > 1 or (found and "\n" in found[0].snippet):
        return _not_evaluations(text, found, letters)
    return found  # no statement, or one that cannot open the option list


# An exam paper's closing answer marker that gives several letters: "【答案】 BD", "答案：A、C" (alone on its line).
_MARKER_LETTERS = lazy_regex(
    r"(?:【答案】|[\[［]答案[\]］]|答案[ \t]*[:：])[ \t]*(?P<ls>[A-Z](?:[ \t]*[、,，]?[ \t]*[A-Z]){1,4})"
    r"[ \t]*[。.]?[ \t]*(?=\n|\Z)"
)


def _marker_letters(text: str, letters: Sequence[str]) -> list[_Statement]:
    """Closing markers that name several of `letters` ("【答案】 BD" after "所以选项B正确。……选项D正确。"): a hedge
    statement, so that the marker (the paper's answer) wins over the per-option verdicts of the working before it
    and a single-answer question answered with two letters is unparsed, naming them."""
    said = []
    for match in _MARKER_LETTERS.finditer(text):
        named = [char for char in match.group("ls") if char.isalpha()]
        if len(set(named)) > 1 and all(char in letters for char in named):
            said.append(_said(match.start(), "hedge", "", "answer-phrase", match.group(0)))
    return said


def _not_evaluations(text: str, found: list[_Statement], letters: Sequence[str]) -> list[_Statement]:
    """`found` without the lines of a per-option evaluation list, and with an answer phrase that introduces the list
    of all options read as giving no letter (`evaluations`)."""
    listed = evaluation_list(text, found) if len(found) > 1 else None
    if not listed and not any("\n" in s.snippet for s in found):
        return found  # most responses: no list, and no phrase whose letter opens a line
    return [
        s._replace(kind="none") if introduces_options(text, s, letters) else s
        for s in found
        if not listed or s.pos not in listed
    ]


def _present_keywords(lower: str) -> set[str]:
    """The keywords of `lower` (a text in lower case) that let their patterns run."""
    if lower.isascii():
        return set(filter(None, map(_ENABLING.get, _words(lower))))  # the keyword each enabling word stands for
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
    letter is only taken where no letter, digit or "_" comes before it ("'d" is taken anywhere). The words that
    begin with a letter are found by one search for any of them (the regex engine skips to their first letters; a
    hit spans letters only, so no other word can start a word inside it), the others by `str.find`."""
    positions = []
    alpha, anywhere = _start_words(words)
    for found in alpha.finditer(lower):
        at = found.start()
        if at == 0 or not (lower[at - 1].isalnum() or lower[at - 1] == "_"):
            positions.append(at)
    for word in anywhere:
        at = lower.find(word)
        while at >= 0:
            positions.append(at)
            at = lower.find(word, at + 1)
    return sorted(positions)


@lru_cache(maxsize=32)
def _start_words(words: tuple[str, ...]) -> tuple[re.Pattern[str], tuple[str, ...]]:
    """A search for any of `words` that begin with a letter (all lower-case letters), and the others ("'d")."""
    alpha = [word for word in words if word[0].isalpha()]
    return re.compile("|".join(map(re.escape, alpha))), tuple(word for word in words if not word[0].isalpha())


def _is_correct_starts(text: str, lower: str) -> list[int]:
    """Where an `_IS_CORRECT` match ("B is correct", "option (C) is the best answer") can start.

    Its verb ("is", "would be", "seems to be") follows blanks, which follow the letter and an optional closing
    bracket; so from each verb, step back over the blanks to the letter, then to an opening bracket and to an
    "option" or "choice" before more blanks: each is a possible start.
    """
    starts = []
    for verb in _positions(lower, _IS_CORRECT_VERBS):
        end = verb
        while end > 0 and text[end - 1].isspace():
            end -= 1
        if end == verb or end == 0:
            continue
        letter = end - 2 if text[end - 1] in ")]" else end - 1
        if letter < 0 or not ("A" <= text[letter] <= "Z" or "a" <= text[letter] <= "z"):
            continue
        if letter == 0 or text[letter - 1] not in _WORDLIKE:  # else the pattern's look-behind fails there at once
            starts.append(letter)
        first = letter
        if letter > 0 and text[letter - 1] in "([":
            first = letter - 1
            if first == 0 or text[first - 1] not in _WORDLIKE:
                starts.append(first)
        word_end = first
        while word_end > 0 and text[word_end - 1].isspace():
            word_end -= 1
        if (
            word_end < first
            and lower.endswith(("option", "choice"), 0, word_end)
            and (word_end == 6 or text[word_end - 7] not in _WORDLIKE)
        ):
            starts.append(word_end - 6)
    return sorted(starts)


# What `_IS_CORRECT`'s opening look-behind refuses before a match: `(?<![A-Za-z0-9'’])`.
_WORDLIKE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'’")


def _words(lower: str) -> list[bytes]:
    """The words of an ASCII text (runs of letters, digits and "_", the characters `\\b` sees as word)."""
    return lower.encode("ascii").translate(_WORD_BREAKS).split()


def _classify(match: re.Match[str], text: str, letters: Sequence[str], rule: _Rule) -> _Statement | None:
    """Turn a pattern match into a statement, or None when the letter is really a word or negated, or is what
    someone else would pick ("Students who pick D forgot to halve")."""
    if "neg" in match.re.groupindex and match.group("neg"):
        return None
    raw = match.group("l")
    end = match.end()
    method, strict = rule.method, rule.strict
    if _QUESTIONED.match(text, end) and not (method == "tentative" and not text[end:].strip(" \t\n?？")):
        return None  # "Final: B? No, C." -- a letter asked about is not stated; a closing "maybe D?" is tentative
    ends_clause = _TERMINATOR.match(text, end) is not None
    if method == "correction" and _LABELLED.match(text, end):
        return None  # "C: swims? No. D: sits?" walks the options; "D:" is a label, not a correction
    upper = raw.upper()
    if raw.islower() and not (ends_clause or _lower_allowed(rule.lower, match, text, letters)):
        return None
    if rule.afterthought and _afterthought(text, match.start()):
        return None
    if _conditional(text, match.start()) or (rule.lower == "sentence" and _CONDITION_AFTER.match(text, end)):
        return None  # "if the answer is C, then ...", "whether B is correct", "C is correct if ...": not stated
    if upper not in letters:
        # Lower-case outsiders are words or variables; a capital outsider counts only when it ends a clause.
        if raw.islower() or not ends_clause:
            return None
        return _said(match.start(), "invalid", upper, method, match.group(0))
    if strict and not ends_clause:
        return None
    if raw in "AI" and not ends_clause and match.end("l") == end:  # "A) nice" is bracketed: a letter
        following = _NEXT_WORD.match(text, end)
        if following and following.group(1) not in _LETTER_FOLLOWERS:
            return None  # "Answer: A man is walking" -- an article, not a letter
    snippet = match.group(0)
    hedge = _HEDGE_TAIL.match(text, end)
    if hedge:
        return _said(match.start(), "hedge", upper, method, snippet + hedge.group(0))
    return _said(match.start(), "answer", upper, method, snippet)


def _lower_allowed(kind: str, match: re.Match[str], text: str, letters: Sequence[str]) -> bool:
    """Whether the rule reads a lower-case letter that does not end its clause: "option a is correct" always;
    "a is correct" where the letter opens a sentence or follows "I think"; else as `_lower_letter` says."""
    raw = match.group("l")
    if kind == "sure":
        return raw.upper() in letters
    if kind == "sentence":
        return raw.upper() in letters and _opens_sentence(text, match.start("l"))
    return _lower_letter(raw, text, match.end(), letters)


_SENTENCE_OPENER = lazy_regex(r"(?:^|[.!?:;\n]\s*|(?i:\b(?:think|believe|say|so|thus|hence|therefore|guess)),?\s+)$")


def _opens_sentence(text: str, at: int) -> bool:
    """Whether position `at` opens a sentence (or follows "I think", "so", ...), judged from the 20 characters
    before it."""
    return _SENTENCE_OPENER.search(text, max(0, at - 20), at) is not None


# In the sentence before a "pick D": someone else picks ("students who pick", "if you picked", "a common slip is
# to pick"), or it is said in parentheses.
_OTHERS = lazy_regex(
    r"(?i:\b(?:who|they|students?|people|someone|anyone|everyone|you|whoever|others?|many|most|some|mistake|slip"
    r"|error|trap|tempting|wrongly|incorrectly)\b)|\("
)
_SENTENCE_START = lazy_regex(r"[.!?\n)]")


def _afterthought(text: str, at: int) -> bool:
    """Whether a choice statement at `at` reports someone else's pick, not the response's own."""
    window = text[max(0, at - 60) : at]
    breaks = list(_SENTENCE_START.finditer(window))
    sentence = window[breaks[-1].end() :] if breaks else window
    if "(" in window and window.rfind("(") > window.rfind(")"):
        return True
    return _OTHERS.search(sentence) is not None


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
_PRONOUN_WORDS = (
    "it",
    "this",
    "that",
    "which",
    "so",
    "thus",
    "hence",
    "therefore",
    "certainly",
    "definitely",
    "clearly",
    "surely",
    "obviously",
    "undoubtedly",
)
_CORRECTION_WORDS = ("no", "nope", "wait", "actually", "correction", "oops")
_CORRECT_WORDS = (
    "correct",
    "right",
    "best",
    "accurate",
    "appropriate",
    "answer",
    "valid",
    "true",
    "plausible",
    "reasonable",
    "consistent",
)
_IS_CORRECT_VERBS = ("is", "would", "must", "should", "seems", "looks", "appears")
# The words a match of each pattern starts with (any case), for `_scan`.
_PHRASE_STARTS = ("final", "correct", "best", "right", "my", "most", "answer", "option", "choice", "conclusion")
_CHOOSE_STARTS = ("choose", "chose", "select", "pick", "go", "opt", "would", "'d", "’d")
_PRONOUN_STARTS = _PRONOUN_WORDS
_FOREIGN_WORDS = (
    "答",
    "正解",
    "답",
    "réponse",
    "reponse",
    "antwort",
    "respuesta",
    "opción",
    "opcion",
    "correcte",
    "정답",
    "선택",
    "옵션",
    "risposta",
    "resposta",
    "alternativa",
    "ответ",
    "вариант",
)
_FOREIGN_CHOOSE_WORDS = ("choisis", "wähle", "wahle", "elijo", "escojo")
_WITHDRAW_WORDS = ("determine", "tell", "decide")
_HEDGE_STARTS = _HEDGE_WORDS
_TENTATIVE_WORDS = ("probably", "maybe", "perhaps", "possibly", "presumably")
_GUESS_WORDS = ("guess", "lean", "leaning", "leans")
_LIKELY_WORDS = ("likely", "probable")
_FOREIGN_CORRECT_WORDS = ("정답", "맞", "正し", "正确", "正確")


class _Rule(NamedTuple):
    """One kind of explicit statement: its pattern, the method it reports, whether its letter must end its clause,
    the words one of which it needs, where its matches can start (for `_scan`), when a lower-case letter counts
    ("phrase": `_lower_letter`; "sure": always; "sentence": where it opens a sentence), whether a pick
    reported of someone else is left out, and whether it only adds statements where no earlier rule found one
    ("the correct option is (B)" is an answer phrase, not a second, named, statement)."""

    pattern: re.Pattern[str]
    method: str
    strict: bool
    keywords: tuple[str, ...]
    starts: _Starts
    lower: str = "phrase"
    afterthought: bool = False
    only_new: bool = False


_STATEMENT_PATTERNS: tuple[_Rule, ...] = (
    _Rule(_ANSWER_PHRASE, "answer-phrase", False, _ANSWER_WORDS, _PHRASE_STARTS),
    _Rule(_IS_CORRECT, "answer-phrase", False, _CORRECT_WORDS, _is_correct_starts, "sentence"),
    _Rule(_CHOOSE, "answer-phrase", False, _CHOOSE_WORDS, _CHOOSE_STARTS, afterthought=True),
    _Rule(_PRONOUN, "answer-phrase", True, _PRONOUN_WORDS, _PRONOUN_STARTS),
    _Rule(_CORRECTION, "correction", True, _CORRECTION_WORDS, _CORRECTION_WORDS),
    _Rule(_CHINESE_ANSWER, "answer-phrase", False, ("答案", "选项"), None),
    _Rule(_CHINESE_CHOOSE, "answer-phrase", False, ("选", "应"), None),
    _Rule(_FOREIGN_ANSWER, "answer-phrase", False, _FOREIGN_WORDS, None),
    _Rule(_FOREIGN_CHOOSE, "answer-phrase", False, _FOREIGN_CHOOSE_WORDS, None),
    _Rule(_FOREIGN_IS_CORRECT, "answer-phrase", False, _FOREIGN_CORRECT_WORDS, None),
    _Rule(_OPTION_IS, "answer-phrase", False, ("option", "choice"), ("option", "choice"), "sure"),
    _Rule(NAMED_ANSWER, "answer-phrase", False, NAMED_ANSWER_WORDS, NAMED_ANSWER_STARTS, only_new=True),
    _Rule(OPTION_NAMED, "answer-phrase", False, OPTION_NAMED_STARTS, OPTION_NAMED_STARTS, only_new=True),
    _Rule(_TENTATIVE, "tentative", True, _TENTATIVE_WORDS, _TENTATIVE_WORDS),
    _Rule(_GUESS, "tentative", False, _GUESS_WORDS, None),
    _Rule(_LIKELY, "tentative", False, _LIKELY_WORDS, None),
)
# Which patterns can run is decided before any does: each needs one of its keywords, so a text without them
# skips it. In ASCII text a pattern's keyword is always a whole word of the text (or, for "go" and the pronouns,
# the start of "going", "itis", "thatmust", ...), so the text's set of words decides. Other text goes through the
# substring scan that has always decided it, so Unicode case folding ("ſo" matching "so") reads as it always did.
_KEYWORDS = tuple(
    sorted(
        {
            *_ANSWER_WORDS,
            *_HEDGE_WORDS,
            *_CHOOSE_WORDS,
            *_PRONOUN_WORDS,
            *_CORRECTION_WORDS,
            *_CORRECT_WORDS,
            "答案",
            "选项",
            "选",
            "应",
            *_FOREIGN_WORDS,
            *_FOREIGN_CHOOSE_WORDS,
            *_WITHDRAW_WORDS,
            *_TENTATIVE_WORDS,
            *_GUESS_WORDS,
            *_LIKELY_WORDS,
            *_FOREIGN_CORRECT_WORDS,
        }
    )
)
# Whole words (as bytes: bytes.translate and split are the fastest way to cut ASCII text into words) -> the
# keyword they stand for.
_ENABLING = {
    word.encode(): keyword
    for word, keyword in (
        *((word, word) for word in _KEYWORDS if word.isascii()),
        ("going", "go"),
        *(
            (pronoun + verb, pronoun)
            for pronoun in ("it", "this", "that", "which")
            for verb in ("is", "must", "should", "would")
        ),
    )
}
_WORD_BREAKS = bytes(byte if chr(byte).isalnum() or byte == ord("_") else ord(" ") for byte in range(128)) + (
    b" " * 128
)
_KEYWORD_SCAN = lazy_regex("|".join(sorted(_KEYWORDS, key=len, reverse=True)))


# Short forms read in one match, when the whole response (ASCII, one line, blanks around it aside) is one of:
# - an option line: "B. Walking", "(B) Walking", "B: Walking", "[B] Walking" (no markdown, "<" or ">");
# - an answer phrase alone: "[The] [best|correct|final|right] answer is[:] (B)[.]" or "... answer: B".
_LINE_TEXT = r"[\t !\"$-)+-;=?-^a-~]*"  # printable ASCII without # * < > _ `
_FAST = lazy_regex(
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
        kind, detail = "answer", ""
        if letter is not None and letter.islower():
            letter = letter.upper() if letter.upper() in letters else None  # else a variable: \\boxed{x}
        elif letter is None and inner:
            letter = options.match(inner) if options else None
            detail = "value" if letter is not None else ""
            if letter is None and _VALUE.search(inner):
                # \\boxed{20} among options 12, 15, 18, or with no option texts to match: no option, never a guess
                letter, kind = "", "no-match"
        elif letter is not None and options:
            shaped = _OPTION_LINE.match(inner)  # "\\boxed{(A) 15^\\circ}": the text must be A's
            if shaped is not None:
                detail = options.contradiction(letter, inner[shaped.end() :]) or ""
                kind = "conflict" if detail else kind
        if letter is None:
            continue
        if kind == "answer" and letter not in letters:
            kind = "invalid"
        found.append(_said(pos, kind, letter, "boxed", text[pos : end + 1], detail))
    return found


_VALUE = lazy_regex(r"\d")  # a box holding a number states a value


_LATEX_TEXT = lazy_regex(r"\\(?:text|textbf|mathrm|mathbf|textrm|mbox)\s*\{([^{}]*)\}")


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
_PHRASE_REST = lazy_regex(r"(?i:" + _ANSWER_NOUN + _JOIN + _ADVERB + r"(?P<neg>not\s+)?)(?P<rest>\S[^\n]*)")


def _phrase_text_statements(text: str, lower: str, found: list[_Statement], options: OptionMatcher) -> list[_Statement]:
    """Answer phrases whose object is an option's text rather than its letter."""
    taken = {s.pos for s in found if s.kind != "none"}
    if lower.isascii() and taken.issuperset(_positions(lower, _PHRASE_STARTS)):
        return []  # every place `_scan` would try is a statement's already ("The answer is B."): each is skipped
    result = []
    for match in _scan(_PHRASE_REST, text, lower, _PHRASE_STARTS):
        if match.start() in taken or match.group("neg"):
            continue
        rest = _first_sentence(match.group("rest"))
        letter = options.match(rest)
        if letter is not None:
            result.append(_said(match.start(), "answer", letter, "option-text", match.group(0)[:80]))
    return result


def _first_sentence(text: str) -> str:
    return _SENTENCE_SPLIT.split(text.strip(), maxsplit=1)[0]


def _fallback(text: str, letters: Sequence[str], options: OptionMatcher | None) -> Extraction:
    """No explicit statement: read the response's shape, then, unless the response declines, says no option fits or
    cannot decide, a lone "(B)" and the option text of its conclusion."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    option_lines = [m.group(1) for line in lines if (m := _OPTION_LINE.match(line))]
    listing = len(set(option_lines)) >= 2
    found = _shape_reading(text, lines, option_lines, listing, letters)
    if found is not None and options and found.method in ("leading-letter", "final-line"):
        found = _checked_line(found, lines[0] if found.method == "leading-letter" else lines[-1], options)
        shaped = _OPTION_LINE.match(lines[-1]) if found.method == "final-line" and found.parsed else None
        if shaped is not None:  # "... is the kettle.\nC. mug"
            at = text.rfind(lines[-1])
            found = _prose_against_line(found, text, at, at + shaped.end(), options) if at > 0 else found
    if found is None:
        found = _undecided(text, options)
    if found is None:
        found = _paren_letter(text, listing, letters)
        if found is not None and options and found.answer:  # "= 45, which is closest to option (D)" (D is 70)
            at = text.rfind(f"({found.answer})")
            against = letter_against_working(text, (at, at, at + 3), found.answer, options)
            found = found if against is None else conflict(*against, found.method)
    if found is None and options:
        unread = _no_conclusion(text)
        if unread is not None:
            return unread
        prose = "\n".join(line for line in lines if not _OPTION_LINE.match(line)) if listing else text
        found = _option_text_fallback(prose, options) if prose else None
    return found if found is not None else _why_unparsed(text, letters)


def _program_reading(text: str, letters: Sequence[str], options: Mapping[str, str] | None) -> Extraction:
    """A response that is only a program states no answer (its values and string literals are inputs, `choice ==
    "decrease"` a test); the literal it assigns to `answer`, if any, is read as its answer."""
    literal = assigned_answer(text)
    if literal is None:
        return unparsed("no answer stated", "the response is only a program; what it prints is not stated")
    found = _read(literal, letters, options, shortcut=True)
    note = f"the program assigns its answer: {quote(literal)!r}"
    return Extraction(found.answer, found.method, f"{note}; {found.explanation}", None, found.strength)


def _no_conclusion(text: str) -> Extraction | None:
    """Where the option-text reading must not look: a response cut off mid-working has no conclusion, and one whose
    last sentence states two values ("is 3 gallons per minute, which is approximately 0.4") has no one conclusion."""
    stop = cut_off(text)
    if stop is not None:
        return unparsed("no answer stated", f"the response is cut off mid-working ({quote(stop)!r}): no conclusion")
    tail = max(0, len(text) - _TWO_VALUES_TAIL)
    pair = two_values(concluding_sentence(text), restated=True) if _VALUE.search(text, tail) else None
    if pair is not None:
        return conflict(
            f"the last sentence states {quote(pair[0], 30)!r}", f"also {quote(pair[1], 30)!r}", "option-text"
        )
    return None


_TWO_VALUES_TAIL = 300  # characters: the end of the response, where its last sentence is


def _checked_before(
    text: str, said: _Statement, statements: list[_Statement], options: OptionMatcher, head: _Statement
) -> Extraction | None:
    """A conflict between the statement `said` and what the response says around it: the values, result, parts or
    option text right before it, a conclusion after it, the model's own value before the run of final statements.
    For the first of a run of agreeing statements (not the last), the value checks are left to `_against_working`,
    which holds the run against the working before its first statement by the nearest-option rule."""
    last = said is statements[-1]
    against = _pair_before(text, said, options)  # "The force is 12 N.\nThe work is 30 J.\nAnswer: B"
    if against is None and last:
        against = _result_before(text, said, options)  # "... so angle 2 = 50°.\nThe answer is (D) 100°."
    if against is None and last:
        against = _concluded_after(text, said, options)  # "The answer is C. ... so the angle is 110°."
    if against is None:
        against = _parts_before(text, said, options)  # "... more permissive, ... less accepting. (A)"
    if against is None and last:
        against = _against_working(text, statements, options, head)  # "= 8.4 men ... The answer is (A)" (84 men)
    if against is None:
        against = _text_before(text, said, options)  # "... the true statements are (ii) and (iii).\nB"
    return against


def _line_before_last(text: str, head: _Statement, last: _Statement) -> bool:
    """Whether `head` is another statement on the line right before the line of `last` ("Answer: (C) blue\nTherefore,
    among A through D, the answer is C."): the text it states its letter with is then the model's final words.
    Further up, a statement's text may be an explanation that names other options; only the last one's is read."""
    return head is not last and 0 <= text.find("\n", head.end) == text.rfind("\n", 0, last.pos)


def _run_head(statements: list[_Statement]) -> _Statement:
    """The first of the run of final statements that name the last one's letter ("The answer is D.\nTherefore,
    among A through E, the answer is D."): a harness's answer line after the model's own agrees with it, and the
    model's working is before the first of them."""
    last = statements[-1]
    first = last
    for statement in reversed(statements[:-1]):
        if statement.letter != last.letter or statement.kind != "answer" or last.pos - statement.pos > _RUN_WINDOW:
            break
        first = statement
    return first


def _against_working(
    text: str, statements: list[_Statement], options: OptionMatcher, first: _Statement
) -> Extraction | None:
    """A conflict when the run of final statements naming one letter (from `first`, `_run_head`) follows a value of
    the model's own that does not give that option by the nearest-option rule (`conflicts.letter_against_working`)."""
    last = statements[-1]
    span = (first.pos, last.pos, last.end)
    found = letter_against_working(text, span, last.letter, options) or letter_against_expression(
        text, span, last.letter, options
    )
    return None if found is None else conflict(*found, last.method)


def _text_before(text: str, last: _Statement, options: OptionMatcher) -> Extraction | None:
    """A conflict when the sentence before the final statement states another option's full text in words
    (`stated_text.text_against_letter`)."""
    if last.pos < _TEXT_BEFORE_MIN:
        return None  # "The answer is B. ...": nothing before the statement to state an option's text
    found = text_against_letter(text, last.pos, last.letter, options._texts)  # the plain mapping: cheaper to walk
    return None if found is None else conflict(*found, last.method)


_TEXT_BEFORE_MIN = 8  # characters before a statement that can hold an option's text of two words


def _text_against_container(
    found: Extraction, text: str, finals: list[_Final], options: Mapping[str, str] | None
) -> Extraction:
    """`found` (the containers' verdict), or a conflict when the sentence right before the last container states
    another option's full text in words ("... the store it recommends is ABC Mart.\n<answer>A</answer>")."""
    if not found.parsed or options is None or found.answer != finals[-1].found.answer:
        return found
    texts = options._texts if isinstance(options, OptionMatcher) else options  # the plain mapping: cheaper to walk
    against = text_against_letter(text, finals[-1].start, found.answer or "", texts)
    return found if against is None else conflict(*against, "container")


_RUN_WINDOW = (
    400  # characters: the final statements of one letter ("The closest option is (D). ... The answer is (D).")
)


def _letter_after_box(
    text: str, box: _Statement, statements: list[_Statement], options: OptionMatcher
) -> Extraction | None:
    """A conflict when a box holds no option's value and the last statement after it names a letter that is not
    the model's nearest pick (`conflicts.box_against_letter`)."""
    after = [s for s in statements if s.pos >= box.end and s.method != "boxed"]
    if not after or after[-1].kind != "answer" or after[-1].letter not in options:
        return None
    said = after[-1]
    content = box.snippet[box.snippet.find("{") + 1 : box.snippet.rfind("}")]
    why = box_against_letter(content, text[box.end : said.end], said.letter, options)
    if why is None:
        return None
    return conflict(f"{quote(said.snippet)!r} gives {said.letter} ({options[said.letter]!r})", why, "boxed")


def _shape_reading(
    text: str, lines: list[str], option_lines: list[str], listing: bool, letters: Sequence[str]
) -> Extraction | None:
    """The letter the response's shape gives: its first line and its last must agree; on one line, or without a
    closing letter, the opening decides ("B, because ...")."""
    ending = (
        _final_line(lines, listing, letters)
        or _walk_repeat(lines, option_lines, letters)
        or _closing_clause(lines, listing, letters)
    )
    opening = _leading_line(lines, listing, letters)
    if opening is not None and opening.explanation.startswith("hedge"):
        return opening
    if (
        ending is not None
        and opening is not None
        and ending.parsed
        and opening.parsed
        and ending.answer != opening.answer
    ):
        return conflict(f"the first line gives {opening.answer}", f"the last gives {ending.answer}", "shape")
    if opening is not None and (len(lines) == 1 or ending is None):
        return _line_span(opening, text, lines[0])
    return _line_span(ending, text, lines[-1]) if ending is not None else None


def _paren_letter(text: str, listing: bool, letters: Sequence[str]) -> Extraction | None:
    """The one parenthesised letter of a response that is not an option list, unless it names a figure part, a
    step or sits in a link ("see panel (C)", "item(C)")."""
    if listing:
        return None
    parens = {
        m.group(1)
        for m in _PAREN_LETTER.finditer(text)
        if not _PAREN_NOT_ANSWER.search(text, max(0, m.start() - 20), m.start())
    }
    if len(parens) != 1 or not parens <= set(letters):
        return None
    letter = parens.pop()
    return Extraction(letter, "paren-letter", f"the only parenthesised letter is ({letter})", None, "shape")


# The response does not commit: it declines, cannot decide, or says no option fits (the shared declines of
# `text.Declines`, and these). Then a lone "(C)" or a value that matches an option's text is not its answer.
_UNDECIDED = Declines(
    r"(?i:\bnone\s+of\s+(?:the|these|those|them)\b|\bnot\s+(?:among|in|one\s+of|listed\s+in)\s+(?:the\s+)?"
    r"(?:given\s+|listed\s+|provided\s+)?(?:options|choices|answers|answer\s+choices)\b"
    r"|\bno\s+(?:option|choice|answer)\s+(?:matches|fits|is\s+correct|is\s+right|applies)\b|\b(?:matches|fits)\s+none\b"
    r"|\b(?:does\s+not|doesn't|doesn’t|do\s+not|don't|don’t)\s+match\s+any\b"
    r"|\bi(?:'m|’m|\s+am)\s+(?:sorry|unsure|not\s+sure)\b|\bas\s+an\s+ai\b"
    r"|\b(?:cannot|can't|can’t|could\s+not|couldn't)\s+(?:confidently|definitively|reliably|be\s+certain)\b)"
    r"|无法|不确定|抱歉",
    # the words its own alternatives need beyond the shared ones ("none of", "no option", "I'm sorry", "as an AI")
    (
        *("none", "option", "choice", "answer", "match", "sorry", "sure", " ai", "confident", "definitive"),
        *("reliabl", "certain", "无法", "不确定", "抱歉"),
    ),
)


def _undecided(text: str, options: OptionMatcher | None) -> Extraction | None:
    """Unparsed when the response declines, cannot decide or says no option fits, unless an option itself says so
    ("None of these"). `_UNDECIDED` is searched only when one of the words it needs occurs (the search is slow)."""
    undecided = _UNDECIDED.search(text)
    if undecided is None or (options and options.declines()):
        return None
    refusal = _refusal(text)
    if refusal:
        return unparsed("refusal", f"the response declines: {quote(refusal.group(0))!r}")
    return unparsed("no answer stated", f"the response does not commit to an option: {quote(undecided.group(0))!r}")


# Before a "(C)" that names a figure part, a step or a link rather than the answer.
_PAREN_NOT_ANSWER = lazy_regex(
    r"(?:[A-Za-z0-9/_=.-]|(?i:\b(?:fig(?:ure)?|panel|table|step|part|image|frame|equation|eq|item|subfigure|diagram"
    r"|section|case|labell?ed|marked|see|in)\.?\s*))$"
)


def _final_line(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """A last line that is only a letter ("...\\n\\nC", "...\\n\\nb."), or "C. text" when the response is not an
    option list; two trailing letter lines that differ ("A\\nC") are a conflict."""
    last = lines[-1]
    bare = _bare(last)
    if bare and len(lines) > 1 and (bare.group(1).isupper() or _LOWER_LINE.fullmatch(last)):
        letter = bare.group(1).upper()
        for back, line in enumerate(reversed(lines[:-1]), 2):  # a column of letters ("(D)\n(D)\n(A)\n(G)")
            before = _bare(line)
            if before is None or not (before.group(1).isupper() or _LOWER_LINE.fullmatch(line)):
                break
            other = before.group(1).upper()
            if other != letter and other in letters:
                where = "the line before last" if back == 2 else f"the line {back} from the end"
                return conflict(f"{where} gives {other}", f"the last gives {letter}", "final-line")
        return _line_letter(letter, letters, "final-line", last)
    # a lower-case "(a)" opening a long line is a sub-part's heading ("(a) Average cost method: the average ..."),
    # not an answer ("b) 115 Btu")
    shaped = _OPTION_LINE.match(last) or (_LOWER_OPTION_LINE.match(last) if len(last) <= _WHOLE_MAX else None)
    if shaped and not listing and len(lines) > 1:
        return _line_letter(shaped.group(1).upper(), letters, "final-line", last)
    return None


_LOWER_LINE = lazy_regex(r"[(\[]?[a-z][.):\]]")  # "b.", "(c)", "d)": a lower-case letter marked as one
_LOWER_OPTION_LINE = lazy_regex(r"[(\[]?([a-z])(?:[)\]]|[.:：])\s+\S")  # "d. 42 percent", "b) walking"


def _walk_repeat(lines: list[str], option_lines: list[str], letters: Sequence[str]) -> Extraction | None:
    """After a walk through the options, one each ("(A) runs: no", "(B) ..."), a last option line that repeats
    one of them ("(D) The man walks") is the answer."""
    if len(option_lines) < 3 or _OPTION_LINE.match(lines[-1]) is None:
        return None
    letter = option_lines[-1]
    walked = option_lines[:-1]
    if walked.count(letter) != 1 or len(set(walked)) != len(walked):
        return None
    return _line_letter(letter, letters, "final-line", lines[-1])


def _leading_line(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """A response opening with "B. Walking is correct", "B\\n<reason>", "B, because ...", "B。不是 A" or
    "b) walking" (not an option list)."""
    first = lines[0]
    bare = _bare(first)
    if bare and (bare.group(1).isupper() or _LOWER_LINE.fullmatch(first)):
        return _line_letter(bare.group(1).upper(), letters, "leading-letter", first)
    if listing:
        return None
    shaped = _OPTION_LINE.match(first)
    if shaped and not _hedged(first, shaped.end(1)):
        return _line_letter(shaped.group(1), letters, "leading-letter", first)
    leading = _LEADING.match(first)
    if (leading and leading.group("l") and _hedged(first, leading.end("l"))) or shaped:
        return unparsed("hedge", f"the first line names several letters: {quote(first)!r}", "leading-letter")
    if leading:
        return _line_letter((leading.group("l") or leading.group("low")).upper(), letters, "leading-letter", first)
    return None


def _hedged(line: str, after: int) -> bool:
    """Whether the letter ending at `after` (or its closing bracket) is followed by another: "(A) or (D)"."""
    if after < len(line) and line[after] in ")]）":
        after += 1
    return _HEDGE_TAIL.match(line, after) is not None


# A response opening with its letter and going on: "B, because ...", "(C), since ...", "B。不是 A", "b) walking",
# "D because the ...".
_LEADING = lazy_regex(
    r"[(\[（]?(?P<l>[A-Z])[)\]）]?(?:[,，。、]|\s+(?:because|since|as)\b|\s*(?:不是|因为|由于|是正确|正确))"
    r"|\(?(?P<low>[a-z])(?:\)\s|[.:：]\s|\s+(?:because|since)\b)"
)
# The last line ends in a clause that is only the letter: "Based on the frames, B.", "... is clear: (C)".
_CLOSING = lazy_regex(
    r"(?:[,:：，;；]|[.!?][ \t]+|\b(?:so|thus|hence))[ \t]*(?:(?i:option|choice)[ \t]+)?[(\[]?([A-Z])[)\]]?"
    r"[ \t]*[.!。]?$"
)
# "... the only consistent ordering is D." -- a noun phrase stated to be the letter, closing the response; not
# where the letter names a point or a label ("The midpoint of AC is D.").
_CLOSING_IS = lazy_regex(r"\b(?P<subject>[A-Za-z]+)[ \t]+(?:is|was)[ \t]+[(\[]?(?P<l>[A-Z])[)\]]?[ \t]*[.!。]?$")
_NOT_OPTION_SUBJECTS = frozenset(
    {
        "point",
        "midpoint",
        "vertex",
        "center",
        "centre",
        "intersection",
        "foot",
        "focus",
        "origin",
        "angle",
        "line",
        "side",
        "segment",
        "corner",
        "label",
        "letter",
        "grade",
        "vitamin",
        "plan",
        "type",
        "class",
        "group",
        "row",
        "column",
        "section",
        "part",
        "figure",
        "panel",
        "node",
        "it",
        "that",
        "this",
        "which",
        "so",
    }
)
_OTHER_CAPITALS = lazy_regex(r"\b[A-Z]{2,3}\b|\b(?!I\b)[A-Z]\b")
_SENTENCE_END = lazy_regex(r"[.!?。！？]\s")
_CLOSING_TAIL = 40  # the clause is a few characters at the line's end; longer tails are not searched


def _closing_clause(lines: list[str], listing: bool, letters: Sequence[str]) -> Extraction | None:
    """ "Based on the frames, B." -- the last line's final clause is only a letter (not in an option list)."""
    if listing or not _ends_in_letter(lines[-1]):
        return None
    tail = lines[-1][-_CLOSING_TAIL:]
    closing = _CLOSING.search(tail)
    if closing is not None:
        return _line_letter(closing.group(1), letters, "closing-letter", lines[-1])
    stated = _CLOSING_IS.search(tail)
    if stated is None or stated.group("subject").lower() in _NOT_OPTION_SUBJECTS:
        return None
    sentence = tail[: stated.start("l")]
    ends = list(_SENTENCE_END.finditer(sentence))
    if _OTHER_CAPITALS.search(sentence, ends[-1].end() if ends else 0):
        return None  # other capitals in the sentence: the letter is a label among labels
    return _line_letter(stated.group("l"), letters, "closing-letter", lines[-1])


def _line_span(found: Extraction, text: str, line: str) -> Extraction:
    """`found` with the span of the line it was read from."""
    if not found.parsed:
        return found
    start = text.find(line)
    return _with_span(found, (start, start + len(line))) if start >= 0 else found


def _line_letter(letter: str, letters: Sequence[str], method: str, line: str) -> Extraction:
    if letter in letters:
        return Extraction(letter, method, f"read the line {quote(line)!r}", None, "shape")
    return unparsed("letter not allowed", f"{letter} is not one of {', '.join(letters)}: {quote(line)!r}", method)


_CLAUSE_SPLIT = lazy_regex(r"(?<=[.!?。！？])\s+|\n+|[;；]\s*")


def _option_text_fallback(text: str, options: OptionMatcher) -> Extraction | None:
    """The option the response's conclusion gives: its last clauses (at most `_CONCLUSION`), latest first. A word
    option is read where its words appear; a number only as the value a clause states ("so 15 pens", "= 5/6"),
    never as a number of the working. A negated clause that gives an option ("didn't take the bus") ends the
    search with no answer."""
    clauses = [c for c in _CLAUSE_SPLIT.split(text.strip()) if c.strip()]
    for clause in reversed(clauses[-_CONCLUSION:]):
        clause = clause[-_LONGEST_CLAUSE:]  # a conclusion is a sentence, not a page: its end is what it states
        decided, letter = options.match_conclusion(clause)
        if not decided:
            continue
        if letter is None:
            return None  # the conclusion states a value that no option has: no earlier value is its answer
        if _NEGATION.search(clause) and not _NEGATION.search(options[letter]):  # "None of these" may be an option
            return None
        hedged = _HEDGED.search(" ".join(clauses[-_CONCLUSION:])[-_CONCLUSION * _LONGEST_CLAUSE :])
        if hedged is not None:  # "... would probably increase. However, the outcome would depend on many factors."
            return unparsed("hedge", f"the conclusion does not commit: {quote(hedged.group(0))!r}", "option-text")
        detail = f"the conclusion gives option {letter} ({options[letter]!r}): {quote(clause)!r}"
        return Extraction(letter, "option-text", detail, None, "option-text")
    return None


_CONCLUSION = 3  # clauses
# A conclusion that hedges: "the outcome would depend on many factors", "it is hard to say", "might or might not".
_HEDGED = lazy_regex(
    r"(?i:\b(?:would|will|could|may|might|can)\s+(?:all\s+)?depend\b|\bit\s+(?:all\s+)?depends\b"
    r"|\bdepends?\s+on\s+(?:many|several|various|other|a\s+(?:lot|number|variety)\s+of)\b"
    r"|\b(?:hard|difficult|impossible)\s+to\s+(?:say|tell|determine|know|judge)\b|\bcould\s+go\s+either\s+way\b"
    r"|\b(?:may|might)\s+or\s+(?:may|might)\s+not\b|\bor\s+(?:it\s+)?(?:may|might)\s+not\b"
    r"|\b(?:though|although|but|however),?\s+(?:it\s+|this\s+|that\s+)?(?:all\s+)?depends\b"
    r"|\bnot\s+(?:entirely\s+|completely\s+)?(?:certain|sure|clear)\b|\b(?:unclear|uncertain|inconclusive)\b)"
)
_LONGEST_CLAUSE = 500  # characters of a concluding clause read for option text
_MAX_MARKS = 8  # places a clause states a value, the last ones: each is tokenised to the clause's end
# Where a clause states its value: "is", "=", "so", "leaves", ... (the value follows).
_STATED = lazy_regex(
    r"(?i:\b(?:is|are|was|were|equals?|gives?|leaves?|makes?|remains?|gets?|got|be|so|thus|hence|therefore|totals?"
    r"|yields?|comes\s+to|about|approximately|around|shows?|showed|shown|reads?|indicates?|displays?|measures?)\b)"
    r"|=|≈|→|:|(?<=[A-Za-z]),"
)


class OptionMatcher(Mapping[str, str]):
    """Letter -> option text, plus each option's word keys, worked out on first use and then kept.

    Scoring makes one per question and passes it to every reading of that question's answers. Short answers
    never need the texts, so `texts` is not read until a response is read for its option text (scoring passes
    a mapping that splits the dataset's "A. text" options only then); it must not change afterwards.
    """

    __slots__ = (
        "_declines",
        "_keys",
        "_lettered",
        "_marked",
        "_numbers",
        "_pairs",
        "_parts",
        "_said",
        "_texts",
        "_values",
    )

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._keys: _AllKeys | None = None
        self._declines: bool | None = None
        self._lettered: _Lettered | Literal[False] | None = None
        self._values: dict[str, _Value] | None = None
        self._said: dict[tuple[str, str], str | None] | None = None
        self._numbers: dict[str, float | None] | None = None
        self._pairs: dict[str, tuple[float, ...]] | None = None
        self._parts: dict[str, tuple[tuple[str, ...], ...]] | None = None
        self._marked: bool | None = None

    def _split(self) -> bool:
        """Whether any option text holds a comma or a semicolon: one test on all the texts joined, kept."""
        if self._marked is None:
            joined = "\n".join([text for _, text in self._texts.items()])
            self._marked = ", " in joined or ";" in joined or "，" in joined or "；" in joined
            self._marked = self._marked or ("," in joined and _UNIT_COMMA.search(joined) is not None)
        return self._marked

    def pairs(self) -> dict[str, tuple[float, ...]]:
        """Letter -> the values of each option that holds several, one per part ("12 N, 30 J", "x = 3; y = 4": a
        number in each part between commas or semicolons). Worked out once."""
        if self._pairs is None:
            pairs = {}
            if self._split():  # most options have no comma or semicolon
                for letter, text in self._texts.items():
                    numbers = [_PAIR_NUMBER.findall(part) for part in _OPTION_PARTS.split(text)]
                    if len(numbers) > 1 and all(len(found) == 1 for found in numbers):
                        pairs[letter] = tuple(float(found[0]) for found in numbers)
            self._pairs = pairs
        return self._pairs

    def parts(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Letter -> the word runs of each option made of several parts between semicolons ("become more
        permissive; become less accepting"). Worked out once."""
        if self._parts is None:
            parts = {}
            if self._split():
                for letter, text in self._texts.items():
                    if ";" in text or "；" in text:
                        runs = tuple(_tokens(part) for part in _SEMICOLONS.split(text))
                        if len(runs) > 1 and all(runs):
                            parts[letter] = runs
            self._parts = parts
        return self._parts

    def lettered(self) -> _Lettered | None:
        """For options whose texts hold letters ("A. B", "B. A and C", "C. A only"): (plain text -> option letter for
        the texts longer than one letter, the letters that are an option's whole text -> that option's letter);
        None for ordinary options ("A woman sings" holds an article, not a letter). Worked out once."""
        if self._lettered is None:
            self._lettered = _lettered(self._texts) or False
        return self._lettered or None

    def declines(self) -> bool:
        """Whether an option itself says no other fits ("None of these", "Cannot be determined"): then a response
        saying so gives that option, not "no answer"."""
        if self._declines is None:
            self._declines = any(_UNDECIDED.search(option) for option in self._texts.values())
        return self._declines

    def __getitem__(self, letter: str) -> str:
        return self._texts[letter]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    # The `Mapping` mixins answer these through `__iter__` and `__getitem__`, a Python call per option; the checks
    # ask them on every prose answer (`quantities`, `letter in options`), so they go to the texts directly.
    def __contains__(self, letter: object) -> bool:
        return letter in self._texts

    def get(self, letter: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return self._texts.get(letter, default)

    def items(self) -> ItemsView[str, str]:
        return self._texts.items()

    def keys(self) -> KeysView[str]:
        return self._texts.keys()

    def values(self) -> ValuesView[str]:
        return self._texts.values()

    def _prepared(self) -> _AllKeys:
        if self._keys is None:
            keys = {letter: _option_keys(option) for letter, option in self._texts.items()}
            tiers = cast(
                "tuple[_Keys, _Keys, _Keys]",  # key[i] for i < 3 is a tuple of words, never the flag
                tuple(tuple((letter, key[i]) for letter, key in keys.items() if key[i]) for i in range(3)),
            )
            numeric = tuple((letter, key[2] or key[0]) for letter, key in keys.items() if key[3] and key[0])
            self._keys = (tiers, numeric)
        return self._keys

    def value_keys(self) -> dict[str, _Value]:
        """Letter -> (math tokens, the same without trailing units) of each option that is a value: numbers and
        units ("14 km", "60°"), or a number with operators ("5+\\sqrt{2}", "\\frac{2}{3}"). These are compared as
        math (`option_math`), operators included, never by their words; options in words that hold a number ("The
        man waves 3 times") are matched by their words."""
        if self._values is None:
            self._values = {}
            for letter, raw in self._texts.items():
                option = fold_letters(raw)[0]  # as the response is read: "②①④③" is "2143" in both
                if _option_keys(option)[3] or (not _MATH_SIGNS.isdisjoint(option) and _has_digit(option)):
                    tokens = math_tokens(option)
                    if tokens:
                        self._values[letter] = (tokens, value_core(tokens, _UNIT_WORDS))
        return self._values

    def value_hits(self, text: str, at_start: bool = False) -> tuple[bool, str | None]:
        """(whether the value options decide, the one whose value `text` holds (at its start, with `at_start`)):
        the whole value first ("14 km"), then its number alone ("14 kilometres"); several that differ decide that
        there is none."""
        values = self.value_keys()
        if not values:
            return False, None
        tokens = math_tokens(text)
        for tier in (0, 1):
            hits = {letter for letter, keys in values.items() if keys[tier] and occurs(tokens, keys[tier], at_start)}
            if len(hits) > 1:
                hits = {a for a in hits if not any(b != a and _inside(values[a][tier], values[b][tier]) for b in hits)}
            if hits:
                return True, hits.pop() if len(hits) == 1 else None
        return self._numeric_hit(text, values)

    def _numeric_hit(self, text: str, values: dict[str, _Value]) -> tuple[bool, str | None]:
        """`value_hits` for a text that is nothing but arithmetic, by value: `\\frac{5\\pi}{3}+2` is the option
        `\\frac{5}{3}\\pi + 2`, `16π/5` is `16*\\pi/5`. Undecided when the text or no option is a number."""
        said = numeric_value(text)
        if said is None:
            return False, None
        hits = {letter for letter in values if (own := self.number_of(letter)) is not None and same_value(said, own)}
        return (True, hits.pop()) if len(hits) == 1 else (False, None)

    def number_of(self, letter: str) -> float | None:
        """The value of an option that is nothing but arithmetic (`option_math.numeric_value`), else None."""
        if self._numbers is None:
            self._numbers = {key: numeric_value(fold_letters(text)[0]) for key, text in self._texts.items()}
        return self._numbers.get(letter)

    def match(self, text: str) -> str | None:
        """The single option whose words appear in `text` as a run (articles, plural endings, LaTeX commands and
        a parenthesised aside aside), or whose value `text` holds as math (`value_hits`)."""
        tokens = _tokens(text)
        if not tokens:
            return None
        values = self.value_keys()
        if values and any(token[0].isdigit() for token in tokens):
            decided, letter = self.value_hits(text)
            if decided:
                return letter
        tiers: tuple[_Keys, ...] = self._prepared()[0]
        if values:
            tiers = tuple(tuple((letter, key) for letter, key in tier if letter not in values) for tier in tiers)
        return _single_hit(tokens, tiers)

    def restates(self, said: str) -> bool:
        """Whether `said`, after "The answer is E." on the same line, is an option's value or its whole text
        ("14 km", "Oak tree"), not a sentence of its own."""
        tokens = _tokens(said)
        if not tokens:
            return False
        if tokens[0][0].isdigit():
            return True
        plain = _plain(said)
        return any(_plain(text) == plain for text in self._texts.values())

    def contradiction(self, letter: str, said: str) -> str | None:
        """Why the text a stated letter comes with contradicts it, or None when it agrees or only explains: a value
        that is another option's or no option's ("(E) 14 km" where E is 41 km), or, opening it, another option's
        words ("D - oak tree" where D is the pine tree; "B - Yes, ..." where B is No). Kept per (letter, text)."""
        said = said.strip(" \t.,;:!")
        own = self._texts.get(letter)
        if own is not None:
            own = fold_letters(own)[0]  # the response was folded so: "②①④③" is read as "2143" in both
        if not said or own is None or said == own:
            return None
        if self._said is None:
            self._said = {}
        key = (letter, said)
        if key not in self._said:
            if len(self._said) >= _SAID_MEMO:
                self._said.clear()
            self._said[key] = None if _plain(said) == _plain(own) else self._contradiction(letter, said)
        return self._said[key]

    def _contradiction(self, letter: str, said: str) -> str | None:
        tokens = _tokens(said)
        if not tokens:
            return None
        own = self.value_keys().get(letter)
        if own is not None or tokens[0][0].isdigit():
            whose = self._value_against(letter, own, said)
            if whose is not None or own is not None:
                return whose and f"the text it is stated with, {quote(said, 40)!r}, is {whose}"
        other = self._words_against(letter, tokens)
        if other is None:
            return None
        return f"the text it is stated with, {quote(said, 40)!r}, is option {other}'s ({self._texts[other]!r})"

    def _value_against(self, letter: str, own: _Value | None, said: str) -> str | None:
        """Whose value `said` states when it is not `own` (the stated letter's value, None for a word option):
        "option B's value ('14 km')", "no option's value"; None when it agrees or states no value."""
        said_math = math_tokens(said)
        if own is not None and (
            occurs(said_math, own[0]) or (own[1] and occurs(said_math, own[1])) or same_number(said_math, own)
        ):
            return None
        number, own_number = numeric_value(said), self.number_of(letter)
        if number is not None and own_number is not None and same_value(number, own_number):
            return None  # one value written another way: "16π/5" for 16*\pi/5
        other = self.value_hits(said, at_start=True)[1]
        if other is not None and other != letter:
            return f"option {other}'s value ({self._texts[other]!r})"
        opens = bool(said_math) and (said_math[0][0].isdigit() or said_math[0] in ("-", "sqrt", "pi"))
        return "no option's value" if own is not None and opens else None

    def _words_against(self, letter: str, tokens: tuple[str, ...]) -> str | None:
        """The other option whose words `tokens` give instead of the letter's: they open with them, or hold them
        where they hold the letter's own words only as part of them ("A. Walking fast", A "Walking")."""
        keys = {option: _option_keys(fold_letters(text)[0]) for option, text in self._texts.items()}
        mine = keys[letter]
        if not mine[0]:
            return None
        if _contains_run(tokens, mine[0]) or (mine[1] and _contains_run(tokens, mine[1])):
            return next(
                (
                    o
                    for o, (run, *_) in keys.items()
                    if o != letter and _inside(mine[0], run) and _contains_run(tokens, run)
                ),
                None,
            )
        return next(
            (
                o
                for o, (run, *_) in keys.items()
                if o != letter and run and tokens[: len(run)] == run and not _contains_run(mine[0], run)
            ),
            None,
        )

    def match_conclusion(self, clause: str) -> tuple[bool, str | None]:
        """(whether the clause decides, the single option it gives): a number option only as the value the clause
        states last ("12 + 8 = 20" states 20, never 12: a clause stating a value no option has decides that there
        is none), a word option where its words appear."""
        tokens = _tokens(clause)
        if not tokens:
            return False, None
        tiers, numeric = self._prepared()
        stated = False
        if numeric:
            start = next(_stated_values(clause), None)
            if start is not None:
                decided, letter = self.value_hits(clause[start:], at_start=True)
                if decided and (letter is None or letter in dict(numeric)):
                    return True, letter
                stated = True  # a value no number option has: only a word option ("None of these") may still fit
        numbers = {letter for letter, _ in numeric}
        words = tuple(tuple((letter, key) for letter, key in tier if letter not in numbers) for tier in tiers)
        letter = _single_hit(tokens, words)
        return letter is not None or stated, letter


_SEMICOLONS = lazy_regex(r"[;；]")
_OPTION_PARTS = lazy_regex(r"[,;，；]\s|(?<=[A-Za-z%°]),(?=[\d$-])")  # "12 N, 30 J", "12N,30J": several values
_UNIT_COMMA = lazy_regex(r"(?<=[A-Za-z%°]),(?=[\d$-])")  # "196.9psi,176.7psi": a unit, a comma, the next value
_Lettered = tuple[dict[str, str], dict[str, str]]
_Value = tuple[tuple[str, ...], tuple[str, ...]]  # an option value's math tokens, and the same without its units
# A capital standing alone in an option's text; "A" or "I" before a lower-case word is an article or a pronoun
# ("A woman sings"), unless the word joins letters ("A and C", "A only").
_TEXT_LETTER = lazy_regex(
    r"(?<![A-Za-z0-9'’\\])(?:[B-HJ-Z]|[AI](?![ \t]+(?!(?:and|or|nor|only|but|is|are)\b)[a-z]))(?![A-Za-z0-9'’])"
)


def _lettered(texts: Mapping[str, str]) -> _Lettered | None:
    """`OptionMatcher.lettered`, worked out."""
    if not any(_TEXT_LETTER.search(option) for option in texts.values()):
        return None
    plain = {letter: _plain(option) for letter, option in texts.items()}
    longer = {text: letter for letter, text in plain.items() if len(text) > 1}
    single = {text.upper(): letter for letter, text in plain.items() if len(text) == 1 and text.isalpha()}
    return longer, single


_Keys = tuple[tuple[str, tuple[str, ...]], ...]  # (letter, key) for the options whose key is not empty
_AllKeys = tuple[tuple[_Keys, _Keys, _Keys], _Keys]  # the three tiers of keys, and the number options' values


def _single_hit(tokens: tuple[str, ...], tiers: tuple[_Keys, ...]) -> str | None:
    """The one option whose key occurs in `tokens`, tier by tier (a tier with several hits decides: none)."""
    for keys in tiers:
        decided, letter = _one_of({letter for letter, wanted in keys if _contains_run(tokens, wanted)}, keys)
        if decided:
            return letter
    return None


def _one_of(hits: set[str], keys: _Keys) -> tuple[bool, str | None]:
    """(whether `hits` decide, the letter): one option decides it; several that are not parts of one another
    ("walking" in "walking fast") decide that there is none; no hit leaves it open."""
    if len(hits) > 1:
        hits = _drop_contained(hits, dict(keys))
    if not hits:
        return False, None
    return True, hits.pop() if len(hits) == 1 else None


def _stated_values(clause: str) -> Iterator[int]:
    """Where a value starts after each place the clause states one, latest first (the last `_MAX_MARKS`), where the
    tokens there start with a number; the clause's start when it starts with one ("15 pens.")."""
    marks = [match.end() for match in _STATED.finditer(clause)][-_MAX_MARKS:]
    for end in (*reversed(marks), 0):
        tokens = _tokens(clause[end : end + 40])
        if tokens and tokens[0][0].isdigit():
            yield end


def _inside(run: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Whether `run` is a shorter part of `other` ("14" of "14 km")."""
    return len(other) > len(run) and _contains_run(other, run)


_SAID_MEMO = 512  # (letter, text) pairs an `OptionMatcher` keeps
_MATH_SIGNS = frozenset("+*/^\\=√×÷−")  # with a digit, an option holding one of these is a value
_ASCII_DIGITS = frozenset("0123456789")  # `str.isdigit` of an ASCII character


def _has_digit(text: str) -> bool:
    """`any(c.isdigit() for c in text)`, in one C pass where the text is ASCII."""
    return not _ASCII_DIGITS.isdisjoint(text) if text.isascii() else any(c.isdigit() for c in text)


def _drop_contained(hits: set[str], keys: Mapping[str, tuple[str, ...]]) -> set[str]:
    """When "walking" and "walking fast" both match, the shorter one is only part of the longer."""
    return {
        a
        for a in hits
        if not any(b != a and len(keys[b]) > len(keys[a]) and _contains_run(keys[b], keys[a]) for b in hits)
    }


def option_matcher(options: Mapping[str, str]) -> OptionMatcher:
    """The `OptionMatcher` for `options` (itself when it already is one; equal texts share one, cached)."""
    if isinstance(options, OptionMatcher):
        return options
    return _cached_matcher(tuple(options.items()))


@lru_cache(maxsize=1024)
def _cached_matcher(items: tuple[tuple[str, str], ...]) -> OptionMatcher:
    return OptionMatcher(dict(items))  # a copy: the caller's mapping may change


_LATEX_COMMAND = lazy_regex(r"\\[a-zA-Z]+")
_ASIDE = lazy_regex(r"\([^()]*\)")


def _tokens(text: str) -> tuple[str, ...]:
    """The words and numbers of `text` in lower case, without articles and LaTeX command names, plural and
    final-"e" endings folded ("bicycles" and "bicycle" are one word), "°" read as "degrees"."""
    lower = text.lower().replace("°", " degrees ").replace("\\circ", " degrees ")
    if "\\" in lower:
        lower = _LATEX_COMMAND.sub(" ", lower)
    return tuple(map(_fold, (_ASCII_TOKENS if lower.isascii() else _TOKENS).findall(lower)))


_fold = fold  # one spelling for a word's singular and plural ("houses", "house" -> "hous"), as `option_math` folds


_UNIT_WORDS = frozenset(map(_fold, _UNIT_WORDS_SPELLED))


@lru_cache(maxsize=4096)
def _option_keys(option: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
    """An option's word run, the same without a parenthesised aside (empty when it has none), for one number with
    units ("60°", "12 cm") the number alone (else empty), and whether the option is a value (numbers and units)."""
    tokens = _tokens(option)
    short = _tokens(_ASIDE.sub(" ", option)) if "(" in option else ()
    short = short if short != tokens else ()
    value = bool(tokens) and all(t[0].isdigit() or t in _UNIT_WORDS for t in tokens)
    if value:
        numbers = [t for t in tokens if t[0].isdigit()]
        if len(numbers) == 1:
            return tokens, short, (numbers[0],), True
    return tokens, short, (), value


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
    refusal = _refusal(text)
    if refusal:
        return unparsed("refusal", f"the response declines: {quote(refusal.group(0))!r}")
    seen = sorted({m.group(0) for m in _STANDALONE.finditer(text)} & set(letters))
    if seen:
        detail = f"letters {', '.join(seen)} are mentioned but none is stated as the answer"
        return unparsed("no explicit answer", detail)
    return unparsed("no letter found", f"no answer letter or option text in {quote(text)!r}")
