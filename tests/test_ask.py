"""The Ask tab's work (webapp.ask_run) through the real openai client against the loopback fake server, on the
embedded demo set; and core.scoring.single, which must agree with score() answer for answer.
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest
from helpers.fake_openai import FakeOpenAI, Recorded, context_length, malformed, slow, status

from mathreel.core.client import calls as calls_module
from mathreel.core.client.endpoint import BASE_URL_ENV, DEFAULT_KEY_ENV, MODEL_ENV, default_model
from mathreel.core.data import demo_dir
from mathreel.core.errors import InputError
from mathreel.core.results import read_results
from mathreel.core.scoring import score
from mathreel.core.scoring.single import score_question, score_response
from mathreel.core.view import build_view
from mathreel.webapp.ask_run import (
    AskOptions,
    AskRun,
    answer_rows,
    default_base_url,
    key_note,
    make_endpoint,
    prepare_answers,
    question_summary,
    request_views,
    response_text,
    run_ask,
    status_markdown,
    target_questions,
    usage_markdown,
)
from mathreel.webapp.context import DatasetCache
from mathreel.webapp.settings import Settings

KEY = "sk-ask-DISTINCTIVE-4e1b77c0d2"
MODEL = "vision-ask-1"
RESULTS = demo_dir() / "results"


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Frames are cached under the test's tmp, so the key check can read every file written."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("MATHREEL_CACHE", str(cache))
    for name in (BASE_URL_ENV, MODEL_ENV, DEFAULT_KEY_ENV):
        monkeypatch.delenv(name, raising=False)
    return cache


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record core's waits between attempts instead of sleeping them."""
    waited: list[float] = []
    monkeypatch.setattr(calls_module, "_sleep", waited.append)
    return waited


@pytest.fixture
def server():
    with FakeOpenAI(models=(MODEL,), api_key=KEY, stream_chunk_chars=3) as fake:
        yield fake


@pytest.fixture(scope="module")
def datasets() -> DatasetCache:
    return DatasetCache(Settings())


def endpoint_for(server: FakeOpenAI, key: str = KEY, model: str = MODEL, **settings):
    return make_endpoint(server.base_url, model, key, **{"timeout_s": 5.0, **settings})


def ask_all(endpoint, answers) -> tuple[AskRun, list[AskRun]]:
    """Run to the end, keeping a snapshot of the shown text at every step."""
    snapshots = []
    run = None
    for run in run_ask(endpoint, answers):
        snapshots.append(response_text(run, endpoint))
    assert run is not None
    return run, snapshots


def prepared(datasets, key: str, ref: str, mode: str | None = None, **options):
    dataset, questions = target_questions(datasets, key, ref, mode)
    return dataset, prepare_answers(dataset, questions, AskOptions(dataset.mode, **options))


# -- core.scoring.single agrees with score() ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "videomathqa_mcq_synthetic-model-a_samples.jsonl",
        "videomathqa_mbin_synthetic-model-b_samples.jsonl",
        "videomme_synthetic-model-a_results.json",
        "mathverse_synthetic-model-b_output.json",
    ],
)
def test_single_answer_scoring_agrees_with_score(name):
    result = read_results(RESULTS / name)
    report = score(result)
    rows = {(r.question_id, r.record): r for r in report.rows if r.status != "missing"}
    assert rows
    for prediction in result.predictions:
        mine = score_response(prediction.question, prediction.response)
        theirs = rows[(prediction.question.question_id, prediction.record)]
        assert (mine.extracted, mine.method, mine.explanation, mine.status, mine.gold) == (
            theirs.extracted,
            theirs.method,
            theirs.explanation,
            theirs.status,
            theirs.gold,
        )


def test_question_verdict_agrees_with_score_units_for_multi_binary():
    result = read_results(RESULTS / "videomathqa_mbin_synthetic-model-a_samples.jsonl")
    report = score(result)
    groups: dict[str, list] = {}
    for prediction in result.predictions:
        groups.setdefault(prediction.question.group_id, []).append((prediction.question, prediction.response))
    verdicts = {gid: score_question(answers).correct for gid, answers in groups.items()}
    assert verdicts == {gid: unit.correct for gid, unit in report.units.items() if gid in verdicts}
    assert set(verdicts.values()) == {True, False}  # the demo run has both kinds, so the check can fail


def test_score_question_refuses_answers_from_two_questions(datasets):
    dataset = datasets.get("videomathqa", "mbin")
    one, other = dataset.pairs("q001")[0], dataset.pairs("q002")[0]
    with pytest.raises(ValueError, match="several questions"):
        score_question([(one, "A"), (other, "A")])


# -- the endpoint and the key ---------------------------------------------------------------------------------


