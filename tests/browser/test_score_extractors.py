"""The Score tab's extractor dropdown offers the chosen benchmark's extractors only ("robust" and its pinned
reproductions), and all of them while the benchmark is detected from the file."""

from __future__ import annotations

import pytest
from pages import open_tab

from mathreel.core.benchmarks import extractor_names
from mathreel.webapp.benchmark_keys import benchmark_choices

pytestmark = pytest.mark.browser
LABELS = {key: label for label, key in benchmark_choices()}


def offered(page) -> list[str]:
    """The extractor dropdown's options, read by opening it (and closed again)."""
    page.click("#score-extractor input")
    options = page.locator("#score-extractor [role='option']")
    options.first.wait_for()
    names = [text.replace("✓", "").strip() for text in options.all_inner_texts()]
    page.locator("#score-extractor input").blur()  # the list closes when the input loses focus
    options.first.wait_for(state="detached")
    return names


def choose_benchmark(page, key: str) -> None:
    page.click("#score-benchmark input")
    page.get_by_role("option", name=LABELS[key], exact=True).click()


def test_the_extractor_dropdown_follows_the_benchmark(page):
    open_tab(page, "score", "#score-upload")
    assert offered(page) == list(extractor_names())
    for key in ("videomathqa:mcq", "videomme:mcq", "mathverse:default"):
        choose_benchmark(page, key)
        expected = list(extractor_names(key.partition(":")[0]))
        seen = offered(page)
        for _ in range(40):  # the dropdown is updated by the benchmark's event, after the click returns
            if seen == expected:
                break
            page.wait_for_timeout(250)
            seen = offered(page)
        assert seen == expected
