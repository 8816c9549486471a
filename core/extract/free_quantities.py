"""A free-form answer sentence that holds several quantities: which one is the answer, or none.

"Answer: 540 grams of flour will last the bakery 3 days." and "Therefore, the shop makes a profit of $312 in June if
it buys either 40 chairs or 25 tables." state their answer among other quantities of the problem. Left unread,
math-verify would read the whole response and pick one of them (often the last: 25), and call a right answer
different with confidence. Read here, in order:

- with the question's text, the one quantity attached to what it asks: "How many days ...?" reads the quantity
  followed by "days" ("3 days", "5 more boxes"); "How much profit ...?" the one after "profit of" ("a profit of
  $312"); "How much does she pay / save / ...?" and "How much money ...?" the one amount of money ("$96");
- else the quantity right after the verb that states it ("Maria pays $43.50 for the tickets of her 3 children");
- else no answer: *several quantities*, naming them (`SEVERAL`; no other reader goes looking for one).

The zero-shot-CoT harness line "Therefore, the answer (arabic numerals) is" asks for a number: the model's
completion is read as a number ("64", "12 apples", "x = 18"), and an expression in unknowns ("326-y") is no answer
(`numeral_answer`). Every step is a regex scan of one sentence or of the question: linear in their length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice, pairwise

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.extract.types import Extraction, quote, unparsed

SEVERAL = "several quantities"

# A quantity of a sentence: "3", "$43.50", "1,200", "25%", "3/4"; never the digit of a name ("m1", "R2").
_QUANTITY = lazy_regex(
    r"(?<![\w.^_{}/\\])(?P<cur>\$[ \t]?)?(?P<n>-?\d[\d,]*(?:\.\d+)?(?:/\d+)?)(?![\w.]*\d)(?!\w)(?P<pct>[ \t]?\\?%)?"
)
_WORD = lazy_regex(r"[A-Za-z]+")
_MONEY_AFTER = frozenset({"dollar", "dollars", "cent", "cents", "euro", "euros", "pound", "pounds", "usd"})
_SKIPPED = frozenset({"more", "fewer", "less", "additional", "extra", "whole", "full", "of", "in", "all", "total"})
_AFTER_WORDS = 3  # words after a quantity looked at for the asked noun ("540 grams of flour")
# What a question asks: "how many (more) days", "how much profit", "how much does ... pay", "what is the total cost".
_HOW_MANY = lazy_regex(r"(?i:\bhow\s+many\s+(?P<words>[A-Za-z][A-Za-z \t-]{0,40}))")
_HOW_MUCH = lazy_regex(r"(?i:\bhow\s+much\s+(?P<word>[A-Za-z]+)(?P<rest>[^?.]{0,80}))")
_WHAT_IS = lazy_regex(
    r"(?i:\b(?:what\s+(?:is|was|will\s+be)|find|calculate|determine|compute)\s+(?:the|her|his|their|its)\s+"
    r"(?P<words>[A-Za-z][A-Za-z \t-]{0,40}))"
)
_STOP = frozenset(
    {
        "of", "are", "is", "do", "does", "did", "will", "can", "would", "should", "could", "were", "was", "has",
        "have", "had", "in", "on", "at", "for", "to", "the", "there", "per", "each", "that", "this", "they", "she",
        "he", "it", "we", "you", "if", "after", "before", "when", "left", "from", "by", "with",
    }
)  # fmt: skip
_MONEY_VERBS = lazy_regex(
    r"(?i:\b(?:pay|pays|paid|cost|costs|spend|spends|spent|earn|earns|earned|save|saves|saved|make|makes|made"
    r"|charge|charges|owe|owes|get|gets|receive|receives|raise|raises|collect|collects|lose|loses|profit)\b)"
)
_MONEY_NOUNS = frozenset({"money", "profit", "cost", "price", "change", "income", "revenue", "savings", "tip"})
# A noun right before its quantity: "a profit of $312", "the total is 42", "cost: $5".
_NOUN_BEFORE = lazy_regex(
    r"(?P<noun>[A-Za-z]+)[ \t]+(?:of|is|was|were|are|equals|totals|comes\s+to|=|:)[ \t]+"
    r"(?:(?:about|approximately|exactly|only|just)[ \t]+)?\Z"
)
# A verb that states its object, with the quantity right after it: "pays $43.50", "makes a profit of $312".
_STATING_VERB = lazy_regex(
    r"(?i:\b(?:is|are|was|were|equals|be|gives|yields|makes|made|comes\s+to|totals|costs?|pays|paid|weighs"
    r"|measures|spends|spent|earns|earned))[ \t]+(?:(?:a|an|the)[ \t]+(?:[A-Za-z]+[ \t]+){0,2}?of[ \t]+)?"
    r"(?:(?:about|approximately|exactly|only|just)[ \t]+)?\Z"
)
_NEXT_DIGIT = lazy_regex(r"\d")
_PART_OF = lazy_regex(r"[ \t]+(?:out[ \t]+)?of[ \t]+(?:(?:the|her|his|their|its|these|those|all)[ \t]+)?\$?")
LONGEST_SENTENCE = 600  # characters: a longer text is no one answer sentence
_MOST = 12  # quantities: a sentence holding more names no one answer
_BEFORE = 60  # characters before a quantity searched for its noun or verb


@dataclass(frozen=True)
class _Asked:
    """What the question asks for: nouns ("days", "profit") and whether it is an amount of money."""

    nouns: frozenset[str]
    money: bool
    named: str = ""  # the question's word, as shown in the explanation


def answer_quantity(sentence: str, question: str | None, method: str) -> Extraction | None:
    """The reading of an answer sentence of several quantities (see the module docstring), or None when it holds
    fewer than two different ones, or is longer than any answer sentence (the usual readers read it then)."""
    if len(sentence) > LONGEST_SENTENCE:
        return None
    sentence = _last_clause(sentence.replace("\\$", "$"))  # "\\$96" is written currency
    found = [(_value(match), match) for match in islice(_QUANTITY.finditer(sentence), _MOST + 1)]
    values = list(dict.fromkeys(value for value, _ in found))
    if len(values) < 2:
        return None
    if len(found) > _MOST:  # a list of numbers, not a sentence stating one: no answer, and no quadratic work
        return _several(values, sentence, " and more")
    asked = _asked(question) if question else None
    if asked is not None:
        hits = {value for value, match in found if _attached(sentence, match, asked)}
        for (value, match), (whole, after) in pairwise(found):
            if whole in hits and _PART_OF.fullmatch(sentence, match.end(), after.start()):
                hits.add(value)  # "4 of the 12 balls": the part and the whole are both balls
        if len(hits) == 1:
            value = hits.pop()
            why = f"the question asks for {asked.named}: {quote(value)!r} of {quote(sentence)!r}"
            return Extraction(value, method, why, None, "shape")
        if hits:
            return _several(values, sentence, f"; {len(hits)} of them are {asked.named}")
    for index, (value, match) in enumerate(found):
        if _STATING_VERB.search(sentence, max(0, match.start() - _BEFORE), match.start()):
            if index + 1 < len(found) and _listed(sentence[match.end() : found[index + 1][1].start()]):
                break  # "the rectangle is 6 cm wide and 9 cm long": two values stated together
            why = f"the quantity the sentence's verb states: {quote(value)!r} of {quote(sentence)!r}"
            return Extraction(value, method, why, None, "shape")
    return _several(values, sentence, "" if question else "; no question to tell which is asked")


# Where a sentence's conclusion starts: "Tom has 5 more marbles than Ann, so he has 12 in total." concludes "he has 12".
_CONCLUSION = lazy_regex(r";|(?:,[ \t]*|[ \t]+|^)(?i:so|thus|hence|therefore)\b,?")


def _last_clause(sentence: str) -> str:
    """The part of `sentence` after its last "so" / "thus" / "hence" / "therefore" that holds a number, else all."""
    for clause in reversed(_CONCLUSION.split(sentence)):
        if any(char.isdigit() for char in clause):
            return clause.strip()
    return sentence


# What joins a quantity to the next: a list ("6 cm wide and 9 cm long", "5 for part (a) and 7 for part (b)") or a
# phrase of circumstance ("$43.50 for the tickets of her 3 children", "$540 in May whether it sells 60 crates").
_LIST_WORD = lazy_regex(r"(?i:;|\b(?:and|or|but|while|whereas|plus|versus|vs)\b)")
_JOIN = lazy_regex(
    r"(?i:(?P<list>,)|\b(?:for|in|if|whether|by|when|to|of|after|from|with|on|at|per|since|because|before|during"
    r"|until|within|over|than)\b)"
)


def _listed(between: str) -> bool:
    """Whether the text between two quantities lists them together: a list word anywhere, or a comma before any
    preposition (or neither a comma nor a preposition)."""
    if _LIST_WORD.search(between) is not None:
        return True
    join = _JOIN.search(between)
    return join is None or join.group("list") is not None


def _value(match: re.Match[str]) -> str:
    """A quantity as read: "1,200" -> "1200", "20 %" -> "20%" (a percentage keeps its sign)."""
    return match.group("n").replace(",", "") + ("%" if match.group("pct") else "")


def _several(values: list[str], sentence: str, note: str) -> Extraction:
    named = ", ".join(values[:6])
    return unparsed(SEVERAL, f"the answer sentence names {named}{note}: {quote(sentence)!r}")


def _asked(question: str) -> _Asked | None:
    """What the question's last "how many / how much / what is the" asks for, or None when it asks neither."""
    found = None
    for pattern in (_HOW_MANY, _HOW_MUCH, _WHAT_IS):
        for match in pattern.finditer(question):
            if found is None or match.start() > found.start():
                found = match
    if found is None:
        return None
    if found.groupdict().get("word") is not None:  # "how much ..."
        words = [word.lower() for word in _WORD.findall(found.group("word") + " " + found.group("rest"))]
        words = [word for word in words if word not in _SKIPPED] or [""]
        if words[0] == "money" or (words[0] in _STOP and _MONEY_VERBS.search(found.group("rest"))):
            return _Asked(frozenset(), True, "an amount of money")  # "how much money", "how much does she pay"
        if words[0] in _STOP or not words[0]:
            return None  # "how much does the box weigh": no noun to match
        return _Asked(frozenset(_forms(words[0])), words[0] in _MONEY_NOUNS, repr(words[0]))
    nouns: list[str] = []
    for word in _WORD.findall(found.group("words")):
        word = word.lower()
        if word in _STOP or len(nouns) == 3:
            break
        if word not in _SKIPPED:
            nouns.append(word)
    if not nouns:
        return None
    forms = frozenset(form for noun in nouns for form in _forms(noun))
    return _Asked(forms, any(noun in _MONEY_NOUNS for noun in nouns), repr(" ".join(nouns)))


