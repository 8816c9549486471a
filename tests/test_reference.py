"""Each pinned reproduction of a reference extractor: its quirks, and its figure on a template written here."""

from __future__ import annotations

import json
import re

import pytest

from mathreel.core.benchmarks import extractor_names
from mathreel.core.extract.mcq_extract import extract_choice_mcq
from mathreel.core.extract.reference import (
    extract_choice_lmms,
    extract_choice_lmms_videomme,
    extract_choice_official,
    extract_choice_official_2024_06_18,
)
from mathreel.core.results import read_results
from mathreel.core.scoring import score


@pytest.mark.parametrize(
    ("response", "current", "first"),
    [
        ("Answer: C. Jade.", "C", "A"),  # the first version reads the A of "Answer"
        ("Option: C", "C", "C"),  # "Option" holds no capital A-D, so deleting it changes nothing
        ("The correct answer: D", "D", "D"),  # "The correct answer" deleted today; "T" is not a letter either way
        ("The correct option D", "D", "D"),
        ("Best option: C", "B", "B"),  # the missing comma survives in both: the B of "Best"
        ("Based on the video, the answer is D.", "B", "B"),
        ("answer: c", None, None),
    ],
)
def test_official_versions_differ_only_where_the_phrase_lists_differ(response, current, first):
    assert extract_choice_official(response).answer == current
    assert extract_choice_official_2024_06_18(response).answer == first


@pytest.mark.parametrize(
    ("response", "videomme", "videomathqa"),
    [
        ("Each option is wrong but B", "B", "E"),  # Video-MME's old regex reads A-D, VideoMathQA's A-E
        ("Answer: C", "A", "A"),  # neither lmms-eval list deletes "Answer:"
        ("E", None, "E"),
    ],
)
def test_lmms_regex_letter_class_is_the_tasks(response, videomme, videomathqa):
    assert extract_choice_lmms_videomme(response).answer == videomme
    assert extract_choice_lmms(response).answer == videomathqa


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("Answer: C. Jade.", "C"),  # period format; "A" of Answer is not standalone
        ("A", "A"),  # start
        ("I think A is wrong, so C", "C"),  # end beats space
        ("(B) is right, not D.", "D"),  # the final "." is stripped, so "end" (9) beats parentheses (6)
        ("The answer is B, surely", "B"),  # phrase (7)
        ("答案是C", "C"),  # a CJK phrase (7a69a9a)
        ("Definitely something", "D"),  # no format matches, so the fallback takes the D of "Definitely"
        ("no capitals here", None),
        ("", None),
    ],
)
def test_mcq_extract_priorities(response, expected):
    assert extract_choice_mcq(response).answer == expected


def _first_regex(s: str, phrases: tuple[str, ...]) -> str:
    """The reference `extract_characters_regex` as plainly written as the script writes it."""
    s = s.strip()
    for phrase in phrases:
        s = s.replace(phrase, "")
    if len(s.split()) > 10 and not re.search("[ABCD]", s):
        return ""
    match = re.search("[ABCD]", s)
    return match[0] if match else ""


_FIRST = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option isThe correct option is",
    "Best answer:Best option:",
)
_CURRENT = (*_FIRST, "Answer:", "Option:", "The correct answer", "The correct option")

RESPONSES = [
    "Answer: C. Jade.",
    "B",
    "The answer is D",
    "Option: A",
    "The correct option B",
    "C",
    "I cannot tell",
    "Best answer: A",
    "D. the dog",
]
GOLD = ["C", "B", "D", "A", "B", "C", "A", "A", "D"]


def _template(tmp_path):
    """A current-generation template (duration/domain/sub_category), 9 questions over 3 videos."""
    videos = []
    for v in range(3):
        questions = [
            {
                "question_id": f"00{v}-{k + 1}",
                "task_type": "Counting Problem",
                "question": "?",
                "options": ["A. a", "B. b", "C. c", "D. d"],
                "answer": GOLD[3 * v + k],
                "response": RESPONSES[3 * v + k],
            }
            for k in range(3)
        ]
        videos.append(
            {
                "video_id": f"00{v}",
                "duration": "short",
                "domain": "Knowledge",
                "sub_category": "Astronomy",
                "questions": questions,
            }
        )
    path = tmp_path / "template.json"
    path.write_text(json.dumps(videos))
    return path


def _script_figure(phrases: tuple[str, ...]) -> float:
    """eval_your_results.py's overall: correct over answered (empty extractions dropped), one decimal."""
    read = [_first_regex(r, phrases) for r in RESPONSES]
    answered = [(x, g) for x, g in zip(read, GOLD, strict=True) if x != ""]
    return round(100 * sum(x == g for x, g in answered) / len(answered), 1)


@pytest.mark.parametrize(("name", "phrases"), [("official", _CURRENT), ("official-2024-06-18", _FIRST)])
def test_figure_equals_the_scripts_on_a_written_template(tmp_path, name, phrases):
    report = score(read_results(_template(tmp_path)), extractor=name)
    assert round(report.overall.accuracy, 1) == _script_figure(phrases)
    assert report.denominator == "answered"


def test_the_two_official_versions_give_different_figures(tmp_path):
    result = read_results(_template(tmp_path))
    assert score(result, extractor="official").overall.correct != score(result, "official-2024-06-18").overall.correct


def test_every_reproduction_is_listed_and_named_with_its_commit(tmp_path):
    assert set(extractor_names()) >= {"official", "official-2024-06-18", "lmms-regex", "lmms-mcq-extract"}
    result = read_results(_template(tmp_path))
    for name in ("official", "official-2024-06-18", "lmms-regex", "lmms-mcq-extract"):
        report = score(result, extractor=name)
        assert re.search(r"@[0-9a-f]{12}", report.official_extractor), name
        assert report.to_dict()["official_extractor"] == report.official_extractor
