"""A gap is shown with as many decimals as make it agree with its two figures: 1605 and 1606 right of 2,700
(59.44% and 59.48%) read "59.4 -> 59.5: +0.0 pt" at one decimal, a contradiction; the terminal (`mathreel
explain`) and the Score tab's panel both show them at two decimals, the parts still adding up to the total."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mathreel.core.explain.explanation import Explanation
from mathreel.core.explain.gap import Gap, Step
from mathreel.core.explain.text import agreeing_places, figure_text, gap_line, gap_lines, signed_text
from mathreel.webapp.score_explain import gap_text

N = 2700


def pct(right: int, n: int = N) -> Fraction:
    return Fraction(100 * right, n)


def two_step_gap(a_right: int, b_right: int, middle: int) -> Gap:
    """A -> (middle) -> B in two steps, the figures exact as core.explain.gap makes them."""
    a, mid, b = pct(a_right), pct(middle), pct(b_right)
    steps = [Step("reading", "robust -> official", a, mid), Step("denominator", "all -> answered", mid, b)]
    return Gap("run-a", "run-b", a, b, steps)


def test_a_gap_that_rounds_to_nothing_between_figures_that_differ_gets_a_second_decimal():
    gap = two_step_gap(1605, 1606, 1607)
    assert figure_text(gap.a_figure) == "59.4" and figure_text(gap.b_figure) == "59.5"  # one decimal disagrees
    line = gap_line(gap)
    assert line == "+0.04 pt = 0.08 reading - 0.04 denominator"  # parts add up as shown
    heading = gap_lines(gap)[0]
    assert heading == "gap: run-a = 59.44  ->  run-b = 59.48"
    page = gap_text(Explanation(runs=[], settings=[], gap=gap))
    assert "run-a = 59.44 → run-b = 59.48" in page and "**+0.04 pt" in page and "+0.0 pt" not in page


def test_figures_that_agree_at_one_decimal_keep_one():
    gap = two_step_gap(1605, 1632, 1620)  # 59.44 -> 60.44: +1.0
    assert gap_line(gap).startswith("+1.0 pt = 0.6 reading")
    assert gap_lines(gap)[0] == "gap: run-a = 59.4  ->  run-b = 60.4"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (pct(1605), pct(1606)),  # 59.44 -> 59.48
        (pct(1604), pct(1606)),  # 59.41 -> 59.48: both 59.4 and 59.5 at one decimal, a gap of +0.1
        (Fraction(5935, 100), Fraction(59449, 1000)),  # 59.4 and 59.4 at one decimal under a gap of +0.1
        (Fraction(59449, 1000), Fraction(59451, 1000)),  # 59.45 both at two decimals
        (pct(1, 3), pct(2, 3)),  # 33.3 -> 66.7: +33.3, a last digit one off, as rounding makes it
        (59.44, 59.46),
        (0.0, 100.0),
        (60.0, 59.96),
    ],
)
def test_figures_that_differ_never_show_a_zero_gap_or_one_of_the_other_sign(a, b):
    places = agreeing_places(a, b)
    exact = Fraction(repr(b)) - Fraction(repr(a)) if isinstance(a, float) else b - a
    shown_gap = Fraction(signed_text(exact, places))
    difference = Fraction(figure_text(b, places)) - Fraction(figure_text(a, places))
    assert shown_gap != 0 and difference != 0 and (shown_gap > 0) == (difference > 0) == (exact > 0)
    assert abs(difference - shown_gap) <= Fraction(1, 10**places)  # at most the last digit apart
    if places > 1:  # the fewest: one decimal less contradicts
        fewer = places - 1
        gap_before = Fraction(signed_text(exact, fewer))
        shown_before = Fraction(figure_text(b, fewer)) - Fraction(figure_text(a, fewer))
        assert gap_before == 0 or shown_before == 0 or (gap_before > 0) != (shown_before > 0)


def test_equal_figures_show_a_gap_of_zero_at_one_decimal():
    assert agreeing_places(pct(1605), pct(1605)) == 1 and signed_text(Fraction(0)) == "+0.0"


def test_scores_paired_difference_of_runs_one_answer_apart_is_not_zero(tmp_path):
    """Two Video-MME runs of 2,700 answers, one answer apart: Score's paired line shows a gap that is not 0,
    and the two accuracies it shows subtract to it."""
    import json
    import re

    from helpers.colliding import colliding_file

    from mathreel.webapp.score import paired_markdown
    from mathreel.webapp.scored_runs import ScoreOptions, score_uploads

    a = colliding_file(tmp_path / "a_videomme.json", videos=900)
    (first_a,), _ = score_uploads([str(a)], ScoreOptions())
    wrong = next(row.question_id for row in first_a.report.rows if row.status == "wrong")
    videos = json.loads(a.read_text(encoding="utf-8"))
    question = next(q for v in videos for q in v["questions"] if q["question_id"] == wrong)
    question["response"] = f"The answer is {question['answer']}."
    b = tmp_path / "b_videomme.json"
    b.write_text(json.dumps(videos), encoding="utf-8")
    runs, errors = score_uploads([str(b), str(a)], ScoreOptions())
    assert errors == [] and [r.report.overall.n for r in runs] == [2700, 2700]
    text, diff = paired_markdown(runs[0], runs[1])
    shown = re.search(r": ([+-][0-9.]+) points\*\*.*\(([0-9.]+)% vs ([0-9.]+)%\)", text)
    assert shown is not None, text
    gap, first, second = (Fraction(x) for x in shown.groups())
    assert gap > 0 and gap == first - second and diff["difference"] > 0, (text, diff)
    assert "on the 2700 questions both scored" in text