def _forms(word: str) -> set[str]:
    """A noun and its singular guesses ("boxes" -> box, boxe; "days" -> day), so a plural matches a singular."""
    forms = {word}
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        forms.add(word[:-2])
    if word.endswith("s") and len(word) > 2:
        forms.add(word[:-1])
    return forms


def _attached(sentence: str, match: re.Match[str], asked: _Asked) -> bool:
    """Whether the quantity `match` is what `asked` names: its noun follows it ("3 days", "5 more boxes", "540 grams
    of flour") or leads to it ("a profit of $312"), or it is an amount of money when money is asked."""
    start, end = match.start(), match.end()
    upto = _NEXT_DIGIT.search(sentence, end, end + 40)  # the words of this quantity, not of the next one
    after = [word.lower() for word in _WORD.findall(sentence[end : upto.start() if upto else end + 40])][:_AFTER_WORDS]
    if asked.money and (match.group("cur") or (after and after[0] in _MONEY_AFTER)):
        return True
    words = [word for word in after if word not in _SKIPPED]
    if any(_forms(word) & asked.nouns for word in words[:2]):
        return True
    before = _NOUN_BEFORE.search(sentence, max(0, start - _BEFORE), start)
    return before is not None and bool(_forms(before.group("noun").lower()) & asked.nouns)


