"""A judge on the fake OpenAI server (tests/helpers/fake_openai.py) that reads every answer as B and writes no card
for any other task (so a steps task fails), and the demo run it judges; the `fake_judge` fixture in
tests/conftest.py serves it to core's judge-run tests and the Judge tab's."""

from __future__ import annotations

import json

from helpers.fake_openai import DEFAULT_MODEL, FakeOpenAI, Recorded
from mathreel.core.client import Endpoint
from mathreel.core.judge import judge_endpoint

KEY = "sk-runs-test"
DEMO = "assets/demo/results/videomathqa_mcq_synthetic-model-b_samples.jsonl"


def reply(recorded: Recorded) -> str:
    text = recorded.text
    if text.startswith("You read a model's answer"):
        return json.dumps({"answer": "B"})
    return "no card at all"


def fake_judge_server() -> FakeOpenAI:
    return FakeOpenAI(api_key=KEY, reply=reply)


def endpoint(server: FakeOpenAI) -> Endpoint:
    """The judge's endpoint on `server`: one attempt, short timeout."""
    return judge_endpoint(server.base_url, DEFAULT_MODEL, api_key=KEY, timeout_s=5.0, backoff_s=0.01, max_attempts=1)
