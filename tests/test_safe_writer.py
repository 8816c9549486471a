"""The one safe-writer rule (core.files) and the reviews folder (core.review.store): never replace a file MathReel
did not write, an input, a FIFO, a device or a link's target; write atomically; one file per reviewer; a bounded
number of files per visitor. Every refused path is hashed before and after."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mathreel.core.errors import InputError, MathReelError
from mathreel.core.files import OutputKind, output_path, write_output, write_text_output
from mathreel.core.review import Review, read_reviews
from mathreel.core.review import store as store_module
from mathreel.core.review.store import MAX_FILES_PER_SESSION, keep_reviews, name_key

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
MATHREEL = Path(sys.executable).with_name("mathreel")
NOTES = OutputKind("a notes file of the test", lambda head: head.startswith(b"NOTES"))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "absent"


def victims(tmp_path: Path) -> dict[str, Path]:
    """Things an output path must never be."""
    found = {}
    found["user csv"] = tmp_path / "mine.csv"
    found["user csv"].write_text("question_id,response\nq001,A")
    target = tmp_path / "target.txt"
    target.write_text("NOTES the link's target")
    found["link to an output-looking file"] = tmp_path / "link.txt"
    found["link to an output-looking file"].symlink_to(target)
    found["dangling link"] = tmp_path / "dangling.txt"
    found["dangling link"].symlink_to(tmp_path / "nowhere")
    found["fifo"] = tmp_path / "fifo"
    os.mkfifo(found["fifo"])
    found["directory"] = tmp_path / "folder"
    found["directory"].mkdir()
    found["device"] = Path("/dev/null")
    return found


@pytest.mark.parametrize(
    "name", ["user csv", "link to an output-looking file", "dangling link", "fifo", "directory", "device"]
)
def test_output_path_refuses_and_leaves_untouched(tmp_path, name):
    path = victims(tmp_path)[name]
    before = {p: digest(p) for p in tmp_path.iterdir()}
    with pytest.raises(InputError, match=r"not|link|directory"):
        write_text_output(path, "NOTES new", flag="--out", kind=NOTES)
    assert {p: digest(p) for p in tmp_path.iterdir()} == before
    assert not path.is_symlink() or os.readlink(path)  # the link itself is still there


def test_an_input_is_refused_however_it_is_spelled(tmp_path, monkeypatch):
    source = tmp_path / "input.txt"
    source.write_text("NOTES an input that looks like an output")
    os.link(source, tmp_path / "hard.txt")
    monkeypatch.chdir(tmp_path)
    for spelling in ("input.txt", "./input.txt", "sub/../input.txt", "hard.txt"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(InputError, match="is also the input"):
            output_path(spelling, "--out", kind=NOTES, inputs=[source])


def test_a_new_name_an_empty_file_and_an_earlier_output_are_written(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.touch()
    earlier = tmp_path / "earlier.txt"
    earlier.write_text("NOTES old")
    for path in (tmp_path / "new" / "deep.txt", empty, earlier):
        write_text_output(path, "NOTES new", flag="--out", kind=NOTES)
        assert path.read_text() == "NOTES new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    earlier = tmp_path / "earlier.txt"
    earlier.write_text("NOTES old")

    def half(out):
        out.write("NOTES half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_output(earlier, half, flag="--out", kind=NOTES)
    assert earlier.read_text() == "NOTES old" and sorted(p.name for p in tmp_path.iterdir()) == ["earlier.txt"]


# ------------------------------------------------------------------ agreement --flagged


def agreement(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MATHREEL), "agreement", str(JUDGMENTS), str(REVIEWS), *extra], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("name", ["user csv", "link to an output-looking file", "dangling link", "fifo", "directory"])
def test_agreement_flagged_never_replaces_what_it_did_not_write(tmp_path, name):
    path = victims(tmp_path)[name]
    target = path.with_suffix(".csv") if path.suffix != ".csv" and name not in ("fifo", "directory") else path
    if target != path:
        path.rename(target)
    before = {p: digest(p) for p in tmp_path.iterdir()}
    run = agreement("--flagged", str(target))
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert {p: digest(p) for p in tmp_path.iterdir()} == before


def test_agreement_flagged_never_replaces_its_own_inputs(tmp_path):
    reviews, judgments = tmp_path / "reviews.csv", tmp_path / "judgments.json"
    reviews.write_bytes(REVIEWS.read_bytes())
    judgments.write_bytes(JUDGMENTS.read_bytes())
    for victim in (reviews, judgments):
        before = digest(victim)
        run = subprocess.run(
            [str(MATHREEL), "agreement", str(judgments), str(reviews), "--flagged", str(victim)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (run.returncode, digest(victim)) == (2, before) and "is also the input" in run.stderr


def test_agreement_flagged_writes_and_then_replaces_its_own_export(tmp_path):
    for name in ("flagged.csv", "flagged.json"):
        path = tmp_path / name
        assert agreement("--flagged", str(path)).returncode == 0
        first = path.read_text()
        assert agreement("--flagged", str(path)).returncode == 0 and path.read_text() == first
    assert json.loads((tmp_path / "flagged.json").read_text())[0]["question_id"]


# ------------------------------------------------------------------ the reviews folder


def review(reviewer: str, question: str = "q001") -> Review:
    return Review(question, reviewer, category_verdict="accepted", primary="Misinterpreting visuals")


def test_reviewers_whose_names_clean_up_alike_keep_files_of_their_own(tmp_path):
    names = ["Anna K", "Anna/K", "Anna  K", "anna k", "Anna-K"]  # alike once cleaned for a file name
    assert len({name_key(n) for n in names}) == len(names)
    kept = keep_reviews(tmp_path, "session-1", [review(n) for n in names], active="Anna K")
    assert len(kept.written) == 5 and not kept.left_out
    assert sorted(r.reviewer for path in kept.written for r in read_reviews(path)) == sorted(names)


def test_one_session_writes_a_bounded_number_of_files_the_active_reviewer_first(tmp_path):
    reviews = [review(f"uploaded {i}") for i in range(3000)] + [review("me", "q002")]
    kept = keep_reviews(tmp_path, "s", reviews, active="me")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) == len(kept.written) == MAX_FILES_PER_SESSION
    assert read_reviews(kept.written[0])[0].reviewer == "me"
    assert len(kept.left_out) == 3001 - MAX_FILES_PER_SESSION
    again = keep_reviews(tmp_path, "s", [*reviews, review("me", "q003")], active="me")  # the same files, updated
    assert sorted(again.written) == sorted(kept.written)
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == MAX_FILES_PER_SESSION


def test_a_file_of_another_reviewer_at_a_reviewers_name_is_never_replaced(tmp_path):
    home = tmp_path / name_key("s")
    home.mkdir()
    squatter = home / f"{name_key('bob')}.jsonl"
    squatter.write_text(json.dumps(review("mallory").to_dict()) + "\n")
    before = digest(squatter)
    with pytest.raises(InputError, match="is not a review file of reviewer 'bob'"):
        keep_reviews(tmp_path, "s", [review("bob")])
    assert digest(squatter) == before


def test_a_session_folder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / name_key("s")).symlink_to(elsewhere)
    with pytest.raises(MathReelError, match="not a plain folder"):
        keep_reviews(tmp_path / "reviews", "s", [review("bob")])
    assert list(elsewhere.iterdir()) == []


def test_the_folder_holds_a_bounded_number_of_sessions(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "MAX_SESSIONS", 3)
    for session in ("a", "b", "c"):
        keep_reviews(tmp_path, session, [review("bob")])
    with pytest.raises(MathReelError, match="holds 3 sessions already"):
        keep_reviews(tmp_path, "d", [review("bob")])
    assert len(keep_reviews(tmp_path, "a", [review("bob"), review("eve")]).written) == 2  # a known session goes on


def test_an_earlier_output_whose_first_line_is_longer_than_the_head_is_still_recognised(tmp_path):
    from mathreel.core.judge import Judgment, write_judgments
    from mathreel.core.judge.model import judgments_file
    from mathreel.core.review import write_reviews
    from mathreel.core.review.io import REVIEW_FILE

    judged = write_judgments(tmp_path / "j.jsonl", [Judgment("q1", "extract", "failed", raw_reply="{" * 3_000_000)])
    assert output_path(judged, "--out", kind=judgments_file()) == judged
    reviewed = write_reviews(tmp_path / "r.jsonl", [Review("q1", "bob", note="n" * 3_000_000)])
    assert output_path(reviewed, "--out", kind=REVIEW_FILE) == reviewed
    with pytest.raises(InputError, match="is not a `mathreel judge` output file"):
        output_path(reviewed, "--out", kind=judgments_file())