def test_defaults_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(BASE_URL_ENV, "http://127.0.0.1:9/v1/")
    monkeypatch.setenv(MODEL_ENV, "served-model")
    assert default_base_url() == "http://127.0.0.1:9/v1"
    assert default_model() == "served-model"
    endpoint = make_endpoint("", "", "")  # the page's fields left empty: the server's URL and model
    assert endpoint.base_url == "http://127.0.0.1:9/v1" and endpoint.temperature == 0.0
    assert endpoint.model == "served-model"
    assert make_endpoint("", " typed-model ", "").model == "typed-model"


def test_the_servers_key_goes_only_to_the_servers_endpoint(monkeypatch):
    monkeypatch.setenv(BASE_URL_ENV, "http://127.0.0.1:9/v1")
    monkeypatch.setenv(DEFAULT_KEY_ENV, KEY)
    assert make_endpoint("http://127.0.0.1:9/v1/", "m", "").api_key == KEY
    assert make_endpoint("http://127.0.0.1:10/v1", "m", "").api_key == ""  # elsewhere: no key unless typed
    assert make_endpoint("http://127.0.0.1:10/v1", "m", " typed ").api_key == "typed"
    note = key_note()
    assert "using the server's key" in note and KEY not in note


def test_bad_settings_are_one_line_input_errors():
    with pytest.raises(InputError, match="no model name given, and MATHREEL_MODEL is not set"):
        make_endpoint("http://127.0.0.1:9/v1", " ", KEY)
    with pytest.raises(InputError, match="must start with http"):
        make_endpoint("127.0.0.1:9/v1", "m", KEY)


def test_asking_without_a_chosen_question_says_what_to_do(datasets):
    with pytest.raises(InputError, match="Choose a question in Browse, then ask"):
        target_questions(datasets, "", "", None)


def test_the_ask_tab_follows_the_question_state_browse_links():
    from mathreel.webapp.app import build_app, tab_specs

    app = build_app(Settings(), tab_specs(["mathreel.webapp.browse", "mathreel.webapp.ask"]))
    fns = {f.name: f for f in app.fns.values()}
    browse_states = [o for o in fns["select_row"].outputs if type(o).__name__ == "State"]
    assert len(browse_states) == 1  # the one state Browse writes when a question is chosen
    state = browse_states[0]
    [(followed, trigger)] = fns["on_question"].targets
    assert trigger == "change" and followed != state._id
    # the state it follows is set again once the rest of the page has followed a switch (after the paint)
    assert followed in {o._id for o in fns["select_rest"].outputs if type(o).__name__ == "State"}
    assert fns["on_question"].inputs[0] is state and fns["ask"].inputs[0] is state


@pytest.mark.filterwarnings("error::UserWarning")  # gradio warns when an event's inputs do not fit its function
def test_the_ask_tab_without_browse_says_browse_is_needed():
    from mathreel.webapp.app import build_app, tab_specs

    app = build_app(Settings(), tab_specs(["mathreel.webapp.ask"]))
    names = {f.name for f in app.fns.values()}
    assert "on_question" not in names and "ask" not in names
    (click,) = [f for f in app.fns.values() if f.targets and f.targets[0][1] == "click"]
    assert "the Browse tab is needed" in click.fn()[0]["value"]


# -- requests as the model gets them --------------------------------------------------------------------------


def test_the_server_receives_the_model_n_frames_and_the_exact_prompt(server, datasets):
    server.reply = "Looking at the figure, the answer is C."
    dataset, answers = prepared(datasets, "videomathqa:mcq", "q002", num_frames=5, cot=True, with_subtitles=True)
    run, snapshots = ask_all(endpoint_for(server, temperature=0.3, max_tokens=321), answers)

    [sent] = server.chat_requests
    view = build_view(dataset, "q002", num_frames=5, cot=True, with_subtitles=True)
    assert sent.model == MODEL and sent.stream
    assert sent.temperature == 0.3 and sent.max_tokens == 321
    assert len(sent.image_urls) == 5
    assert sent.text == view.prompt
    assert sent.authorization == f"Bearer {KEY}"
    # streamed in pieces, assembled to the full reply
    assert len(snapshots) > 3 and snapshots[-1] == server.reply
    assert snapshots[1] != snapshots[-1] and server.reply.startswith(snapshots[1])
    question = dataset.question("q002")
    expected = score_response(question, server.reply)
    assert answer_rows(run) == [
        [
            question.question_id,
            expected.extracted,
            question.answer,
            expected.status,
            expected.method,
            expected.explanation,
        ]
    ]


def test_mathverse_sends_one_diagram_and_its_prompt(server, datasets):
    dataset, answers = prepared(datasets, "mathverse:default", "3", num_frames=8)
    run, _ = ask_all(endpoint_for(server), answers)
    [sent] = server.chat_requests
    assert len(sent.image_urls) == 1
    assert sent.text == build_view(dataset, "3").prompt
    assert "diagram" in question_summary(dataset, [dataset.question("3")])
    assert run.score is not None


