"""The app under bad inputs and many users: the real `mathreel serve` (tests/helpers/appserver.py fixture) driven
through its own API with gradio_client, as a browser's Score tab drives it.

- Every generated bad input uploaded to the Score tab: one clear message naming the file as uploaded (no server
  path, no traceback), or the known score for a valid file; the app still serves afterwards.
- Twenty sessions upload twenty different files at once and each gets its own correct score.
- One session's upload is neither listed nor shown to another, and the upload folder cannot be listed.
- A slow scoring call (scripted to wait on an event) in one session does not hold up another session's browsing
  (in-process server, so the wait is released by the test, not by a timer).
"""

from __future__ import annotations

import csv
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import badinputs
from helpers.appserver import free_port, server, server_env  # noqa: F401  (the shared app fixtures)

APP_CASES = [c for c in badinputs.all_cases() if c.app]
REFUSED = [c.name for c in APP_CASES if not c.valid]
VALID = [c.name for c in APP_CASES if c.valid]
SESSIONS = 20
# httpx's 5 s default is shorter than an upload takes when twenty arrive at once on a loaded two-core machine; a
# browser waits far longer. This bounds a hang, it does not measure speed.
HTTP_TIMEOUT = 120
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def client_for(url: str) -> Any:
    from gradio_client import Client

    return Client(url, verbose=False, httpx_kwargs={"timeout": HTTP_TIMEOUT})


def upload_args(paths: list[Path], key: str = "", use_data: bool = False) -> tuple[Any, ...]:
    """The Score tab's upload inputs: files, benchmark, extractor, denominator, join with the server's data."""
    from gradio_client import handle_file

    return [handle_file(str(p)) for p in paths], key, "robust", "", use_data


def upload(client: Any, paths: list[Path], key: str = "", use_data: bool = False) -> tuple[Any, ...]:
    """The Score tab's upload handler: (error box, run picker, run A, run B)."""
    return client.predict(*upload_args(paths, key, use_data), api_name="/rescore")


def overview(client: Any, name: str | None) -> tuple[Any, ...]:
    return client.predict(name, api_name="/render_overview")


