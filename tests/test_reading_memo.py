"""The scoring pass's reading memo (`core.scoring.reading_memo`): every reading it gives is the extractor's own.

Driven by the extraction corpora, so it follows the readers as they change: each corpus response is read through
one memo for its own question and for the other corpus questions with the same letters (option texts of every
kind: words, numbers, letters), in an order that puts option-free readings first, and compared with a fresh
reading that shares nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.choices import OptionTexts
from mathreel.core.extract.choice import OptionMatcher
from mathreel.core.results import read_results
from mathreel.core.scoring import reading_memo, score
from mathreel.core.scoring.reading_memo import ReadingMemo, choices_of, looked_at, watch
from mathreel.core.scoring.verdict import _read_choice_answer, official_tool

DATA = Path(__file__).parent / "data"
CORPORA = ("extraction_corpus.jsonl", "extraction_corpus_v2.jsonl", "readings_classes.jsonl")
DEFAULT = ("A", "B", "C", "D")


def _cases() -> list[tuple[str, tuple[str, ...]]]:
    """(response, options as a question spells them) of every choice case of the corpora."""
    cases = []
    for name in CORPORA:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if row is None or row.get("kind", "choice") != "choice":
                continue
            given = row.get("options") or {}
            options = tuple(f"{letter}. {given[letter]}" for letter in row["letters"] if letter in given)
            cases.append((row["response"], options if len(options) == len(row["letters"]) else ()))
    return cases


CASES = _cases()


def _fresh(response: str, options: tuple[str, ...], tool=None, use_official: bool = False) -> tuple:
    return _read_choice_answer(response, choices_of(options, DEFAULT), tool, use_official)


def test_the_corpora_hold_both_kinds_of_reading() -> None:
    """Readings that look at the options and readings that do not are both there, or the test below proves little."""
    looked = untouched = 0
    for response, options in CASES:
        if not options:
            continue
        letters, matcher = choices_of(options, DEFAULT)
        watch(matcher)
        _read_choice_answer(response, (letters, matcher))
        looked += looked_at(matcher)
        untouched += not looked_at(matcher)
    # an option line ("B. Walking") looks at the options too: its text must be the letter's own (#22, third round)
    assert looked > 100 and untouched > 15, (looked, untouched)


@pytest.mark.parametrize("extractor", ["robust", "official"])
def test_memo_gives_the_fresh_reading_for_every_corpus_response_under_other_questions_options(extractor) -> None:
    tool = official_tool(get_benchmark("videomme"), "official") if extractor == "official" else None
    rng = random.Random(23)
    by_letters: dict[int, list[tuple[str, ...]]] = {}
    for _, options in CASES:
        by_letters.setdefault(len(options), []).append(options)
    asked = []
    for response, options in CASES:
        asked.append((response, options))
        others = by_letters.get(len(options), [])
        asked += [(response, other) for other in rng.sample(others, min(4, len(others)))]
        asked.append((response, ()))
    memo = ReadingMemo(lambda r, c: _read_choice_answer(r, c, tool, extractor == "official"), DEFAULT)
    for _ in range(2):  # the second pass is answered from the memo
        for response, options in asked:
            fresh = _fresh(response, options, tool, extractor == "official")
            assert memo.read(options, response) == fresh, (response, options)


def test_option_texts_decide_a_reading_only_for_their_own_question() -> None:
    """ "Walking" is B for one question and C for another: read once per question, never shared by letters."""
    first = ("A. Running", "B. Walking", "C. Sitting", "D. Jumping")
    second = ("A. Running", "B. Sitting", "C. Walking", "D. Jumping")
    memo = ReadingMemo(_read_choice_answer, DEFAULT)
    assert memo.read(first, "Walking")[0].answer == "B"
    assert memo.read(second, "Walking")[0].answer == "C"
    assert memo.read(first, "Walking")[0].answer == "B"
    assert memo.read(second, "B")[0].answer == memo.read(first, "B")[0].answer == "B"


def test_a_watched_matcher_is_unwatched_by_any_look() -> None:
    looks = [
        len,
        bool,
        list,
        lambda m: m["A"],
        lambda m: "A" in m,
        lambda m: m.lettered(),
        lambda m: m.declines(),
        lambda m: dict(m.items()),
    ]
    for look in looks:
        matcher = OptionMatcher(OptionTexts(("A. x", "B. y")))
        watch(matcher)
        assert not looked_at(matcher)
        look(matcher)
        assert looked_at(matcher) and type(matcher) is OptionMatcher


def test_memory_stays_bounded(monkeypatch) -> None:
    monkeypatch.setattr(reading_memo, "LIMIT", 8)
    memo = ReadingMemo(_read_choice_answer, DEFAULT)
    for number in range(100):
        options = (f"A. {number} cats", f"B. {number} dogs")
        assert memo.read(options, f"{number} dogs") == _fresh(f"{number} dogs", options)
        assert memo.read((), f"The answer is {'ABCD'[number % 4]} ({number}).")[0].answer == "ABCD"[number % 4]
    assert len(memo) <= 16


def test_a_pooled_file_scores_every_row_as_read_alone(tmp_path) -> None:
    """Many runs of the same questions in one file (repeated responses, option-text answers that differ per
    question): every row's reading is the one a fresh read gives."""
    rng = random.Random(5)
    texts = ("Running", "Walking", "Sitting", "Jumping", "A and B", "B", "12 apples", "None of the above")
    shapes = ("{L}", "{L}.", "({L})", "The answer is {L}.", "{T}", "{L}. {T}", "I think {T}.", "It is {L} or {X}.")
    lines = []
    for run in range(6):
        for number in range(40):
            picks = random.Random(number).sample(texts, 4)
            letter = rng.choice("ABCD")
            response = rng.choice(shapes).format(L=letter, X=rng.choice("ABCD"), T=rng.choice(picks))
            record = {
                "question_id": f"{number:03d}-1#{run}",
                "question": f"Question {number}?",
                "options": [f"{c}. {t}" for c, t in zip("ABCD", picks, strict=True)],
                "answer": "ABCD"[number % 4],
                "response": response,
                "duration": "short",
            }
            lines.append(json.dumps(record))
    path = tmp_path / "pooled.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_results(path, benchmark="videomme")
    report = score(result)
    tool = official_tool(get_benchmark("videomme"))
    assert len(report.rows) == len(lines)
    for prediction, row in zip(result.predictions, report.rows, strict=True):
        used, official, _ = _fresh(prediction.response, prediction.question.options, tool)
        assert (row.extracted, row.method, row.explanation, row.strength, row.official_answer) == (
            used.answer,
            used.method,
            used.explanation,
            used.strength,
            official,
        ), prediction.response


