"""Browse's reading audit without a browser: which answers it walks, what a person can label them, and that a run
scored again with the page's corrections gives what `mathreel score --readings` gives with the downloaded file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.scoring.audit import check_reasons, labelled_row, readings_to_check
from mathreel.core.scoring.files import ScoreRequest, score_file
from mathreel.core.scoring.reading_flow import STATUS_LABELS, TO_CHECK, select_rows
from mathreel.webapp import reading_flow as rd
from mathreel.webapp.browse_audit import (
    NO_ANSWER,
    audit_target,
    corrected,
    corrections_file,
    label_choices,
    scored_question,
)
from mathreel.webapp.scored_runs import Run, ScoreOptions

DEMO = Path(__file__).resolve().parent.parent / "assets" / "demo" / "results"
MATHREEL = Path(sys.executable).with_name("mathreel")


def _run(name: str) -> Run:
    path = DEMO / name
    report = score_file(ScoreRequest(str(path)))
    return Run(path.name, report, str(path), options=ScoreOptions())


@pytest.mark.parametrize("name", sorted(p.name for p in DEMO.iterdir()))
def test_the_walk_is_what_the_cli_audit_finds(name: str) -> None:
    """check_reasons (from the report alone) lists the answers readings_to_check finds from the file."""
    from mathreel.core.results import read_results

    run = _run(name)
    reasons = check_reasons(run.report)
    found = {c.question_id: c.why for c in readings_to_check(read_results(DEMO / name), run.report.rows)}
    assert reasons == found
    walk = rd.Walk(run.name, TO_CHECK)
    assert rd.walk_ids([run], walk) == [r.question_id for r in run.report.rows if r.question_id in reasons]
    assert rd.walk_label(walk) == STATUS_LABELS[TO_CHECK]


def test_mathverse_has_no_official_reading_to_dispute() -> None:
    """MathVerse's official scorer is a judge: no rule reading disputes MathReel's, so only weak readings count."""
    run = _run("mathverse_synthetic-model-a_output.json")
    assert all("official" not in why for why in check_reasons(run.report).values())


def test_the_box_shows_only_on_the_audit_walk() -> None:
    run = _run("videomathqa_mcq_synthetic-model-a_samples.jsonl")
    ref = next(iter(check_reasons(run.report)))
    assert audit_target([run], rd.Walk(run.name, "not_correct").to_dict(), ref) is None
    found = audit_target([run], rd.Walk(run.name, TO_CHECK).to_dict(), ref)
    assert found is not None and found[1].question_id == ref and found[2] == check_reasons(run.report)[ref]
    unflagged = next(r.question_id for r in run.report.rows if r.question_id not in check_reasons(run.report))
    assert audit_target([run], rd.Walk(run.name, TO_CHECK).to_dict(), unflagged) is None


def test_label_choices_are_the_letters_then_no_answer() -> None:
    run = _run("videomathqa_mcq_synthetic-model-a_samples.jsonl")
    row = run.report.rows[0]
    question = scored_question(row, None)
    choices, value = label_choices(row, question, ("A", "B", "C", "D", "E"))
    assert choices == [*question.letters, NO_ANSWER] and value == (row.extracted or NO_ANSWER)


def test_a_correction_scores_as_the_cli_does_with_the_downloaded_file(tmp_path: Path) -> None:
    run = _run("videomathqa_mcq_synthetic-model-a_samples.jsonl")
    flagged = [r for r in run.report.rows if r.question_id in check_reasons(run.report)]
    held: list[dict] = []
    for row in flagged[:2]:  # one corrected to another letter, one to "no answer"
        question = scored_question(row, None)
        label = next(letter for letter in question.letters if letter != row.extracted) if not held else None
        run, held = corrected(run, labelled_row(row, question, label, "checked by hand"), held)
    assert run.report.labelled == 2
    assert not {row.question_id for row in flagged[:2]} & set(check_reasons(run.report))  # no longer to check
    again = corrected(run, labelled_row(flagged[0], scored_question(flagged[0], None), "A", "changed my mind"), held)[1]
    assert len(again) == 2 and again[-1]["label"] == "A"  # the later correction of the same answer wins
    file = corrections_file(held, tmp_path)
    cli = subprocess.run(
        [str(MATHREEL), "score", str(DEMO / run.name), "--readings", file, "--json", "--rows"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    printed = json.loads(cli.stdout)
    assert printed["overall"] == json.loads(json.dumps(run.report.to_dict()["overall"]))
    assert [(r["status"], r["method"]) for r in printed["rows"]] == [(r.status, r.method) for r in run.report.rows]


def test_the_to_check_filter_combines_with_the_others() -> None:
    run = _run("videomathqa_mbin_synthetic-model-a_samples.jsonl")
    reasons = check_reasons(run.report)
    rows = select_rows(run.report, TO_CHECK, only={next(iter(reasons))})
    assert [r.question_id for r in rows] == [next(iter(reasons))]


def test_a_file_gone_from_the_server_is_one_clear_error() -> None:
    run = _run("videomathqa_mcq_synthetic-model-a_samples.jsonl")
    row = run.report.rows[0]
    gone = Run(run.name, run.report, "", options=ScoreOptions())
    with pytest.raises(ValueError, match="no longer on the server"):
        corrected(gone, labelled_row(row, scored_question(row, None), "A"), [])
