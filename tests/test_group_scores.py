"""Group scores of whole files: MathReel's default (groups by video in question order, unparsed counts wrong), and
the pinned reproductions, checked against the figures the upstream scoring functions produced on the same files
(the research notes' whole-run example) and against hand-computed worked examples."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.v2files import TOY, Spec, rows, write_official_tsv

from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.groups import figure

MATHREEL = Path(sys.executable).with_name("mathreel")
# The official script's get_final_rating on the toy set (taxonomy only on the logic groups' last rows).
OFFICIAL_TOY = {
    "final_rating": {
        "level_1": 25.0,
        "level_2": 25.0,
        "level_3": 10.0,
        "relevance_score": 25.0,
        "relevance_linear_score": 50.0,
        "logic_score": 17.5,
        "total": 20.0,
    },
    "second_head_rating": {"SH-x": 17.5, "SH-y": 25.0},
    "third_head_rating": {"TH-x": 25.0, "TH-y": 25.0, "TH-z": 10.0},
}
# lmms-eval's _compute_all_subscores on the same set with the taxonomy copied onto every row.
LMMS_TOY = {
    "overall_score": 30.416666666666668,
    "relevance_score": 56.25,
    "logic_score": 17.5,
    "level_1_score": 56.25,
    "level_2_score": 25.0,
    "level_3_score": 10.0,
    "overall_acc": 75.0,
    "relevance_acc": 75.0,
    "logic_acc": 75.0,
    "level_1_acc": 75.0,
    "level_2_acc": 75.0,
    "level_3_acc": 75.0,
}


def same_rating(rating: dict, expected: dict) -> bool:
    """Equal keys at both levels and every figure within 0.01 (the contract)."""
    return rating.keys() == expected.keys() and all(
        rating[part].keys() == expected[part].keys()
        and all(abs(rating[part][key] - value) < 0.01 for key, value in expected[part].items())
        for part in expected
    )


def toy(tmp_path: Path, specs=TOY, order=None, name: str = "toy.tsv") -> Path:
    records = rows(specs)
    if order is not None:
        records = [records[i] for i in order]
    return write_official_tsv(tmp_path / name, records)


def scored(path: Path, extractor: str = "robust"):
    return score(read_results(path), extractor=extractor)


def test_the_official_reproduction_gives_the_official_rating_object(tmp_path):
    report = scored(toy(tmp_path), "official")
    name, rating = report.upstream.name, report.upstream.value
    assert name == "official_rating" and same_rating(rating, OFFICIAL_TOY)
    assert list(rating["final_rating"]) == list(OFFICIAL_TOY["final_rating"])  # the script's key order
    off_by_a_little = {**OFFICIAL_TOY, "final_rating": {**OFFICIAL_TOY["final_rating"], "total": 20.02}}
    assert not same_rating(rating, off_by_a_little)
    assert report.groups.total.score == pytest.approx(20.0)


def test_the_default_groups_by_video_and_counts_unparsed_wrong(tmp_path):
    report = scored(toy(tmp_path))
    # 25 (CCWC chain broken at Q3) + 56.25 (three right of four) + 10 (Q2 stands in for Q1), over three groups.
    assert report.groups.total.score == pytest.approx((25 + 56.25 + 10) / 3)
    assert report.groups.headline() == {"total": 30.42, "relevance": 56.25, "logic": 17.5, "relevance_linear": 75.0}
    assert report.groups.by["level"]["2"].questions == 4  # the logic group's four questions, under its level
    assert report.groups.effects == [] and report.upstream is None
    assert report.unparsed == ["002-2"]


def test_the_default_does_not_depend_on_row_order_but_the_official_figure_does(tmp_path):
    order = list(range(12))
    random.Random(3).shuffle(order)
    shuffled = toy(tmp_path, order=order, name="shuffled.tsv")
    assert scored(shuffled).groups.total.score == pytest.approx(scored(toy(tmp_path)).groups.total.score)
    official = scored(shuffled, "official")
    assert official.groups.total.score != pytest.approx(20.0)
    rules = {effect.rule: effect for effect in official.groups.effects}
    order_effect = rules["grouping by row position instead of by video and question order"]
    assert order_effect.without == pytest.approx(20.0)  # by video, with the script's -1 rule: its in-order figure
    assert any("mix videos or reorder" in note for note in official.groups.notes)


def test_the_official_minus_one_rule_is_reported_with_its_size(tmp_path):
    report = scored(toy(tmp_path), "official")
    (effect,) = report.groups.effects
    assert effect.total == pytest.approx(20.0) and effect.without == pytest.approx(30.4167, abs=1e-4)
    assert "changed the total by -10.42" in effect.text()
    assert report.groups.notes == ["rows are in video and question order: grouping by position forms the video groups"]


def test_an_unparsed_answer_never_counts_right_by_default(tmp_path):
    specs = (
        Spec("001", "logic", "[1,2,3,4]", "UUUU", 1, "S", "T"),
        Spec("002", "logic", "[[1,2],3,4]", "UCCC", 1, "S", "T"),
    )
    path = toy(tmp_path, specs)
    assert [g.result.score for g in scored(path).groups.groups] == [0.0, 10.0]
    assert [g.result.score for g in scored(path, "official").groups.groups] == [100.0, 100.0]


def test_lmms_eval_reproduction_gives_its_twelve_metrics(tmp_path):
    tagged = tuple(
        Spec(s.video, s.kind, s.structure, s.pattern, s.level, s.second_head, s.third_head, True) for s in TOY
    )
    upstream = scored(toy(tmp_path, tagged), "lmms-eval").upstream
    name, metrics = upstream.name, upstream.value
    assert name == "lmms_eval"
    assert metrics == pytest.approx({f"videomme_v2_{key}": value for key, value in LMMS_TOY.items()})


def test_lmms_eval_stopping_on_untagged_rows_is_said(tmp_path):
    report = scored(toy(tmp_path), "lmms-eval")
    assert any("None among the head names" in w for w in report.groups.warnings)


def test_evalscope_reports_plain_accuracy_per_subset(tmp_path):
    upstream = scored(toy(tmp_path), "evalscope").upstream
    name, subsets = upstream.name, upstream.value
    assert name == "evalscope"
    # "The answer is B." reads B by its last-capital fallback; "I cannot tell." reads nothing (I is no option).
    assert subsets["all"] == pytest.approx(75.0) and subsets["relevance"] == pytest.approx(75.0)


def test_a_file_of_4k_plus_1_rows_is_flagged_for_the_official_script(tmp_path):
    records = rows(TOY)[:9]
    report = score(read_results(write_official_tsv(tmp_path / "short.tsv", records)), extractor="official")
    assert any("IndexError" in w for w in report.groups.warnings)
    default = score(read_results(write_official_tsv(tmp_path / "short2.tsv", records)))
    assert any("do not have 4 questions" in w for w in default.groups.warnings)


def test_figures_have_intervals_over_groups_and_clustered_accuracy(tmp_path):
    report = scored(toy(tmp_path))
    total = report.groups.total
    values = [25.0, 56.25, 10.0]
    mean = sum(values) / 3
    se = (sum((v - mean) ** 2 for v in values) / 2 / 3) ** 0.5
    z = 1.959963984540054
    assert tuple(total.score_ci) == pytest.approx((max(0.0, mean - z * se), mean + z * se))
    assert (total.questions, total.correct, total.accuracy) == (12, 9, 75.0)
    assert figure([]).score is None


def test_score_json_holds_groups_total_and_with_official_the_rating(tmp_path):
    path = toy(tmp_path)
    default = json.loads(
        subprocess.run(
            [str(MATHREEL), "score", str(path), "--json", "--rows"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert default["groups"]["total"] == pytest.approx(30.42, abs=0.01)
    assert 0 <= default["groups"]["total"] <= 100
    items = default["groups"]["items"]
    assert [item["group"] for item in items] == ["001", "002", "003"]
    assert items[0]["explanation"].startswith("3 of 4 right: 25.00 in a [1,2,3,4] chain broken at Q3")
    official = json.loads(
        subprocess.run(
            [str(MATHREEL), "score", str(path), "--json", "--extractor", "official"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert same_rating(official["official_rating"], OFFICIAL_TOY)
    text = subprocess.run(
        [str(MATHREEL), "score", str(path), "--extractor", "official"], capture_output=True, text=True, check=True
    ).stdout
    assert "group score 20.0" in text and "official_rating (as the reference writes it):" in text


def test_missing_questions_count_wrong_in_their_group(tmp_path):
    records = rows(TOY)
    annotations = tmp_path / "annotations.jsonl"
    annotations.write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "prediction"}) + "\n" for r in records)
    )
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(json.dumps({"question_id": r["question_id"], "response": r["prediction"]}) + "\n" for r in records[:11])
    )
    report = score(read_results(answers, benchmark="videomme-v2", annotations=annotations))
    assert report.missing == ["003-4"]
    last = report.groups.groups[-1]
    assert last.statuses[-1] == "missing" and last.result.score == 10.0  # WCC + missing: Q2 stands in for Q1
    assert "Q4 missing, counts wrong" in last.result.explanation


def test_where_the_official_script_would_stop_is_said(tmp_path):
    reversed_rows = toy(tmp_path, order=list(range(11, -1, -1)), name="reversed.tsv")
    report = scored(reversed_rows, "official")
    assert any("the official script stops on this file" in w for w in report.groups.warnings)
    assert not any("stops" in w for w in scored(toy(tmp_path), "official").groups.warnings)
