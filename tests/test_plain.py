"""The classes that were dataclasses keep what a dataclass gave them (core.plain): `==` by fields within one class,
a hash for the frozen ones and none for the others, the same repr, `replace` through `__init__`, and pickling (the
web app sends requests and questions to child processes)."""

from __future__ import annotations

import pickle

import pytest

from mathreel.core.benchmarks.base import GroupPolicy
from mathreel.core.extract.types import Extraction
from mathreel.core.question import Question
from mathreel.core.results.model import Prediction, ResultFile
from mathreel.core.scoring.files import ScoreRequest
from mathreel.core.scoring.report import Cell, Interval, Overall


def question(**changes: object) -> Question:
    fields: dict = {"question": "Which?", "answer": "B", "options": ("A. x", "B. y"), **changes}
    return Question("videomme", "mcq", "001-1", **fields)


def test_equality_is_by_fields_within_one_class():
    assert question() == question()
    assert question() != question(answer="A")
    assert Cell(3, 2, 66.7, None) != Overall(3, 2, 66.7, None)  # as dataclasses: another class is never equal
    assert Overall(3, 2, 66.7, None) == Overall(3, 2, 66.7, None, clustered_by="video")


def test_frozen_values_hash_and_the_others_do_not():
    assert len({GroupPolicy(), GroupPolicy(), GroupPolicy(by_position=True)}) == 2
    assert hash(Extraction("B", "letter", "B")) == hash(Extraction("B", "letter", "B"))
    assert hash(ScoreRequest("a.json")) == hash(ScoreRequest("a.json"))
    for unhashable in (question(), ResultFile("a.json", "videomme", "mcq", "template")):
        with pytest.raises(TypeError):
            hash(unhashable)


def test_repr_names_every_field_as_a_dataclass_did():
    assert repr(Extraction("B", "letter", "read B", (0, 1))) == (
        "Extraction(answer='B', method='letter', explanation='read B', span=(0, 1), strength=None)"
    )
    assert repr(GroupPolicy(unparsed_mark=-1)) == (
        "GroupPolicy(by_position=False, unparsed_mark=-1, kind_from_first=False, taxonomy_from_last_row=False)"
    )


def test_replace_makes_a_changed_copy_through_init():
    original = question()
    renamed = original.replace(question_id="001-2")
    assert (renamed.question_id, renamed.group_id, original.question_id) == ("001-2", "001-1", "001-1")
    assert question(group_id="").group_id == "001-1"  # an empty group is the question's own, as __post_init__ did
    with pytest.raises(TypeError, match="no field nosuch"):
        original.replace(nosuch=1)
    with pytest.raises(Exception, match="reviews correct"):
        ScoreRequest("a.json", judgments="j.jsonl").replace(judgments=None, reviews=("r.jsonl",))


def test_defaults_are_fresh_per_object():
    first, second = question(), question()
    first.dims["duration"] = "short"
    assert second.dims == {} and ResultFile("a", "b", "c", "d").notes is not ResultFile("a", "b", "c", "d").notes


def test_pickled_values_come_back_equal():
    values = [
        question(dims={"duration": "short"}),
        Prediction(question(), "B", 1, {"x": 1}),
        ScoreRequest("a.json", readings=("r.jsonl",)),
        Overall(3, 2, 66.7, Interval(20.0, 90.0), se=1.0),
        Extraction("B", "letter", "B", None, "shape"),
    ]
    assert [pickle.loads(pickle.dumps(value)) for value in values] == values
