"""The operator's OPENAI_ORG_ID and OPENAI_PROJECT_ID reach only the operator's own endpoint, with the operator's
own key: checked on the headers the real openai client sends to two fake servers on 127.0.0.1 (the server's own,
and one a visitor or a user typed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers.fake_openai import DEFAULT_MODEL, FakeOpenAI

from mathreel.core.client import Endpoint, ModelRequest, ask
from mathreel.core.judge import judge_endpoint

KEY = "sk-operator-7f3a9c"
ORG, PROJECT = "org-OPERATOR-123", "proj_OPERATOR_456"
MATHREEL = Path(sys.executable).with_name("mathreel")


@pytest.fixture
def own():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def elsewhere():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def operator(monkeypatch, own):
    monkeypatch.setenv("OPENAI_BASE_URL", own.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_ORG_ID", ORG)
    monkeypatch.setenv("OPENAI_PROJECT_ID", PROJECT)
    monkeypatch.setenv("MATHREEL_JUDGE_API_KEY", KEY)


def ids_seen(server: FakeOpenAI) -> set[tuple[str, str]]:
    return {(r.headers.get("openai-organization", ""), r.headers.get("openai-project", "")) for r in server.requests}


def asked(endpoint: Endpoint) -> None:
    ask(endpoint, ModelRequest(prompt="Which option?"))


def test_the_servers_own_endpoint_gets_the_ids(operator, own):
    asked(Endpoint.from_env(DEFAULT_MODEL))
    assert ids_seen(own) == {(ORG, PROJECT)}


def test_a_typed_url_never_gets_them_with_or_without_a_key(operator, own, elsewhere):
    asked(Endpoint.from_env(DEFAULT_MODEL, elsewhere.base_url, api_key=""))
    asked(Endpoint.from_env(DEFAULT_MODEL, elsewhere.base_url, api_key="sk-visitor"))
    asked(Endpoint.from_env(DEFAULT_MODEL, elsewhere.base_url))  # the CLI's --base-url, the env key still used
    assert ids_seen(elsewhere) == {("", "")} and not own.requests


def test_the_own_url_with_a_visitors_key_gets_no_ids(operator, own):
    asked(Endpoint.from_env(DEFAULT_MODEL, own.base_url, api_key="sk-visitor"))
    assert ids_seen(own) == {("", "")}


def test_the_page_endpoints_follow_the_rule(operator, own, elsewhere, monkeypatch):
    from mathreel.webapp.ask_run import make_endpoint
    from mathreel.webapp.judge import page_endpoint

    monkeypatch.setenv("MATHREEL_JUDGE_BASE_URL", own.base_url)
    for build in (lambda url: make_endpoint(url, DEFAULT_MODEL, ""), lambda url: page_endpoint(url, DEFAULT_MODEL, "")):
        asked(build(own.base_url))
        asked(build(elsewhere.base_url))
    assert ids_seen(own) == {(ORG, PROJECT)} and ids_seen(elsewhere) == {("", "")}


def test_a_judge_elsewhere_gets_no_ids(operator, elsewhere):
    asked(judge_endpoint(elsewhere.base_url, DEFAULT_MODEL))
    assert ids_seen(elsewhere) == {("", "")}


def test_the_ids_stay_out_of_repr_and_stored_settings(operator):
    endpoint = Endpoint.from_env(DEFAULT_MODEL)
    assert endpoint.organization == ORG
    for shown in (repr(endpoint), str(endpoint.to_dict()), endpoint.describe()):
        assert ORG not in shown and PROJECT not in shown


def test_mathreel_run_to_a_typed_url_sends_no_ids(operator, own, elsewhere, tmp_path, monkeypatch):
    import os

    env = {**os.environ, "MATHREEL_CACHE": str(tmp_path / "cache")}
    run = subprocess.run(
        [
            str(MATHREEL),
            "run",
            "--benchmark",
            "mathverse",
            "--base-url",
            elsewhere.base_url,
            "--model",
            DEFAULT_MODEL,
            "--limit",
            "1",
            "--out",
            str(tmp_path / "out.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert elsewhere.requests and ids_seen(elsewhere) == {("", "")} and not own.requests