# The zero-shot-CoT harness line asks for a number: "Therefore, the answer (arabic numerals) is".
NUMERALS_ASKED = lazy_regex(r"(?i:\(\s*arabic\s+numerals?\s*\))")
_NAMED = lazy_regex(r"[A-Za-z](?:_\{?\w+\}?)?\s*=\s*")
_NUMBER_FIRST = lazy_regex(r"(?P<n>-?\d[\d,]*(?:\.\d+)?(?:/\d+)?)(?:[ \t]+[A-Za-z][A-Za-z \t]*)?")
_COMMAND = lazy_regex(r"\\[A-Za-z]+")


def numeral_answer(answer: str, phrase: str) -> Extraction | None:
    """The number completing a harness line that asks for arabic numerals ("64", "12 apples" -> 12, "x = 18" -> 18),
    or no answer when the completion is an expression in unknowns ("326-y", "2x - 4"); None for any other phrase."""
    if NUMERALS_ASKED.search(phrase) is None:
        return None
    value = _NAMED.sub("", answer, count=1) if _NAMED.match(answer) else answer
    if any(char.isdigit() for char in value) and not any(c.isascii() and c.isalpha() for c in _COMMAND.sub("", value)):
        return Extraction(value.strip(), "answer-phrase", f"read {quote(phrase)!r}", None, "explicit")
    leading = _NUMBER_FIRST.fullmatch(value)
    if leading is not None:
        why = f"read {quote(phrase)!r}: the number, without its words"
        return Extraction(leading.group("n"), "answer-phrase", why, None, "explicit")
    return unparsed(
        "no answer stated",
        f"{quote(phrase)!r} asks for a number; the response completes it with {quote(answer, 30)!r}",
        "answer-phrase",
    )
