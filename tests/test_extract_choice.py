"""The choice extractors: the robust one on the hand-labelled corpus, the reference ones on their quirks."""

from __future__ import annotations

import pytest

from core.extract import extract_choice, extract_choice_lmms, extract_choice_official

OPTIONS = {"A": "Running", "B": "Walking", "C": "60 degrees", "D": "Swimming"}


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("B", "B"),
        ("(C).", "C"),
        ("**Answer:** B", "B"),
        ("The answer is not A; it is D.", "D"),
        ("\\boxed{\\text{B}}", "B"),
        ("答案是 B", "B"),
        ("the answer is c", "C"),
        ("Based on the video, the answer is D.", "D"),
        ("After analysis, the correct option is B.", "B"),
        ("The answer is B because the Dog barked.", "B"),
        ("Walking", "B"),
        ("It must be 60 degrees", "C"),
        ("I think it is either A or C.", None),
        ("I'm sorry, I cannot view the video.", None),
        ("E", None),
    ],
)
def test_robust_reads_what_the_response_means(response: str, expected: str | None) -> None:
    assert extract_choice(response, options=OPTIONS).answer == expected


def test_unparsed_carries_the_reason() -> None:
    result = extract_choice("I'm sorry, I cannot view the video.")
    assert not result.parsed
    assert result.explanation.startswith("refusal")


@pytest.mark.parametrize(
    ("response", "official"),
    [
        ("Based on the video, the answer is D.", "B"),
        ("After analysis, the correct option is B.", "A"),
        ("The answer is B because the Dog barked.", "B"),
        ("The best answer is B", "B"),
        ("E", None),
    ],
)
def test_official_reproduces_the_script(response: str, official: str | None) -> None:
    assert extract_choice_official(response).answer == official


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("The best answer is B", "B"),
        ("B. Walking is correct", "B"),
        ("I think the answer should be C.", "C"),
        ("E", "E"),
    ],
)
def test_lmms_matches_seed_examples(response: str, expected: str) -> None:
    assert extract_choice_lmms(response).answer == expected
