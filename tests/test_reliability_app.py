"""The app under bad inputs and many users: the real `mathreel serve` (tests/appserver.py fixture) driven
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

import badinputs
import pytest
from appserver import free_port, server, server_env  # noqa: F401  (the shared app fixtures)

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
    table = overview_outputs[1]["value"]
    return [dict(zip(table["headers"], row, strict=True)) for row in table["data"]]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[badinputs.Case, Path]]:
    return {case.name: (case, path) for case, path in badinputs.generate(tmp_path_factory.mktemp("bad"))}


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[Any]:  # noqa: F811
    session = client_for(server)
    yield session
    session.close()


@pytest.mark.parametrize("name", REFUSED)
def test_bad_upload_shows_one_clear_message(name: str, generated: dict, client: Any,
                                            server_env: dict) -> None:  # noqa: F811
    case, path = generated[name]
    box, picker, *_ = upload(client, [path], case.benchmark_key, case.annotations)
    message = box["value"]
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


def test_an_upload_is_not_listed_or_shown_to_another_session(generated: dict, server: str,  # noqa: F811
                                                             server_env: dict) -> None:  # noqa: F811
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
    from webapp.app import launch
    from webapp.settings import Settings

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
def gated_app(monkeypatch: pytest.MonkeyPatch, in_process: Any) -> Iterator[tuple[str, threading.Event,
                                                                                   threading.Event]]:
    """The real app, its scorer made to wait for `release` on files named slow*.

    Yields (url, entered, release): `entered` is set once the slow scoring call is running.
    """
    import webapp.score

    entered, release = threading.Event(), threading.Event()
    real = webapp.score.score_path

    def gated(path: str, options: Any) -> Any:
        if Path(path).name.startswith("slow"):
            entered.set()
            assert release.wait(timeout=300), "the test never released the slow call"
        return real(path, options)

    monkeypatch.setattr(webapp.score, "score_path", gated)
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
    from webapp.app import build_app
    from webapp.settings import Settings

    settings = Settings()
    app = build_app(settings)
    assert app.delete_cache == (settings.cache_seconds, settings.cache_seconds)
    groups: dict[str, set[Any]] = {}
    for fn in app.fns.values():
        groups.setdefault(fn.name, set()).add((fn.concurrency_id, fn.concurrency_limit))
    assert groups["rescore"] == {("score", settings.score_concurrency)}
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
    from fake_openai import FakeOpenAI

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
            job = asking.submit(model.base_url, "held-vision-1", "", 0, 64, 120, None, "direct", False, 2,
                                api_name="/ask")
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
