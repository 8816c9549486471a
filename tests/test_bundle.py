"""`mathreel bundle` through the real command: the join rule decides which page an answer is on, frames are shared
thumbnails written once, the size is reported before writing, a folder that is not a bundle is never replaced, and
nothing from a file or a model becomes markup, nor does any key, credential or path of the machine reach a page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

MATHREEL = Path(sys.executable).with_name("mathreel")
DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"
RESULTS = DEMO / "results"
MCQ_A = RESULTS / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
MCQ_B = RESULTS / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
JUDGE_A = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-a_judgments.jsonl"
PAYLOAD = "<script>alert('pwned')</script><img src=https://evil.example/x.png>"
FAKE_KEY = "sk-FAKEKEY0123456789abcdefXYZ"
ENV_KEY = "sk-ENVKEY9876543210zyxwvuABC"
PASSWORD = "hunter2secret"


def bundle(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MATHREEL), "bundle", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def texts(folder: Path) -> dict[str, str]:
    """Every file of the bundle as text (thumbnails too, as Latin-1, so a string hidden in them would show)."""
    return {str(p.relative_to(folder)): p.read_bytes().decode("latin-1") for p in folder.rglob("*") if p.is_file()}


def test_the_join_rule_decides_the_page_of_every_answer(tmp_path):
    """Model B's file records no question text: without annotations its answers get pages of their own, read from
    the file; given the dataset as annotations, both runs' answers share each question's page."""
    alone = bundle(MCQ_A, MCQ_B, "--out", tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    pages = sorted((tmp_path / "alone" / "q").iterdir())
    assert len(pages) == 24
    own = (tmp_path / "alone" / "q").glob("q001-*.html")
    page = next(own).read_text()
    assert "is not shown under the server&#x27;s question" in page and "<h3>Frames" not in page
    assert MCQ_A.name not in page  # model A's answer belongs to the dataset's q001, never to this one

    joined = bundle(MCQ_A, MCQ_B, "--annotations", DEMO / "videomathqa", "--out", tmp_path / "joined")
    assert joined.returncode == 0, joined.stderr
    shared = (tmp_path / "joined" / "q" / "q001.html").read_text()
    assert len(list((tmp_path / "joined" / "q").iterdir())) == 12
    assert shared.count("class='answer'") == 2 and MCQ_A.name in shared and MCQ_B.name in shared


def test_frames_are_thumbnails_written_once_and_every_page_finds_its_own(tmp_path):
    out = tmp_path / "b"
    run = bundle(MCQ_A, "--judge", JUDGE_A, "--frames", "4", "--out", out)
    assert run.returncode == 0, run.stderr
    assert "estimated size" in run.stderr and "wrote" in run.stdout
    sources = set()
    for page in (out / "q").iterdir():
        html = page.read_text()
        found = re.findall(r"<img src='\.\./(frames/[0-9a-f]+\.jpg)'", html)
        assert len(found) == 4, page.name  # --frames 4 on every video question
        assert re.findall(r"frame <b>\d+</b> · \d+\.\d\d s", html)
        sources.update(found)
    thumbs = set(str(p.relative_to(out)) for p in (out / "frames").iterdir())
    assert sources == thumbs  # every thumbnail written is shown, every one shown exists
    assert len(thumbs) < 12 * 4  # frames that two questions of one video share are written once
    assert max(p.stat().st_size for p in (out / "frames").iterdir()) < 20_000
    manifest = json.loads((out / "mathreel-bundle.json").read_text())
    assert manifest["thumbnails"] == len(thumbs)


def test_the_index_has_headline_references_breakdowns_and_walk_lists(tmp_path):
    out = tmp_path / "b"
    assert bundle(MCQ_A, "--judge", JUDGE_A, "--out", out).returncode == 0
    index = (out / "index.html").read_text()
    assert "83.3% [55.2, 95.3]" in index  # the figure `mathreel score` prints for this run with its judge
    assert "official = lmms-regex" in index and "EvolvingLMMs-Lab/lmms-eval" in index
    assert index.count("<svg") == 4  # category, duration, difficulty, reasoning type
    walks = (out / "walks.js").read_text()
    data = json.loads(walks.removeprefix("window.MATHREEL_BUNDLE = ").rstrip().rstrip(";"))
    assert data["lists"][f"{MCQ_A.name}\twrong"] and all(f.startswith("q/") for f in data["lists"]["\tall"])
    assert any(key.startswith(f"{MCQ_A.name}\tjudge:") for key in data["lists"])


def test_a_folder_that_is_not_a_bundle_is_never_replaced_and_a_bundle_is(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "mine.txt").write_text("keep me")
    refused = bundle(MCQ_A, "--out", notes)
    assert refused.returncode == 2 and "neither empty nor an earlier bundle" in refused.stderr
    assert "Traceback" not in refused.stderr and (notes / "mine.txt").read_text() == "keep me"
    out = tmp_path / "b"
    assert bundle(MCQ_A, "--out", out).returncode == 0
    (out / "q" / "stale.html").write_text("old")
    again = bundle(MCQ_A, "--out", out)
    assert again.returncode == 0, again.stderr
    assert not (out / "q" / "stale.html").exists() and (out / "index.html").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging folder left


def test_runs_of_two_benchmarks_are_refused_in_one_line(tmp_path):
    run = bundle(MCQ_A, RESULTS / "videomme_synthetic-model-a_results.json", "--out", tmp_path / "b")
    assert run.returncode == 2 and "one benchmark and mode" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "b").exists()


def _hostile_files(folder: Path) -> tuple[Path, Path, Path, Path]:
    """Model A's run, its judgments and a review with script payloads in every text, and a fake key, an endpoint
    credential and paths of this machine in fields of every record; a Video-MME file whose questions are not the
    server's, with payloads in its question, options and dimensions."""
    from mathreel.core.judge.fingerprint import response_fingerprint

    secret = folder / "secret-folder"
    secret.mkdir()
    records = [json.loads(line) for line in MCQ_A.read_text().splitlines()]
    for record in records:
        record["resps"][0][0] = record["resps"][0][0] + "\n" + PAYLOAD
        record["arguments"][0] = record["arguments"][0] + PAYLOAD
        record["model_args"] = f"api_key={FAKE_KEY},base_url=https://user:{PASSWORD}@evil.example/v1"
        record["video_path"] = str(secret / "videos" / "demo.mp4")
    results = secret / "hostile_samples_videomathqa_mcq.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    judged = []
    for line in JUDGE_A.read_text().splitlines():
        judgment = json.loads(line)
        judgment["response"] = judgment["response"] + "\n" + PAYLOAD
        if judgment["task"] == "steps":
            judgment["values"]["critique"] = PAYLOAD
        judgment["raw_reply"] = f"{PAYLOAD} {FAKE_KEY}"
        judged.append(judgment)
    judgments = secret / "hostile_judgments.jsonl"
    judgments.write_text("".join(json.dumps(j) + "\n" for j in judged))
    first = judged[0]
    review = {
        "question_id": first["question_id"],
        "reviewer": PAYLOAD,
        "judge_model": first["judge_model"],
        "prompt_version": "steps-v1",
        "response_fingerprint": response_fingerprint(first["response"]),
        "benchmark": "videomathqa",
        "mode": "mcq",
        "steps_verdict": "changed",
        "step_score": 3,
        "note": PAYLOAD,
        "flag": "other",
        "flag_reason": f"{PAYLOAD} {secret}",
    }
    reviews = secret / "hostile_reviews.jsonl"
    reviews.write_text(json.dumps(review) + "\n")
    videos = json.loads((RESULTS / "videomme_synthetic-model-a_results.json").read_text())
    for video in videos:
        video["domain"] = PAYLOAD
        video["api_key"] = FAKE_KEY
        for question in video["questions"]:
            question["question"] = PAYLOAD + question["question"]
            question["options"] = [option + PAYLOAD for option in question["options"]]
            question["response"] = PAYLOAD + str(secret)
    other = secret / "hostile_videomme.json"
    other.write_text(json.dumps(videos))
    return results, judgments, reviews, other


