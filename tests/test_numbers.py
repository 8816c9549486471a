"""`one_decimal` rounds the digits of a float's repr as text: it must give what `decimal` gives for every float
(`Decimal(repr(value)).quantize(Decimal("0.1"), ROUND_HALF_UP)`, the rule it replaced), halves and signs included."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal

import pytest

from mathreel.core.scoring.numbers import one_decimal, pct_text


def by_decimal(value: float) -> str:
    return str(Decimal(repr(float(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


EDGES = [0.0, -0.0, 0.05, -0.05, 0.04, -0.04, 0.95, -0.95, 9.95, 99.95, 99.94999, 35.25, 35.35, 100.0, 1e-05]
EDGES += [-1e-05, 5.551115123125783e-15, -5e-15, 9.99e-05, 5e-324, 1e16, 1.25e17, 12345678901234.56]
EDGES += [0.1 + 0.2, 2.675, float("nan")]


@pytest.mark.parametrize("value", EDGES, ids=repr)
def test_edges_round_as_decimal_rounds_them(value):
    assert one_decimal(value) == by_decimal(value)


def test_every_accuracy_of_small_files_and_random_values_round_as_decimal_rounds_them():
    accuracies = [100 * right / n for n in range(1, 300) for right in range(n + 1)]
    draw = random.Random(20261128)
    values = accuracies + [draw.uniform(-200, 200) for _ in range(20000)] + [draw.random() for _ in range(5000)]
    values += [round(draw.uniform(0, 100), 2) for _ in range(20000)]  # exact halves in the second decimal
    assert [one_decimal(v) for v in values] == [by_decimal(v) for v in values]


def test_the_shown_figures():
    assert [one_decimal(35.25), one_decimal(-0.05), one_decimal(99.95), one_decimal(7)] == [
        "35.3",
        "-0.1",
        "100.0",
        "7.0",
    ]
    assert pct_text(77.77777) == "77.8%" and pct_text(None) == "-"
