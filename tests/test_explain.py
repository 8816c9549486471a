"""`core.explain`: gaps decomposed on files whose every cause is known, parts that always add up, figures equal to
`mathreel score`'s, every reference at once, and figures typed or published.

The files are small plain JSONL and Video-MME-v2 TSVs written here, where each answer is chosen for the cause it
plays: "Based on the video, the answer is D." is D to the robust reader and B to the official Video-MME script
(the B of "Based"), "I cannot tell." is unparsed by both.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from helpers.explain_lines import videomme_line
from helpers.jsonl import write_jsonl
from helpers.v2files import TOY, Spec, rows, write_official_tsv

from mathreel.core.benchmarks import BENCHMARKS, get_benchmark
from mathreel.core.errors import InputError, MathReelError
from mathreel.core.explain.gap import CAUSES, Number, decompose, figure_of
from mathreel.core.explain.references import reference_table
from mathreel.core.explain.runs import Run, load_run
from mathreel.core.explain.scorers import Scorer, check_scorer, known_scorers, own_scorer, readers
from mathreel.core.explain.target import against, paper_target, typed_target
from mathreel.core.judge.model import Judgment, write_judgments
from mathreel.core.results import read_results
from mathreel.core.scoring import score

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo" / "results"
MISREAD = "Based on the video, the answer is D."  # robust: D; the official script: B
REFUSAL = "I cannot tell."


def known_pair(tmp_path: Path) -> tuple[Run, Run]:
    """Two runs with every cause planted (see test_every_cause_is_recovered_with_its_questions_and_points)."""
    a = {f"q{i:02d}": "D" for i in range(1, 21)}
    a.update({"q13": MISREAD, "q14": MISREAD, "q15": MISREAD, "q16": REFUSAL, "q17": REFUSAL, "q18": "C"})
    b = dict(a)
    del b["q19"]  # only in A
    b["q21"] = "C"  # only in B, wrong
    b["q01"] = b["q02"] = "A"  # B answers two differently, wrongly
    file_a = write_jsonl(tmp_path / "a.jsonl", [videomme_line(q, r) for q, r in a.items()])
    file_b = write_jsonl(
        tmp_path / "b.jsonl", [videomme_line(q, r, answer="A" if q == "q20" else "D") for q, r in b.items()]
    )
    return load_run(str(file_a), "videomme"), load_run(str(file_b), "videomme")


def test_every_cause_is_recovered_with_its_questions_and_points(tmp_path):
    run_a, run_b = known_pair(tmp_path)
    gap = decompose(Number(run_a, Scorer()), Number(run_b, own_scorer(run_b.bench, "official")))
    steps = {step.cause: step for step in gap.steps}
    assert [step.cause for step in gap.steps] == [
        "coverage",
        "question",
        "responses",
        "order",
        "reading",
        "judge",
        "denominator",
        "grouping",
    ]
    # By hand: A = 17/20 right. Coverage drops q19 (right) and adds q21 (wrong): 16/20. q20's gold becomes A: 15/20.
    # B's answers to q01, q02 are wrong: 13/20. The official script misreads q13-q15: 10/20. Dropping the two
    # refusals: 10/18.
    assert gap.a_figure == 85 and gap.b_figure == Fraction(1000, 18)
    expected = {
        "coverage": (-5, {"q19", "q21"}),
        "question": (-5, {"q20"}),
        "responses": (-10, {"q01", "q02"}),
        "order": (0, set()),
        "reading": (-15, {"q13", "q14", "q15"}),
        "judge": (0, set()),
        "denominator": (Fraction(1000, 18) - 50, {"q16", "q17"}),
        "grouping": (0, set()),
    }
    for cause, (points, questions) in expected.items():
        assert steps[cause].delta == points, cause
        assert set(steps[cause].question_ids) == questions, cause
    assert gap.total == Fraction(1000, 18) - 85 and gap.parts_add_up()
    assert steps["coverage"].transitions() == {"correct -> absent": 1, "absent -> wrong": 1}
    assert steps["reading"].transitions() == {"correct -> wrong": 3}
    assert steps["denominator"].transitions() == {"wrong -> not counted": 2}
    # B's figure is the one `mathreel score --extractor official` prints for B.
    report = score(run_b.result, extractor="official")
    assert Fraction(100 * report.overall.correct, report.overall.n) == gap.b_figure


def test_the_same_gap_the_other_way_is_the_negative(tmp_path):
    run_a, run_b = known_pair(tmp_path)
    there = decompose(Number(run_a, Scorer()), Number(run_b, Scorer()))
    back = decompose(Number(run_b, Scorer()), Number(run_a, Scorer()))
    assert back.total == -there.total and back.parts_add_up()


def test_two_scorers_on_one_file_need_no_file_steps(tmp_path):
    run_a, _ = known_pair(tmp_path)
    gap = decompose(Number(run_a, Scorer()), Number(run_a, Scorer("official", "answered")))
    assert [step.cause for step in gap.steps] == ["reading", "judge", "denominator", "grouping"]
    assert gap.steps[0].delta == -15 and gap.steps[2].delta == Fraction(1400, 18) - 70


def test_multi_binary_grouping_counts_the_pairs_that_break_a_question(tmp_path):
    lines = []
    for question, marks in (("q1", "RRRR"), ("q2", "RRRW"), ("q3", "WWWW")):
        for k, mark in enumerate(marks, start=1):
            gold = "A" if k % 2 else "B"
            reply = gold if mark == "R" else ("B" if gold == "A" else "A")
            lines.append(
                {
                    "question_id": f"{question}_{k}",
                    "options": ["A. yes", "B. no"],
                    "answer": gold,
                    "response": reply,
                    "category": "Chart",
                }
            )
    run = load_run(str(write_jsonl(tmp_path / "mbin.jsonl", lines)), "videomathqa", "mbin")
    gap = decompose(Number(run, Scorer(unit="pair")), Number(run, Scorer()))
    grouping = gap.steps[-1]
    assert (gap.a_figure, gap.b_figure) == (Fraction(700, 12), Fraction(100, 3))
    assert grouping.cause == "grouping" and grouping.delta == Fraction(100, 3) - Fraction(700, 12)
    assert grouping.question_ids == ["q2_1", "q2_2", "q2_3"]  # the right pairs of the question a wrong pair breaks
    report = score(run.result)
    assert Fraction(100 * report.overall.correct, report.overall.n) == gap.b_figure


def test_v2_group_rules_one_at_a_time(tmp_path):
    """The worked example: MathReel's group total (25 + 56.25 + 10) / 3; the official script's -1 for the unparsed
    answer in the relevance group gives (25 + 25 + 10) / 3 = 20, as its own rating says."""
    run = load_run(str(write_official_tsv(tmp_path / "toy.tsv", rows(TOY))))
    bench = run.bench
    gap = decompose(Number(run, Scorer(unit="group")), Number(run, own_scorer(bench, "official")))
    assert gap.a_figure == (25 + Fraction(225, 4) + 10) / 3 and gap.b_figure == 20
    unparsed = next(step for step in gap.steps if step.cause == "unparsed")
    assert unparsed.delta == (25 - Fraction(225, 4)) / 3 and unparsed.question_ids == ["002-2"]
    assert float(gap.b_figure) == pytest.approx(score(run.result, extractor="official").groups.total.score)


def test_v2_positional_grouping_is_its_own_step(tmp_path):
    """Rows out of video order: the official script groups rows[i // 4], which mixes videos; the `order` step
    (B's row order) and the `grouping` step (groups of consecutive rows) carry exactly that."""
    records = rows(TOY)
    shuffled = records[4:8] + records[:2] + records[8:] + records[2:4]
    run_a = load_run(str(write_official_tsv(tmp_path / "ordered.tsv", records)))
    run_b = load_run(str(write_official_tsv(tmp_path / "shuffled.tsv", shuffled)))
    official = own_scorer(run_a.bench, "official")
    gap = decompose(Number(run_a, official), Number(run_b, official))
    moved = {step.cause: step.delta for step in gap.steps if step.delta}
    assert set(moved) == {"order"} and gap.parts_add_up()
    assert float(gap.b_figure) == pytest.approx(score(run_b.result, extractor="official").groups.total.score)
    positional = decompose(Number(run_b, Scorer(unit="group")), Number(run_b, official))
    assert any(step.cause == "grouping" and step.delta for step in positional.steps)


def judged_run(tmp_path: Path) -> Run:
    """VideoMathQA answers the rules cannot read, and a judge file that reads two of them."""
    lines = [
        {
            "question_id": f"q{i}",
            "options": ["A. 1", "B. 2", "C. 3", "D. 4", "E. 5"],
            "answer": "C",
            "category": "Chart",
            "response": response,
        }
        for i, response in enumerate(["C", "the third one, I think", "hmm, three?", "B"], start=1)
    ]
    path = write_jsonl(tmp_path / "judged.jsonl", lines)
    result = read_results(path, benchmark="videomathqa", mode="mcq")
    judgments = [
        Judgment(
            question_id=p.question.question_id,
            task="extract",
            status="ok",
            values={"answer": "C", "source": "judge", "explanation": "three"},
            judge_model="j",
            prompt_version="extract-v1",
            benchmark="videomathqa",
            mode="mcq",
            record=str(p.record),
            response=p.response,
        )
        for p in result.predictions
        if p.question.question_id in ("q2", "q3")
    ]
    write_judgments(tmp_path / "judged.judgments.jsonl", judgments)
    return load_run(str(path), "videomathqa", "mcq", judge=str(tmp_path / "judged.judgments.jsonl"))


def test_judge_extractions_are_their_own_cause(tmp_path):
    run = judged_run(tmp_path)
    gap = decompose(Number(run, Scorer()), Number(run, Scorer(judge=True)))
    judge = next(step for step in gap.steps if step.cause == "judge")
    assert judge.delta == 50 and sorted(judge.question_ids) == ["q2", "q3"]
    assert judge.transitions() == {"unparsed -> correct": 2}


def test_a_judge_scorer_without_a_judge_file_is_refused(tmp_path):
    run_a, _ = known_pair(tmp_path)
    with pytest.raises(MathReelError, match="judge file"):
        decompose(Number(run_a, Scorer()), Number(run_a, Scorer(judge=True)))


def test_runs_of_different_benchmarks_are_refused(tmp_path):
    run_a, _ = known_pair(tmp_path)
    other = load_run(str(DEMO / "videomathqa_mcq_synthetic-model-a_samples.jsonl"))
    with pytest.raises(MathReelError, match="not the same questions"):
        decompose(Number(run_a, Scorer()), Number(other, Scorer()))


@pytest.mark.parametrize("path", sorted(DEMO.iterdir()), ids=lambda p: p.name)
def test_exact_figures_equal_mathreel_score_on_every_demo_file(path):
    run = load_run(str(path))
    bench = run.bench
    for reader in readers(bench):
        for denominator in ("all", "answered"):
            report = score(run.result, extractor=reader.name, denominator=denominator)
            figure = figure_of(Number(run, Scorer(reader.name, denominator))).figure
            expected = None if not report.overall.n else Fraction(100 * report.overall.correct, report.overall.n)
            assert figure == expected, (reader.name, denominator)
        if bench.groups is not None:
            own = reader.policy or "mathreel"
            report = score(run.result, extractor=reader.name)
            group = figure_of(Number(run, Scorer(reader.name, unit="group", policy=own))).figure
            if report.groups is not None and report.groups.total.score is not None:
                assert float(group) == pytest.approx(report.groups.total.score, abs=1e-9), reader.name


def test_every_reference_at_once_names_each_source_and_commit():
    run = load_run(str(DEMO / "videomme_synthetic-model-b_results.json"))
    table = reference_table(run)
    assert [row.label for row in table.rows] == [
        "robust",
        "official",
        "official-2024-06-18",
        "lmms-regex",
        "lmms-mcq-extract",
    ]
    assert [column.key for column in table.columns] == ["all", "answered"]
    official = table.rows[1]
    assert official.own == "answered" and official.reader.commit == "afd52cfe3dde5b3685e0d4f760c10c756860c758"
    report = score(run.result, extractor="official")
    assert official.cells["answered"].value == Fraction(100 * report.overall.correct, report.overall.n)
    assert official.gap is not None and official.gap.parts_add_up()
    assert len(official.read_differently) == len(report.disagreements)


def test_v2_table_has_group_scores_under_every_policy():
    run = load_run(str(DEMO / "videomme-v2_synthetic-model-a_predictions.tsv"))
    table = reference_table(run)
    keys = [column.key for column in table.columns]
    assert keys == ["all", "answered", "group mathreel", "group official", "group lmms-eval"]
    own = {row.label: row.own for row in table.rows}
    assert own == {"robust": "all", "official": "group official", "lmms-eval": "group lmms-eval", "evalscope": "all"}
    official = next(row for row in table.rows if row.label == "official")
    rating = score(run.result, extractor="official").groups.total.score
    assert float(official.cells["group official"].value) == pytest.approx(rating)


def test_registry_commits_are_full_and_in_the_sources_doc():
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for bench in BENCHMARKS.values():
        for name, scorer in bench.reproductions.items():
            assert re.fullmatch(r"[0-9a-f]{40}", scorer.commit), (bench.name, name)
            assert scorer.source.endswith("@" + scorer.commit[:12]), (bench.name, name)
            assert scorer.commit in sources, (bench.name, name)


def test_a_typed_figure_reached_by_a_known_scorer_ends_in_rounding():
    run = load_run(str(DEMO / "videomme_synthetic-model-b_results.json"))
    found = against(run, Scorer(), typed_target("33.3"))
    assert found.reachable and found.best.scorer == Scorer("official", "answered")
    last = found.gap.steps[-1]
    assert last.cause == "rounding" and last.delta == Fraction(333, 10) - Fraction(100, 3)
    assert found.gap.total == Fraction(333, 10) - 50 and found.gap.parts_add_up()
    # lmms-eval's regex reads this file as the official script does; under the answered denominator it matches too
    assert {(c.scorer.reader, c.scorer.denominator) for c in found.matches} == {
        ("official", "answered"),
        ("official-2024-06-18", "answered"),
        ("lmms-regex", "answered"),
    }


def test_an_unreachable_figure_says_so_and_gives_the_nearest():
    run = load_run(str(DEMO / "videomme_synthetic-model-b_results.json"))
    found = against(run, Scorer(), typed_target("40%"))
    assert not found.reachable and found.best.figure == Fraction(75, 2)
    assert found.gap.steps[-1].cause == "unexplained" and found.gap.steps[-1].delta == Fraction(5, 2)
    assert "no known scorer reaches" in found.gap.notes[0] and found.gap.parts_add_up()


@pytest.mark.parametrize("text", ["abc", "58,2", "", "1e3"])
def test_a_figure_that_is_not_a_number_is_one_clear_error(text):
    with pytest.raises(InputError, match="--against"):
        typed_target(text)


def test_a_paper_figure_is_read_from_the_reference_tables():
    reference = get_benchmark("videomathqa").reference_results()
    choice = paper_target(reference, "GPT-4o/mcq_v", "mcq", cot=True)
    row = next(r for r in reference.rows if r["model"] == "GPT-4o" and r["table"] == 2)
    assert choice.table == "2" and choice.target.value == Fraction(str(row["mcq_v"]))
    assert "chain-of-thought" in choice.note
    assert paper_target(reference, "GPT-4o/mcq_v/1", "mcq").table == "1"
    with pytest.raises(InputError, match=r"is for mbin runs"):
        paper_target(reference, "GPT-4o/mbin_v", "mcq")
    with pytest.raises(InputError, match="no model"):
        paper_target(reference, "Nobody/mcq_v", "mcq")


def test_known_scorers_cover_every_reader_denominator_unit_and_policy():
    bench = get_benchmark("videomme-v2")
    scorers = known_scorers(bench, "mcq", judge=True)
    assert len(scorers) == 2 * 4 * (2 + 3)  # judge or not x readers x (two denominators + three policies)
    assert len(set(scorers)) == len(scorers)
    with pytest.raises(MathReelError, match="per pair"):
        check_scorer(bench, "mcq", Scorer(unit="pair"))
    assert check_scorer(bench, "mcq", Scorer(unit="group")).policy == "mathreel"
    assert set(CAUSES) >= {"coverage", "responses", "reading", "judge", "denominator", "grouping"}


def test_v2_unit_spec_groups_of_other_structures(tmp_path):
    """A chain broken by an unparsed answer: MathReel stops there, the official -1 carries the chain on."""
    specs = (Spec("001", "logic", "[1,2,3,4]", "CUCC", 2, "SH", "TH"),)
    run = load_run(str(write_official_tsv(tmp_path / "chain.tsv", rows(specs))))
    gap = decompose(Number(run, Scorer(unit="group")), Number(run, Scorer(unit="group", policy="official")))
    assert (gap.a_figure, gap.b_figure) == (Fraction(25, 4), 100)
    assert [step.question_ids for step in gap.steps if step.delta] == [["001-2"]]


def test_a_figure_with_nothing_counted_is_undefined_not_a_crash(tmp_path):
    path = write_jsonl(tmp_path / "refusals.jsonl", [videomme_line(f"q0{i}", REFUSAL) for i in (1, 2)])
    run = load_run(str(path), "videomme")
    gap = decompose(Number(run, Scorer()), Number(run, Scorer(denominator="answered")))
    assert gap.b_figure is None and gap.total is None and not gap.parts_add_up()
    assert "undefined" in gap.notes[0]
    from mathreel.core.explain.text import gap_line

    assert gap_line(gap).startswith("the gap is undefined")


def test_duplicated_answers_are_named_and_move_no_figure(tmp_path):
    from mathreel.core.explain.explanation import explain

    lines = [videomme_line(q, "D") for q in ("q01", "q02", "q03")]
    run_a = load_run(str(write_jsonl(tmp_path / "a.jsonl", lines)), "videomme")
    run_b = load_run(str(write_jsonl(tmp_path / "b.jsonl", [*lines, videomme_line("q02", "A")])), "videomme")
    found = explain([run_a, run_b], [Scorer()])
    assert found.gap.total == 0 and all(not step.changes for step in found.gap.steps)
    assert "answers 1 question more than once (q02)" in found.notes[0]
    assert found.to_dict()["runs"][1]["duplicates"] == {"q02": ["line 4"]}


def test_steps_join_across_a_figure_that_counts_nothing(tmp_path):
    """Every multi-binary question has an unparsed pair: counted per question over answered ones, nothing is left.
    The path from (question, all) to (pair, answered) passes there, so its two steps are one ("denominator+grouping")
    and the parts still add up."""
    lines = [
        {
            "question_id": f"q{q}_{k}",
            "options": ["A. yes", "B. no"],
            "answer": "A",
            "category": "Chart",
            "response": REFUSAL if k == 1 else "A",
        }
        for q in (1, 2)
        for k in (1, 2, 3, 4)
    ]
    run = load_run(str(write_jsonl(tmp_path / "mbin.jsonl", lines)), "videomathqa", "mbin")
    gap = decompose(Number(run, Scorer()), Number(run, Scorer("robust", "answered", "pair")))
    assert (gap.a_figure, gap.b_figure) == (0, 100) and gap.parts_add_up()
    joined = gap.steps[-1]
    assert joined.cause == "denominator+grouping" and joined.delta == 100
    assert joined.means == f"{CAUSES['denominator']} and {CAUSES['grouping']}"