SHAPES = (
    ("A. one", "B. two", "C. three", "D. four"),
    ("A) one", "B) two", "C) three"),
    ("A：one", "B：two", "C：three", "D：four", "E. five"),
    ("B. one", "A. two", "B. three"),  # a repeated letter
    ("(A) one", "(B) two", "(C) three"),
    ("one", "two", "three", "four"),  # letters by position
    ("A", "B. two"),  # an option shorter than two characters
    ("a. one", "b. two"),
    ("A.one", "B.two", "C.three"),
    ("A. one", "2. two"),
    ("", "B. two"),
)


@pytest.mark.parametrize("options", SHAPES)
def test_letters_found_by_the_options_first_characters_are_option_letters(options) -> None:
    """The memo keeps a question's letters under its options' first two characters only where those decide them:
    then they are `option_letters` of any options that start so; a response read under one option set and then
    under another with the same starts gives each its fresh reading."""
    from mathreel.core.choices import letters_of_starts, option_letters

    starts = tuple(option[:2] for option in options)
    found = letters_of_starts(starts)
    if found is not None:
        assert found == option_letters(options)
        assert found == option_letters(tuple(option[:2] + " other text" for option in options))
    memo = ReadingMemo(_read_choice_answer, DEFAULT)
    other = tuple(option[:2] + "x" for option in options)
    for response in ("B", "The answer is B.", "(C)", "two", "A) one"):
        for asked in (options, other, options):
            assert memo.read(asked, response) == _fresh(response, asked)