@pytest.mark.parametrize("which", ["videomathqa", "videomme"])
def test_nothing_unsafe_reaches_any_page(tmp_path, which):
    results, judgments, reviews, other = _hostile_files(tmp_path)
    out = tmp_path / "out"
    args = [results, "--judge", judgments, "--reviews", reviews] if which == "videomathqa" else [other]
    run = bundle(*args, "--out", out, env={"OPENAI_API_KEY": ENV_KEY, "MATHREEL_JUDGE_API_KEY": ENV_KEY})
    assert run.returncode == 0, run.stderr
    files = texts(out)
    pages = [name for name in files if name.endswith(".html")]
    assert len(pages) > 10
    escaped = "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;"
    assert sum(text.count(escaped) for text in files.values()) > 10  # the payloads are shown, as text
    cache = os.environ["MATHREEL_CACHE"]
    for name, text in files.items():
        for leak in (
            "<script>alert",
            "<img src=https",
            FAKE_KEY,
            ENV_KEY,
            PASSWORD,
            str(tmp_path),
            cache,
            str(Path.home()) + "/",
            "secret-folder",
        ):
            assert leak not in text, (name, leak)
        scripts = re.findall(r"<script[^>]*>", text)
        assert all(s.startswith("<script src='") for s in scripts), (name, scripts)
        assert not re.search(r"https?://(?!evil\.exampl)", text), name  # no address but the payload's own
    if which == "videomme":  # not the server's questions: shown from their own record, with the payload as text
        page = next(text for name, text in files.items() if name.startswith("q/001-1"))
        assert "the file&#x27;s question" in page or "read from the file" in page
        assert "<h3>Frames" not in page


