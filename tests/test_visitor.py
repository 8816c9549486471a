"""A visitor's kept runs: stored under a hash of their token only, bounded per visitor, expired after the days
stated, and scored again on load exactly as on upload (the figures compared with core on the same files)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mathreel.core.data import demo_dir
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.webapp.scored_runs import ScoreOptions, score_uploads
from mathreel.webapp.settings import Settings
from mathreel.webapp.visitor import (
    VisitorStore,
    browser_secret,
    expiry_text,
    kept_runs,
    new_token,
    options_kept,
    restorer,
    valid_token,
)

RESULTS = demo_dir() / "results"
RUN_A = RESULTS / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = RESULTS / "videomme_synthetic-model-b_results.json"


@pytest.fixture
def store(tmp_path: Path) -> VisitorStore:
    return VisitorStore(tmp_path / "visitors", keep_days=7, keep_files=3, keep_mb=1)


def test_tokens_are_random_and_a_stored_value_is_checked():
    first, second = new_token(), new_token()
    assert first != second and valid_token(first) == first
    for bad in (None, "", "../../etc", first + "x", 42, {"token": first}):
        assert valid_token(bad) is None


def test_files_kept_come_back_and_the_folder_does_not_name_the_token(store):
    token = new_token()
    assert (
        store.save(token, [(str(RUN_A), "run a.jsonl"), (str(RUN_B), RUN_B.name)], {"key": "", "use_data": False}) == []
    )
    files, options = store.load(token)
    assert [name for _, name in files] == ["run a.jsonl", RUN_B.name]
    assert [path.read_bytes() for path, _ in files] == [RUN_A.read_bytes(), RUN_B.read_bytes()]
    assert options == {"key": "", "use_data": False}
    assert token not in "".join(str(p) for p in store.root.rglob("*"))  # nothing on disk gives the token away
    assert store.load(new_token()) == ([], {})  # another visitor's key opens nothing


def test_keeping_again_replaces_and_an_empty_list_forgets(store):
    token = new_token()
    store.save(token, [(str(RUN_A), RUN_A.name), (str(RUN_B), RUN_B.name)], {})
    store.save(token, [(str(RUN_B), RUN_B.name)], {})
    files, _ = store.load(token)
    assert [name for _, name in files] == [RUN_B.name]
    assert len(list((store.folder(token) / "files").iterdir())) == 1  # the dropped file is gone from disk
    store.save(token, [], {})
    assert not store.folder(token).exists()


def test_a_visitor_keeps_at_most_the_files_and_bytes_stated(store, tmp_path):
    token = new_token()
    small = [tmp_path / f"s{i}.jsonl" for i in range(4)]
    for i, path in enumerate(small):
        path.write_text(f'{{"question_id": "q{i}", "response": "A"}}\n')
    skipped = store.save(token, [(str(p), p.name) for p in small], {})
    assert skipped == ["s3.jsonl"]  # keep_files = 3
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * (1024 * 1024 + 1))
    assert store.save(token, [(str(big), big.name), (str(small[0]), small[0].name)], {}) == ["big.jsonl"]
    assert [name for _, name in store.load(token)[0]] == ["s0.jsonl"]


def test_a_name_cannot_leave_the_visitors_folder(store):
    token = new_token()
    store.save(token, [(str(RUN_A), "../../escape.jsonl")], {})
    files, _ = store.load(token)
    assert [name for _, name in files] == ["escape.jsonl"]
    assert files[0][0].resolve().is_relative_to(store.folder(token).resolve())


def test_visitors_not_seen_for_the_days_stated_are_removed(store):
    gone, kept = new_token(), new_token()
    store.save(gone, [(str(RUN_A), RUN_A.name)], {})
    store.save(kept, [(str(RUN_A), RUN_A.name)], {})
    old = time.time() - 8 * 86400
    os.utime(store.folder(gone) / "runs.json", (old, old))
    store.prune(now=time.time() + 7200)  # past the hourly sweep
    assert not store.folder(gone).exists() and store.folder(kept).exists()
    assert store.load(kept)[0]  # a visit restarts the clock
    assert "7 days after your last visit" in expiry_text(store)


def test_kept_runs_score_again_as_on_upload(store):
    token = new_token()
    options = ScoreOptions(extractor="robust")
    runs, _ = score_uploads([str(RUN_A), str(RUN_B)], options)
    store.save(token, [(run.path, run.name) for run in runs], options_kept(options))
    again = kept_runs(store, Settings(), token)
    assert [r.name for r in again] == [RUN_A.name, RUN_B.name]
    for run, path in zip(again, (RUN_A, RUN_B), strict=True):
        assert run.report.to_dict()["overall"] == score(read_results(path)).to_dict()["overall"]
        assert run.digest == runs[[RUN_A, RUN_B].index(path)].digest
    # the upload box's copies of the same files are not scored again: the kept runs are reused
    reused, _ = score_uploads([str(RUN_A)], again[0].options, held=again)
    assert reused[0].report is again[0].report


def test_the_page_load_gives_a_new_visitor_a_token_and_a_known_one_their_runs(store):
    restore = restorer(store, Settings())
    token, runs = restore(None)
    assert valid_token(token) and runs == []
    store.save(token, [(str(RUN_A), RUN_A.name)], options_kept(ScoreOptions()))
    same, runs = restore(token)
    assert same == token and [r.name for r in runs] == [RUN_A.name]
    fresh, runs = restore("not-a-token")
    assert fresh != token and runs == []


def test_the_browser_secret_is_the_same_across_restarts(store):
    first = browser_secret(store)
    assert browser_secret(VisitorStore(store.root)) == first and len(first) >= 24
    assert oct((store.root / ".browser-secret").stat().st_mode & 0o777) == "0o600"


JUDGED_B = demo_dir() / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS_B = demo_dir() / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
RUN_MCQ_B = RESULTS / "videomathqa_mcq_synthetic-model-b_samples.jsonl"


def test_judgments_and_reviews_are_kept_beside_the_runs_under_the_same_bound(store, tmp_path):
    token = new_token()
    judging = {"judgments": [(str(JUDGED_B), JUDGED_B.name)], "reviews": [(str(REVIEWS_B), REVIEWS_B.name)]}
    assert store.save(token, [(str(RUN_MCQ_B), RUN_MCQ_B.name)], {}, judging) == []
    kept = store.load_judging(token)
    assert [name for _, name in kept["judgments"]] == [JUDGED_B.name]
    assert [path.read_bytes() for path, _ in kept["reviews"]] == [REVIEWS_B.read_bytes()]
    assert store.load_judging(new_token()) == {"judgments": [], "reviews": []}  # another visitor's key: nothing
    extra = tmp_path / "more.jsonl"
    extra.write_text('{"question_id": "q1", "response": "A"}\n')
    over = store.save(token, [(str(RUN_MCQ_B), RUN_MCQ_B.name), (str(extra), extra.name)], {}, judging)
    assert over == [REVIEWS_B.name]  # keep_files = 3 counts every file, the result files first
    store.save(token, [], {}, {"judgments": [(str(JUDGED_B), JUDGED_B.name)]})  # judgments alone are kept too
    assert store.load(token)[0] == [] and len(store.load_judging(token)["judgments"]) == 1
    store.save(token, [], {})
    assert not store.folder(token).exists()


def test_kept_runs_score_again_with_their_judgments_and_reviews_as_on_upload(store):
    from mathreel.webapp.score import ScoreHandlers

    handlers = ScoreHandlers(Settings(), store)
    judging, _ = handlers.judging([str(JUDGED_B)], [str(REVIEWS_B)])
    token = new_token()
    shown, *_ = handlers.rescore(
        [str(RUN_MCQ_B)], "", "robust", "", False, None, token, judging, None, None, [str(JUDGED_B)], [str(REVIEWS_B)]
    )
    plain, *_ = handlers.rescore([str(RUN_MCQ_B)], "", "robust", "", False)
    assert shown[0].report.overall.accuracy != plain[0].report.overall.accuracy  # the judge counts
    again = kept_runs(store, Settings(), token)
    assert again[0].report.to_dict() == shown[0].report.to_dict()
    # on load the judging boxes get the kept files back and the state they were scored with
    values = handlers.kept.kept_values(again, token)
    judgments, reviews, state = values[5:]
    assert [Path(p).name for p in judgments] == [JUDGED_B.name] and [Path(p).name for p in reviews] == [REVIEWS_B.name]
    assert state == judging
    # so the upload box's change event reuses the restored runs: the same options, nothing scored again
    reused, *_ = handlers.rescore(
        [str(RUN_MCQ_B)], "", "robust", "", False, again, token, state, None, None, judgments, reviews
    )
    assert reused[0].report is again[0].report
    assert handlers.kept.kept_values([], new_token()) == handlers.kept.kept_values(None, None)  # nothing kept