def test_the_request_views_hold_the_exact_bytes_sent(datasets, tmp_path):
    _, answers = prepared(datasets, "videomme:mcq", "001-1", num_frames=3)
    views = request_views(answers, tmp_path / "gradio")
    assert [v["ref"] for v in views] == ["001-1"]
    assert views[0]["prompt"] == answers[0].request.prompt
    images = views[0]["images"]
    assert [Path(path).read_bytes() for path, _ in images] == answers[0].request.images
    assert images[0][1].startswith("1 of 3 · ")


@pytest.mark.parametrize(
    "reply, verdict",
    [("The answer is C.", "Correct"), ("The answer is A.", "Wrong"), ("I cannot tell from this video.", "Unparsed")],
)
def test_the_verdict_follows_core(server, datasets, reply, verdict):
    server.reply = reply
    _, answers = prepared(datasets, "videomathqa:mcq", "q001", num_frames=2)
    run, _ = ask_all(endpoint_for(server), answers)
    assert verdict in status_markdown(run)
    assert run.score.rows[0].status == score_response(answers[0].question, reply).status


def pair_replier(dataset, wrong: set[str]):
    """Reply the gold letter of each pair (asked by its prompt), the other letter for pairs in `wrong`."""
    pairs = dataset.pairs("q001")
    by_prompt = {build_view(dataset, p, num_frames=2).prompt: p for p in pairs}

    def reply(recorded: Recorded) -> str:
        pair = by_prompt[recorded.text]
        letter = pair.answer if pair.question_id not in wrong else next(x for x in pair.letters if x != pair.answer)
        return f"The answer is {letter}."

    return reply


def test_multi_binary_asks_every_pair_and_is_correct_when_all_are(server, datasets):
    dataset = datasets.get("videomathqa", "mbin")
    server.reply = pair_replier(dataset, wrong=set())
    _, answers = prepared(datasets, "videomathqa:mcq", "q001", mode="mbin", num_frames=2)
    run, _ = ask_all(endpoint_for(server), answers)
    assert len(server.chat_requests) == 4
    assert {r.text for r in server.chat_requests} == {
        build_view(dataset, p, num_frames=2).prompt for p in dataset.pairs("q001")
    }
    assert run.score.correct and "4 of 4 pairs right" in status_markdown(run)
    assert len(answer_rows(run)) == 4
    assert response_text(run, endpoint_for(server)).count("── q001_") == 4
    assert "**all**" in usage_markdown(run)


def test_multi_binary_is_wrong_when_one_pair_is_wrong(server, datasets):
    dataset = datasets.get("videomathqa", "mbin")
    server.reply = pair_replier(dataset, wrong={"q001_3"})
    _, answers = prepared(datasets, "videomathqa:mbin", "q001_2", num_frames=2)
    run, _ = ask_all(endpoint_for(server), answers)
    assert len(server.chat_requests) == 4
    assert not run.score.correct
    assert [row[3] for row in answer_rows(run)] == ["correct", "correct", "wrong", "correct"]
    assert "3 of 4 pairs right" in status_markdown(run)


def test_a_multi_binary_pair_asked_as_mcq_is_its_whole_question(datasets):
    dataset, questions = target_questions(datasets, "videomathqa:mbin", "q003_2", "mcq")
    assert [q.question_id for q in questions] == ["q003"] and dataset.mode == "mcq"


# -- failures ---------------------------------------------------------------------------------------------------


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


FAILURES = {
    "401": ({"key": "sk-wrong-key"}, [], "refused the API key (401)"),
    "unknown model": ({"model": "no-such-model"}, [], "unknown model or wrong base URL (404)"),
    "500": ({}, [status(500, "upstream crashed")] * 3, "server error (500): upstream crashed (after 3 attempts)"),
    "timeout": ({"timeout_s": 0.3}, [slow(2.0)] * 3, "no reply within 0.3 s (timeout) (after 3 attempts)"),
    "malformed": (
        {},
        [malformed()],
        "malformed streamed reply: no server-sent events, content type 'application/json'",
    ),
    "context length": ({}, [context_length()], "longer than the model's context window (400)"),
}


@pytest.mark.parametrize("case", FAILURES)
def test_each_failure_names_the_endpoint_and_the_cause(server, datasets, sleeps, case):
    settings, faults, cause = FAILURES[case]
    server.script(*faults)
    endpoint = endpoint_for(server, **settings)
    _, answers = prepared(datasets, "videomathqa:mcq", "q001", num_frames=2)
    run, _ = ask_all(endpoint, answers)
    assert run.score is None
    assert run.error.startswith(f"model {endpoint.model!r} at {server.base_url}: ")
    assert cause in run.error
    assert "failed" in status_markdown(run)


