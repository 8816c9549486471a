"""A letter against another option's text the conclusion states (class Z1), and the other Z-class rules at their
edges: the explanation names both sides, and the shapes that must keep their reading keep it."""

from __future__ import annotations

import pytest

from mathreel.core.extract import extract_choice
from mathreel.core.extract.stated_text import text_against_letter

STORES = {"A": "Shoe Palace", "B": "Foot Locker", "C": "Run World", "D": "ABC Mart"}
ORDERS = {"A": "①②③", "B": "③②①", "C": "②①③", "D": "①③②"}
ITEMS = {"A": "①②③", "B": "①②④", "C": "①③④", "D": "②③④"}


def test_the_conflict_names_the_letter_and_the_option_the_conclusion_states() -> None:
    text = "Weighing price and distance, the store it recommends is therefore ABC Mart.\nAnswer: A"
    found = text_against_letter(text, text.index("Answer"), "A", STORES)
    assert found is not None
    stated, why = found
    assert "'Shoe Palace'" in stated and "option D's text ('ABC Mart')" in why
    reading = extract_choice(text, tuple(STORES), STORES)
    assert reading.answer is None and "Shoe Palace" in reading.explanation and "ABC Mart" in reading.explanation


@pytest.mark.parametrize(
    "response",
    [
        "It recommends Shoe Palace rather than ABC Mart.\nAnswer: A",  # rejected
        "It cannot be ABC Mart.\nAnswer: A",
        "So the answer is not option D (ABC Mart).\nAnswer: A",
        "ABC Mart is too far, so the answer is A.",  # named on the way, not what the conclusion ends on
        "Let me check each.\nD. ABC Mart - incorrect, too far.\nAnswer: A",  # a walk through the options
        "Which store? Options: A. Shoe Palace B. Foot Locker C. Run World D. ABC Mart\nAnswer: A",  # echoed options
        "It is either Run World or ABC Mart... the guide settles it.\nAnswer: A",
        "The sign over the door reads ABC Mart.\nAnswer: A",  # a description, not a conclusion
        "The store it recommends is ABC Mart, not Shoe Palace... no wait, it is Shoe Palace.\nAnswer: A",
    ],
)
def test_a_text_rejected_listed_or_named_on_the_way_keeps_the_letter(response: str) -> None:
    assert extract_choice(response, tuple(STORES), STORES).answer == "A"


def test_an_ordering_is_matched_through_arrows_but_a_choice_of_items_is_not_held() -> None:
    assert extract_choice("所以正确的顺序是①→②→③，答案为B", tuple(ORDERS), ORDERS).answer is None
    assert extract_choice("所以正确的顺序是①→②→③，答案为A", tuple(ORDERS), ORDERS).answer == "A"
    # options that choose items ("①②③" against "①②④") are not orderings: prose lists and rejects items freely
    assert extract_choice("①②③正确，④错误，故选B", tuple(ITEMS), ITEMS).answer == "B"


def test_one_word_and_number_options_are_never_held_to_prose() -> None:
    animals = {"A": "cat", "B": "dog", "C": "horse", "D": "goat"}
    assert text_against_letter("It is a horse.\nAnswer: B", 15, "B", animals) is None
    birds = {"A": "72 birds", "B": "18 birds", "C": "40 birds", "D": "7 birds"}
    text = "There are 18 birds on the first tree and 40 on the second.\nThe answer is (C)."
    assert extract_choice(text, tuple(birds), birds).answer == "C"


def test_a_tag_opening_with_a_letter_and_another_options_text_is_a_conflict_naming_both() -> None:
    hands = {"A": "the hand is in the air", "B": "the hand is on the dog", "D": "the hand is on the table"}
    found = extract_choice("<answer>D the hand is on the dog</answer>", tuple(hands), hands)
    assert found.answer is None and "opens with D" in found.explanation and "option B's" in found.explanation
    # "A" before a lower-case word may be the article: the text is read
    dogs = {"A": "a cat on the sofa", "B": "dog on the sofa", "C": "a bird", "D": "nothing"}
    assert extract_choice("<answer>A dog on the sofa</answer>", tuple(dogs), dogs).answer == "B"


def test_a_fraction_result_is_its_value_and_a_box_after_a_result_no_option_has_is_a_conflict() -> None:
    halves = {"A": "0.25", "B": "0.5", "C": "0.75", "D": "1"}
    assert extract_choice("So P = 1/2.\nThe answer is B.", tuple(halves), halves).answer == "B"
    assert extract_choice("So P = 1/2.\n\\boxed{B}", tuple(halves), halves).answer == "B"
    found = extract_choice("So P = 1/3.\n\\boxed{C}", tuple(halves), halves)
    assert found.answer is None and "'0.75'" in found.explanation and "0.333" in found.explanation