def summary_rows(overview_outputs: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The runs table's rows; a run's cell as the full name it shows on hover."""
    import html

    table = overview_outputs[1]["value"]
    rows = [dict(zip(table["headers"], row, strict=True)) for row in table["data"]]
    for row in rows:
        row["Run"] = html.unescape(re.search(r'title="([^"]*)"', row["Run"]).group(1))
    return rows


def literal(markdown: str) -> str:
    """The text an escaped Markdown error box shows (backslash escapes and HTML entities undone)."""
    import html

    return html.unescape(re.sub(r"\\(.)", r"\1", markdown))


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[badinputs.Case, Path]]:
    return {case.name: (case, path) for case, path in badinputs.generate(tmp_path_factory.mktemp("bad"))}


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[Any]:  # noqa: F811
    session = client_for(server)
    yield session
    session.close()


@pytest.mark.parametrize("name", REFUSED)
def test_bad_upload_shows_one_clear_message(name: str, generated: dict, client: Any, server_env: dict) -> None:  # noqa: F811
    case, path = generated[name]
    box, picker, *_ = upload(client, [path], case.benchmark_key, case.annotations)
    message = literal(box["value"])
    assert box["visible"] and message.startswith(f"**Error:** {case.filename}"), message
    assert "Traceback" not in message and "Something went wrong" not in message
    assert server_env["GRADIO_TEMP_DIR"] not in message, "the server-side upload path leaks into the page"
    assert any(word in message.lower() for word in case.problem), f"{case.problem} not in {message!r}"
    assert picker["choices"] == [] and not picker["visible"]


@pytest.mark.parametrize("name", VALID)
def test_awkward_valid_upload_scores_like_the_cli(name: str, generated: dict, client: Any) -> None:
    case, path = generated[name]
    box, picker, *_ = upload(client, [path], case.benchmark_key, case.annotations)
    assert not box["visible"], box["value"]
    assert picker["value"] == case.filename
    [row] = summary_rows(overview(client, case.filename))
    assert (row["Run"], row["n"], row["Correct"]) == (case.filename, case.n, case.correct)


def test_the_app_still_serves_after_every_bad_input(generated: dict, client: Any, server: str) -> None:  # noqa: F811
    for case, path in generated.values():
        if case.app:
            upload(client, [path], case.benchmark_key, case.annotations)
    with urllib.request.urlopen(server, timeout=10) as response:
        assert response.status == 200
    fresh = client_for(server)
    try:
        outputs = fresh.predict("videomme:mcq", 8, False, False, False, api_name="/first_question")
    finally:
        fresh.close()
    assert "001-1" in outputs[1]
    box, picker, *_ = upload(client, [generated["bom-csv"][1]])
    assert not box["visible"] and picker["value"] == "bom.csv"


@pytest.mark.xdist_group("machine")
def test_twenty_sessions_at_once_each_get_their_own_score(server: str, tmp_path: Path) -> None:  # noqa: F811
    files = []
    for i in range(SESSIONS):
        path = tmp_path / f"run-{i:02d}.jsonl"
        path.write_bytes(badinputs.known_accuracy_file(10 + i, i))
        files.append((path, 10 + i, i))

    def session(job: tuple[Path, int, int]) -> tuple[str, int, int, str]:
        path, _, _ = job
        own = client_for(server)
        try:
            box, picker, *_ = upload(own, [path])
            assert not box["visible"], box["value"]
            rows = summary_rows(overview(own, picker["value"]))
        finally:
            own.close()
        assert len(rows) == 1, f"session of {path.name} sees {len(rows)} runs"
        return rows[0]["Run"], rows[0]["n"], rows[0]["Correct"], rows[0]["Accuracy"]

    with ThreadPoolExecutor(max_workers=SESSIONS) as pool:
        results = list(pool.map(session, files))
    for (path, n, correct), (run, seen_n, seen_correct, accuracy) in zip(files, results, strict=True):
        assert (run, seen_n, seen_correct) == (path.name, n, correct)
        assert accuracy == f"{100 * correct / n:.1f}%"


def test_an_upload_is_not_listed_or_shown_to_another_session(
    generated: dict,
    server: str,  # noqa: F811
    server_env: dict,  # noqa: F811
) -> None:
    _, path = generated["bom-csv"]
    alice, bob = client_for(server), client_for(server)
    try:
        _, picker, *_ = upload(alice, [path])
        assert picker["value"] == "bom.csv"
        bob_view = overview(bob, None)
        assert bob_view[0].startswith("_Upload a result file") and not bob_view[1]["visible"]
        with pytest.raises(Exception, match="not in the list of choices"):
            overview(bob, "bom.csv")  # the run name is not even a valid choice in Bob's session
        assert summary_rows(overview(alice, "bom.csv"))[0]["Run"] == "bom.csv"
    finally:
        alice.close()
        bob.close()
    upload_root = server_env["GRADIO_TEMP_DIR"]
    for probe in (upload_root, f"{upload_root}/{'0' * 64}/bom.csv"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server}gradio_api/file={probe}", timeout=10)
        assert refused.value.code in (403, 404)


def test_uploaded_files_sit_under_an_unguessable_content_hash(server: str, tmp_path: Path) -> None:  # noqa: F811
    """Gradio serves an upload to whoever has its exact URL; the URL holds a 64-hex digest of the content."""
    import httpx

    path = tmp_path / "mine.jsonl"
    path.write_bytes(badinputs.known_accuracy_file(3, 1))
    with path.open("rb") as handle:
        response = httpx.post(f"{server}gradio_api/upload", files={"files": ("mine.jsonl", handle)}, timeout=30)
    [stored] = response.json()
    assert re.fullmatch(r"[0-9a-f]{64}", Path(stored).parent.name), stored


def test_the_scored_csv_download_neutralises_formula_cells(generated: dict, client: Any) -> None:
    _, path = generated["formula-injection-csv"]
    upload(client, [path])
    detail = client.predict("formulas.csv", "all", api_name="/render_detail")
    csv_path = next(v for v in detail if isinstance(v, str) and v.endswith(".csv"))
    with open(csv_path, newline="", encoding="utf-8") as handle:
        cells = [cell for row in csv.reader(handle) for cell in row]
    assert any("HYPERLINK" in cell for cell in cells)
    active = [cell for cell in cells if cell.startswith(FORMULA_START)]
    assert active == [], f"spreadsheet formulas in the download: {active}"


# -- a slow call in one session while another browses (in-process, scripted) -------------------------------------


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """Start the real app in this process with given Settings (private temp and cache folders); closes them all."""
    from mathreel.webapp.app import launch
    from mathreel.webapp.settings import Settings

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    monkeypatch.setenv("MATHREEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHREEL_DATA", raising=False)
    apps = []

    def start(**settings: Any) -> str:
        port = free_port()
        apps.append(launch(Settings(port=port, **settings), block=False))
        return f"http://127.0.0.1:{port}/"

    try:
        yield start
    finally:
        for app in apps:
            app.close()


@pytest.fixture
def gated_app(
    monkeypatch: pytest.MonkeyPatch, in_process: Any
) -> Iterator[tuple[str, threading.Event, threading.Event]]:
    """The real app, its scorer made to wait for `release` on files named slow*.

    Yields (url, entered, release): `entered` is set once the slow scoring call is running.
    """
    import mathreel.webapp.scored_runs

    entered, release = threading.Event(), threading.Event()
    real = mathreel.webapp.scored_runs.score_path

    def gated(path: str, options: Any, visitor: str = "") -> Any:
        if Path(path).name.startswith("slow"):
            entered.set()
            assert release.wait(timeout=300), "the test never released the slow call"
        return real(path, options, visitor)

    monkeypatch.setattr(mathreel.webapp.scored_runs, "score_path", gated)
    url = in_process()
    try:
        yield url, entered, release
    finally:
        release.set()


def test_a_slow_scoring_call_does_not_block_other_sessions(gated_app, tmp_path: Path) -> None:
    url, entered, release = gated_app
    slow = tmp_path / "slow.jsonl"
    slow.write_bytes(badinputs.known_accuracy_file(6, 5))
    quick = tmp_path / "quick.jsonl"
    quick.write_bytes(badinputs.known_accuracy_file(4, 1))
    from gradio_client import handle_file

    waiting, browsing = client_for(url), client_for(url)
    try:
        job = waiting.submit([handle_file(str(slow))], "", "robust", "", False, api_name="/rescore")
        assert entered.wait(timeout=120), "the slow scoring call never started"
        # While it waits: another session switches benchmarks, opens questions and even scores its own file.
        for key in ("videomathqa:mcq", "videomme:mcq", "mathverse:default"):
            # A bounded wait: a browse call queued behind the slow one would otherwise hang until its release.
            outputs = browsing.submit(key, 8, False, False, False, api_name="/first_question").result(timeout=90)
            assert outputs[1].startswith("###")
        box, picker, *_ = upload(browsing, [quick])
        assert not box["visible"] and picker["value"] == "quick.jsonl"
        assert not job.done(), "the slow call finished before it was released"
        release.set()
        box, picker, *_ = job.result(timeout=120)
        assert not box["visible"] and picker["value"] == "slow.jsonl"
        [row] = summary_rows(overview(waiting, "slow.jsonl"))
        assert (row["n"], row["Correct"]) == (6, 5)
    finally:
        waiting.close()
        browsing.close()


def test_the_app_is_built_with_cache_cleanup_and_separate_queues() -> None:
    """delete_cache removes uploads after settings.cache_seconds; scoring and browsing queue separately."""
    from mathreel.webapp.app import build_app
    from mathreel.webapp.settings import Settings

    settings = Settings()
    app = build_app(settings)
    assert app.delete_cache == (settings.cache_seconds, settings.cache_seconds)
    groups: dict[str, set[Any]] = {}
    for fn in app.fns.values():
        groups.setdefault(fn.name, set()).add((fn.concurrency_id, fn.concurrency_limit))
    # the Score events run at once; costly files take turns for score_concurrency children (webapp.fair_queue)
    assert groups["rescore"] == {("score", settings.score_events)}
    browse_limits = groups["first_question"] | groups["render_overview"]
    assert all(cid != "score" and (limit is None or limit > 1) for cid, limit in browse_limits), browse_limits


def test_uploads_over_the_size_limit_are_refused(in_process: Any, tmp_path: Path) -> None:
    import httpx

    url = in_process(max_file_size="4kb")
    statuses = []
    for size in (1024, 16 * 1024):
        payload = badinputs.jsonl(badinputs.run_records(1, 1, "The answer is {}." + " " * size))
        response = httpx.post(f"{url}gradio_api/upload", files={"files": ("run.jsonl", payload)}, timeout=30)
        statuses.append(response.status_code)
    assert statuses == [200, 413]


def test_a_slow_model_call_does_not_block_other_sessions(server: str, tmp_path: Path) -> None:  # noqa: F811
    """The Ask tab's model call waits at the loopback OpenAI server until released; another session browses."""
    from helpers.fake_openai import FakeOpenAI

    entered, release = threading.Event(), threading.Event()

    def held_reply(recorded: Any) -> str:
        entered.set()
        release.wait(timeout=300)
        return "Counting the runners, the answer is C."

    quick = tmp_path / "quick.jsonl"
    quick.write_bytes(badinputs.known_accuracy_file(4, 3))
    with FakeOpenAI(models=("held-vision-1",), reply=held_reply) as model:
        asking, browsing = client_for(server), client_for(server)
        try:
            asking.predict("videomme:mcq", 8, False, False, False, api_name="/first_question")
            job = asking.submit(
                model.base_url, "held-vision-1", "", 0, 64, 120, None, "direct", False, 2, api_name="/ask"
            )
            assert entered.wait(timeout=120), "the model call never reached the server"
            for key in ("videomathqa:mcq", "mathverse:default"):
                outputs = browsing.submit(key, 8, False, False, False, api_name="/first_question").result(timeout=90)
                assert outputs[1].startswith("###")
            box, picker, *_ = browsing.submit(*upload_args([quick]), api_name="/rescore").result(timeout=90)
            assert not box["visible"] and picker["value"] == "quick.jsonl"
            assert not job.done(), "the model call finished before its reply was released"
            release.set()
            job.result(timeout=120)
            assert "the answer is C" in str(job.outputs()[-1])
        finally:
            release.set()
            asking.close()
            browsing.close()


# -- hostile visitors: private downloads, no secret shown, escaped text ---------------------------------------------

SECRET_KEY = "sk-test-SECRET-1234567890"


def test_downloads_live_in_a_private_folder_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never the fixed $TMPDIR/mathreel-downloads another user of the host could create first."""
    import stat

    from mathreel.webapp.downloads import Downloads

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    (tmp_path / "mathreel-downloads").mkdir(mode=0o777)  # planted by someone else
    first, second = Downloads(3600), Downloads(3600)
    assert first.root != second.root
    for root in (first.root, second.root):
        assert root.parent == tmp_path and root.name != "mathreel-downloads"
        assert stat.S_IMODE(root.lstat().st_mode) == 0o700


def test_pruning_never_follows_a_symlink_and_never_fails_the_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import time
    from types import SimpleNamespace

    from mathreel.webapp.downloads import Downloads

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    for name in ("b.parquet", "notes.md"):
        (victim / name).write_text("keep me")
    old = time.time() - 7200
    os.utime(victim, (old, old))
    downloads = Downloads(60)
    (downloads.root / "evil").symlink_to(victim)
    stale = downloads.root / ("0" * 32)
    stale.mkdir()
    (stale / "inner-link").symlink_to(victim / "notes.md")
    os.utime(stale, (old, old))
    report = SimpleNamespace(rows_csv=lambda: "question_id,status\nq1,correct\n", to_dict=lambda: {"n": 1})
    csv_path, json_path = downloads.write(SimpleNamespace(name="<run>.jsonl", report=report))
    assert sorted(p.name for p in victim.iterdir()) == ["b.parquet", "notes.md", "sub"]
    assert (victim / "notes.md").read_text() == "keep me"
    assert not stale.exists(), "an old download folder was not pruned"
    assert Path(csv_path).read_text().startswith("question_id") and Path(json_path).is_file()


@pytest.mark.parametrize(
    "url",
    [
        "http://svcuser:BASEURL-PASS-777@127.0.0.1:8769/v1",
        "https://svcuser:BASEURL-PASS-777@api.example/v1?x=1#y",
        "http://BASEURL-PASS-777@[::1]:8000/v1",
    ],
)
def test_credentials_in_the_servers_base_url_are_never_shown(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from mathreel.core.client.endpoint import strip_credentials
    from mathreel.webapp.ask_run import key_note, make_endpoint, shown_base_url

    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    for text in (shown_base_url(), key_note(), strip_credentials(url)):
        assert "BASEURL-PASS-777" not in text and "svcuser" not in text, text
    # The URL the page shows is still the server's own: the request carries the credentials and the key.
    endpoint = make_endpoint(shown_base_url(), "m", "")
    assert (endpoint.base_url, endpoint.api_key) == (url.rstrip("/"), SECRET_KEY)
    assert "BASEURL-PASS-777" not in endpoint.describe() and "BASEURL-PASS-777" not in str(endpoint.to_dict())
    assert endpoint.redact("echo BASEURL-PASS-777") == "echo [API key]"


def test_the_server_key_goes_only_to_the_servers_own_url_in_ask_and_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    from mathreel.webapp.ask_run import make_endpoint
    from mathreel.webapp.judge import page_endpoint

    own = "http://user:pw@127.0.0.1:8769/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", own)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    monkeypatch.setenv("MATHREEL_JUDGE_BASE_URL", own)
    monkeypatch.setenv("MATHREEL_JUDGE_API_KEY", SECRET_KEY)
    for build in (lambda u, k: make_endpoint(u, "m", k), lambda u, k: page_endpoint(u, "m", k)):
        assert build("http://127.0.0.1:8769/v1/", "").api_key == SECRET_KEY
        assert build("", "").api_key == SECRET_KEY
        for elsewhere in ("http://127.0.0.1:8771/v1", "http://user:pw@evil.example/v1", "http://127.0.0.1:8769/v2"):
            assert build(elsewhere, "").api_key == "", elsewhere
            assert build(elsewhere, "mine").api_key == "mine"


def test_a_streamed_echo_of_the_key_never_shows_a_prefix_of_it() -> None:
    """The real openai client streams from the loopback fake, which echoes the Authorization header 3 chars at a
    time; every text the page is given on the way is checked for any 4+ character prefix of the key."""
    from helpers.fake_openai import FakeOpenAI

    from mathreel.webapp.ask_run import (
        AskOptions,
        make_endpoint,
        prepare_answers,
        response_text,
        run_ask,
        target_questions,
    )
    from mathreel.webapp.context import DatasetCache
    from mathreel.webapp.settings import Settings

    prefixes = [SECRET_KEY[:n] for n in range(4, len(SECRET_KEY) + 1)]
    dataset, questions = target_questions(DatasetCache(Settings()), "videomme:mcq", "001-1", None)
    answers = prepare_answers(dataset, questions, AskOptions(dataset.mode, num_frames=2))
    with FakeOpenAI(
        models=("m",),
        api_key=SECRET_KEY,
        stream_chunk_chars=3,
        reply=lambda r: f"Your header was {r.authorization}; again {r.authorization} so C.",
    ) as fake:
        endpoint = make_endpoint(fake.base_url, "m", SECRET_KEY, timeout_s=10.0)
        shown = [response_text(run, endpoint) for run in run_ask(endpoint, answers)]
    assert len(shown) > 10 and shown[-1].endswith("so C.")
    assert shown[-1].count("[API key]") == 2
    for text in shown:
        leaked = [p for p in prefixes if p in text]
        assert not leaked, f"{text!r} shows {leaked[-1]!r}"


def test_redaction_holds_back_only_a_possible_start_of_a_secret() -> None:
    from mathreel.core.client.redact import redact_partial

    assert redact_partial("the key sk-te", ["sk-test-1"], final=False) == "the key "
    assert redact_partial("the key sk-te", ["sk-test-1"], final=True) == "the key sk-te"
    assert redact_partial("sk-test-1 and s", ["sk-test-1"], final=False) == "[API key] and "
    assert redact_partial("plain text", ["sk-test-1"], final=False) == "plain text"


HOSTILE = '<img src="http://127.0.0.1:9/track"> ![x](http://127.0.0.1:9/t2) **bold**'


def test_error_boxes_toasts_and_headlines_show_outside_text_literally(monkeypatch: pytest.MonkeyPatch) -> None:
    import gradio as gr

    from mathreel.webapp import errors
    from mathreel.webapp.score import headline_markdown

    toasts: list[str] = []
    monkeypatch.setattr(gr, "Warning", toasts.append)
    errors.warn(HOSTILE)
    box = errors.error_box([HOSTILE, "second <b>"])
    from mathreel.core.scoring.report import Cell, Interval, Overall, Report

    run = type("R", (), {})()
    run.name = "<img src=x onerror=alert(1)>.jsonl"
    run.report = Report(
        "videomathqa",
        "mcq",
        run.name,
        "jsonl",
        "robust",
        None,
        "all",
        [HOSTILE],
        Overall(2, 1, 50.0, Interval(10.0, 90.0)),
        {"category": {"Chart": Cell(2, 1, 50.0, None)}},
        {},
        False,
        2,
        warnings=[HOSTILE],
    )
    headline = headline_markdown([run])
    assert "<" not in toasts[0], toasts[0]  # toasts are HTML
    for text in (box, headline):  # Markdown: no tag and no link or image syntax survives
        assert "<img" not in text and "<b>" not in text and "](" not in text.replace("\\](", ""), text
    assert "&lt;img" in toasts[0] and "&lt;img" in box and "&lt;img src=x" in headline


# -- one visitor's costly upload is bounded and holds up no one else -------------------------------------------------


def nested_boxed_file(path: Path, levels: int) -> Path:
    """A 9-byte-per-level nested \\boxed{ response: kilobytes that cost a quadratic reader minutes and gigabytes."""
    import json

    record = {
        "question_id": "000-1",
        "video_id": "v",
        "duration": "short",
        "domain": "Knowledge",
        "sub_category": "Astronomy",
        "task_type": "Counting Problem",
        "options": ["A. 1", "B. 2", "C. 3", "D. 4"],
        "answer": "A",
        "response": "\\boxed{" * levels + "A" + "}" * levels,
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


@pytest.mark.xdist_group("machine")
def test_a_costly_upload_is_stopped_with_one_line_while_others_score_and_browse(
    in_process: Any, tmp_path: Path
) -> None:
    """Before: the file was scored in a server thread with no limit, holding a Score slot and the GIL for minutes
    (the bounded waits below then time out). Now it runs in a child process killed at the time budget."""
    from gradio_client import handle_file

    # Since the readers are linear, a costly file is a large one: 400,000 answers (100 MB) take 15 s or more to read
    # and score, far past an 8 s budget, while a 4-answer file needs about a second even on a loaded machine.
    url = in_process(score_seconds=8, score_memory_mb=2048, max_file_size="200mb")
    heavy = tmp_path / "heavy.jsonl"
    heavy.write_bytes(badinputs.known_accuracy_file(400_000, 1))
    quick = tmp_path / "quick.jsonl"
    quick.write_bytes(badinputs.known_accuracy_file(4, 1))
    attacker, visitor = client_for(url), client_for(url)
    try:
        job = attacker.submit([handle_file(str(heavy))], "", "robust", "", False, api_name="/rescore")
        box, picker, *_ = visitor.submit(*upload_args([quick]), api_name="/rescore").result(timeout=90)
        assert not box["visible"] and picker["value"] == "quick.jsonl", box["value"]
        outputs = visitor.submit("videomme:mcq", 8, False, False, False, api_name="/first_question").result(90)
        assert outputs[1].startswith("###")
        box, picker, *_ = job.result(timeout=120)
        assert box["visible"] and picker["choices"] == []
        # whichever budget it meets first: 8 s or 2 GB of memory
        stopped = re.compile(
            r"\*\*Error:\*\* heavy\.jsonl: scoring (stopped after 8 s|needed more than 2048 MB), "
            r"the server's limit per file \(MATHREEL\\_SCORE\\_(SECONDS|MEMORY\\_MB)\)"
        )
        assert stopped.match(box["value"]), box["value"]
    finally:
        attacker.close()
        visitor.close()


def test_a_file_over_the_memory_budget_is_refused_in_one_line(tmp_path: Path) -> None:
    from mathreel.core.errors import InputError
    from mathreel.webapp.isolate import Budget, run_isolated
    from mathreel.webapp.scored_runs import ScoreOptions, score_path

    # Work that asks for 600 MB (a bytearray: a builtin, so the child needs no test code) under a 256 MB budget.
    with pytest.raises(InputError, match=r"big.jsonl: scoring needed more than 256 MB.*MATHREEL_SCORE_MEMORY_MB"):
        run_isolated(bytearray, (600 * 2**20,), Budget(seconds=120, memory_mb=256), "big.jsonl")
    small = tmp_path / "small.jsonl"
    small.write_bytes(badinputs.known_accuracy_file(5, 2))
    report = score_path(str(small), ScoreOptions(budget=Budget(seconds=120, memory_mb=1024)))
    assert (len(report.rows), sum(r.status == "correct" for r in report.rows)) == (5, 2)


def test_a_deeply_nested_boxed_upload_now_scores_within_the_budget(tmp_path: Path) -> None:
    """Before: 40,000 nested \\boxed{ (360 KB) cost minutes and gigabytes; the readers are linear now."""
    from mathreel.webapp.isolate import Budget
    from mathreel.webapp.scored_runs import ScoreOptions, score_path

    report = score_path(
        str(nested_boxed_file(tmp_path / "nested.jsonl", 40_000)),
        ScoreOptions(budget=Budget(seconds=60, memory_mb=1024)),
    )
    assert [(row.extracted, row.status) for row in report.rows] == [("A", "correct")]