def test_an_unreachable_endpoint_is_named(datasets, sleeps):
    endpoint = make_endpoint(closed_port_url(), MODEL, KEY, timeout_s=2.0)
    _, answers = prepared(datasets, "videomathqa:mcq", "q001", num_frames=2)
    run, _ = ask_all(endpoint, answers)
    assert run.error.startswith(f"model {MODEL!r} at {endpoint.base_url}: could not reach the server")


def test_a_429_is_retried_and_the_answer_still_comes(server, datasets, sleeps):
    server.script(status(429, "slow down", retry_after=0.05))
    _, answers = prepared(datasets, "videomathqa:mcq", "q001", num_frames=2)
    run, _ = ask_all(endpoint_for(server), answers)
    assert run.error is None and run.score is not None
    assert sleeps == [0.05]
    assert len(server.chat_requests) == 2
    assert "2 attempts" in usage_markdown(run)


def test_a_failed_pair_stops_the_multi_binary_question(server, datasets, sleeps):
    _, answers = prepared(datasets, "videomathqa:mcq", "q002", mode="mbin", num_frames=2)
    replies = iter(["The answer is A.", context_length()])
    server.reply = lambda recorded: next(replies)
    run, _ = ask_all(endpoint_for(server), answers)
    assert len(server.chat_requests) == 2  # pairs 3 and 4 are not asked once the question cannot be scored
    assert run.score is None and "context window" in run.error


# -- the key never leaks ----------------------------------------------------------------------------------------


def test_a_distinctive_key_appears_in_no_output_log_or_file(server, datasets, sleeps, caplog, tmp_path, private_cache):
    caplog.set_level(logging.DEBUG)
    gallery_cache = tmp_path / "gradio"
    shown: list[str] = []
    # the wrong key (the fake echoes it in its 401 body) and the right one through every failure
    cases = (
        [({"key": KEY + "-typo"}, [])]
        + [(s, f) for s, f, _ in FAILURES.values()]
        + [({}, [status(429, f"limit for {KEY}", retry_after=0.01)]), ({}, [])]
    )
    for settings, faults in cases:
        server.script(*faults)
        endpoint = endpoint_for(server, **{"key": KEY, **settings})
        _, answers = prepared(datasets, "videomathqa:mcq", "q001", mode="mbin", num_frames=2)
        views = request_views(answers, gallery_cache)
        shown += [str(v) for v in views] + [repr(endpoint), str(endpoint.to_dict())]
        for run in run_ask(endpoint, answers):
            shown += [
                response_text(run, endpoint),
                status_markdown(run),
                str(answer_rows(run)),
                usage_markdown(run),
                str(run.error),
                repr(run),
            ]
    assert any("refused the API key" in text for text in shown)  # the 401 really happened
    for text in shown:
        assert KEY not in text
    for record in caplog.records:
        assert KEY not in record.getMessage()
    written = [p for root in (private_cache, gallery_cache) for p in root.rglob("*") if p.is_file()]
    assert written  # frames and gallery images were written there
    for path in written:
        assert KEY.encode() not in path.read_bytes()


def test_text_shown_through_markdown_is_literal():
    from mathreel.webapp.ask_run import plain

    shown = plain('<img src=x onerror="window.__xss=1"> *not bold* [link](http://x) `code`')
    assert "<" not in shown and ">" not in shown
    assert "\\*not bold\\*" in shown and "\\[link\\]" in shown and "\\`code\\`" in shown
    assert plain("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"  # auto-linked URLs stay intact


# -- Video-MME-v2: eight options, its official prompts, subtitles between the frames, frames at a rate ----------


@pytest.mark.parametrize(
    "options",
    [
        {"num_frames": 4},
        {"num_frames": 4, "cot": True, "with_subtitles": True},
        {"num_frames": 4, "with_subtitles": True, "interleaved": True},
        {"num_frames": 3, "with_subtitles": True, "fps": 0.5},
    ],
)
def test_a_v2_question_is_asked_as_browse_shows_it_and_scored_on_a_to_h(server, datasets, options):
    server.reply = "Final Answer: C" if options.get("cot") else "C"
    dataset, answers = prepared(datasets, "videomme-v2:mcq", "001-1", **options)
    run, _ = ask_all(endpoint_for(server), answers)
    [sent] = server.chat_requests
    view = build_view(dataset, "001-1", **options)
    assert len(sent.image_urls) == len(view.frames.indices)
    assert sent.text == view.prompt  # every text item of the turn, as the official script writes it
    if options.get("interleaved"):
        assert "subtitles shown between frames" in sent.text and "[Subtitle " in sent.text
    question = dataset.question("001-1")
    assert question.letters[-1] == "H"
    assert run.score.rows[0].status == score_response(question, server.reply).status == "correct"