def test_bad_options_are_one_line_and_a_dry_run_writes_nothing(tmp_path):
    reviews = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
    for args, words in (
        ((MCQ_A, "--reviews", reviews), "add --judge"),
        ((MCQ_A, MCQ_B, "--judge", JUDGE_A), "one judgments file per result file"),
        ((MCQ_A, "--frames", "0"), "--frames"),
    ):
        run = bundle(*args, "--out", tmp_path / "b")
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr, run.stderr
    dry = bundle(MCQ_A, MCQ_B, "--judge", JUDGE_A, "--judge", "-", "--dry-run", "--out", tmp_path / "b")
    assert dry.returncode == 0 and "estimated size" in dry.stderr and not (tmp_path / "b").exists()


def test_messages_name_files_by_their_names_and_keep_ordinary_slashes(tmp_path, monkeypatch):
    from mathreel.core.bundle.scrub import Scrubber

    monkeypatch.setenv("SOME_API_KEY", FAKE_KEY)
    run = tmp_path / "runs" / "qwen.jsonl"
    scrub = Scrubber.of([str(run)], [(tmp_path / "data", "the dataset")])
    assert scrub(f"{run}: line 3: bad") == "qwen.jsonl: line 3: bad"
    assert (
        scrub(f"video not found (looked for {tmp_path}/data/videos/v1.mp4)")
        == "video not found (looked for the dataset/videos/v1.mp4)"
    )
    assert (
        scrub("read /srv/other/place/x.srt, and/or 1/2 of Video-MME / mcq")
        == "read x.srt, and/or 1/2 of Video-MME / mcq"
    )
    assert (
        scrub.text(f"a response quoting {FAKE_KEY} and {tmp_path / 'runs'}/other.json")
        == "a response quoting [secret] and …/other.json"
    )
