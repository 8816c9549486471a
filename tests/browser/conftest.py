"""Browser-test harness: `mathreel serve` on a free loopback port (tests/helpers/appserver.py), and Debian's Chromium
driven by Playwright.

Every page records requests that leave 127.0.0.1, so a test can prove the app fetches nothing from the internet.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, home of the shared app-server fixtures
from helpers.appserver import free_port, mathreel_command, server, server_env, wait_until_answering  # noqa: F401

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class OutsideRequests(list):
    """URLs the page requested from anywhere but loopback."""


@pytest.fixture
def page(browser, server: str) -> Iterator[object]:  # noqa: F811  (the fixture above)
    """A fresh browser context (its own Gradio session) opened on the app, with outside requests recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.outside_requests = OutsideRequests()

    def record(request) -> None:
        host = urlparse(request.url).hostname
        if request.url.startswith(("http://", "https://", "ws://", "wss://")) and host not in LOOPBACK:
            page.outside_requests.append(request.url)

    page.on("request", record)
    page.set_default_timeout(60_000)
    page.goto(server)
    try:
        yield page
    finally:
        context.close()
