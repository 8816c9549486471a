"""Page helpers shared by the browser tests: waiting for text, opening a tab once the app has loaded, and drilling
down from a scored demo run to one of its answers in Browse.

A plain module rather than conftest.py, because test modules import these functions by name (pytest does not
mean conftest.py to be imported) and call them on pages the `page` fixture did not open.
"""

from __future__ import annotations

from pathlib import Path

from mathreel.core.data import demo_dir
from mathreel.core.results import read_results
from mathreel.core.scoring import Report, score

RUN_A = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-a_samples.jsonl"
RUN_B = demo_dir() / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"


def wait_for_text(page, selector: str, text: str, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def open_tab(page, tab: str, ready: str) -> None:
    """Wait for the app's first view (Browse's frames), click `tab`'s button and wait until `ready` is shown."""
    page.wait_for_selector("#browse-frames img")
    page.click(f"#tab-{tab}-button")
    page.wait_for_selector(ready)


def fill_kept(page, selector: str, value: str, attempts: int = 3) -> None:
    """Fill a field just shown (in an accordion opened a moment ago) and check it keeps the value: Gradio may
    render the field once more as it mounts, putting back its initial value, as a CI run saw once."""
    for _ in range(attempts):
        page.fill(selector, value)
        page.wait_for_timeout(250)
        if page.input_value(selector) == value:
            return
    raise AssertionError(f"{selector} did not keep {value!r}")


def scored(path: Path) -> Report:
    return score(read_results(path))


def drill_down(page, *paths: Path, row: int = 0) -> str:
    """Upload `paths` in Score and open row `row` of the first run's per-question table in Browse."""
    open_tab(page, "score", "#score-upload")
    page.set_input_files("#score-upload input[type=file]", [str(p) for p in paths])
    wait_for_text(page, "#score-headline", "accuracy")
    page.wait_for_selector(f"#score-questions [data-testid='cell-{row}-0']")
    qid = page.inner_text(f"#score-questions [data-testid='cell-{row}-0']").strip()
    page.click(f"#score-questions [data-testid='cell-{row}-0']")
    wait_for_text(page, "#browse-question", qid)
    wait_for_text(page, "#browse-position", " of ")
    return qid
