"""`indented_json` writes what `json.dumps(value, ensure_ascii=False, indent=1)` writes (the `mathreel score --json`
report), on generated values: nesting, empty containers, text in any script, every number the encoder spells its own
way, and keys that are not text."""

from __future__ import annotations

import json
import random

import pytest

from mathreel.core.json_text import indented_json


def by_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


TEXTS = ["", "B", 'a "quoted" \\ line\nnext\ttab', "Ｂ 选项 Ответ", "\u2028\x00\x1f", "\ud800 lone", "😀"]
NUMBERS = [0, -1, 10**30, True, False, 0.1, -0.0, 1e-310, 1e300, float("nan"), float("inf"), float("-inf"), 66.67]


def generated(draw: random.Random, depth: int = 0) -> object:
    kind = draw.randrange(8 if depth < 4 else 3)
    if kind == 0:
        return draw.choice(TEXTS)
    if kind == 1:
        return draw.choice(NUMBERS)
    if kind == 2:
        return None
    if kind in (3, 4):
        items = [generated(draw, depth + 1) for _ in range(draw.randrange(4))]
        return tuple(items) if kind == 4 else items
    keys = [*TEXTS, 3, 2.5, True, False, None, float("nan")]
    return {draw.choice(keys): generated(draw, depth + 1) for _ in range(draw.randrange(4))}


def test_generated_values_are_written_as_json_writes_them():
    draw = random.Random(20261128)
    values = [generated(draw) for _ in range(3000)]
    assert [indented_json(value) for value in values] == [by_json(value) for value in values]


def test_a_report_shaped_value():
    value = {"schema": 1, "overall": {"n": 3, "ci": [20.5, 90.0], "text": "66.7% [20.8, 93.9]"}, "rows": [], "by": {}}
    assert indented_json(value) == by_json(value)


@pytest.mark.parametrize("value", [{1j: 1}, [object()], {"x": {1, 2}}], ids=["complex key", "object", "set"])
def test_what_json_refuses_is_refused(value):
    with pytest.raises(TypeError):
        by_json(value)
    with pytest.raises(TypeError):
        indented_json(value)
