"""The fifth round's conflict classes (cases in tests/data/readings_classes.jsonl, classes V1-V4): options of several
values concluded as another option's pair, a letter first and an explanation ending on another option, options of
several parts, invented turns that answer again; what is left alone on purpose; and the one decline reading both
readers share (`text.Declines`)."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.choice import OptionMatcher
from mathreel.core.extract.free import declines, extract_free_answer
from mathreel.core.extract.free_verdict import free_verdict

PAIRS = {"A": "12 N, 30 J", "B": "12 N, 36 J", "C": "14 N, 30 J", "D": "14 N, 36 J"}
XY = {"A": "x = 2, y = 5", "B": "x = 3, y = 5", "C": "x = 2, y = 4", "D": "x = 3, y = 4"}
ANGLES = {"A": "110°", "B": "120°", "C": "140°", "D": "150°"}
POTS = {"A": "the kettle", "B": "the teapot", "C": "the mug", "D": "the jar"}
SUPPLY = {"A": "shifts left; rises", "B": "shifts left; falls", "C": "shifts right; rises", "D": "shifts right; falls"}
BRIDGE = {"A": "tunnel", "B": "bridge", "C": "ferry", "D": "dam"}
WALKS = {"A": "runs", "B": "walks", "C": "sits", "D": "jumps"}


def _choice(response: str, options: dict[str, str]):
    return extract_choice(response, tuple(options), options)


def _conflict_naming(found, *letters: str) -> bool:
    return (
        found.answer is None
        and found.explanation.startswith("conflict")
        and all(f"option {letter}" in found.explanation for letter in letters)
    )


@pytest.mark.parametrize(
    ("response", "stated", "other"),
    [
        ("- The force is about 12 N.\n- The work is about 30 J.\n\nThus the correct choice is:\n\nAnswer: B", "B", "A"),
        ("Force: 14 N, work: 36 J.\nThe answer is (C).", "C", "D"),
    ],
)
def test_a_pair_of_values_concluded_before_the_letter_is_a_conflict_naming_both(response, stated, other) -> None:
    assert _conflict_naming(_choice(response, PAIRS), stated, other)


def test_a_pair_is_read_as_a_whole_not_by_the_last_value_of_its_line() -> None:
    # the line-before check would read "4" alone as no option's value; the pair is D's
    assert _choice("Solving the system gives x = 3 and y = 4.\nThe answer is D.", XY).answer == "D"
    assert _conflict_naming(_choice("Solving the system gives x = 3 and y = 4.\nThe answer is C.", XY), "C", "D")
    # a long line of prose without a number between the values and the letter ends the concluding lines
    long_prose = "But the friction along the whole path changes all of this considerably, as the clip shows."
    assert _choice(f"The force is 12 N and the work 30 J.\n{long_prose}\nAnswer: B", PAIRS).answer == "B"


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("The answer is B. So the angle must be 115°.", None),  # a concluding value no option has
        ("The answer is B. The two base angles are 30° each.", "B"),  # no option's value, concluding nothing
        ("The answer is B. First the angle at A is 150°, and the angle at B is 120°.", "B"),  # D's only in the working
        ("The answer is B. The angle at B is 110°.", None),  # another option's value ends the response
        ("The answer is B. The other options, 110° and 150°, are wrong.", "B"),  # no value ends it
        ("Based on the video, the answer is B.\n\nExplanation: he waves at 0:45, after which 120°.", "B"),
    ],
)
def test_an_explanation_after_the_letter_that_ends_on_another_value(response, expected) -> None:
    found = _choice(response, ANGLES)
    assert found.answer == expected, found.explanation
    if expected is None:
        assert "option B" in found.explanation


def test_an_explanation_after_the_letter_naming_another_option_in_words_must_conclude_it() -> None:
    assert _conflict_naming(
        _choice("The answer is C. He pours the water, so the thing he fills is the jar.", POTS), "C"
    )
    assert _choice("The answer is C. The man puts the kettle on the hob.", POTS).answer == "C"  # no conclusion
    assert _choice("The answer is C. So it is not the jar.", POTS).answer == "C"  # ruled out


def test_options_of_several_parts_against_the_concluding_sentence() -> None:
    assert _conflict_naming(_choice("Supply shifts right, so the price falls. The answer is C.", SUPPLY), "C", "D")
    assert _choice("Supply shifts right, so the price falls. The answer is D.", SUPPLY).answer == "D"
    assert _choice("Supply shifts right. The answer is C.", SUPPLY).answer == "C"  # one part, shared by C and D
    # two other options carried in full and not the stated one: both named
    both = "Supply shifts left, then supply shifts right, and the price falls. The answer is A."
    assert _conflict_naming(_choice(both, SUPPLY), "A", "B", "D")


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("The answer is B.\nQuestion: What is in the next clip?\nAnswer: C", "B"),  # a new question: cut
        ("The answer is B.\nUser: And the next one?\nAssistant: The answer is C.", "B"),
        ("The answer is B.\n### Instruction\nNow the next clip.\n### Response\nThe answer is A.", "B"),
        ("The answer is B.\nAssistant: The answer is B.", "B"),  # answers again, the same
        ("The answer is B.\nAssistant: Thank you!", "B"),  # a turn that answers nothing
        ("The answer is B.\nAssistant: Looking again, it is the tunnel. The answer is A.", None),
        ("The answer is B.\n### Response:\nThe answer is D.", None),
        (
            "The answer is B.\n**Answer:**\nLet me check the frames again. The car drives into the hill, so it is A.",
            None,
        ),
        ("The cars cross the river on it.\nAnswer:\n(B) bridge", "B"),  # an answer heading over its answer alone
        # an "Answer:" heading over new working opens a turn only after an answer stated firmly: after a tentative
        # one or prose it is the response's own answer section
        (
            "Probably A.\nAnswer:\nLet me look again. The cars cross on a bridge over the water, so the answer is B.",
            "B",
        ),
        (
            "It goes under the hill.\nAnswer:\nLet me look again. The cars cross on a bridge, so the answer is B.",
            "B",
        ),
    ],
)
def test_invented_turns_a_new_question_is_cut_and_an_answer_again_must_agree(response, expected) -> None:
    found = _choice(response, BRIDGE)
    assert found.answer == expected, found.explanation
    if expected is None:
        assert "gives B" in found.explanation and "answers again" in found.explanation


def test_free_form_invented_turns_compare_values_not_spellings() -> None:
    assert extract_free_answer("The answer is 0.5.\nAssistant: The answer is 1/2.").answer == "0.5"
    assert extract_free_answer("So x = 4.\nAssistant: So x = 4.").answer is not None
    found = extract_free_answer("So the length is 12 cm.\n\nAssistant: The area of the square is 144 cm^2.")
    assert found.answer is None and "answers again" in found.explanation


def test_left_alone_a_letter_contradicted_only_in_meaning_and_the_closest_option() -> None:
    states = {"A": "Puerto Rico", "B": "Ohio", "C": "Texas", "D": "Maine"}
    reasoning = "Puerto Rico is a territory, not a state, so it is not on the list. The answer is (A) Puerto Rico."
    assert _choice(reasoning, states).answer == "A"
    assert _choice("None of the values match exactly; the closest option is (D).", ANGLES).answer == "D"


class _Counting(dict):
    """Option texts that count how often they are read."""

    reads = 0

    def __getitem__(self, key):
        _Counting.reads += 1
        return super().__getitem__(key)

    def items(self):
        _Counting.reads += 1
        return super().items()


@pytest.mark.parametrize(
    ("response", "shapes"),
    [
        ("The answer is B.", (None, None)),
        ("Answer: B", (None, None)),
        ("The answer is B because he walks to the door.", (None, None)),  # opens the response: no parts before it
        ("Based on the clip the man walks to the door.\nThe answer is B.", (None, {})),  # no number: no pairs
        ("He walks 3 steps, then 4 more.\nThe answer is B.", ({}, {})),
    ],
)
def test_the_new_checks_work_out_the_options_shapes_only_where_the_response_has_theirs(response, shapes) -> None:
    """Pairs of values only where a number stands before the letter, parts only where prose does; and then once per
    question, each a test on the texts that most options fail at once (the speed of every answer depends on it)."""
    _Counting.reads = 0
    matcher = OptionMatcher(_Counting(WALKS))
    assert extract_choice(response, tuple(WALKS), matcher).answer == "B"
    assert (matcher._pairs, matcher._parts) == shapes
    if response in ("The answer is B.", "Answer: B"):
        assert _Counting.reads == 0  # the shortest statements read no option text at all


def test_one_decline_reading_shared_and_each_readers_own() -> None:
    shared = "There is not enough information in the clip to tell."
    assert declines(shared) is not None
    assert _choice(shared, WALKS).answer is None and "does not commit" in _choice(shared, WALKS).explanation
    # the choice reader's own: no option fits (never a value to read for free-form)
    assert _choice("He walks, but none of the options fits.", WALKS).answer is None
    assert declines("He walks, but none of the options fits.") is None
    # the free-form reader's own: the data is not given
    assert declines("The chart does not provide the data for 2019.") is not None
    # an option that itself declines is what a declining response gives
    cannot = {"A": "runs", "B": "walks", "C": "Not enough information"}
    assert _choice("There is not enough information.", cannot).answer == "C"


def test_an_invented_answer_turn_in_prose_is_no_second_value() -> None:
    text = (
        "The answer is 1.\nAssistant: The exports are greater than 0.92 % in 1 year.\n\n"
        "Answer: The exports are greater than 0.92 % in 1 year.\n\nQuestion: In how many years are the exports"
    )
    assert free_verdict(text, "1").extraction.answer == "1"
    again = "The answer is 1.\nAssistant: So the count is 2.\n\nQuestion: In how many years"
    assert free_verdict(again, "1").extraction.explanation.startswith("conflict")  # a value that differs still is
