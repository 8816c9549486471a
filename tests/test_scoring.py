"""Scoring: the harnesses' worked examples, grouping, denominators, extractor disagreements, and the statistics
checked against independent computations (Wilson's defining equation, the sandwich estimator via numpy)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from helpers.jsonl import write_jsonl
from helpers.lmms_logs import lmms_generation

from mathreel.core.results import read_results
from mathreel.core.scoring import paired_difference, score
from mathreel.core.scoring.stats import Z95, clustered_se, naive_se, wilson_interval

DATA = Path(__file__).parent / "data" / "results"


def test_seed000_mcq_example_is_two_thirds():
    report = score(read_results(DATA / "seed000_mcq.jsonl"))
    assert (report.overall.n, report.overall.correct) == (3, 2)
    assert round(report.overall.accuracy, 1) == 66.7
    assert report.by["category"]["Geometry Angle"].accuracy == 50.0
    assert report.by["duration"]["medium"].accuracy == 100.0
    assert [r.status for r in report.rows] == ["correct", "wrong", "correct"]


def test_seed000_multibinary_example_is_one_half_and_flags_the_short_group():
    report = score(read_results(DATA / "seed000_pairs.jsonl"))
    assert report.mode == "mbin"
    assert (report.overall.n, report.overall.correct, report.overall.accuracy) == (2, 1, 50.0)
    assert report.to_dict()["overall"]["n"] == 2  # questions, not pairs
    assert report.pairs == 3
    assert "1 multi-binary groups have a different number of pairs than the usual 2: q002 (1)" in report.warnings
    assert report.warnings[-1].startswith("only 2 clusters (question)")  # 2 groups, no video ids


def test_multibinary_group_with_mixed_categories_is_flagged(tmp_path):
    records = [
        {"question_id": f"q1_{k}", "category": cat, "duration": "short", "answer": "A", "response": "A"}
        for k, cat in ((1, "Chart"), (2, "Counting"))
    ]
    report = score(read_results(write_jsonl(tmp_path / "x.jsonl", records), mode="mbin"))
    assert report.overall.correct == 1
    assert any("different dimension values" in w and "q1" in w for w in report.warnings)


def test_seed002_videomme_aggregate_is_two_thirds(tmp_path):
    report = score(read_results(write_jsonl(tmp_path / "s.jsonl", lmms_generation(2))))
    assert round(report.overall.accuracy, 1) == 66.7
    assert set(report.by) == {"duration", "domain", "sub_category", "task_type"}
    assert report.by["domain"]["Knowledge"].correct == 0
    assert report.cross["duration x task_type"]["long"]["Temporal Reasoning"].accuracy == 100.0
    assert report.overall.clusters == 3


def test_videomme_template_accuracy_by_hand():
    # The template's (gold answer, response) per question; the response's leading letter is the model's choice.
    template = [
        ("C", "C. Berries."),
        ("A", "D."),
        ("D", "D. 3"),
        ("C", "Answer: C. Jade."),
        ("D", "D"),
        ("B", "D. 13"),
        ("B", "B"),
        ("C", "C."),
        ("D", "D. United States."),
    ]
    chosen = [response.removeprefix("Answer: ")[0] for _, response in template]
    expected = 100 * sum(c == gold for c, (gold, _) in zip(chosen, template, strict=True)) / len(template)
    report = score(read_results(DATA / "videomme_template.json"))
    assert report.overall.accuracy == pytest.approx(expected)  # 7 of 9
    assert [r.gold for r in report.rows] == [gold for gold, _ in template]
    assert [r.extracted for r in report.rows] == chosen


def test_first_official_extractor_misreads_answer_prefix_and_uses_answered_denominator():
    result = read_results(DATA / "videomme_template.json")
    first, current = score(result, extractor="official-2024-06-18"), score(result, extractor="official")
    # The 2024-06-18 script takes the first capital A-D: "Answer: C. Jade." reads as A; today's deletes "Answer:".
    assert first.disagreements == ["002-1"] and current.disagreements == []
    assert first.to_dict()["disagreements"] == 1
    assert first.rows[3].extracted == "A" and first.rows[3].official_answer == "A"
    assert current.rows[3].extracted == "C"
    assert first.denominator == current.denominator == "answered"
    assert (first.overall.n, first.overall.correct) == (9, 6)
    assert (current.overall.n, current.overall.correct) == (9, 7)
    assert "afd52cfe3dde" in current.official_extractor and "e1e2bffb30b5" in first.official_extractor


def test_answered_denominator_drops_unparsed(tmp_path):
    responses = ["A", "B", "C", "I cannot determine this from the video."]
    records = [
        {"question_id": f"q{i}", "duration": "short", "domain": "Knowledge", "answer": gold, "response": r}
        for i, (gold, r) in enumerate(zip("ABDA", responses, strict=True))
    ]
    result = read_results(write_jsonl(tmp_path / "u.jsonl", records))
    all_q, answered = score(result), score(result, denominator="answered")
    assert (all_q.overall.n, all_q.overall.correct, all_q.overall.accuracy) == (4, 2, 50.0)
    assert (answered.overall.n, answered.overall.correct) == (3, 2)
    assert all_q.unparsed == answered.unparsed == ["q3"]
    assert all_q.rows[3].status == "unparsed" and all_q.rows[3].explanation
    assert answered.to_dict()["denominator"] == "answered"


def test_missing_questions_count_wrong_unless_answered_only(tmp_path):
    annotations = write_jsonl(
        tmp_path / "ann.jsonl",
        [
            {"question_id": f"q{i}", "videoID": f"v{i // 2}", "duration": "short", "domain": "Knowledge", "answer": "A"}
            for i in range(4)
        ],
    )
    preds = write_jsonl(
        tmp_path / "p.jsonl",
        [
            {"question_id": "q0", "response": "A"},
            {"question_id": "q1", "response": "B"},
            {"question_id": "zz", "response": "A"},
        ],
    )
    result = read_results(preds, annotations=annotations)
    report = score(result)
    data = report.to_dict()
    assert (data["overall"]["n"], data["overall"]["correct"]) == (4, 1)
    assert (data["missing"], data["missing_ids"], data["unknown_ids"]) == (2, ["q2", "q3"], ["zz"])
    assert [r.status for r in report.rows] == ["correct", "wrong", "missing", "missing"]
    assert score(result, denominator="answered").overall.n == 2


def test_mathverse_free_form_and_all_excludes_text_only():
    report = score(read_results(DATA / "mathverse_output.json"))
    status = {r.question_id: r.status for r in report.rows}
    # Text Only ids carry a suffix: their file's sample_index may repeat testmini's.
    assert status == {"1": "correct", "5": "wrong", "3421": "correct", "3425": "wrong", "9001-text-only": "correct"}
    assert (report.overall.n, report.overall.correct) == (4, 2)  # Text Only is outside "All"
    assert report.excluded_from_overall == 1
    assert report.by["problem_version"]["Text Only"].correct == 1
    assert report.overall.clusters == 2  # problems 1 and 685
    assert report.official_extractor is None


def _random_videomme(tmp_path: Path, seed: int, n_videos: int = 60) -> tuple[Path, list[dict]]:
    rng = random.Random(seed)
    records = []
    for v in range(n_videos):
        skill = rng.random()  # answers on one video are correlated
        for k in range(3):
            gold = rng.choice("ABCD")
            pick = gold if rng.random() < skill else rng.choice("ABCD")
            records.append(
                {
                    "question_id": f"{v:03d}-{k}",
                    "videoID": f"vid{v}",
                    "duration": rng.choice(["short", "medium", "long"]),
                    "domain": "Knowledge",
                    "answer": gold,
                    "response": f"The best answer is {pick}.",
                }
            )
    return write_jsonl(tmp_path / f"r{seed}.jsonl", records), records


def _sandwich_se(y: np.ndarray, groups: list[str]) -> float:
    """CR1 cluster-robust SE of an intercept-only regression, written with the textbook matrices."""
    x = np.ones((len(y), 1))
    bread = np.linalg.inv(x.T @ x)
    residuals = y - x @ (bread @ x.T @ y)
    meat = np.zeros((1, 1))
    labels = np.array(groups)
    for g in set(groups):
        score_g = x[labels == g].T @ residuals[labels == g]
        meat += np.outer(score_g, score_g)
    n_groups = len(set(groups))
    return float(np.sqrt((bread @ meat @ bread)[0, 0] * n_groups / (n_groups - 1)))


def test_figures_match_independent_computation(tmp_path):
    path, records = _random_videomme(tmp_path, seed=7)
    report = score(read_results(path))
    y = np.array([r["response"][-2] == r["answer"] for r in records], dtype=float)
    n, k = len(y), int(y.sum())
    assert (report.overall.n, report.overall.correct) == (n, k)
    assert report.overall.accuracy == pytest.approx(100 * y.mean())
    assert report.overall.se == pytest.approx(100 * y.std(ddof=1) / math.sqrt(n))
    assert report.overall.clustered_se == pytest.approx(100 * _sandwich_se(y, [r["videoID"] for r in records]))
    # Wilson's bounds are the two p with |p_hat - p| = z * sqrt(p (1 - p) / n).
    for bound in report.overall.ci:
        p = bound / 100
        assert abs(y.mean() - p) == pytest.approx(Z95 * math.sqrt(p * (1 - p) / n))
    for value, cell in report.by["duration"].items():
        mask = np.array([r["duration"] == value for r in records])
        assert (cell.n, cell.correct) == (int(mask.sum()), int(y[mask].sum()))


def test_stats_edge_cases():
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(100.0)
    assert naive_se([1.0]) is None
    assert clustered_se([1.0, 0.0], ["a", "a"]) is None  # one cluster
    values = [1.0, 0.0, 1.0, 1.0]
    assert clustered_se(values, ["a", "b", "c", "d"]) == pytest.approx(naive_se(values))


def test_paired_difference_matches_direct_computation(tmp_path):
    path_a, records_a = _random_videomme(tmp_path, seed=1)
    records_b = [dict(r, response=f"Answer: {random.Random(i).choice('ABCD')}") for i, r in enumerate(records_a)]
    path_b = write_jsonl(tmp_path / "b.jsonl", records_b[:-3])  # run B lacks the last video
    report_a, report_b = score(read_results(path_a)), score(read_results(path_b))
    diff = paired_difference(report_a, report_b)
    common = records_a[:-3]
    d = np.array(
        [
            float(a["response"][-2] == a["answer"]) - float(b["response"][-1] == b["answer"])
            for a, b in zip(common, records_b, strict=False)
        ]
    )
    assert (diff.n, diff.only_a, diff.only_b) == (len(common), 3, 0)
    assert diff.difference == pytest.approx(100 * d.mean())
    se = 100 * _sandwich_se(d, [r["videoID"] for r in common])
    assert diff.clustered_se == pytest.approx(se)
    assert diff.ci == pytest.approx((100 * d.mean() - Z95 * se, 100 * d.mean() + Z95 * se))
    same = paired_difference(report_a, report_a)
    assert (same.difference, same.clustered_se) == (0.0, 0.0)
    json.dumps(diff.to_dict())


# -- rows in to_dict and the CSV export -------------------------------------------------------------------------

ROW_KEYS = {
    "question_id",
    "group_id",
    "cluster",
    "dims",
    "response",
    "extracted",
    "method",
    "explanation",
    "gold",
    "status",
    "official_answer",
    "record",
    "join",
    "rule",
    "strength",
}


def test_to_dict_carries_every_row_and_keeps_the_summary_keys():
    report = score(read_results(DATA / "videomme_template.json"))
    summary = report.to_dict()
    full = report.to_dict(rows=True)
    assert "rows" not in summary and {k: v for k, v in full.items() if k != "rows"} == summary
    assert len(full["rows"]) == 9 and all(set(row) == ROW_KEYS for row in full["rows"])
    second = full["rows"][1]
    assert (second["response"], second["extracted"], second["gold"], second["status"]) == ("D.", "D", "A", "wrong")
    assert second["dims"]["task_type"] == report.rows[1].dims["task_type"] and second["method"]
    assert json.loads(json.dumps(full)) == full  # JSON-ready as is


def _formula_report(tmp_path):
    responses = ['=HYPERLINK("http://x","B")', "+A", "-1 then A", "@SUM(A1)", "\tC", "\rD", 'A, "quoted"\nB']
    records = [
        {"question_id": f"q{i}", "category": "=cmd|' /C calc'!A0", "duration": "short", "answer": "A", "response": text}
        for i, text in enumerate(responses)
    ]
    return score(
        read_results(write_jsonl(tmp_path / "formulas.jsonl", records), benchmark="videomathqa", mode="mcq")
    ), responses


def test_rows_csv_neutralises_formula_cells_and_round_trips(tmp_path):
    import csv
    import io

    from mathreel.core.scoring.export import FORMULA_START, safe_cell

    report, responses = _formula_report(tmp_path)
    table = list(csv.reader(io.StringIO(report.rows_csv(), newline="")))
    header, body = table[0], table[1:]
    assert header[:5] == ["question_id", "group_id", "cluster", "response", "extracted"]
    assert "dims" not in header and {"dim_category", "dim_duration"} <= set(header)
    assert len(body) == len(responses)
    active = [cell for row in table for cell in row if cell.startswith(FORMULA_START)]
    assert active == []
    column = header.index("response")
    assert [row[column] for row in body] == [safe_cell(text) for text in responses]
    assert body[0][column] == '\'=HYPERLINK("http://x","B")' and body[6][column] == responses[6]
    assert body[0][header.index("dim_category")].startswith("'=cmd")
    status = header.index("status")
    assert [row[status] for row in body] == [r.status for r in report.rows]


@pytest.mark.parametrize(
    ("value", "cell"),
    [(None, ""), (3, "3"), (-2, "'-2"), ("plain", "plain"), ("a=b", "a=b"), ("=1+1", "'=1+1"), ("\t=1", "'\t=1")],
)
def test_safe_cell(value, cell):
    from mathreel.core.scoring.export import safe_cell

    assert safe_cell(value) == cell


def test_breakdowns_and_cross_tables_match_a_direct_count_over_the_rows(tmp_path):
    """The one-pass tables (counted per combination of values) against counting the rows themselves, with some
    rows lacking a dimension and an unknown label."""
    rng = random.Random(7)
    durations, domains, tasks = (
        ("short", "medium", "long", "ultra"),
        ("Knowledge", "Multilingual"),
        ("OCR Problems", "Counting Problem", "Spatial Reasoning"),
    )
    records = []
    for i in range(300):
        record = {
            "question_id": f"{i:04d}",
            "videoID": f"v{i // 3}",
            "duration": rng.choice(durations),
            "domain": rng.choice(domains),
            "answer": rng.choice("ABCD"),
            "response": rng.choice("ABCD?"),
        }
        if rng.random() < 0.8:
            record["task_type"] = rng.choice(tasks)
        records.append(record)
    report = score(read_results(write_jsonl(tmp_path / "r.jsonl", records), benchmark="videomme"))

    def count(rows, key):
        cells = {}
        for row in rows:
            if key in row.dims:
                n, correct = cells.get(row.dims[key], (0, 0))
                cells[row.dims[key]] = (n + 1, correct + (row.status == "correct"))
        return cells

    for key in ("duration", "domain", "task_type"):
        assert {v: (c.n, c.correct) for v, c in report.by[key].items()} == count(report.rows, key)
    assert list(report.by["duration"]) == ["short", "medium", "long", "ultra"]
    table = report.cross["duration x task_type"]
    for duration, cells in table.items():
        rows = [r for r in report.rows if r.dims["duration"] == duration]
        assert {v: (c.n, c.correct) for v, c in cells.items()} == count(rows, "task_type")
    assert set(report.cross) == {"duration x domain", "duration x task_type"}


# -- the per-question option reading and the count-based statistics ---------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ("A. The man walks", "B. A woman sits", "C. It rains", "D. Nobody"),
        ("(A) 30°", "(B) 60°", "(C) 90°", "(D) 120°"),
        ("A) x", "B:y", "C：z", " D. w ", "E.\t v"),
        ("A.", "B. two", "C.   ", "D) "),
        ("30 degrees", "60 degrees", "90 degrees"),
        ("A. first", "second", "C. third"),
        ("A. same", "A. again", "B. other"),
        ("a. lower", "b. case"),
        ("AB. two capitals", "B. fine"),
    ],
)
def test_question_options_are_read_as_the_question_reads_them(options):
    from mathreel.core.question import Question
    from mathreel.core.scoring.verdict import question_choices as _choices

    question = Question("videomme", "default", "q", "?", "A", options=options)
    letters, matcher = _choices(question, ("A", "B", "C", "D"))
    assert letters == tuple(question.option_texts) and set(letters) <= set(question.letters)
    assert dict(matcher.items()) == question.option_texts
    assert _choices(Question("videomme", "default", "q", "?", "A"), ("A", "B", "C", "D")) == (
        ("A", "B", "C", "D"),
        None,
    )


def test_count_based_standard_errors_equal_the_value_based_ones():
    from mathreel.core.scoring.stats import binary_se, clustered_binary_se

    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(0, 60)
        values = [float(rng.random() < 0.6) for _ in range(n)]
        clusters = [f"v{rng.randint(0, max(n // 3, 0))}" for _ in range(n)]
        tallies: dict[str, list[int]] = {}
        for value, cluster in zip(values, clusters, strict=True):
            tally = tallies.setdefault(cluster, [0, 0])
            tally[0] += 1
            tally[1] += int(value)
        _same(binary_se(int(sum(values)), n), naive_se(values))
        _same(clustered_binary_se(list(tallies.values())), clustered_se(values, clusters))


def _same(got: float | None, expected: float | None) -> None:
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected, abs=1e-9)
