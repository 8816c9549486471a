"""Model responses carrying HTML or JavaScript render as text in a real browser: nothing runs, nothing is injected.

A result file on demo Video-MME questions whose responses are script payloads (tests/helpers/badinputs.py SCRIPTS) is
uploaded to the Score tab; the per-question table and the question opened in Browse must show the literal text,
with `window.__xss` never set and no payload element (img[src=x], svg[onload], a script mentioning __xss,
a javascript: link) in the DOM.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from mathreel.core.data import demo_dir, load_dataset

pytestmark = pytest.mark.browser

# The page's own inline scripts (Gradio's config) are fine; one mentioning __xss is a payload.
INJECTED = """() => ({
    flag: typeof window.__xss,
    elements: document.querySelectorAll('img[src="x"], svg[onload], a[href^="javascript:"]').length,
    inline: [...document.querySelectorAll('script:not([src])')].filter(s => s.textContent.includes('__xss')).length,
})"""


def script_payloads() -> tuple[str, ...]:
    """tests/helpers/badinputs.py's SCRIPTS (loaded by path: only tests/browser is on sys.path when run alone)."""
    path = Path(__file__).resolve().parents[1] / "helpers" / "badinputs.py"
    spec = importlib.util.spec_from_file_location("badinputs", path)
    module = sys.modules.setdefault("badinputs", importlib.util.module_from_spec(spec))
    if not hasattr(module, "SCRIPTS"):
        spec.loader.exec_module(module)  # its dataclasses need the module registered first
    return module.SCRIPTS


def payload_file(directory: Path) -> tuple[Path, list[str]]:
    """Demo Video-MME questions answered with script payloads (each ending in the right letter)."""
    scripts = script_payloads()
    questions = load_dataset("videomme", data_dir=demo_dir()).questions[: len(scripts)]
    responses = [template.format(q.answer) for template, q in zip(scripts, questions, strict=True)]
    records = [
        {
            "question_id": q.question_id,
            "video_id": q.video_id,
            **q.dims,
            "options": list(q.options),
            "answer": q.answer,
            "response": text,
        }
        for q, text in zip(questions, responses, strict=True)
    ]
    path = directory / "xss_payloads.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path, responses


def wait_for_text(page, selector: str, text: str, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def assert_nothing_ran(page) -> None:
    found = page.evaluate(INJECTED)
    assert found["flag"] == "undefined", "a payload ran: window.__xss was set"
    assert found["elements"] == 0 and found["inline"] == 0, f"payload markup reached the DOM: {found}"


def test_script_in_responses_shows_as_text_in_score_and_browse(page, tmp_path: Path) -> None:
    path, responses = payload_file(tmp_path)
    page.wait_for_selector("#browse-frames img")
    page.click("#tab-score-button")
    page.set_input_files("#score-upload input[type=file]", [str(path)])
    wait_for_text(page, "#score-headline", path.name)
    page.wait_for_selector("#score-questions [data-testid='cell-0-0']")
    table = page.inner_text("#score-questions")
    for text in responses:
        assert text.split(" The answer")[0] in table
    assert_nothing_ran(page)

    second = page.locator("#score-questions [data-testid='cell-1-0']")
    qid = second.inner_text().strip()
    second.click()
    wait_for_text(page, "#browse-question", qid)
    wait_for_text(page, "#browse-response", "<script>window.__xss=1</script>")
    assert_nothing_ran(page)
    assert page.evaluate("() => document.body.innerText.includes('<script>window.__xss=1</script>')")


HOSTILE_NAME = "<img src=x onerror=window.__xss=1>.jsonl"
TRACKER = "http://127.0.0.1:9/track"


def test_hostile_file_and_field_names_stay_text_in_error_box_toast_and_headline(page, tmp_path: Path) -> None:
    """A file named like an <img> tag whose record carries a field named like a tracking image: the error box and
    the toast show the field name as text, no <img> element is created and nothing is fetched from the URL. (Gradio
    drops < and > from uploaded file names; a name's Markdown, `__bold__ [x](y)`, must stay text in the headline.)"""
    tracked: list[str] = []
    page.on("request", lambda request: tracked.append(request.url) if "127.0.0.1:9/" in request.url else None)
    path = tmp_path / HOSTILE_NAME
    field = f'<img src="{TRACKER}">'
    path.write_text(json.dumps({"question_id": "001-1", field: "x"}) + "\n", encoding="utf-8")  # no response
    page.wait_for_selector("#browse-frames img")
    page.click("#tab-score-button")
    page.set_input_files("#score-upload input[type=file]", [str(path)])
    wait_for_text(page, "#score-error", field)
    page.wait_for_selector(".toast-body")
    wait_for_text(page, ".toast-body", field)
    assert "onerror=window.__xss=1" in page.inner_text("#score-error")
    payload, _ = payload_file(tmp_path)
    named = tmp_path / "__bold__ [x](y) run.jsonl"
    named.write_bytes(payload.read_bytes())
    page.set_input_files("#score-upload input[type=file]", [str(named)])
    wait_for_text(page, "#score-headline", named.name)
    hostile = page.evaluate("""() => [...document.querySelectorAll(
        '#score-error img, #score-headline img, .toast-body img, img[src="x"], img[src^="http://127.0.0.1:9"], '
        + '#score-headline h3 strong, #score-headline h3 a')].map(e => e.outerHTML)""")
    assert hostile == [], hostile
    assert tracked == [], f"the page fetched {tracked}"
    assert_nothing_ran(page)
